/* Pretty family (Pretty, PrettyCompact, PrettySpace, their MonoBlock and NoEscapes forms).
 *
 * ClickHouse 26.7 squashes blocks that arrive close together into one table, which for a
 * local engine means one table per result: so every variant accumulates all blocks and
 * draws a single table at the end (then the totals' table after "Totals:"). The layout
 * follows ClickHouse's PrettyBlockOutputFormat step by step:
 *   - widths: every displayed line of every value measured as UTF8::computeWidth does (ANSI
 *     escape sequences take no room, tabs reach the next multiple of 8 from the cell's
 *     column), capped by max_column_pad_width and max_value_width; long names that are not
 *     identifiers are cut in the middle ("concat(concat('He⋯defghijklmnopq')");
 *   - rows: the first (max_rows + 1) / 2 and the last max_rows / 2 when there are more than
 *     max_rows, "─ ─ ─" between, "Showed N out of M rows." at the end when M >= max_rows;
 *   - multi-line values: a line that continues ends with ↴, the next starts with ↳; a final
 *     newline opens no extra line;
 *   - colour (output_format_pretty_color, never in the NoEscapes forms): bold names, grey row
 *     numbers, ↴ / ↳ and tips, underlined thousands digits of numbers, red underlined
 *     trailing spaces, a red ⋯ after a cut value;
 *   - the readable tip ("-- 12.35 million") after every row whose last column is a number,
 *     except numbers in the range of 64-bit hashes;
 *   - the fallback to Vertical for short results that are wide or hold a newline. */
#include "format/out_internal.h"

#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

enum { P_FULL = 0, P_COMPACT = 1, P_SPACE = 2, P_NO_ESCAPES = 8, P_MONO_BLOCK = 16 };

#define GREY "\033[90m"
#define RESET "\033[0m"

typedef struct pstate {
    block *all;
    size_t displayed;  /* rows drawn so far, the totals' included (ClickHouse's displayed_rows) */
    size_t last_rows;  /* rows of the last table drawn: the "Showed N out of M" M */
    bool vertical;     /* fell back to Vertical: the totals follow in Vertical too */
} pstate;

static pstate *state_of(fmt_writer *w)
{
    pstate *ps = w->state;
    if (!ps) {
        ps = w->state = xcalloc(1, sizeof *ps);
        ps->all = block_new_empty(w->header);
    }
    return ps;
}

static int pretty_table(fmt_writer *w, const block *b);

/* output_format_pretty_squash_consecutive_ms = 0 (not the MonoBlock forms): a table per
 * block as it comes, row numbers going on; otherwise one table at the end. */
static int pretty_write(fmt_writer *w, const block *b)
{
    pstate *ps = state_of(w);
    if (!w->s.pretty_squash && !(w->vt->variant & P_MONO_BLOCK)) {
        if (b->rows)
            return pretty_table(w, b);
        return 0;
    }
    block_append(ps->all, b);
    return 0;
}

static void pretty_free(fmt_writer *w)
{
    pstate *ps = w->state;
    if (ps) {
        block_free(ps->all);
        free(ps);
    }
    w->state = NULL;
}

static void put(bool ascii, buf *o, const char *s);

static void rep(bool ascii, buf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(ascii, o, s);
}

static void spaces(buf *o, size_t n)
{
    char *p = buf_grow(o, n);
    memset(p, ' ', n);
}

/* Appends grid text: with output_format_pretty_grid_charset = 'ASCII' every box-drawing
 * character becomes + - or |, and ↴ ↳ ⋯ become \\ > ~, as ClickHouse's ASCII grid. */
static void put(bool ascii, buf *o, const char *s)
{
    if (!ascii) {
        buf_puts(o, s);
        return;
    }
    static const char *const corners = "┏┳┓┡╇┩├┼┤└┴┘┢╈┪┗┻┛┌┬┐";
    while (*s) {
        size_t n = (*s & 0x80) ? ((*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 : 4) : 1;
        char ch[5] = {0};
        memcpy(ch, s, n);
        if (n == 3 && strstr(corners, ch))
            buf_putc(o, '+');
        else if (!strcmp(ch, "─") || !strcmp(ch, "━"))
            buf_putc(o, '-');
        else if (!strcmp(ch, "│") || !strcmp(ch, "┃"))
            buf_putc(o, '|');
        else if (!strcmp(ch, "↴"))
            buf_putc(o, '\\');
        else if (!strcmp(ch, "↳"))
            buf_putc(o, '>');
        else if (!strcmp(ch, "⋯"))
            buf_putc(o, '~');
        else
            buf_append(o, s, n);
        s += n;
    }
}

/* Text of one cell into out. */
static void cell_text(fmt_writer *w, const column *c, size_t r, buf *out)
{
    out->len = 0;
    if (col_is_null(c, r))
        buf_puts(out, "ᴺᵁᴸᴸ");
    else
        text_write(out, c, r, TEXT_RAW, &w->to);
}

void fmt_quantity(double v, char *out, size_t cap)
{
    static const char *names[] = {
        "thousand",     "million",       "billion",      "trillion",        "quadrillion",
        "quintillion",  "sextillion",    "septillion",   "octillion",       "nonillion",
        "decillion",    "undecillion",   "duodecillion", "tredecillion",    "quattuordecillion",
        "quindecillion", "sexdecillion", "septendecillion", "octodecillion", "novemdecillion",
        "vigintillion"};
    const int nn = (int)(sizeof names / sizeof *names);
    /* Divided step by step, as ClickHouse's formatReadable does (the same rounding). */
    int i = -1;
    while (i + 1 < nn && fabs(v) >= 1000) {
        v /= 1000;
        i++;
    }
    char num[40];
    if (fabs(v) < 1e60) {
        snprintf(num, sizeof num, "%.2f", v);
    } else { /* past fixed notation ClickHouse prints the shortest form: 9.999999999999998e236 */
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(num, sizeof num, "%.*g", prec, v);
            if (strtod(num, NULL) == v)
                break;
        }
        char *e = strstr(num, "e+");
        if (e)
            memmove(e + 1, e + 2, strlen(e + 2) + 1);
    }
    if (i < 0)
        snprintf(out, cap, "%s", num);
    else
        snprintf(out, cap, "%s %s", num, names[i]);
}

void fmt_number_tip(buf *o, const char *text, size_t n, const fmt_settings *s, bool color)
{
    if (s->pretty_single_large_number_tip_threshold <= 0)
        return;
    char tmp[80];
    size_t tl = n < sizeof tmp - 1 ? n : sizeof tmp - 1;
    memcpy(tmp, text, tl);
    tmp[tl] = 0;
    double v = strtod(tmp, NULL), a = fabs(v);
    /* Most 64-bit hash values lie in (1e17, 2^64): ClickHouse gives them no tip. */
    if (!isfinite(v) || a <= (double)s->pretty_single_large_number_tip_threshold || (a > 1e17 && a < 1.844675e19))
        return;
    fmt_quantity(v, tmp, sizeof tmp);
    if (color)
        buf_puts(o, GREY);
    buf_puts(o, " -- ");
    buf_puts(o, tmp);
    if (color)
        buf_puts(o, RESET);
}

/* Underlines the digit before every group of three in the integer part of a number's text
 * (ClickHouse's highlightDigitGroups): only plain numbers with more than four digits. */
static void highlight_digits(buf *o, const char *s, size_t n)
{
    size_t ndig = 0;
    bool plain = n > 4;
    for (size_t i = 0; plain && i < n && s[i] != '.'; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            ndig++;
        else if (s[i] != '-' && s[i] != ' ')
            plain = false;
    }
    if (!plain || ndig <= 4) {
        buf_append(o, s, n);
        return;
    }
    size_t k = 0;
    bool before_point = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (before_point && c >= '0' && c <= '9') {
            size_t left = ndig - ++k;
            if (left && left % 3 == 0) {
                buf_puts(o, "\033[4m");
                buf_putc(o, c);
                buf_puts(o, RESET);
                continue;
            }
        } else if (c == '.') {
            before_point = false;
        }
        buf_putc(o, c);
    }
}

/* Red underlined trailing whitespace (ClickHouse's highlightTrailingSpaces). */
static void highlight_trailing(buf *o, const char *s, size_t n)
{
    size_t keep = n;
    while (keep > 0 && strchr(" \t\n\r\f\v", s[keep - 1]))
        keep--;
    buf_append(o, s, keep);
    if (keep < n) {
        buf_puts(o, "\033[31m\033[4m");
        buf_append(o, s + keep, n - keep);
        buf_puts(o, RESET);
    }
}

/* ClickHouse's isValidIdentifier: such names are never cut. */
static bool plain_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (const char *p = s + 1; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    return strcasecmp(s, "null") != 0;
}

/* The name as shown, cut in the middle to cut_to columns when it is longer than cut_to +
 * hysteresis and not an identifier; returns its width. */
static size_t shown_name(const char *name, size_t cut_to, size_t hysteresis, bool ascii, buf *out)
{
    size_t n = strlen(name), width = utf8_width(name, n);
    out->len = 0;
    if (!cut_to || width <= cut_to + hysteresis || plain_identifier(name)) {
        buf_append(out, name, n);
        return width;
    }
    size_t head = utf8_bytes_before_width(name, n, 0, cut_to / 2);
    size_t tail = utf8_bytes_before_width(name, n, 0, width - (cut_to - 1) / 2);
    buf_append(out, name, head);
    put(ascii, out, "⋯");
    buf_append(out, name + tail, n - tail);
    return cut_to;
}

static bool cut_in_middle(size_t row, size_t nrows, size_t max_rows)
{
    return nrows > max_rows && !(row < (max_rows + 1) / 2 || row >= nrows - max_rows / 2);
}

/* One table's drawing context. */
typedef struct table {
    fmt_writer *w;
    buf *o;
    int style;
    bool color;
    bool ascii;        /* output_format_pretty_grid_charset = 'ASCII' */
    int nc;
    size_t row_number_width;
    size_t *width;     /* per column: max padded width */
    size_t *name_width;
    buf *names;        /* as shown */
    bool *right;       /* numbers: right-aligned */
    bool *is_number;   /* digit groups highlighted (Nullable numbers are not) */
    size_t cut_to;     /* max_value_width, or 0 for a single value */
} table;

/* The header (is_top) or footer names line. */
static void write_names(table *t, bool is_top)
{
    buf *o = t->o;
    if (t->w->s.pretty_row_numbers)
        spaces(o, t->row_number_width);
    if (t->style == P_FULL)
        put(t->ascii, o, "┃ ");
    else if (t->style == P_COMPACT)
        put(t->ascii, o, is_top ? "┌─" : "└─");
    else
        buf_putc(o, ' ');
    for (int c = 0; c < t->nc; c++) {
        if (c) {
            if (t->style == P_FULL)
                put(t->ascii, o, " ┃ ");
            else if (t->style == P_COMPACT)
                put(t->ascii, o, is_top ? "─┬─" : "─┴─");
            else
                buf_puts(o, "   ");
        }
        size_t pad = t->width[c] - t->name_width[c];
        const char *padc = t->style == P_COMPACT ? "─" : " ";
        if (t->right[c])
            rep(t->ascii, o, padc, pad);
        if (t->color)
            buf_puts(o, "\033[1m");
        buf_append(o, t->names[c].p, t->names[c].len);
        if (t->color)
            buf_puts(o, RESET);
        if (!t->right[c])
            rep(t->ascii, o, padc, pad);
    }
    if (t->style == P_FULL)
        put(t->ascii, o, " ┃");
    else if (t->style == P_COMPACT)
        put(t->ascii, o, is_top ? "─┐" : "─┘");
    buf_putc(o, '\n');
}

/* A horizontal rule of the Full / Compact styles. */
static void write_rule(table *t, const char *l, const char *h, const char *m, const char *r)
{
    if (t->w->s.pretty_row_numbers)
        spaces(t->o, t->row_number_width);
    put(t->ascii, t->o, l);
    for (int c = 0; c < t->nc; c++) {
        if (c)
            put(t->ascii, t->o, m);
        rep(t->ascii, t->o, h, t->width[c] + 2);
    }
    put(t->ascii, t->o, r);
    buf_putc(t->o, '\n');
}

/* The next line of a cell (ClickHouse's writeValueWithPadding): *off walks through the
 * value; `row_width` is the widest line of this value when lines are not split. */
static void write_cell_line(table *t, int c, const buf *val, size_t *off, size_t row_width)
{
    buf *o = t->o;
    const fmt_settings *s = &t->w->s;
    size_t prefix = t->row_number_width + (t->style == P_SPACE ? 1 : 2);
    const char *v = val->p ? (const char *)val->p : "";
    bool continuation = *off > 0 && *off < val->len;
    const char *frag = v + *off;
    size_t flen = 0, fw = 0;
    if (*off < val->len) {
        if (s->pretty_multiline_fields) {
            const char *nl = memchr(frag, '\n', val->len - *off);
            flen = nl ? (size_t)(nl - frag) : val->len - *off;
            fw = utf8_width_at(frag, flen, prefix);
        } else {
            flen = val->len - *off;
            fw = row_width;
        }
        *off += flen;
    }
    buf text = {0};
    if (t->color && t->is_number[c] && s->pretty_highlight_digit_groups)
        highlight_digits(&text, frag, flen);
    else
        buf_append(&text, frag, flen);
    if (t->color && s->pretty_highlight_trailing_spaces && text.len) {
        buf hl = {0};
        highlight_trailing(&hl, (const char *)text.p, text.len);
        buf_free(&text);
        text = hl;
    }
    bool cut = false;
    if (t->cut_to && fw > t->cut_to) {
        cut = true;
        text.len = utf8_bytes_before_width((const char *)text.p, text.len, prefix, (size_t)s->pretty_max_value_width);
        if (t->color)
            put(t->ascii, &text, "\033[31;1m⋯" RESET);
        else
            put(t->ascii, &text, "⋯");
        fw = (size_t)s->pretty_max_value_width;
    }
    if (continuation) {
        if (t->color)
            put(t->ascii, o, GREY "↳" RESET);
        else
            put(t->ascii, o, "↳");
    } else {
        buf_putc(o, ' ');
    }
    size_t pad = t->width[c] > fw ? t->width[c] - fw : 0;
    if (t->right[c])
        spaces(o, pad);
    if (text.len)
        buf_append(o, text.p, text.len);
    if (!t->right[c])
        spaces(o, pad);
    buf_free(&text);
    if (*off != val->len) {
        if (t->color)
            put(t->ascii, o, GREY "↴" RESET);
        else
            put(t->ascii, o, "↴");
    } else if (!cut) {
        buf_putc(o, ' ');
    }
    if (*off < val->len)
        (*off)++;
}

/* Draws block b as one table (or in Vertical). */
static int pretty_table(fmt_writer *w, const block *b)
{
    pstate *ps = w->state;
    const fmt_settings *s = &w->s;
    size_t nrows = b->rows;
    size_t max_rows = s->pretty_max_rows > 0 ? (size_t)s->pretty_max_rows : 0;
    if (ps->last_rows >= max_rows) { /* ClickHouse draws nothing once max_rows were reached */
        ps->last_rows += nrows;
        return 0;
    }
    table t = {.w = w, .o = &w->b, .style = w->vt->variant & 3, .nc = b->ncols};
    t.color = s->pretty_color && !(w->vt->variant & P_NO_ESCAPES);
    t.ascii = s->pretty_ascii;
    int nc = t.nc;
    size_t rows_before = ps->last_rows; /* ClickHouse's total_rows: the rows of earlier blocks */
    t.row_number_width = (size_t)floor(log10((double)(nrows + rows_before))) + 3;
    t.cut_to = (size_t)(s->pretty_max_value_width > 0 ? s->pretty_max_value_width : 0);
    if (!s->pretty_max_value_width_single && nrows == 1 && nc == 1 && rows_before == 0)
        t.cut_to = 0;
    t.width = xcalloc((size_t)nc, sizeof *t.width);
    t.name_width = xcalloc((size_t)nc, sizeof *t.name_width);
    t.names = xcalloc((size_t)nc, sizeof *t.names);
    t.right = xcalloc((size_t)nc, sizeof *t.right);
    t.is_number = xcalloc((size_t)nc, sizeof *t.is_number);
    size_t shown = nrows < max_rows ? nrows : max_rows;
    size_t *roww = xcalloc((size_t)nc * (shown ? shown : 1), sizeof *roww); /* widest line per cell */
    buf cell = {0};
    bool has_newlines = false;
    size_t prefix = t.row_number_width + (t.style == P_SPACE ? 1 : 2);
    size_t cap = (size_t)(s->pretty_max_column_pad_width > 0 ? s->pretty_max_column_pad_width : 0);
    size_t vcap = (size_t)(s->pretty_max_value_width > 0 ? s->pretty_max_value_width : 0);
    for (int c = 0; c < nc; c++) {
        const type *ty = w->header->types[c];
        /* ClickHouse right-aligns numbers, dates and times (also Nullable ones) */
        t.right[c] = fmt_type_is_numeric(ty) || type_is_date_or_time(ty);
        t.is_number[c] = fmt_type_is_numeric(ty) && !type_is_nullable(ty) && ty->id != T_LOWCARDINALITY;
        size_t d = 0;
        for (size_t r = 0; r < nrows; r++) {
            if (cut_in_middle(r, nrows, max_rows))
                continue;
            cell_text(w, b->cols[c], r, &cell);
            const char *v = (const char *)cell.p;
            size_t len = cell.len;
            if (vcap && len > vcap * 4)
                len = vcap * 4;
            size_t at = 0, *rw = &roww[(size_t)c * shown + d];
            while (at < len) {
                size_t end = len;
                if (s->pretty_multiline_fields) {
                    const char *nl = memchr(v + at, '\n', len - at);
                    if (nl) {
                        end = (size_t)(nl - v);
                        has_newlines = true;
                    }
                }
                size_t lw = utf8_width_at(v + at, end - at, prefix);
                if (lw > *rw)
                    *rw = lw;
                size_t padded = lw;
                if (cap < padded)
                    padded = cap;
                if (vcap < padded)
                    padded = vcap;
                if (padded > t.width[c])
                    t.width[c] = padded;
                at = end < len ? end + 1 : end;
            }
            d++;
        }
        size_t cut_to = s->pretty_name_cut_to > 0 ? (size_t)s->pretty_name_cut_to : 0;
        if (cut_to && t.width[c] > cut_to)
            cut_to = t.width[c];
        size_t nw = shown_name(w->header->names[c], cut_to, (size_t)s->pretty_name_min_chars_to_cut, s->pretty_ascii,
                                &t.names[c]);
        t.name_width[c] = nw < cap ? nw : cap;
        if (t.name_width[c] > t.width[c])
            t.width[c] = t.name_width[c];
        prefix += t.width[c] + 3;
    }
    buf_free(&cell);

    size_t table_width = 0;
    for (int c = 0; c < nc; c++)
        table_width += t.width[c];
    if (s->pretty_fallback_to_vertical && ps->displayed == 0 && nrows <= (size_t)s->pretty_fallback_max_rows &&
        nc >= s->pretty_fallback_min_columns &&
        (table_width >= (size_t)s->pretty_fallback_min_width || has_newlines))
        ps->vertical = true;
    if (ps->vertical) {
        size_t n = nrows;
        if (ps->displayed + n > max_rows)
            n = max_rows > ps->displayed ? max_rows - ps->displayed : 0;
        block *part = n < nrows ? block_slice(b, 0, n) : NULL;
        vertical_write_rows(w, part ? part : b, 0);
        block_free(part);
        ps->displayed += n;
        goto done;
    }

    buf *o = t.o;
    bool numbers = s->pretty_row_numbers;
    bool tip = nc > 0 && fmt_type_is_numeric(w->header->types[nc - 1]);
    if (t.style == P_FULL)
        write_rule(&t, "┏", "━", "┳", "┓");
    write_names(&t, true);
    if (t.style == P_FULL)
        write_rule(&t, "┡", "━", "╇", "┩");
    else if (t.style == P_SPACE)
        buf_putc(o, '\n');

    bool filler_written = false;
    size_t d = 0;
    buf *vals = xcalloc((size_t)nc, sizeof *vals);
    size_t *off = xcalloc((size_t)nc, sizeof *off);
    char num[48];
    for (size_t r = 0; r < nrows && ps->displayed < max_rows; r++) {
        if (cut_in_middle(r, nrows, max_rows)) {
            if (!filler_written) {
                if (t.style == P_FULL)
                    write_rule(&t, "├", "─", "┼", "┤");
                if (numbers)
                    spaces(o, t.row_number_width);
                size_t fill = 0;
                for (int c = 0; c < nc; c++)
                    fill += t.width[c] + 3;
                fill = t.style == P_SPACE ? fill - 2 : fill + 1;
                for (size_t k = 0; k < fill; k++) {
                    if (k % 2)
                        buf_putc(o, ' ');
                    else
                        put(t.ascii, o, "─");
                }
                buf_putc(o, '\n');
                filler_written = true;
            }
            continue;
        }
        if (r != 0 && t.style == P_FULL)
            write_rule(&t, "├", "─", "┼", "┤");
        for (int c = 0; c < nc; c++) {
            cell_text(w, b->cols[c], r, &vals[c]);
            off[c] = 0;
        }
        for (bool first = true;; first = false) {
            if (numbers) {
                if (first) {
                    size_t n = text_u64(r + 1 + rows_before, num);
                    spaces(o, t.row_number_width - n - 2);
                    if (t.color)
                        buf_puts(o, GREY);
                    buf_append(o, num, n);
                    buf_append(o, ". ", 2);
                    if (t.color)
                        buf_puts(o, RESET);
                } else {
                    spaces(o, t.row_number_width);
                }
            }
            bool all_printed = true;
            for (int c = 0; c < nc; c++) {
                if (t.style != P_SPACE)
                    put(t.ascii, o, "│");
                else if (c)
                    buf_putc(o, ' ');
                write_cell_line(&t, c, &vals[c], &off[c], roww[(size_t)c * shown + d]);
                if (off[c] != vals[c].len)
                    all_printed = false;
            }
            if (t.style != P_SPACE)
                put(t.ascii, o, "│");
            if (tip && !col_is_null(b->cols[nc - 1], r))
                fmt_number_tip(o, (const char *)vals[nc - 1].p, vals[nc - 1].len, s, t.color);
            buf_putc(o, '\n');
            if (all_printed)
                break;
        }
        d++;
        ps->displayed++;
        if (fmt_maybe_flush(w) < 0)
            break;
    }
    for (int c = 0; c < nc; c++)
        buf_free(&vals[c]);
    free(vals);
    free(off);

    if (s->pretty_footer_names && nrows >= (size_t)s->pretty_footer_min_rows) {
        if (t.style == P_FULL)
            write_rule(&t, "┢", "━", "╈", "┪");
        else if (t.style == P_SPACE)
            buf_putc(o, '\n');
        write_names(&t, false);
        if (t.style == P_FULL)
            write_rule(&t, "┗", "━", "┻", "┛");
        else if (t.style == P_SPACE)
            buf_putc(o, '\n');
    } else if (t.style != P_SPACE) {
        write_rule(&t, "└", "─", "┴", "┘");
    }
done:
    ps->last_rows += nrows;
    for (int c = 0; c < nc; c++)
        buf_free(&t.names[c]);
    free(t.names);
    free(t.width);
    free(t.name_width);
    free(t.right);
    free(t.is_number);
    free(roww);
    return 0;
}

/* The result's table, then the totals' own table after "Totals:" (numbered from 1 again),
 * then "Showed N out of M rows." for the last table drawn, as ClickHouse's suffix does. */
static int pretty_finish(fmt_writer *w, const fmt_stats *st)
{
    (void)st;
    pstate *ps = state_of(w);
    if (ps->all->rows && pretty_table(w, ps->all) < 0)
        return -1;
    if (w->totals) {
        buf_puts(&w->b, "\nTotals:\n");
        ps->last_rows = 0;
        if (pretty_table(w, w->totals) < 0)
            return -1;
    }
    if (w->extremes) {
        buf_puts(&w->b, "\nExtremes:\n");
        ps->last_rows = 0;
        if (pretty_table(w, w->extremes) < 0)
            return -1;
    }
    size_t max_rows = w->s.pretty_max_rows > 0 ? (size_t)w->s.pretty_max_rows : 0;
    if (ps->last_rows >= max_rows && ps->last_rows > 0) {
        if ((w->vt->variant & 3) == P_SPACE)
            buf_putc(&w->b, '\n');
        buf_printf(&w->b, "Showed %zu out of %zu rows.\n", ps->displayed, ps->last_rows);
    }
    return 0;
}

#define PRETTY(name, variant) {name, NULL, pretty_write, pretty_finish, pretty_free, variant}
const fmt_out_vt fmt_out_pretty[] = {
    PRETTY("Pretty", P_FULL),
    PRETTY("PrettyMonoBlock", P_FULL | P_MONO_BLOCK),
    PRETTY("PrettyNoEscapes", P_FULL | P_NO_ESCAPES),
    PRETTY("PrettyNoEscapesMonoBlock", P_FULL | P_NO_ESCAPES | P_MONO_BLOCK),
    PRETTY("PrettyCompact", P_COMPACT),
    PRETTY("PrettyCompactMonoBlock", P_COMPACT | P_MONO_BLOCK),
    PRETTY("PrettyCompactNoEscapes", P_COMPACT | P_NO_ESCAPES),
    PRETTY("PrettyCompactNoEscapesMonoBlock", P_COMPACT | P_NO_ESCAPES | P_MONO_BLOCK),
    PRETTY("PrettySpace", P_SPACE),
    PRETTY("PrettySpaceMonoBlock", P_SPACE | P_MONO_BLOCK),
    PRETTY("PrettySpaceNoEscapes", P_SPACE | P_NO_ESCAPES),
    PRETTY("PrettySpaceNoEscapesMonoBlock", P_SPACE | P_NO_ESCAPES | P_MONO_BLOCK),
    {0},
};
#undef PRETTY
