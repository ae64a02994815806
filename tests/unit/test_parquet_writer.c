/* Parquet writer: every type round-trips through writer → shale's Parquet reader, and the
 * footer says what was written (types, row groups, codecs, dictionary fallback). Values
 * are parsed from TSV, written as Parquet into memory, read back with the schema the
 * reader infers, and printed as TSV again. */
#include "base/err.h"
#include "base/mem.h"
#include "check.h"
#include "column/block.h"
#include "format/format.h"
#include "format/parquet/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct memout {
    outstream base;
    buf b;
} memout;

static int memout_write(outstream *s, const void *p, size_t n)
{
    buf_append(&((memout *)s)->b, p, n);
    return 0;
}
static int memout_close(outstream *s) { (void)s; return 0; }

static rbuf *mem_rbuf(const void *p, size_t n) { return rbuf_new(instream_from_memory(p, n, "mem"), 1 << 16); }

/* Reads all blocks of `format` from p and writes them with `oformat`; returns the output. */
static int convert(const char *format, const void *p, size_t n, const schema *s, const char *oformat,
                   const fmt_settings *ost, buf *out, schema **used)
{
    fmt_settings st;
    fmt_settings_default(&st);
    schema *sch = NULL;
    if (!s) {
        rbuf *in = mem_rbuf(p, n);
        int irc = fmt_infer_schema(format, in, &st, &sch);
        rbuf_free(in);
        if (irc)
            return -1;
        s = sch;
    }
    fmt_reader *r;
    if (fmt_reader_new(format, mem_rbuf(p, n), s, &st, &r)) {
        schema_free(sch);
        return -1;
    }
    memout m = {{.write = memout_write, .close = memout_close}, {0}};
    fmt_writer *w = NULL;
    int rc = fmt_writer_new(oformat, s, ost, &m.base, &w);
    while (!rc) {
        block *b;
        if (fmt_reader_next(r, &b)) {
            rc = -1;
            break;
        }
        if (!b)
            break;
        rc = fmt_writer_write(w, b);
        block_free(b);
    }
    if (!rc)
        rc = fmt_writer_finish(w, NULL);
    fmt_writer_free(w);
    fmt_reader_free(r);
    *out = m.b;
    if (used)
        *used = sch ? sch : schema_clone(s);
    else
        schema_free(sch);
    return rc;
}

static char *types_of(const schema *s)
{
    buf b = {0};
    for (int i = 0; i < s->n; i++)
        buf_printf(&b, "%s%s %s", i ? ", " : "", s->names[i], s->types[i]->name);
    buf_putc(&b, 0);
    return (char *)b.p;
}

/* TSV (of structure) → Parquet → TSV; checks the text and the types read back. */
static void roundtrip(const char *structure, const char *tsv, const char *want_tsv, const char *want_types,
                      const fmt_settings *pst)
{
    schema *s = schema_new(0);
    /* structure "a T, b U": parse with the TSV reader's schema via type_parse */
    char *copy = strdup(structure);
    int n = 0;
    char *names[32];
    const type *types[32];
    for (char *tok = copy; tok && n < 32;) {
        char *name = tok;
        char *sp = strchr(tok, ' ');
        *sp = 0;
        char *t = sp + 1;
        /* split at the top-level comma */
        int depth = 0;
        char *e = t;
        while (*e && !(*e == ',' && depth == 0)) {
            depth += *e == '(';
            depth -= *e == ')';
            e++;
        }
        char *next = *e ? e + 2 : NULL;
        types[n] = type_parse(t, (size_t)(e - t));
        names[n++] = name;
        tok = next;
    }
    schema_free(s);
    s = schema_new(n);
    for (int i = 0; i < n; i++)
        schema_set(s, i, names[i], types[i]);
    buf pq = {0}, back = {0};
    schema *got = NULL;
    int rc = convert("TSV", tsv, strlen(tsv), s, "Parquet", pst, &pq, NULL);
    CHECK(rc == 0);
    if (rc)
        fprintf(stderr, "%s: %s\n", structure, err_msg());
    rc = rc ? rc : convert("Parquet", pq.p, pq.len, NULL, "TSV", NULL, &back, &got);
    CHECK(rc == 0);
    if (!rc) {
        buf_putc(&back, 0);
        if (!want_tsv || strcmp(want_tsv, "*") != 0) /* "*": the text is not comparable */
            CHECK_STR((const char *)back.p, want_tsv ? want_tsv : tsv);
        char *ty = types_of(got);
        CHECK_STR(ty, want_types);
        buf b = {(uint8_t *)ty, 0, 0};
        buf_free(&b);
    } else {
        fprintf(stderr, "%s: %s\n", structure, err_msg());
    }
    schema_free(got);
    schema_free(s);
    buf_free(&pq);
    buf_free(&back);
    free(copy);
}

/* Writes `rows` rows of (number UInt64, s String) and returns the decoded footer. */
static pq_meta *write_numbers(int rows, int distinct, const fmt_settings *st, buf *pq)
{
    buf tsv = {0};
    for (int i = 0; i < rows; i++)
        buf_printf(&tsv, "%d\tvalue-%d-%s\n", i, i % distinct, "padding-padding-padding-padding-padding");
    schema *s = schema_new(2);
    schema_set(s, 0, "number", type_simple(T_UINT64));
    schema_set(s, 1, "s", type_simple(T_STRING));
    buf_free(pq); /* convert() hands back a new buffer */
    int rc = convert("TSV", tsv.p, tsv.len, s, "Parquet", st, pq, NULL);
    CHECK(rc == 0);
    schema_free(s);
    buf_free(&tsv);
    return rc ? NULL : parquet_read_meta_mem(pq->p, pq->len, "mem");
}

int main(void)
{
    roundtrip("a Int8, b UInt8, c Int16, d UInt16, e Int32, f UInt32, g Int64, h UInt64",
              "-128\t0\t-32768\t0\t-2147483648\t0\t-9223372036854775808\t0\n"
              "127\t255\t32767\t65535\t2147483647\t4294967295\t9223372036854775807\t18446744073709551615\n"
              "0\t1\t2\t3\t4\t5\t6\t7\n",
              NULL, "a Int8, b UInt8, c Int16, d UInt16, e Int32, f UInt32, g Int64, h UInt64", NULL);
    /* ClickHouse writes (U)Int128 as FIXED_LEN_BYTE_ARRAY(16) without a logical type, and
     * reads it back as FixedString(16) */
    roundtrip("a Int128, b UInt128", "-5\t6\n170141183460469231731687303715884105727\t0\n", "*",
              "a FixedString(16), b FixedString(16)", NULL);
    roundtrip("f Float32, d Float64, b Bool", "1.5\t-2.25\ttrue\n-0.5\tinf\tfalse\nnan\t1e300\ttrue\n", NULL,
              "f Float32, d Float64, b Bool", NULL);
    roundtrip("s String, f FixedString(3), l LowCardinality(String)", "abc\tab\\0\tx\n\txyz\t\nabc\t\\0\\0\\0\tx\n", NULL,
              "s String, f FixedString(3), l String", NULL);
    roundtrip("d Date, e Date32, t DateTime, u DateTime64(3), v DateTime64(6), w DateTime64(9), x DateTime64(1)",
              "2020-01-02\t1900-01-02\t2020-01-02 03:04:05\t2020-01-02 03:04:05.123\t2020-01-02 03:04:05.123456\t"
              "2020-01-02 03:04:05.123456789\t2020-01-02 03:04:05.1\n",
              "2020-01-02\t1900-01-02\t2020-01-02 03:04:05.000\t2020-01-02 03:04:05.123\t2020-01-02 03:04:05.123456\t"
              "2020-01-02 03:04:05.123456789\t2020-01-02 03:04:05.100\n",
              "d Date32, e Date32, t DateTime64(3, 'UTC'), u DateTime64(3, 'UTC'), v DateTime64(6, 'UTC'), "
              "w DateTime64(9, 'UTC'), x DateTime64(3, 'UTC')",
              NULL);
    roundtrip("a Decimal(9, 2), b Decimal(18, 4), c Decimal(38, 10)",
              "-1.50\t2.5000\t-3.5000000000\n9999999.99\t-99999999999999.9999\t1234567890123456789012345678.0123456789\n",
              "-1.5\t2.5\t-3.5\n9999999.99\t-99999999999999.9999\t1234567890123456789012345678.0123456789\n",
              "a Decimal(9, 2), b Decimal(18, 4), c Decimal(38, 10)", NULL);
    roundtrip("e Enum8('a' = 1, 'b' = -2), f Enum16('x' = 1000), u UUID",
              "a\tx\t61f0c404-5cb3-11e7-907b-a6006ad3dba0\nb\tx\t00000000-0000-0000-0000-000000000001\n", NULL,
              "e String, f String, u UUID", NULL);
    roundtrip("n Nullable(Int32), s Nullable(String), d Nullable(Decimal(9, 2))", "1\t\\N\t\\N\n\\N\tx\t1.25\n\\N\t\\N\t\\N\n",
              NULL, "n Nullable(Int32), s Nullable(String), d Nullable(Decimal(9, 2))", NULL);
    roundtrip("a Array(Int32), b Array(Nullable(String)), c Array(Array(UInt8)), d Array(Nullable(Int64))",
              "[1,2,3]\t['a',NULL,'c']\t[[1],[],[2,3]]\t[]\n[]\t[]\t[]\t[NULL]\n[4]\t[NULL]\t[[]]\t[1,NULL]\n", NULL,
              "a Array(Int32), b Array(Nullable(String)), c Array(Array(UInt8)), d Array(Nullable(Int64))", NULL);
    /* Tuples: the TSV reader cannot parse them yet; 00210_parquet_write and
     * tests/data/parquet/check-writer.js cover them through SQL. */

    /* every codec reads back */
    const char *codecs[] = {"zstd", "lz4", "snappy", "gzip", "none"};
    const int ids[] = {PQ_ZSTD, PQ_LZ4_RAW, PQ_SNAPPY, PQ_GZIP, PQ_UNCOMPRESSED};
    for (int i = 0; i < 5; i++) {
        fmt_settings st;
        fmt_settings_default(&st);
        st.parquet_compression = codecs[i];
        roundtrip("a UInt32, s String", "1\tx\n2\ty\n1\tx\n", NULL, "a UInt32, s String", &st);
        buf pq = {0};
        pq_meta *m = write_numbers(100, 10, &st, &pq);
        CHECK(m && m->nrgs == 1 && m->rgs[0].cols[0].meta.codec == ids[i]);
        pq_meta_free(m);
        buf_free(&pq);
    }
    fmt_settings bad;
    fmt_settings_default(&bad);
    bad.parquet_compression = "lzma";
    {
        schema *s1 = schema_new(1);
        schema_set(s1, 0, "a", type_simple(T_UINT8));
        memout m1 = {{.write = memout_write, .close = memout_close}, {0}};
        fmt_writer *w1 = NULL;
        CHECK(fmt_writer_new("Parquet", s1, &bad, &m1.base, &w1) == -1 && !w1);
        CHECK(strstr(err_msg(), "lzma") != NULL);
        schema_free(s1);
        buf_free(&m1.b);
    }

    /* row groups of output_format_parquet_row_group_size rows; statistics; dictionary */
    fmt_settings st;
    fmt_settings_default(&st);
    st.parquet_row_group_rows = 1000;
    buf pq = {0};
    pq_meta *m = write_numbers(2500, 10, &st, &pq);
    CHECK(m && m->nrgs == 3 && m->num_rows == 2500);
    if (m && m->nrgs == 3) {
        CHECK(m->rgs[0].num_rows == 1000 && m->rgs[2].num_rows == 500);
        const pq_column_meta *c = &m->rgs[1].cols[0].meta;
        uint64_t mn = 0, mx = 0;
        CHECK(c->stats.has_min && c->stats.has_max && c->stats.min_len == 8);
        memcpy(&mn, c->stats.min, 8);
        memcpy(&mx, c->stats.max, 8);
        CHECK(mn == 1000 && mx == 1999);
        CHECK(c->encodings & (1u << PQ_RLE_DICTIONARY));
        CHECK(m->rgs[1].cols[1].meta.dictionary_page_offset > 0);
        CHECK(m->schema[1].logical == PQ_LT_INTEGER && !m->schema[1].lt_signed && m->schema[1].lt_bits == 64);
        CHECK(m->schema[2].logical == PQ_LT_STRING);
    }
    pq_meta_free(m);

    /* a dictionary past 1 MiB falls back to PLAIN pages in the same chunk */
    fmt_settings_default(&st);
    m = write_numbers(40000, 40000, &st, &pq);
    CHECK(m && m->nrgs == 1);
    if (m && m->nrgs == 1) {
        uint32_t e = m->rgs[0].cols[1].meta.encodings;
        CHECK((e & (1u << PQ_RLE_DICTIONARY)) && (e & (1u << PQ_PLAIN)));
        CHECK(m->rgs[0].cols[1].meta.stats.has_min && m->rgs[0].cols[1].meta.stats.min_len > 0);
    }
    pq_meta_free(m);
    buf back = {0};
    CHECK(convert("Parquet", pq.p, pq.len, NULL, "TSV", NULL, &back, NULL) == 0);
    size_t lines = 0;
    for (size_t i = 0; i < back.len; i++)
        lines += back.p[i] == '\n';
    CHECK(lines == 40000);
    buf_free(&back);
    buf_free(&pq);
    return check_done("parquet_writer");
}
