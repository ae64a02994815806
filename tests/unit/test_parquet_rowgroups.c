/* Parquet row-group readers over a shared footer (parallel reading), coalesced chunk
 * reads, page-by-page blocks, and row-group statistics for filter push-down. */
#include "check.h"

#include "base/err.h"
#include "base/mem.h"
#include "format/parquet/reader.h"

#include <string.h>

static const char *FILE_ = "tests/data/parquet/ch_row_groups.parquet"; /* 8 row groups of 1000 rows */

/* Reads row groups [a, a + n) with all columns; returns rows, sums id into *sum. */
static long read_rgs(parquet_file *pf, int a, int n, uint64_t min_seek, uint64_t *sum)
{
    schema *s = schema_new(2);
    schema_set(s, 0, "id", type_simple(T_UINT64));
    schema_set(s, 1, "s", type_simple(T_STRING));
    fmt_settings st;
    fmt_settings_default(&st);
    parquet_read_opts o = {.rg_first = a, .rg_count = n, .min_bytes_for_seek = min_seek};
    rd_bin *r;
    long rows = 0;
    *sum = 0;
    if (parquet_reader_open(pf, s, &st, &o, &r)) {
        schema_free(s);
        return -1;
    }
    for (;;) {
        block *b;
        if (r->next(r, &b)) {
            rows = -1;
            break;
        }
        if (!b)
            break;
        CHECK(b->rows <= 65409);
        const uint64_t *id = (const uint64_t *)(const void *)b->cols[0]->data.p;
        for (size_t i = 0; i < b->rows; i++)
            *sum += id[i];
        rows += (long)b->rows;
        block_free(b);
    }
    r->free(r);
    schema_free(s);
    return rows;
}

static bool may(parquet_file *pf, int rg, const char *col, const type *want, int op, column *v)
{
    bool m = parquet_rg_may_match(pf, rg, col, want, op, v);
    col_free(v);
    return m;
}

static column *u64(uint64_t x)
{
    column *c = col_new(type_simple(T_UINT64));
    col_push_fixed(c, &x);
    return c;
}

static column *str(const char *s)
{
    column *c = col_new(type_simple(T_STRING));
    col_push_str(c, s, strlen(s));
    return c;
}

/* Page-index pruning over ch_pages.parquet (2 row groups of 10 000 rows, ~1 KiB pages):
 * reads id, s and n with the filters, checks that every row satisfying them comes back
 * (the WHERE runs after the reader) and returns how many rows the reader returned. */
static long read_pages(const pq_filter *fl, int nfl, bool (*want)(uint64_t id, bool n_null, int64_t n), long *matching)
{
    parquet_file *pf;
    if (parquet_file_open("tests/data/parquet/ch_pages.parquet", &pf))
        return -1;
    schema *s = schema_new(3);
    schema_set(s, 0, "id", type_simple(T_UINT64));
    schema_set(s, 1, "s", type_simple(T_STRING));
    schema_set(s, 2, "n", type_nullable(type_simple(T_INT64)));
    fmt_settings st;
    fmt_settings_default(&st);
    parquet_read_opts o = {.rg_first = 0, .rg_count = -1, .min_bytes_for_seek = 8192, .filters = fl, .nfilters = nfl};
    rd_bin *r;
    long rows = 0;
    *matching = 0;
    if (parquet_reader_open(pf, s, &st, &o, &r) == 0) {
        block *b;
        while (r->next(r, &b) == 0 && b) {
            const uint64_t *id = (const uint64_t *)(const void *)b->cols[0]->data.p;
            const column *n = b->cols[2];
            for (size_t i = 0; i < b->rows; i++) {
                size_t len;
                const char *sv = col_str(b->cols[1], i, &len);
                char expect[16];
                snprintf(expect, sizeof expect, "k%06llu", (unsigned long long)id[i]);
                CHECK(len == 7 && memcmp(sv, expect, 7) == 0); /* columns stay aligned */
                bool nul = n->nulls.p[i];
                *matching += want(id[i], nul, COL_DATA(n->inner, int64_t)[i]);
            }
            rows += (long)b->rows;
            block_free(b);
        }
        r->free(r);
    } else {
        rows = -1;
    }
    schema_free(s);
    parquet_file_free(pf);
    return rows;
}

static bool id_range(uint64_t id, bool nul, int64_t n) { return (void)nul, (void)n, id >= 12345 && id < 12400; }
static bool n_is_5(uint64_t id, bool nul, int64_t n) { return (void)id, !nul && n == 5; }
static bool anything(uint64_t id, bool nul, int64_t n) { return (void)id, (void)nul, (void)n, true; }

static void test_page_index(void)
{
    column *lo = u64(12345), *hi = u64(12400), *five = col_new(type_simple(T_INT64)), *none = u64(30000);
    int64_t v5 = 5;
    col_push_fixed(five, &v5);
    long m;
    pq_filter range[2] = {{"id", type_simple(T_UINT64), PQF_GE, lo}, {"id", type_simple(T_UINT64), PQF_LT, hi}};
    long got = read_pages(range, 2, id_range, &m);
    CHECK(m == 55);                       /* every matching row is returned ... */
    CHECK(got >= 55 && got < 2000);       /* ... from a few pages of 20 000 rows */
    pq_filter eq5 = {"n", type_nullable(type_simple(T_INT64)), PQF_EQ, five};
    got = read_pages(&eq5, 1, n_is_5, &m);
    CHECK(m == 20 && got < 20000);        /* pages of NULLs and of other values skipped */
    pq_filter past = {"id", type_simple(T_UINT64), PQF_GE, none};
    got = read_pages(&past, 1, anything, &m);
    CHECK(got == 0);
    got = read_pages(NULL, 0, anything, &m);
    CHECK(got == 20000 && m == 20000);
    col_free(lo);
    col_free(hi);
    col_free(five);
    col_free(none);
}

/* Filter columns first: the callback sees only id (s NULL) and keeps ids ≡ 7 mod 1000. */
static int pre_calls;
static long keep_7(void *ctx, const block *b, uint8_t *keep)
{
    (void)ctx;
    pre_calls++;
    CHECK(b->cols[0] != NULL && b->cols[1] == NULL);
    const uint64_t *id = (const uint64_t *)(const void *)b->cols[0]->data.p;
    long k = 0;
    for (size_t i = 0; i < b->rows; i++)
        k += keep[i] = id[i] % 1000 == 7;
    return k;
}

static void test_prefilter(void)
{
    parquet_file *pf;
    CHECK(parquet_file_open("tests/data/parquet/ch_pages.parquet", &pf) == 0);
    if (!pf)
        return;
    schema *s = schema_new(2);
    schema_set(s, 0, "id", type_simple(T_UINT64));
    schema_set(s, 1, "s", type_simple(T_STRING));
    fmt_settings st;
    fmt_settings_default(&st);
    rd_bin *r;
    CHECK(parquet_reader_open(pf, s, &st, NULL, &r) == 0);
    bool cols[2] = {true, false};
    parquet_reader_set_prefilter(r, cols, keep_7, NULL);
    long rows = 0;
    block *b;
    while (r->next(r, &b) == 0 && b) {
        for (size_t i = 0; i < b->rows; i++) {
            uint64_t id = COL_DATA(b->cols[0], uint64_t)[i];
            size_t len;
            const char *sv = col_str(b->cols[1], i, &len);
            char expect[16];
            snprintf(expect, sizeof expect, "k%06llu", (unsigned long long)id);
            CHECK(id % 1000 == 7 && len == 7 && memcmp(sv, expect, 7) == 0);
        }
        rows += (long)b->rows;
        block_free(b);
    }
    CHECK(rows == 20 && pre_calls == 2); /* one block per row group, its kept rows only */
    r->free(r);
    schema_free(s);
    parquet_file_free(pf);
}

int main(void)
{
    mem_init();
    test_page_index();
    test_prefilter();
    parquet_file *pf;
    CHECK(parquet_file_open(FILE_, &pf) == 0);
    if (!pf)
        return check_done("parquet_rowgroups");
    CHECK(parquet_file_row_groups(pf) == 8);
    CHECK(parquet_file_row_group_rows(pf, 3) == 1000);

    /* one row group at a time, in any order, sharing the footer */
    uint64_t sum;
    CHECK(read_rgs(pf, 3, 1, 8192, &sum) == 1000);
    CHECK(sum == 3000ull * 1000 + 999ull * 1000 / 2);
    CHECK(read_rgs(pf, 0, -1, 8192, &sum) == 8000);
    CHECK(sum == 7999ull * 8000 / 2);

    /* coalescing: the two needed chunks of a row group in one read, or one read each */
    uint64_t r0 = parquet_file_reads(pf);
    CHECK(read_rgs(pf, 0, 8, 0, &sum) == 8000);
    uint64_t r1 = parquet_file_reads(pf);
    CHECK(read_rgs(pf, 0, 8, 100u << 20, &sum) == 8000);
    uint64_t r2 = parquet_file_reads(pf);
    CHECK(r2 - r1 == 8);
    CHECK(r1 - r0 == 16);

    /* statistics: row group 0 holds id 0..999, row group 7 id 7000..7999 */
    const type *tu64 = type_simple(T_UINT64);
    CHECK(!may(pf, 0, "id", tu64, PQF_EQ, u64(4321)));
    CHECK(may(pf, 4, "id", tu64, PQF_EQ, u64(4321)));
    CHECK(may(pf, 0, "id", tu64, PQF_LT, u64(1)));
    CHECK(!may(pf, 1, "id", tu64, PQF_LT, u64(1000)));
    CHECK(may(pf, 1, "id", tu64, PQF_LE, u64(1000)));
    CHECK(!may(pf, 0, "id", tu64, PQF_GE, u64(1000)));
    CHECK(may(pf, 0, "id", tu64, PQF_GT, u64(998)));
    CHECK(may(pf, 0, "id", tu64, PQF_NE, u64(5)));
    /* a conversion on read (Int32): the statistics are not used */
    CHECK(may(pf, 0, "id", type_simple(T_INT32), PQF_EQ, u64(4321)));
    CHECK(may(pf, 0, "nope", tu64, PQF_EQ, u64(4321)));
    /* UInt32 values above 2^31 (7000 * 500000): statistics in unsigned order */
    const type *tu32 = type_simple(T_UINT32);
    CHECK(may(pf, 7, "u32", tu32, PQF_GT, u64(3000000000u)));
    CHECK(!may(pf, 7, "u32", tu32, PQF_LT, u64(100)));
    CHECK(!may(pf, 0, "u32", tu32, PQF_GT, u64(3000000000u)));
    /* IN: some value within the bounds */
    column *in = u64(5);
    uint64_t x = 99999;
    col_push_fixed(in, &x);
    CHECK(may(pf, 0, "id", tu64, PQF_IN, in));
    in = u64(1500);
    col_push_fixed(in, &x);
    CHECK(!may(pf, 0, "id", tu64, PQF_IN, in));
    /* strings: a maximum that is a prefix of the constant may be truncated */
    const type *ts = type_simple(T_STRING);
    CHECK(!may(pf, 0, "s", ts, PQF_EQ, str("k003333")));
    CHECK(may(pf, 3, "s", ts, PQF_EQ, str("k003333")));
    CHECK(may(pf, 7, "s", ts, PQF_GT, str("k00799")));
    CHECK(!may(pf, 6, "s", ts, PQF_GT, str("k00799")));
    /* row groups 1, 4, 7: ni is NULL throughout, so no comparison matches */
    const type *ti64 = type_nullable(type_simple(T_INT64));
    CHECK(!may(pf, 1, "ni", ti64, PQF_EQ, u64(3)));
    CHECK(!may(pf, 1, "ni", ti64, PQF_NE, u64(3)));
    CHECK(may(pf, 2, "ni", ti64, PQF_EQ, u64(3)));
    parquet_file_free(pf);

    /* a bad file fails cleanly */
    CHECK(parquet_file_open("tests/data/parquet/make-fixtures.js", &pf) == -1);
    CHECK(strstr(err_msg(), "PAR1") != NULL);
    err_clear();
    return check_done("parquet_rowgroups");
}
