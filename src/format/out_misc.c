/* Markdown, Values, Null, RawBLOB. */
#include "format/out_internal.h"

/* ---- Markdown: a GitHub table; numbers right-aligned ("-:"), values TSV-escaped. ---- */
static int md_start(fmt_writer *w)
{
    buf_putc(&w->b, '|');
    for (int c = 0; c < w->header->n; c++) {
        buf_putc(&w->b, ' ');
        buf_puts(&w->b, w->header->names[c]);
        buf_append(&w->b, " |", 2);
    }
    buf_append(&w->b, "\n|", 2);
    for (int c = 0; c < w->header->n; c++)
        buf_puts(&w->b, fmt_type_is_numeric(w->header->types[c]) ? "-:|" : ":-|");
    buf_putc(&w->b, '\n');
    return 0;
}

static int md_write(fmt_writer *w, const block *b)
{
    for (size_t r = 0; r < b->rows; r++) {
        buf_putc(&w->b, '|');
        for (int c = 0; c < b->ncols; c++) {
            buf_putc(&w->b, ' ');
            text_write(&w->b, b->cols[c], r, TEXT_TSV, &w->to);
            buf_append(&w->b, " |", 2);
        }
        buf_putc(&w->b, '\n');
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

/* ---- Values: (v,v),(v,v) with SQL literals, no trailing newline. ---- */
static int values_write(fmt_writer *w, const block *b)
{
    for (size_t r = 0; r < b->rows; r++) {
        if (w->rows + r)
            buf_putc(&w->b, ',');
        buf_putc(&w->b, '(');
        for (int c = 0; c < b->ncols; c++) {
            if (c)
                buf_putc(&w->b, ',');
            text_write(&w->b, b->cols[c], r, TEXT_QUOTED, &w->to);
        }
        buf_putc(&w->b, ')');
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

/* ---- Null: swallows everything. ---- */
static int null_write(fmt_writer *w, const block *b) { return 0; }

/* ---- RawBLOB: the raw bytes of every value, nothing between them. ---- */
static int raw_write(fmt_writer *w, const block *b)
{
    for (size_t r = 0; r < b->rows; r++) {
        for (int c = 0; c < b->ncols; c++)
            text_write(&w->b, b->cols[c], r, TEXT_RAW, &w->to);
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

const fmt_out_vt fmt_out_misc[] = {
    {"Markdown", md_start, md_write, NULL, NULL, 0},
    {"Values", NULL, values_write, NULL, NULL, 0},
    {"Null", NULL, null_write, NULL, NULL, 0},
    {"RawBLOB", NULL, raw_write, NULL, NULL, 0},
    {0},
};
