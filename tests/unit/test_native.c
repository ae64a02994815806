/* Native format and RawBLOB input. The fixtures under tests/data/native/ are ClickHouse's
 * own output (make-fixtures.js): every NAME.native must read back to the values in NAME.tsv
 * and be reproduced byte for byte by shale's writer, both from the blocks read from it and
 * from the same values parsed from NAME.tsv. */
#include "base/err.h"
#include "base/mem.h"
#include "check.h"
#include "column/block.h"
#include "format/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fixtures[] = {"numbers", "strings", "dates", "nested", "blocks", "lc16", "uuid"};

static buf slurp(const char *path)
{
    buf b = {0};
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return b;
    }
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        buf_append(&b, tmp, n);
    fclose(f);
    return b;
}

/* outstream into a buf */
typedef struct memout {
    outstream base;
    buf b;
} memout;

static int memout_write(outstream *s, const void *p, size_t n)
{
    buf_append(&((memout *)s)->b, p, n);
    return 0;
}

static int memout_close(outstream *s) { return 0; }

typedef struct blocks {
    block *b[64];
    int n;
} blocks;

static void blocks_free(blocks *bl)
{
    for (int i = 0; i < bl->n; i++)
        block_free(bl->b[i]);
    bl->n = 0;
}

static rbuf *mem_rbuf(const void *p, size_t n) { return rbuf_new(instream_from_memory(p, n, "mem"), 64); }

/* Reads everything; returns 0 or -1. A small rbuf exercises refills everywhere. */
static int read_all(const char *format, const void *p, size_t n, const schema *s, blocks *out)
{
    fmt_settings st;
    fmt_settings_default(&st);
    fmt_reader *r;
    out->n = 0;
    if (fmt_reader_new(format, mem_rbuf(p, n), s, &st, &r))
        return -1;
    int rc = 0;
    for (;;) {
        block *b;
        if (fmt_reader_next(r, &b)) {
            rc = -1;
            break;
        }
        if (!b)
            break;
        if (out->n < 64)
            out->b[out->n++] = b;
        else
            block_free(b);
    }
    fmt_reader_free(r);
    return rc;
}

static buf write_all(const char *format, const schema *s, const blocks *bl)
{
    memout m = {{memout_write, memout_close, "mem", 0}, {0}};
    fmt_writer *w;
    if (fmt_writer_new(format, s, NULL, &m.base, &w) == 0) {
        for (int i = 0; i < bl->n; i++)
            CHECK(fmt_writer_write(w, bl->b[i]) == 0);
        CHECK(fmt_writer_finish(w, NULL) == 0);
        fmt_writer_free(w);
    }
    return m.b;
}

static schema *infer(const char *format, const void *p, size_t n)
{
    fmt_settings st;
    fmt_settings_default(&st);
    schema *s = NULL;
    rbuf *in = mem_rbuf(p, n);
    if (fmt_infer_schema(format, in, &st, &s))
        fprintf(stderr, "infer: %s\n", err_msg());
    rbuf_free(in);
    return s;
}

static bool same_bytes(const buf *a, const buf *b, const char *what)
{
    if (a->len == b->len && memcmp(a->p, b->p, a->len) == 0)
        return true;
    size_t i = 0;
    while (i < a->len && i < b->len && a->p[i] == b->p[i])
        i++;
    fprintf(stderr, "%s: differs at byte %zu (lengths %zu, %zu)\n", what, i, a->len, b->len);
    return false;
}

static void test_fixture(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/native/%s.native", name);
    buf nat = slurp(path);
    snprintf(path, sizeof path, "tests/data/native/%s.tsv", name);
    buf tsv = slurp(path);
    CHECK(nat.len > 0 && tsv.len > 0);
    schema *s = infer("Native", nat.p, nat.len);
    CHECK(s != NULL);
    if (!s)
        goto out;

    /* Native → blocks → Native is the identity; the values equal ClickHouse's TSV. */
    blocks bl;
    CHECK(read_all("Native", nat.p, nat.len, s, &bl) == 0);
    buf again = write_all("Native", s, &bl);
    CHECK(same_bytes(&again, &nat, name));
    buf text = write_all("TSV", s, &bl);
    /* UUID text is another module's business; its bytes are checked in test_uuid */
    if (strcmp(name, "uuid") != 0)
        CHECK(same_bytes(&text, &tsv, name));
    blocks_free(&bl);
    buf_free(&again);
    buf_free(&text);

    /* The same values parsed from text and written by shale: ClickHouse's bytes.
     * Skipped: "blocks" (several blocks, the TSV reader makes one), "uuid" (UUID text is
     * handled elsewhere), "nested" (text_in.c cannot parse Tuple text yet). */
    if (strcmp(name, "blocks") != 0 && strcmp(name, "uuid") != 0 && strcmp(name, "nested") != 0) {
        if (read_all("TSV", tsv.p, tsv.len, s, &bl) == 0) {
            buf mine = write_all("Native", s, &bl);
            CHECK(same_bytes(&mine, &nat, name));
            buf_free(&mine);
        } else {
            fprintf(stderr, "%s: TSV read failed: %s\n", name, err_msg());
            CHECK(0);
        }
        blocks_free(&bl);
    }

    /* Every truncation is an error naming the offset (or, at a block boundary, fewer
     * blocks); never a crash. */
    for (size_t cut = 1; cut < nat.len; cut++) {
        int rc = read_all("Native", nat.p, cut, s, &bl);
        blocks_free(&bl);
        if (rc) {
            int code = err_code();
            CHECK(code == ERR_CANNOT_READ_ALL_DATA || code == ERR_INCORRECT_DATA);
            CHECK(strstr(err_msg(), "byte offset") != NULL);
        } else {
            CHECK(strcmp(name, "blocks") == 0);
        }
    }
    schema_free(s);
out:
    buf_free(&nat);
    buf_free(&tsv);
}

static void test_schema(void)
{
    buf nat = slurp("tests/data/native/blocks.native");
    schema *s = infer("Native", nat.p, nat.len);
    CHECK(s && s->n == 3);
    if (!s)
        return;
    CHECK_STR(s->names[0], "n");
    CHECK_STR(s->types[0]->name, "UInt64");
    CHECK_STR(s->names[1], "lc");
    CHECK_STR(s->types[1]->name, "LowCardinality(String)");
    blocks bl;
    CHECK(read_all("Native", nat.p, nat.len, s, &bl) == 0);
    CHECK(bl.n == 4 && bl.b[0]->rows == 3 && bl.b[3]->rows == 1);
    blocks_free(&bl);

    /* by name, other order, wrappers changed */
    schema *w = schema_new(3);
    schema_set(w, 0, "s", type_parse_cstr("LowCardinality(Nullable(String))"));
    schema_set(w, 1, "lc", type_parse_cstr("Nullable(String)"));
    schema_set(w, 2, "n", type_parse_cstr("Nullable(UInt64)"));
    CHECK(read_all("Native", nat.p, nat.len, w, &bl) == 0);
    CHECK(bl.n == 4);
    if (bl.n == 4) {
        column *c = bl.b[3]->cols[2];
        CHECK(c->type == w->types[2] && c->len == 1 && !col_is_null(c, 0) && COL_DATA(c->inner, uint64_t)[0] == 9);
        size_t len;
        const char *v = col_str(bl.b[3]->cols[1]->inner, 0, &len);
        CHECK(len == 1 && v[0] == '1');
    }
    blocks_free(&bl);
    schema_free(w);

    /* wrong type */
    w = schema_new(3);
    schema_set(w, 0, "n", type_parse_cstr("Int32"));
    schema_set(w, 1, "lc", type_parse_cstr("String"));
    schema_set(w, 2, "s", type_parse_cstr("String"));
    CHECK(read_all("Native", nat.p, nat.len, w, &bl) == -1);
    CHECK(err_code() == ERR_TYPE_MISMATCH);
    CHECK(strstr(err_msg(), "'n'") && strstr(err_msg(), "UInt64") && strstr(err_msg(), "Int32"));
    blocks_free(&bl);
    schema_free(w);

    /* missing column */
    w = schema_new(2);
    schema_set(w, 0, "n", type_parse_cstr("UInt64"));
    schema_set(w, 1, "zz", type_parse_cstr("String"));
    CHECK(read_all("Native", nat.p, nat.len, w, &bl) == -1);
    CHECK(strstr(err_msg(), "'zz'") && strstr(err_msg(), "missing"));
    blocks_free(&bl);
    schema_free(w);
    schema_free(s);
    buf_free(&nat);

    /* empty input */
    s = NULL;
    fmt_settings st;
    fmt_settings_default(&st);
    rbuf *in = mem_rbuf("", 0);
    CHECK(fmt_infer_schema("Native", in, &st, &s) == -1 && err_code() == ERR_CANNOT_EXTRACT_TABLE_STRUCTURE);
    rbuf_free(in);
}

static void test_corrupt(void)
{
    /* LowCardinality(String) with an index past the dictionary */
    static const unsigned char bad_idx[] = {
        1, 1, 1, 'a', 22, 'L', 'o', 'w', 'C', 'a', 'r', 'd', 'i', 'n', 'a', 'l', 'i', 't', 'y', '(', 'S', 't',
        'r', 'i', 'n', 'g', ')', 1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
        1, 0, 0, 0, 0, 0, 0, 0, 5};
    blocks bl;
    CHECK(read_all("Native", bad_idx, sizeof bad_idx, NULL, &bl) == -1);
    CHECK(err_code() == ERR_INCORRECT_DATA && strstr(err_msg(), "index 5") && strstr(err_msg(), "column 'a'"));
    blocks_free(&bl);
    /* huge row count with no data: an error, no huge allocation */
    static const unsigned char huge[] = {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 'a', 6, 'S', 't', 'r', 'i', 'n', 'g', 1};
    CHECK(read_all("Native", huge, sizeof huge, NULL, &bl) == -1 && err_code() == ERR_CANNOT_READ_ALL_DATA);
    blocks_free(&bl);
    /* unknown type */
    static const unsigned char badtype[] = {1, 1, 1, 'a', 3, 'F', 'o', 'o', 0};
    CHECK(read_all("Native", badtype, sizeof badtype, NULL, &bl) == -1 && strstr(err_msg(), "Foo"));
    blocks_free(&bl);
    /* non-monotonic array offsets */
    static const unsigned char badarr[] = {1, 2, 1, 'a', 12, 'A', 'r', 'r', 'a', 'y', '(', 'U', 'I', 'n', 't', '8', ')',
                                           2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9, 9};
    CHECK(read_all("Native", badarr, sizeof badarr, NULL, &bl) == -1 && err_code() == ERR_INCORRECT_DATA);
    blocks_free(&bl);
    /* flipped bytes in every fixture: errors or data, never a crash (ASan builds check) */
    for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/native/%s.native", fixtures[f]);
        buf nat = slurp(path);
        for (size_t i = 0; i < nat.len; i += 3) {
            uint8_t save = nat.p[i];
            nat.p[i] ^= (uint8_t)(0x55 + i);
            read_all("Native", nat.p, nat.len, NULL, &bl);
            blocks_free(&bl);
            nat.p[i] = save;
        }
        buf_free(&nat);
    }
}

static void test_uuid(void)
{
    buf nat = slurp("tests/data/native/uuid.native");
    blocks bl;
    CHECK(read_all("Native", nat.p, nat.len, NULL, &bl) == 0 && bl.n == 1);
    if (bl.n == 1) {
        uint128_t u = COL_DATA(bl.b[0]->cols[0], uint128_t)[0];
        /* type.h/text_in.c: the low 64 bits hold the first 16 hex digits */
        CHECK((uint64_t)u == 0x61f0c4045cb311e7ull && (uint64_t)(u >> 64) == 0x907ba6006ad3dba0ull);
        CHECK(COL_DATA(bl.b[0]->cols[1], uint128_t)[0] == (uint128_t)1 << 64);
    }
    blocks_free(&bl);
    buf_free(&nat);
}

static void test_writer_misc(void)
{
    /* a constant column and Nullable(Nothing) */
    schema *s = schema_new(2);
    schema_set(s, 0, "c", type_parse_cstr("LowCardinality(String)"));
    schema_set(s, 1, "n", type_parse_cstr("Nullable(Nothing)"));
    column *one = col_new(s->types[0]);
    col_push_str(one, "hi", 2);
    block *b = block_new(2, 3);
    b->cols[0] = col_new_const(one, 3);
    b->cols[1] = col_new_defaults(s->types[1], 3);
    blocks bl = {{b}, 1};
    buf out = write_all("Native", s, &bl);
    static const char want[] = "\x02\x03\x01" "c" "\x16LowCardinality(String)"
                               "\x01\0\0\0\0\0\0\0" "\x00\x06\0\0\0\0\0\0" "\x02\0\0\0\0\0\0\0" "\x00\x02hi"
                               "\x03\0\0\0\0\0\0\0" "\x01\x01\x01"
                               "\x01n\x11Nullable(Nothing)" "\x01\x01\x01" "000";
    CHECK(out.len == sizeof want - 1 && memcmp(out.p, want, out.len) == 0);
    blocks back;
    CHECK(read_all("Native", out.p, out.len, NULL, &back) == 0 && back.n == 1 && back.b[0]->rows == 3);
    if (back.n == 1) {
        size_t len;
        const char *v = col_str(back.b[0]->cols[0], 2, &len);
        CHECK(len == 2 && memcmp(v, "hi", 2) == 0);
        CHECK(col_is_null(back.b[0]->cols[1], 1));
    }
    blocks_free(&back);
    blocks_free(&bl);
    buf_free(&out);
    schema_free(s);
}

static void test_rawblob(void)
{
    schema *s = infer("RawBLOB", "abc", 3);
    CHECK(s && s->n == 1);
    if (!s)
        return;
    CHECK_STR(s->names[0], "raw_blob");
    CHECK_STR(s->types[0]->name, "String");
    /* larger than the rbuf, with NULs and newlines */
    char data[1000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)(i * 7);
    blocks bl;
    CHECK(read_all("RawBLOB", data, sizeof data, s, &bl) == 0 && bl.n == 1);
    if (bl.n == 1) {
        size_t len;
        const char *v = col_str(bl.b[0]->cols[0], 0, &len);
        CHECK(bl.b[0]->rows == 1 && len == sizeof data && memcmp(v, data, len) == 0);
    }
    blocks_free(&bl);
    CHECK(read_all("RawBLOB", "", 0, s, &bl) == 0 && bl.n == 0);
    schema_free(s);

    s = schema_new(1);
    schema_set(s, 0, "x", type_parse_cstr("Nullable(String)"));
    CHECK(read_all("RawBLOB", "a\nb", 3, s, &bl) == 0 && bl.n == 1 && bl.b[0]->cols[0]->len == 1);
    blocks_free(&bl);
    schema_free(s);

    s = schema_new(2);
    schema_set(s, 0, "x", type_parse_cstr("String"));
    schema_set(s, 1, "y", type_parse_cstr("String"));
    CHECK(read_all("RawBLOB", "a", 1, s, &bl) == -1 && strstr(err_msg(), "single column"));
    schema_free(s);
}

int main(void)
{
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
        test_fixture(fixtures[i]);
    test_schema();
    test_corrupt();
    test_uuid();
    test_writer_misc();
    test_rawblob();
    CHECK(fmt_output_canonical("Native") && fmt_input_canonical("Native") && fmt_input_canonical("RawBLOB"));
    return check_done("native");
}
