/* JSON family: JSONEachRow, JSONCompactEachRow, JSON, JSONCompact, JSONStrings,
 * JSONCompactStrings, JSONStringsEachRow, laid out exactly as ClickHouse does (tabs,
 * blank lines between sections, statistics block). */
#include "format/out_internal.h"

#include <string.h>

enum { J_EACHROW = 1, J_COMPACT = 2, J_STRINGS = 4, J_WHOLE = 8 };

/* Value i of column c, as JSON, or as a JSON string of its text for the *Strings variants.
 * In the whole-document JSON format a top-level tuple is spread over lines. */
static void json_value(fmt_writer *w, const column *c, size_t r, int v, bool pretty_tuple)
{
    if (v & J_STRINGS) {
        if (col_is_null(c, r)) {
            buf_puts(&w->b, "\"ᴺᵁᴸᴸ\"");
            return;
        }
        static _Thread_local buf scratch;
        scratch.len = 0;
        text_write(&scratch, c, r, TEXT_RAW, &w->to);
        text_write_string(&w->b, (const char *)scratch.p, scratch.len, TEXT_JSON);
        return;
    }
    const type *t = type_phys(c->type);
    if (pretty_tuple && t->id == T_TUPLE) {
        bool named = t->field_names != NULL;
        buf_puts(&w->b, named ? "{\n" : "[\n");
        for (int f = 0; f < c->nfields; f++) {
            buf_puts(&w->b, "\t\t\t\t");
            if (named) {
                text_write_string(&w->b, t->field_names[f], strlen(t->field_names[f]), TEXT_JSON);
                buf_append(&w->b, ": ", 2);
            }
            text_write(&w->b, c->fields[f], r, TEXT_JSON, &w->to);
            buf_puts(&w->b, f + 1 < c->nfields ? ",\n" : "\n");
        }
        buf_puts(&w->b, named ? "\t\t\t}" : "\t\t\t]");
        return;
    }
    text_write(&w->b, c, r, TEXT_JSON, &w->to);
}

static void name_str(fmt_writer *w, int c)
{
    const char *n = w->header->names[c];
    text_write_string(&w->b, n, strlen(n), TEXT_JSON);
}

static int json_start(fmt_writer *w)
{
    if (!(w->vt->variant & J_WHOLE))
        return 0;
    buf_puts(&w->b, "{\n\t\"meta\":\n\t[\n");
    for (int c = 0; c < w->header->n; c++) {
        buf_puts(&w->b, "\t\t{\n\t\t\t\"name\": ");
        name_str(w, c);
        buf_puts(&w->b, ",\n\t\t\t\"type\": ");
        const char *tn = w->header->types[c]->name;
        text_write_string(&w->b, tn, strlen(tn), TEXT_JSON);
        buf_puts(&w->b, c + 1 < w->header->n ? "\n\t\t},\n" : "\n\t\t}\n");
    }
    buf_puts(&w->b, "\t],\n\n\t\"data\":\n\t[\n");
    return 0;
}

static int json_write(fmt_writer *w, const block *b)
{
    int v = w->vt->variant;
    for (size_t r = 0; r < b->rows; r++) {
        if (v & J_WHOLE) {
            if (w->rows + r)
                buf_append(&w->b, ",\n", 2);
            if (v & J_COMPACT) {
                buf_append(&w->b, "\t\t[", 3);
                for (int c = 0; c < b->ncols; c++) {
                    if (c)
                        buf_append(&w->b, ", ", 2);
                    json_value(w, b->cols[c], r, v, false);
                }
                buf_putc(&w->b, ']');
            } else {
                buf_append(&w->b, "\t\t{\n", 4);
                for (int c = 0; c < b->ncols; c++) {
                    buf_append(&w->b, "\t\t\t", 3);
                    name_str(w, c);
                    buf_append(&w->b, ": ", 2);
                    json_value(w, b->cols[c], r, v, true);
                    if (c + 1 < b->ncols)
                        buf_putc(&w->b, ',');
                    buf_putc(&w->b, '\n');
                }
                buf_append(&w->b, "\t\t}", 3);
            }
        } else if (v & J_COMPACT) {
            buf_putc(&w->b, '[');
            for (int c = 0; c < b->ncols; c++) {
                if (c)
                    buf_append(&w->b, ", ", 2);
                json_value(w, b->cols[c], r, v, false);
            }
            buf_append(&w->b, "]\n", 2);
        } else {
            buf_putc(&w->b, '{');
            for (int c = 0; c < b->ncols; c++) {
                if (c)
                    buf_putc(&w->b, ',');
                name_str(w, c);
                buf_putc(&w->b, ':');
                json_value(w, b->cols[c], r, v, false);
            }
            buf_append(&w->b, "}\n", 2);
        }
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

/* Row r of b as a JSON array on one line: totals and extremes of the Compact variants. */
static void compact_row(fmt_writer *w, const block *b, size_t r)
{
    buf_putc(&w->b, '[');
    for (int c = 0; c < b->ncols; c++) {
        if (c)
            buf_append(&w->b, ", ", 2);
        json_value(w, b->cols[c], r, w->vt->variant, false);
    }
    buf_putc(&w->b, ']');
}

/* Row r of b as a JSON object, one member per line, the braces at `indent`. */
static void object_row(fmt_writer *w, const block *b, size_t r, const char *indent)
{
    buf_puts(&w->b, indent);
    buf_puts(&w->b, "{\n");
    for (int c = 0; c < b->ncols; c++) {
        buf_puts(&w->b, indent);
        buf_putc(&w->b, '\t');
        name_str(w, c);
        buf_append(&w->b, ": ", 2);
        json_value(w, b->cols[c], r, w->vt->variant, true);
        buf_puts(&w->b, c + 1 < b->ncols ? ",\n" : "\n");
    }
    buf_puts(&w->b, indent);
    buf_putc(&w->b, '}');
}

static int json_finish(fmt_writer *w, const fmt_stats *st)
{
    if (!(w->vt->variant & J_WHOLE))
        return 0;
    char num[48];
    buf_puts(&w->b, "\n\t],\n\n");
    int v = w->vt->variant;
    if (w->totals) {
        if (v & J_COMPACT) {
            buf_puts(&w->b, "\t\"totals\": ");
            compact_row(w, w->totals, 0);
            buf_puts(&w->b, ",\n\n");
        } else {
            buf_puts(&w->b, "\t\"totals\":\n");
            object_row(w, w->totals, 0, "\t");
            buf_puts(&w->b, ",\n\n");
        }
    }
    if (w->extremes) {
        buf_puts(&w->b, "\t\"extremes\":\n\t{\n");
        for (size_t r = 0; r < 2; r++) {
            buf_puts(&w->b, r ? "\t\t\"max\":" : "\t\t\"min\":");
            if (v & J_COMPACT) {
                buf_putc(&w->b, ' ');
                compact_row(w, w->extremes, r);
            } else {
                buf_putc(&w->b, '\n');
                object_row(w, w->extremes, r, "\t\t");
            }
            buf_puts(&w->b, r ? "\n" : ",\n");
        }
        buf_puts(&w->b, "\t},\n\n");
    }
    buf_puts(&w->b, "\t\"rows\": ");
    buf_append(&w->b, num, text_u64(w->rows, num));
    if (st->has_rows_before_limit) {
        buf_puts(&w->b, ",\n\n\t\"rows_before_limit_at_least\": ");
        buf_append(&w->b, num, text_u64(st->rows_before_limit, num));
    }
    if (w->s.write_statistics) {
        buf_puts(&w->b, ",\n\n\t\"statistics\":\n\t{\n\t\t\"elapsed\": ");
        buf_append(&w->b, num, text_format_f64(st->elapsed, num));
        buf_puts(&w->b, ",\n\t\t\"rows_read\": ");
        buf_append(&w->b, num, text_u64(st->rows_read, num));
        buf_puts(&w->b, ",\n\t\t\"bytes_read\": ");
        buf_append(&w->b, num, text_u64(st->bytes_read, num));
        buf_puts(&w->b, "\n\t}");
    }
    buf_puts(&w->b, "\n}\n");
    return 0;
}

const fmt_out_vt fmt_out_json[] = {
    {"JSONEachRow", NULL, json_write, json_finish, NULL, J_EACHROW},
    {"JSONStringsEachRow", NULL, json_write, json_finish, NULL, J_EACHROW | J_STRINGS},
    {"JSONCompactEachRow", NULL, json_write, json_finish, NULL, J_EACHROW | J_COMPACT},
    {"JSONCompactStringsEachRow", NULL, json_write, json_finish, NULL, J_EACHROW | J_COMPACT | J_STRINGS},
    {"JSON", json_start, json_write, json_finish, NULL, J_WHOLE},
    {"JSONStrings", json_start, json_write, json_finish, NULL, J_WHOLE | J_STRINGS},
    {"JSONCompact", json_start, json_write, json_finish, NULL, J_WHOLE | J_COMPACT},
    {"JSONCompactStrings", json_start, json_write, json_finish, NULL, J_WHOLE | J_COMPACT | J_STRINGS},
    {0},
};

void fmt_json_value(fmt_writer *w, const column *c, size_t r, bool strings)
{
    json_value(w, c, r, strings ? J_STRINGS : 0, false);
}
