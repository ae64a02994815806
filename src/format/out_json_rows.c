/* Row-per-line JSON formats with a header or a trailer, laid out exactly as ClickHouse 26.7:
 *   JSONCompact[Strings]EachRowWithNames[AndTypes]  ["a", "b"] then ["UInt8", "String"]
 *                                                   before the rows ([1, "x"])
 *   JSON[Strings]EachRowWithProgress  {"meta":[{"name":"a","type":"UInt8"}]}, one
 *                                     {"row":{"a":1}} per row, then a progress line
 *                                     (when rows were read)
 *   JSONObjectEachRow                 {"row_1": {"a":1}, ...} one object member per row
 * The progress line's total_rows_to_read is the number of rows read: shale does not
 * estimate it before reading. */
#include "format/out_internal.h"

#include <string.h>

enum { JR_NAMES = 1, JR_TYPES = 2, JR_STRINGS = 4, JR_PROGRESS = 8, JR_OBJECT = 16 };

static void json_str(buf *b, const char *s) { text_write_string(b, s, strlen(s), TEXT_JSON); }

static void compact_line(fmt_writer *w, bool types)
{
    buf_putc(&w->b, '[');
    for (int c = 0; c < w->header->n; c++) {
        if (c)
            buf_append(&w->b, ", ", 2);
        json_str(&w->b, types ? w->header->types[c]->name : w->header->names[c]);
    }
    buf_append(&w->b, "]\n", 2);
}

static int jr_start(fmt_writer *w)
{
    int v = w->vt->variant;
    if (v & JR_NAMES)
        compact_line(w, false);
    if (v & JR_TYPES)
        compact_line(w, true);
    if (v & JR_PROGRESS) {
        buf_puts(&w->b, "{\"meta\":[");
        for (int c = 0; c < w->header->n; c++) {
            buf_puts(&w->b, c ? ",{\"name\":" : "{\"name\":");
            json_str(&w->b, w->header->names[c]);
            buf_puts(&w->b, ",\"type\":");
            json_str(&w->b, w->header->types[c]->name);
            buf_putc(&w->b, '}');
        }
        buf_puts(&w->b, "]}\n");
    }
    if (v & JR_OBJECT)
        buf_puts(&w->b, "{\n");
    return 0;
}

/* {"a":1,"b":"x"} */
static void object_row(fmt_writer *w, const block *b, size_t r, bool strings)
{
    buf_putc(&w->b, '{');
    for (int c = 0; c < b->ncols; c++) {
        if (c)
            buf_putc(&w->b, ',');
        json_str(&w->b, w->header->names[c]);
        buf_putc(&w->b, ':');
        fmt_json_value(w, b->cols[c], r, strings);
    }
    buf_putc(&w->b, '}');
}

static int jr_write(fmt_writer *w, const block *b)
{
    int v = w->vt->variant;
    bool strings = v & JR_STRINGS;
    char num[32];
    for (size_t r = 0; r < b->rows; r++) {
        if (v & JR_PROGRESS) {
            buf_puts(&w->b, "{\"row\":");
            object_row(w, b, r, strings);
            buf_puts(&w->b, "}\n");
        } else if (v & JR_OBJECT) {
            buf_puts(&w->b, w->rows + r ? ",\n\t\"row_" : "\t\"row_");
            buf_append(&w->b, num, text_u64(w->rows + r + 1, num));
            buf_puts(&w->b, "\": ");
            object_row(w, b, r, strings);
        } else {
            buf_putc(&w->b, '[');
            for (int c = 0; c < b->ncols; c++) {
                if (c)
                    buf_append(&w->b, ", ", 2);
                fmt_json_value(w, b->cols[c], r, strings);
            }
            buf_append(&w->b, "]\n", 2);
        }
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

static void quoted_u64(buf *b, const char *key, uint64_t v, bool last)
{
    char num[32];
    buf_putc(b, '"');
    buf_puts(b, key);
    buf_puts(b, "\":\"");
    buf_append(b, num, text_u64(v, num));
    buf_puts(b, last ? "\"" : "\",");
}

static int jr_finish(fmt_writer *w, const fmt_stats *st)
{
    int v = w->vt->variant;
    if (v & JR_OBJECT)
        buf_puts(&w->b, "\n}\n");
    if ((v & JR_PROGRESS) && st && st->rows_read) {
        buf_puts(&w->b, "{\"progress\":{");
        quoted_u64(&w->b, "read_rows", st->rows_read, false);
        quoted_u64(&w->b, "read_bytes", st->bytes_read, false);
        quoted_u64(&w->b, "total_rows_to_read", st->rows_read, false);
        quoted_u64(&w->b, "elapsed_ns", (uint64_t)(st->elapsed * 1e9), true);
        buf_puts(&w->b, "}}\n");
    }
    return 0;
}

const fmt_out_vt fmt_out_json_rows[] = {
    {"JSONCompactEachRowWithNames", jr_start, jr_write, jr_finish, NULL, JR_NAMES},
    {"JSONCompactEachRowWithNamesAndTypes", jr_start, jr_write, jr_finish, NULL, JR_NAMES | JR_TYPES},
    {"JSONCompactStringsEachRowWithNames", jr_start, jr_write, jr_finish, NULL, JR_NAMES | JR_STRINGS},
    {"JSONCompactStringsEachRowWithNamesAndTypes", jr_start, jr_write, jr_finish, NULL,
     JR_NAMES | JR_TYPES | JR_STRINGS},
    {"JSONEachRowWithProgress", jr_start, jr_write, jr_finish, NULL, JR_PROGRESS},
    {"JSONStringsEachRowWithProgress", jr_start, jr_write, jr_finish, NULL, JR_PROGRESS | JR_STRINGS},
    {"JSONObjectEachRow", jr_start, jr_write, jr_finish, NULL, JR_OBJECT},
    {0},
};
