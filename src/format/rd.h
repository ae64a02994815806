/* Private to the input formats: the reader state and the row splitters shared by
 * reader.c (dispatch, blocks), infer.c (schema inference) and in_*.c (one per syntax).
 * A splitter reads one row from the rbuf into a rowf (unescaped fields copied out, so no
 * pointer into the rbuf survives a refill). Not thread-safe; one reader per thread. */
#ifndef SHALE_FORMAT_RD_H
#define SHALE_FORMAT_RD_H

#include "column/text.h"
#include "format/format.h"

enum { FK_PLAIN, FK_QUOTED, FK_NULL, FK_ARRAY, FK_OBJECT, FK_STRING };

typedef struct rowf {
    buf data;       /* field bytes back to back (names then values for JSON) */
    size_t *start;  /* per field: value start, end */
    size_t *end;
    size_t *nstart; /* JSON: name start, end */
    size_t *nend;
    uint8_t *kind;
    int n, cap;
} rowf;

void rowf_clear(rowf *f);
void rowf_add(rowf *f, size_t nstart, size_t nend, size_t start, size_t end, int kind);
void rowf_free(rowf *f);

enum { RK_CSV, RK_TSV, RK_JSON, RK_NATIVE, RK_RAWBLOB, RK_PARQUET, RK_ROWBINARY, RK_JSONC };

/* Binary input formats keep their own state behind this interface (native.c,
 * in_rawblob.c); they borrow the reader's rbuf. Constructors return -1 with err_set. */
typedef struct rd_bin {
    int (*next)(struct rd_bin *r, block **out);
    void (*free)(struct rd_bin *r);
    /* Optional: fetch what the first next() needs (Parquet: the first row group's column
     * chunks) without producing rows, so another thread can do the waiting. */
    int (*prefetch)(struct rd_bin *r);
    /* Optional: about how many bytes prefetch() would fetch (Parquet: the needed column
     * chunks of the first row group to read), 0 when nothing, -1 when unknown. */
    int64_t (*prefetch_bytes)(struct rd_bin *r);
    /* Optional: the reads prefetch() would do (fmt_reader_prefetch_ranges). */
    int (*prefetch_ranges)(struct rd_bin *r, fmt_range **out, int *n);
    /* Optional: only columns with needed[i] are decoded (others: constant defaults). */
    void (*select)(struct rd_bin *r, const bool *needed);
    /* Optional: the total row count without reading data; -1 if unknown. */
    int (*count_rows)(struct rd_bin *r, int64_t *rows);
    /* Optional: columns with coded[i] may come back dictionary-coded (column.h). */
    void (*keep_codes)(struct rd_bin *r, const bool *coded);
    /* Optional: fmt_reader_set_filters, fmt_reader_set_prefilter. */
    void (*set_filters)(struct rd_bin *r, const fmt_filter *f, int n);
    void (*set_prefilter)(struct rd_bin *r, const bool *cols, fmt_prefilter_fn fn, void *ctx);
} rd_bin;

int native_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out);
int native_infer_schema(rbuf *in, const fmt_settings *st, schema **out);
int rawblob_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out);
int rawblob_infer_schema(rbuf *in, const fmt_settings *st, schema **out);
int parquet_reader_new(rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out);
int parquet_reader_new_ra(const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                          void (*ctx_free)(void *ctx), const fmt_cache_key *ck, const schema *s,
                          const fmt_settings *st, rd_bin **out);
int parquet_infer_schema_ra(const char *name, uint64_t size, fmt_read_at_fn read_at, void *ctx,
                            const fmt_cache_key *ck, schema **out);
int parquet_infer_schema(rbuf *in, const fmt_settings *st, schema **out);
/* RowBinary family (rowbinary.c); format is a canonical RowBinary* name. */
int rowbinary_reader_new(const char *format, rbuf *in, const schema *s, const fmt_settings *st, rd_bin **out);
int rowbinary_infer_schema(const char *format, rbuf *in, const fmt_settings *st, schema **out);

typedef struct fmt_fmtinfo {
    const char *name;
    int kind;
    bool names, types, raw;
} fmt_fmtinfo;

const fmt_fmtinfo *rd_lookup(const char *name);

/* Row splitters: 0 = a row, 1 = end of data, -1 = error. `row` (1-based) is for messages. */
int csv_split_row(rbuf *in, char delim, rowf *f, uint64_t row);
int tsv_split_row(rbuf *in, bool raw, rowf *f, uint64_t row);
int json_split_row(rbuf *in, rowf *f, uint64_t row);
/* One JSONCompactEachRow row: [v, v, ...] (fields without names). */
int json_compact_split_row(rbuf *in, rowf *f, uint64_t row);

/* JSON value kinds into a column (in_json.c). */
int json_push_value(column *c, const char *s, size_t n, int kind, const text_opts *o);

/* Returns the char at pos+k, refilling; -1 at end of data, -2 on a read error. */
static inline int rd_peek(rbuf *in, size_t k)
{
    if (in->pos + k >= in->end) {
        if (rbuf_need(in, k + 1) < 0)
            return -2;
        if (in->pos + k >= in->end)
            return -1;
    }
    return (unsigned char)in->pos[k];
}

/* Skips a UTF-8 byte order mark. -1 when reading failed (the stream's error is set: it must
 * not pass for an empty input, as a stream may answer its next read with a clean end). */
static inline int rd_skip_bom(rbuf *in)
{
    int c = rd_peek(in, 2);
    if (c == -2)
        return -1;
    if (c >= 0 && (unsigned char)in->pos[0] == 0xEF && (unsigned char)in->pos[1] == 0xBB &&
        (unsigned char)in->pos[2] == 0xBF)
        in->pos += 3;
    return 0;
}

#endif
