/* Private to the output formats: the writer object, the per-format vtable and shared
 * helpers. Not part of the public API (see format.h). */
#ifndef SHALE_FORMAT_OUT_INTERNAL_H
#define SHALE_FORMAT_OUT_INTERNAL_H

#include "column/text.h"
#include "column/text_out_util.h"
#include "format/format.h"

typedef struct fmt_out_vt {
    const char *name;                       /* canonical name */
    int (*start)(fmt_writer *w);            /* after the header is known; may be NULL */
    int (*write)(fmt_writer *w, const block *b);
    int (*finish)(fmt_writer *w, const fmt_stats *st);
    void (*free_state)(fmt_writer *w);      /* may be NULL */
    int variant;                            /* per-family flavour (with names, compact...) */
} fmt_out_vt;

struct fmt_writer {
    const fmt_out_vt *vt;
    schema *header;
    fmt_settings s;
    text_opts to;
    outstream *out;
    buf b;            /* pending output, flushed in large chunks */
    uint64_t rows;    /* rows written so far */
    void *state;      /* per-format state */
    block *totals;    /* the WITH TOTALS row, or NULL (fmt_writer_totals) */
    block *extremes;  /* minimums and maximums (two rows), or NULL (fmt_writer_extremes) */
};

#define FMT_FLUSH_AT (64 * 1024)

/* Writes out all pending bytes. */
int fmt_flush(fmt_writer *w);
static inline int fmt_maybe_flush(fmt_writer *w) { return w->b.len >= FMT_FLUSH_AT ? fmt_flush(w) : 0; }

/* Families (one file each). */
extern const fmt_out_vt fmt_out_tsv[], fmt_out_csv[], fmt_out_json[], fmt_out_pretty[],
    fmt_out_vertical[], fmt_out_misc[], fmt_out_native[], fmt_out_parquet[], fmt_out_rowbinary[],
    fmt_out_json_rows[];

/* ClickHouse's VarUInt (LEB128) and a VarUInt-length-prefixed string (Native, RowBinary). */
void fmt_put_varuint(buf *b, uint64_t v);
void fmt_put_string(buf *b, const char *s, size_t n);

/* Value r of c as JSON (out_json.c); strings: as a JSON string of its text (the *Strings
 * formats). */
void fmt_json_value(fmt_writer *w, const column *c, size_t r, bool strings);

/* Vertical writer entry points, reused by Pretty's fallback to vertical. */
void vertical_write_rows(fmt_writer *w, const block *b, uint64_t first_row_number);

/* Display width of UTF-8 text as ClickHouse computes it (East Asian wide characters count 2;
 * combining marks, control characters and ANSI escape sequences 0; a tab reaches the next
 * multiple of 8, counted from `prefix` columns left of the text in utf8_width_at). */
size_t utf8_width(const char *s, size_t n);
size_t utf8_width_at(const char *s, size_t n, size_t prefix);
/* Bytes of s[0..n) that fit in `limit` columns (whole characters only). */
size_t utf8_bytes_before_width(const char *s, size_t n, size_t prefix, size_t limit);

/* The readable tip after a large number ("-- 12.35 million", grey with colour) for the
 * number's text, when ClickHouse prints one: above the threshold, finite, and not in the
 * range where most 64-bit hashes lie. */
void fmt_number_tip(buf *o, const char *text, size_t n, const fmt_settings *s, bool color);

/* "1.23 million": v scaled to thousands, millions, ... with two decimals (the tip that
 * Pretty and Vertical print after large numbers). */
void fmt_quantity(double v, char *out, size_t cap);

/* Is the type printed right-aligned in Pretty/Markdown (numbers)? */
bool fmt_type_is_numeric(const type *t);

#endif
