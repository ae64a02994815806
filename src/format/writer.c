/* Output format registry and dispatch. Each family registers a table of vtables; a writer
 * accumulates output in a buf and hands it to the outstream in chunks of ~64 KiB. */
#include "format/out_internal.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

void fmt_settings_default(fmt_settings *s)
{
    memset(s, 0, sizeof *s);
    s->csv_delimiter = ',';
    s->skip_unknown_fields = true;
    s->null_as_default = true;
    /* ClickHouse 26.7 prints 64-bit integers unquoted in JSON by default. */
    s->json_quote_64bit_integers = false;
    s->pretty_max_rows = 1000; /* 26.7's default (not 10000 any more) */
    s->pretty_max_column_pad_width = 250;
    s->pretty_max_value_width = 10000;
    s->pretty_row_numbers = true;
    s->pretty_footer_names = true;
    s->pretty_footer_min_rows = 50;
    s->pretty_fallback_to_vertical = true;
    s->pretty_fallback_max_rows = 10;
    s->pretty_fallback_min_columns = 5;
    s->pretty_fallback_min_width = 250;
    s->pretty_color = false;
    s->pretty_single_large_number_tip_threshold = 1000000;
    s->pretty_highlight_digit_groups = true;
    s->pretty_highlight_trailing_spaces = true;
    s->pretty_multiline_fields = true;
    s->pretty_name_cut_to = 24;
    s->pretty_name_min_chars_to_cut = 4;
    s->pretty_squash = true;
    s->write_statistics = true;
    s->max_block_rows = 65536;
    s->max_block_bytes = 1 << 20;
    s->schema_inference_make_columns_nullable = true;
    s->try_infer_integers = true;
    s->try_infer_dates = true;
    s->try_infer_datetimes = true;
    s->max_rows_to_read_for_schema_inference = 25000;
    s->with_names_use_header = true;
    s->csv_detect_header = true;
    s->tsv_detect_header = true;
    s->timezone = "UTC";
    s->parquet_row_group_rows = 1000000;
    s->parquet_row_group_bytes = 512ll << 20;
    s->parquet_compression = "zstd";
    s->parquet_verify_checksums = true;
    s->parquet_prefer_block_bytes = 16744704;
}

typedef struct alias {
    const char *alias, *name;
} alias;

static const alias aliases[] = {
    {"TSV", "TabSeparated"},
    {"TSVWithNames", "TabSeparatedWithNames"},
    {"TSVWithNamesAndTypes", "TabSeparatedWithNamesAndTypes"},
    {"TSVRaw", "TabSeparatedRaw"},
    {"Raw", "TabSeparatedRaw"},
    {"TSVRawWithNames", "TabSeparatedRawWithNames"},
    {"RawWithNames", "TabSeparatedRawWithNames"},
    {"TSVRawWithNamesAndTypes", "TabSeparatedRawWithNamesAndTypes"},
    {"RawWithNamesAndTypes", "TabSeparatedRawWithNamesAndTypes"},
    {"JSONLines", "JSONEachRow"},
    {"NDJSON", "JSONEachRow"},
    {"MD", "Markdown"},
};

static const fmt_out_vt *const *families(void)
{
    static const fmt_out_vt *const f[] = {fmt_out_tsv, fmt_out_csv, fmt_out_json, fmt_out_pretty,
                                          fmt_out_vertical, fmt_out_misc, fmt_out_native, fmt_out_parquet, fmt_out_rowbinary,
                                          fmt_out_json_rows, NULL};
    return f;
}

static const fmt_out_vt *lookup(const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].alias, name) == 0)
            name = aliases[i].name;
    for (const fmt_out_vt *const *f = families(); *f; f++)
        for (const fmt_out_vt *v = *f; v->name; v++)
            if (strcmp(v->name, name) == 0)
                return v;
    return NULL;
}

const char *fmt_output_canonical(const char *name)
{
    const fmt_out_vt *v = name ? lookup(name) : NULL;
    return v ? v->name : NULL;
}

int fmt_flush(fmt_writer *w)
{
    if (!w->b.len)
        return 0;
    int rc = w->out->write(w->out, w->b.p, w->b.len);
    w->b.len = 0;
    return rc;
}

int fmt_writer_new(const char *format, const schema *header, const fmt_settings *s, outstream *out,
                   fmt_writer **wp)
{
    *wp = NULL;
    const fmt_out_vt *vt = format ? lookup(format) : NULL;
    if (!vt)
        return err_set(ERR_UNKNOWN_FORMAT, "Unknown output format %s", format ? format : "(null)");
    fmt_writer *w = xcalloc(1, sizeof *w);
    w->vt = vt;
    w->header = schema_clone(header);
    if (s)
        w->s = *s;
    else
        fmt_settings_default(&w->s);
    text_opts_default(&w->to);
    if (w->s.timezone)
        w->to.tz = w->s.timezone;
    w->to.json_quote_64bit_integers = w->s.json_quote_64bit_integers;
    w->to.json_quote_decimals = w->s.json_quote_decimals;
    w->to.csv_delimiter = w->s.csv_delimiter ? w->s.csv_delimiter : ',';
    w->out = out;
    if (vt->start && vt->start(w) < 0) {
        fmt_writer_free(w);
        return -1;
    }
    if (w->s.skip_prefix)
        w->b.len = 0; /* start() wrote the header into the pending bytes only */
    *wp = w;
    return 0;
}

int fmt_writer_write(fmt_writer *w, const block *b)
{
    if (!b || !b->rows)
        return 0;
    if (w->vt->write(w, b) < 0)
        return -1;
    w->rows += b->rows;
    return fmt_maybe_flush(w);
}

int fmt_writer_totals(fmt_writer *w, block *b)
{
    block_free(w->totals);
    w->totals = b;
    return 0;
}

int fmt_writer_extremes(fmt_writer *w, block *b)
{
    block_free(w->extremes);
    w->extremes = b;
    return 0;
}

int fmt_writer_finish(fmt_writer *w, const fmt_stats *stats)
{
    fmt_stats zero = {0};
    if (w->vt->finish && w->vt->finish(w, stats ? stats : &zero) < 0)
        return -1;
    return fmt_flush(w);
}

void fmt_writer_free(fmt_writer *w)
{
    if (!w)
        return;
    if (w->vt->free_state)
        w->vt->free_state(w);
    schema_free(w->header);
    block_free(w->totals);
    block_free(w->extremes);
    buf_free(&w->b);
    free(w);
}

/* Columns one code point takes on a terminal: 0 for control characters, combining marks and
 * zero-width spaces, 2 for East Asian wide characters and emoji, 1 otherwise. */
static size_t cp_width(unsigned cp)
{
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
        return 0;
    if ((cp >= 0x300 && cp <= 0x36F) || (cp >= 0x200B && cp <= 0x200F) || cp == 0xFE0F)
        return 0;
    bool wide = (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
                (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
                (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
                (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
                (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
                (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
                (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
    return wide ? 2 : 1;
}

/* One walk for both questions, as ClickHouse's UTF8::computeWidth and computeBytesBeforeWidth:
 * ANSI escape sequences (ESC, then printable bytes up to a CSI final byte 0x40..0x7E that does
 * not directly follow the ESC) take no room, a tab reaches the next multiple of 8 counted from
 * `prefix` columns left of the text, invalid UTF-8 bytes take no room. With limit_mode the
 * result is the number of bytes that fit in `limit` columns, else the width. */
static size_t width_walk(const char *s, size_t n, size_t prefix, bool limit_mode, size_t limit)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t width = 0, pos = 0;
    bool esc = false;
    while (pos < n) {
        unsigned c = p[pos];
        size_t w, len = 1;
        if (c >= 0x20 && c <= 0x7E) {
            w = esc ? 0 : 1;
            if (esc && c >= 0x40 && pos > 0 && p[pos - 1] != 0x1B)
                esc = false; /* the end of a CSI sequence */
        } else {
            unsigned cp = c;
            if (c >= 0x80) {
                if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; len = 2; }
                else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; len = 3; }
                else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; len = 4; }
                else len = 0;
                for (size_t k = 1; len && k < len; k++) {
                    if (pos + k >= n || (p[pos + k] & 0xC0) != 0x80)
                        len = 0;
                    else
                        cp = (cp << 6) | (p[pos + k] & 0x3F);
                }
            }
            if (!len) { /* invalid sequence: no room, as on modern terminals */
                pos++;
                continue;
            }
            if (cp == 0x1B) {
                esc = true;
                w = 0;
            } else if (cp == '\t') {
                w = 8 - (prefix + width) % 8;
            } else {
                w = cp_width(cp);
            }
        }
        if (limit_mode && width + w > limit)
            return pos;
        width += w;
        pos += len;
    }
    return limit_mode ? n : width;
}

size_t utf8_width_at(const char *s, size_t n, size_t prefix) { return width_walk(s, n, prefix, false, 0); }

size_t utf8_width(const char *s, size_t n) { return width_walk(s, n, 0, false, 0); }

size_t utf8_bytes_before_width(const char *s, size_t n, size_t prefix, size_t limit)
{
    return width_walk(s, n, prefix, true, limit);
}

bool fmt_type_is_numeric(const type *t)
{
    t = type_base(t);
    return type_is_integer(t) || type_is_float(t) || type_is_decimal(t) || type_is_wide(t);
}
