/* Pretty family (Pretty, PrettyCompact, PrettySpace, their MonoBlock and NoEscapes forms).
 *
 * ClickHouse 26.7 squashes blocks that arrive close together into one table, which for a
 * local engine means one table per result: so every variant accumulates all blocks and
 * draws a single table at the end. Layout rules reproduced: row numbers ("1. "), numbers
 * right-aligned, UTF-8 display widths, multi-line values (↴ / ↳), the cut of long results
 * (first and last half of output_format_pretty_max_rows with "─ ─ ─ ─ ─" between and
 * "Showed N out of M rows."), a footer with the names for 50 rows or more, the tip for a
 * single large number ("-- 1.23 million") and the fallback to Vertical for wide, short
 * results. No colours (output is not a terminal). */
#include "format/out_internal.h"

#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

enum { P_FULL = 0, P_COMPACT = 1, P_SPACE = 2 };

typedef struct pstate {
    block *all;
} pstate;

static int pretty_write(fmt_writer *w, const block *b)
{
    pstate *ps = w->state;
    if (!ps) {
        ps = w->state = xcalloc(1, sizeof *ps);
        ps->all = block_new_empty(w->header);
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

static void rep(buf *o, const char *s, size_t n)
{
    size_t l = strlen(s);
    for (size_t i = 0; i < n; i++)
        buf_append(o, s, l);
}

static void spaces(buf *o, size_t n)
{
    char *p = buf_grow(o, n);
    memset(p, ' ', n);
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

/* Widest line of a (possibly multi-line) text. */
static size_t text_width(const char *s, size_t n, bool *multiline)
{
    size_t best = 0, start = 0;
    *multiline = false;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == '\n') {
            size_t lw = utf8_width(s + start, i - start);
            if (lw > best)
                best = lw;
            if (i < n)
                *multiline = true;
            start = i + 1;
        }
    }
    return best;
}

void fmt_quantity(double v, char *out, size_t cap)
{
    static const char *names[] = {"thousand",   "million",    "billion",    "trillion",     "quadrillion",
                                  "quintillion", "sextillion", "septillion", "octillion",    "nonillion",
                                  "decillion",  "undecillion", "duodecillion", "tredecillion"};
    const int nn = (int)(sizeof names / sizeof *names);
    double a = v < 0 ? -v : v;
    int i = -1;
    double d = 1;
    while (i + 1 < nn && a >= d * 1000) {
        d *= 1000;
        i++;
    }
    if (i < 0)
        snprintf(out, cap, "%.2f", v);
    else
        snprintf(out, cap, "%.2f %s", v / d, names[i]);
}

static int pretty_table(fmt_writer *w, const fmt_stats *st);

/* The result's table, then the totals' own table after "Totals:". */
static int pretty_finish(fmt_writer *w, const fmt_stats *st)
{
    if (pretty_table(w, st) < 0)
        return -1;
    if (!w->totals)
        return 0;
    buf_puts(&w->b, "\nTotals:\n");
    pstate *ps = w->state;
    if (!ps)
        ps = w->state = xcalloc(1, sizeof *ps);
    block *rows = ps->all;
    ps->all = w->totals;
    int rc = pretty_table(w, st);
    ps->all = rows;
    return rc;
}

static int pretty_table(fmt_writer *w, const fmt_stats *st)
{
    pstate *ps = w->state;
    if (!ps || !ps->all->rows)
        return 0;
    const block *b = ps->all;
    int variant = w->vt->variant;
    int nc = b->ncols;
    size_t total = b->rows;
    size_t maxrows = w->s.pretty_max_rows > 0 ? (size_t)w->s.pretty_max_rows : total;
    size_t head = total, tail_from = total;
    if (total > maxrows) {
        head = maxrows / 2;
        tail_from = total - (maxrows - head);
    }
    size_t *wid = xcalloc((size_t)nc, sizeof *wid);
    bool *right = xcalloc((size_t)nc, sizeof *right);
    size_t *nw = xcalloc((size_t)nc, sizeof *nw);
    buf cell = {0};
    for (int c = 0; c < nc; c++) {
        right[c] = fmt_type_is_numeric(w->header->types[c]);
        nw[c] = utf8_width(w->header->names[c], strlen(w->header->names[c]));
        wid[c] = nw[c];
        for (size_t r = 0; r < total; r = (r + 1 == head ? tail_from : r + 1)) {
            cell_text(w, b->cols[c], r, &cell);
            bool ml;
            size_t cw = text_width((const char *)cell.p, cell.len, &ml);
            if (cw > wid[c])
                wid[c] = cw;
        }
        if (w->s.pretty_max_column_pad_width > 0 && wid[c] > (size_t)w->s.pretty_max_column_pad_width)
            wid[c] = (size_t)w->s.pretty_max_column_pad_width;
    }
    char num[48];
    size_t prefix = 0;
    if (w->s.pretty_row_numbers)
        prefix = text_u64(total, num) + 2;

    /* Fallback to Vertical for short but very wide results: the width is that of the
     * columns' contents (names included), without borders or row numbers, as ClickHouse
     * measures it. */
    size_t table_width = 0;
    for (int c = 0; c < nc; c++)
        table_width += wid[c];
    if (w->s.pretty_fallback_to_vertical && total <= (size_t)w->s.pretty_fallback_max_rows &&
        nc >= w->s.pretty_fallback_min_columns && table_width >= (size_t)w->s.pretty_fallback_min_width) {
        vertical_write_rows(w, b, 0);
        goto done;
    }

    buf *o = &w->b;
    const bool full = variant == P_FULL, compact = variant == P_COMPACT, space = variant == P_SPACE;
    bool footer = w->s.pretty_footer_names && total >= (size_t)w->s.pretty_footer_min_rows;

    /* A horizontal rule; with names (compact header/footer) when `names`. */
    #define RULE(L, M, R, H, withnames)                                                          \
        do {                                                                                 \
            spaces(o, prefix);                                                               \
            buf_puts(o, L);                                                                  \
            for (int c = 0; c < nc; c++) {                                                   \
                if (c)                                                                       \
                    buf_puts(o, M);                                                          \
                if (withnames) {                                                             \
                    size_t pad = wid[c] > nw[c] ? wid[c] - nw[c] : 0;                        \
                    buf_puts(o, H);                                                          \
                    if (right[c])                                                            \
                        rep(o, H, pad);                                                      \
                    buf_puts(o, w->header->names[c]);                                        \
                    if (!right[c])                                                           \
                        rep(o, H, pad);                                                      \
                    buf_puts(o, H);                                                          \
                } else {                                                                     \
                    rep(o, H, wid[c] + 2);                                                   \
                }                                                                            \
            }                                                                                \
            buf_puts(o, R);                                                                  \
            buf_putc(o, '\n');                                                               \
        } while (0)

    /* Header. */
    if (compact) {
        RULE("┌", "┬", "┐", "─", true);
    } else if (full) {
        RULE("┏", "┳", "┓", "━", false);
        spaces(o, prefix);
        buf_puts(o, "┃");
        for (int c = 0; c < nc; c++) {
            size_t pad = wid[c] > nw[c] ? wid[c] - nw[c] : 0;
            buf_putc(o, ' ');
            if (right[c])
                spaces(o, pad);
            buf_puts(o, w->header->names[c]);
            if (!right[c])
                spaces(o, pad);
            buf_puts(o, " ┃");
        }
        buf_putc(o, '\n');
        RULE("┡", "╇", "┩", "━", false);
    } else {
        spaces(o, prefix);
        for (int c = 0; c < nc; c++) {
            size_t pad = wid[c] > nw[c] ? wid[c] - nw[c] : 0;
            if (c)
                buf_putc(o, ' ');
            buf_putc(o, ' ');
            if (right[c])
                spaces(o, pad);
            buf_puts(o, w->header->names[c]);
            /* The last name has no padding nor trailing space. */
            if (c + 1 < nc) {
                if (!right[c])
                    spaces(o, pad);
                buf_putc(o, ' ');
            }
        }
        buf_append(o, "\n\n", 2);
    }

    /* Rows. Multi-line cells are split: each output line takes the next line of every
     * cell; lines that continue end with ↴, continuation lines start with ↳. */
    buf *lines = xcalloc((size_t)nc, sizeof *lines);
    size_t *pos = xcalloc((size_t)nc, sizeof *pos);
    const char *vbar = space ? "" : "│";
    for (size_t r = 0; r < total; r = (r + 1 == head ? tail_from : r + 1)) {
        if (r == tail_from && tail_from != head) {
            if (full) {
                RULE("├", "┼", "┤", "─", false);
            }
            /* "─ " repeated over the table's width. */
            spaces(o, prefix);
            size_t tw = 1;
            for (int c = 0; c < nc; c++)
                tw += wid[c] + 3;
            for (size_t k = 0; k < tw; k++) {
                if (k % 2)
                    buf_putc(o, ' ');
                else
                    buf_puts(o, "─");
            }
            buf_putc(o, '\n');
            if (full) {
                RULE("├", "┼", "┤", "─", false);
            }
        } else if (full && r > 0) {
            RULE("├", "┼", "┤", "─", false);
        }
        for (int c = 0; c < nc; c++) {
            cell_text(w, b->cols[c], r, &lines[c]);
            pos[c] = 0;
        }
        for (int line = 0;; line++) {
            bool more = false;
            if (line == 0 && w->s.pretty_row_numbers) {
                size_t n = text_u64(r + 1, num);
                spaces(o, prefix - n - 2);
                buf_append(o, num, n);
                buf_append(o, ". ", 2);
            } else {
                spaces(o, prefix);
            }
            for (int c = 0; c < nc; c++) {
                buf *L = &lines[c];
                if (!space)
                    buf_puts(o, vbar);
                else if (c)
                    buf_putc(o, ' ');
                if (pos[c] > L->len) { /* this cell has no more lines */
                    spaces(o, wid[c] + 2);
                    continue;
                }
                const char *s = L->p ? (const char *)L->p + pos[c] : "";
                const char *nl = memchr(s, '\n', L->len - pos[c]);
                size_t n = nl ? (size_t)(nl - s) : L->len - pos[c];
                size_t cw = utf8_width(s, n);
                size_t pad = wid[c] > cw ? wid[c] - cw : 0;
                if (line > 0)
                    buf_puts(o, "↳");
                else
                    buf_putc(o, ' ');
                if (right[c] && !nl && line == 0)
                    spaces(o, pad);
                buf_append(o, s, n);
                if (!(right[c] && !nl && line == 0))
                    spaces(o, pad);
                if (nl) {
                    buf_puts(o, "↴");
                    more = true;
                } else {
                    buf_putc(o, ' ');
                }
                pos[c] = nl ? pos[c] + n + 1 : L->len + 1;
            }
            if (!space)
                buf_puts(o, vbar);
            if (line == 0 && total == 1 && nc == 1 && right[0] && !col_is_null(b->cols[0], 0) &&
                w->s.pretty_single_large_number_tip_threshold > 0) {
                double v = atof((const char *)lines[0].p);
                double a = v < 0 ? -v : v;
                if (isfinite(v) && a > (double)w->s.pretty_single_large_number_tip_threshold) {
                    char q[64];
                    fmt_quantity(v, q, sizeof q);
                    buf_puts(o, " -- ");
                    buf_puts(o, q);
                }
            }
            buf_putc(o, '\n');
            if (!more)
                break;
        }
        if (fmt_maybe_flush(w) < 0)
            break;
    }
    for (int c = 0; c < nc; c++)
        buf_free(&lines[c]);
    free(lines);
    free(pos);

    /* Footer. */
    if (compact) {
        if (footer)
            RULE("└", "┴", "┘", "─", true);
        else
            RULE("└", "┴", "┘", "─", false);
    } else if (full) {
        if (footer) {
            RULE("┢", "╈", "┪", "━", false);
            spaces(o, prefix);
            buf_puts(o, "┃");
            for (int c = 0; c < nc; c++) {
                size_t pad = wid[c] > nw[c] ? wid[c] - nw[c] : 0;
                buf_putc(o, ' ');
                if (right[c])
                    spaces(o, pad);
                buf_puts(o, w->header->names[c]);
                if (!right[c])
                    spaces(o, pad);
                buf_puts(o, " ┃");
            }
            buf_putc(o, '\n');
            RULE("┗", "┻", "┛", "━", false);
        } else {
            RULE("└", "┴", "┘", "─", false);
        }
    }
    #undef RULE
    if (total > maxrows) {
        char msg[96];
        snprintf(msg, sizeof msg, "Showed %zu out of %zu rows.\n", maxrows, total);
        buf_puts(o, msg);
    }
done:
    buf_free(&cell);
    free(wid);
    free(right);
    free(nw);
    (void)st;
    return 0;
}

const fmt_out_vt fmt_out_pretty[] = {
    {"Pretty", NULL, pretty_write, pretty_finish, pretty_free, P_FULL},
    {"PrettyMonoBlock", NULL, pretty_write, pretty_finish, pretty_free, P_FULL},
    {"PrettyNoEscapes", NULL, pretty_write, pretty_finish, pretty_free, P_FULL},
    {"PrettyNoEscapesMonoBlock", NULL, pretty_write, pretty_finish, pretty_free, P_FULL},
    {"PrettyCompact", NULL, pretty_write, pretty_finish, pretty_free, P_COMPACT},
    {"PrettyCompactMonoBlock", NULL, pretty_write, pretty_finish, pretty_free, P_COMPACT},
    {"PrettyCompactNoEscapes", NULL, pretty_write, pretty_finish, pretty_free, P_COMPACT},
    {"PrettyCompactNoEscapesMonoBlock", NULL, pretty_write, pretty_finish, pretty_free, P_COMPACT},
    {"PrettySpace", NULL, pretty_write, pretty_finish, pretty_free, P_SPACE},
    {"PrettySpaceMonoBlock", NULL, pretty_write, pretty_finish, pretty_free, P_SPACE},
    {"PrettySpaceNoEscapes", NULL, pretty_write, pretty_finish, pretty_free, P_SPACE},
    {"PrettySpaceNoEscapesMonoBlock", NULL, pretty_write, pretty_finish, pretty_free, P_SPACE},
    {0},
};
