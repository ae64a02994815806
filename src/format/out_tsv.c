/* TabSeparated family: TSV escaping (or none for Raw), optional names/types rows. */
#include "format/out_internal.h"

enum { TSV_NAMES = 1, TSV_TYPES = 2, TSV_RAW = 4 };

static void eol(fmt_writer *w)
{
    if (w->s.tsv_crlf)
        buf_putc(&w->b, '\r');
    buf_putc(&w->b, '\n');
}

static int tsv_start(fmt_writer *w)
{
    int v = w->vt->variant;
    text_style st = v & TSV_RAW ? TEXT_RAW : TEXT_TSV;
    if (v & TSV_NAMES) {
        for (int c = 0; c < w->header->n; c++) {
            if (c)
                buf_putc(&w->b, '\t');
            const char *nm = w->header->names[c];
            text_write_string(&w->b, nm, strlen(nm), st);
        }
        eol(w);
    }
    if (v & TSV_TYPES) {
        for (int c = 0; c < w->header->n; c++) {
            if (c)
                buf_putc(&w->b, '\t');
            const char *nm = w->header->types[c]->name;
            text_write_string(&w->b, nm, strlen(nm), st);
        }
        eol(w);
    }
    return 0;
}

static int tsv_write(fmt_writer *w, const block *b)
{
    text_style st = w->vt->variant & TSV_RAW ? TEXT_RAW : TEXT_TSV;
    for (size_t r = 0; r < b->rows; r++) {
        for (int c = 0; c < b->ncols; c++) {
            if (c)
                buf_putc(&w->b, '\t');
            text_write(&w->b, b->cols[c], r, st, &w->to);
        }
        eol(w);
        if (fmt_maybe_flush(w) < 0)
            return -1;
    }
    return 0;
}

/* Totals: an empty line, then the row; extremes likewise (two rows). */
static int tsv_finish(fmt_writer *w, const fmt_stats *st)
{
    if (w->totals) {
        eol(w);
        if (tsv_write(w, w->totals) < 0)
            return -1;
    }
    if (!w->extremes)
        return 0;
    eol(w);
    return tsv_write(w, w->extremes);
}

const fmt_out_vt fmt_out_tsv[] = {
    {"TabSeparated", tsv_start, tsv_write, tsv_finish, NULL, 0},
    {"TabSeparatedWithNames", tsv_start, tsv_write, tsv_finish, NULL, TSV_NAMES},
    {"TabSeparatedWithNamesAndTypes", tsv_start, tsv_write, tsv_finish, NULL, TSV_NAMES | TSV_TYPES},
    {"TabSeparatedRaw", tsv_start, tsv_write, tsv_finish, NULL, TSV_RAW},
    {"TabSeparatedRawWithNames", tsv_start, tsv_write, tsv_finish, NULL, TSV_RAW | TSV_NAMES},
    {"TabSeparatedRawWithNamesAndTypes", tsv_start, tsv_write, tsv_finish, NULL, TSV_RAW | TSV_NAMES | TSV_TYPES},
    {0},
};
