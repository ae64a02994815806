/* CSV family. Tuples are written as separate fields (and so are their names and types in
 * the header rows: "t.1","t.2"), as ClickHouse does. */
#include "format/out_internal.h"

#include "base/mem.h"

#include <stdio.h>

enum { CSV_NAMES = 1, CSV_TYPES = 2 };

static void eol(fmt_writer *w)
{
    if (w->s.csv_crlf)
        buf_putc(&w->b, '\r');
    buf_putc(&w->b, '\n');
}

/* Header cells of one column; a Tuple expands to its elements (recursively). */
static void header_cells(fmt_writer *w, const char *name, const type *t, bool types, bool *first)
{
    const type *p = type_phys(t);
    if (p->id == T_TUPLE) {
        for (int f = 0; f < p->nfields; f++) {
            char sub[512];
            if (p->field_names)
                snprintf(sub, sizeof sub, "%s.%s", name, p->field_names[f]);
            else
                snprintf(sub, sizeof sub, "%s.%d", name, f + 1);
            header_cells(w, sub, p->fields[f], types, first);
        }
        return;
    }
    if (!*first)
        buf_putc(&w->b, w->to.csv_delimiter);
    *first = false;
    const char *s = types ? t->name : name;
    text_write_string(&w->b, s, strlen(s), TEXT_CSV);
}

static int csv_start(fmt_writer *w)
{
    for (int pass = 0; pass < 2; pass++) {
        if (!(w->vt->variant & (pass ? CSV_TYPES : CSV_NAMES)))
            continue;
        bool first = true;
        for (int c = 0; c < w->header->n; c++)
            header_cells(w, w->header->names[c], w->header->types[c], pass == 1, &first);
        eol(w);
    }
    return 0;
}

static int csv_write(fmt_writer *w, const block *b)
{
    char d = w->to.csv_delimiter;
    for (size_t r = 0; r < b->rows; r++) {
        for (int c = 0; c < b->ncols; c++) {
            if (c)
                buf_putc(&w->b, d);
            text_write(&w->b, b->cols[c], r, TEXT_CSV, &w->to);
        }
        eol(w);
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

/* Totals: an empty line, then the row; extremes likewise (two rows). */
static int csv_finish(fmt_writer *w, const fmt_stats *st)
{
    if (w->totals) {
        eol(w);
        if (csv_write(w, w->totals) < 0)
            return -1;
    }
    if (!w->extremes)
        return 0;
    eol(w);
    return csv_write(w, w->extremes);
}

const fmt_out_vt fmt_out_csv[] = {
    {"CSV", csv_start, csv_write, csv_finish, NULL, 0},
    {"CSVWithNames", csv_start, csv_write, csv_finish, NULL, CSV_NAMES},
    {"CSVWithNamesAndTypes", csv_start, csv_write, csv_finish, NULL, CSV_NAMES | CSV_TYPES},
    {0},
};
