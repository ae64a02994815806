/* Vertical: one "Row N:" section per row, names padded so values line up. */
#include "format/out_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void vertical_fields(fmt_writer *w, const block *b, size_t r);

void vertical_write_rows(fmt_writer *w, const block *b, uint64_t first)
{
    char num[48];
    for (size_t r = 0; r < b->rows; r++) {
        uint64_t rowno = first + r + 1;
        if (rowno > 1)
            buf_putc(&w->b, '\n');
        buf_append(&w->b, "Row ", 4);
        size_t n = text_u64(rowno, num);
        buf_append(&w->b, num, n);
        buf_append(&w->b, ":\n", 2);
        for (size_t k = 0; k < n + 5; k++)
            buf_puts(&w->b, "─");
        buf_putc(&w->b, '\n');
        vertical_fields(w, b, r);
    }
}

/* The "name: value" lines of row r. */
static void vertical_fields(fmt_writer *w, const block *b, size_t r)
{
    size_t maxw = 0;
    for (int c = 0; c < w->header->n; c++) {
        size_t nw = utf8_width(w->header->names[c], strlen(w->header->names[c]));
        if (nw > maxw)
            maxw = nw;
    }
    {
        for (int c = 0; c < b->ncols; c++) {
            const char *nm = w->header->names[c];
            size_t nl = strlen(nm);
            buf_append(&w->b, nm, nl);
            buf_putc(&w->b, ':');
            for (size_t k = utf8_width(nm, nl); k < maxw + 1; k++)
                buf_putc(&w->b, ' ');
            if (col_is_null(b->cols[c], r))
                buf_puts(&w->b, "ᴺᵁᴸᴸ");
            else {
                size_t at = w->b.len;
                text_write(&w->b, b->cols[c], r, TEXT_RAW, &w->to);
                /* Large numbers get a readable tip, as in ClickHouse: "-- 1.50 million". */
                if (fmt_type_is_numeric(b->cols[c]->type))
                    fmt_number_tip(&w->b, (const char *)w->b.p + at, w->b.len - at, &w->s, false);
            }
            buf_putc(&w->b, '\n');
        }
    }
}

static int vertical_write(fmt_writer *w, const block *b)
{
    vertical_write_rows(w, b, w->rows);
    return 0;
}

/* Totals: a "Totals:" section after an empty line; extremes: "Min:" and "Max:" sections
 * (ClickHouse's writeBeforeExtremes: one more empty line when no totals came before). */
static int vertical_finish(fmt_writer *w, const fmt_stats *st)
{
    if (w->totals) {
        buf_puts(&w->b, "\n\nTotals:\n───────\n");
        vertical_fields(w, w->totals, 0);
    }
    if (w->extremes) {
        buf_puts(&w->b, w->totals ? "\nMin:\n────\n" : "\n\nMin:\n────\n");
        vertical_fields(w, w->extremes, 0);
        buf_puts(&w->b, "\nMax:\n────\n");
        vertical_fields(w, w->extremes, 1);
    }
    return 0;
}

const fmt_out_vt fmt_out_vertical[] = {
    {"Vertical", NULL, vertical_write, vertical_finish, NULL, 0},
    {0},
};
