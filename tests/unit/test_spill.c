/* Spilling: the anonymous spill file (writes across the buffer, reads at offsets, nothing
 * left in the directory, descriptors released), the thresholds, aggregate states written
 * and read back, and the external sort step (runs really written, output equal to the
 * in-memory sort, LIMIT, the file released when the step is destroyed without finishing). */
#include "base/err.h"
#include "check.h"
#include "column/text.h"
#include "exec/external_sort.h"
#include "exec/spill.h"
#include "func/agg.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void test_file(const char *dir)
{
    int64_t open0 = spill_open_files();
    spill_file *f;
    CHECK(spill_file_create(dir, &f) == 0);
    CHECK(spill_open_files() == open0 + 1);
    CHECK(dir_entries(dir) == 0); /* anonymous: no name to leave behind */
    /* 3 MiB in pieces of 1000 bytes and one of 2 MiB: across the 1 MiB buffer */
    enum { PIECE = 1000, NP = 1100 };
    char piece[PIECE];
    for (int i = 0; i < NP; i++) {
        memset(piece, 'a' + i % 26, sizeof piece);
        CHECK(spill_write(f, piece, sizeof piece) == 0);
    }
    size_t big = (size_t)2 << 20;
    char *b = malloc(big);
    for (size_t i = 0; i < big; i++)
        b[i] = (char)(i * 7);
    CHECK(spill_write(f, b, big) == 0);
    CHECK(spill_size(f) == (uint64_t)NP * PIECE + big);
    CHECK(spill_flush(f) == 0);
    char got[PIECE];
    bool same = true;
    for (int i = 0; i < NP; i += 97) {
        CHECK(spill_read_at(f, (uint64_t)i * PIECE, got, PIECE) == 0);
        for (int k = 0; k < PIECE; k++)
            same &= got[k] == 'a' + i % 26;
    }
    CHECK(same);
    char *back = malloc(big);
    CHECK(spill_read_at(f, (uint64_t)NP * PIECE, back, big) == 0);
    CHECK(memcmp(back, b, big) == 0);
    /* past the end: an error, not garbage */
    CHECK(spill_read_at(f, spill_size(f) - 10, got, 20) == -1 && err_code() == ERR_CANNOT_READ_ALL_DATA);
    err_clear();
    spill_file_close(f);
    CHECK(spill_open_files() == open0);
    CHECK(dir_entries(dir) == 0);
    free(b);
    free(back);
    /* a directory that cannot be made */
    CHECK(spill_file_create("/proc/no/such/dir", &f) == -1 && f == NULL);
    err_clear();
}

static void test_threshold(void)
{
    query_ctx q = {0};
    q.st = settings_new();
    mem_tracker server;
    mem_tracker_init(&server, 1000000, NULL);
    mem_tracker_init(&q.mem, 0, &server);
    uint64_t at = 1;
    /* defaults: ratio 0.5 of what the server has left; the query's own limit does not count */
    CHECK(spill_threshold(&q, "max_bytes_before_external_group_by", "max_bytes_ratio_before_external_group_by", &at) == 0);
    CHECK(at == 500000);
    atomic_store(&server.used, 400000);
    CHECK(spill_threshold(&q, "max_bytes_before_external_sort", "max_bytes_ratio_before_external_sort", &at) == 0);
    CHECK(at == 300000);
    /* the bytes setting wins */
    CHECK(settings_set(q.st, "max_bytes_before_external_sort", "12345") == 0);
    CHECK(spill_threshold(&q, "max_bytes_before_external_sort", "max_bytes_ratio_before_external_sort", &at) == 0);
    CHECK(at == 12345);
    /* no limit above the query: never by the ratio */
    q.mem.parent = NULL;
    CHECK(spill_threshold(&q, "max_bytes_before_external_group_by", "max_bytes_ratio_before_external_group_by", &at) == 0);
    CHECK(at == 0);
    CHECK(settings_set(q.st, "max_bytes_ratio_before_external_group_by", "1") == 0);
    CHECK(spill_threshold(&q, "max_bytes_before_external_group_by", "max_bytes_ratio_before_external_group_by", &at) == -1);
    CHECK(err_code() == ERR_BAD_ARGUMENTS);
    err_clear();
    settings_free(q.st);
}

/* Aggregates a column into one state, spills it, reads it back and merges the copy into a
 * fresh state: the result must equal the original's. */
static void roundtrip(const char *name, int np, const double *params, column *arg, const char *want)
{
    const type *t = arg->type;
    agg_call *a;
    CHECK(agg_resolve(name, 1, &t, np, params, &a) == 0);
    if (!a)
        return;
    CHECK(agg_state_spill_check(a) == 0);
    void *st = agg_state_new(a);
    a->ops.add_all(a, st, &arg, arg->len);
    buf b = {0};
    agg_state_spill_write(a, st, &b);
    agg_state_free(a, st);
    char *raw = calloc(1, a->state_size + 64);
    char *back = raw + (64 - (uintptr_t)raw % 64) % 64; /* aligned as an arena would */
    const char *p = (const char *)b.p;
    agg_state_spill_read(a, back, &p);
    CHECK(p == (const char *)b.p + b.len);
    void *dst = agg_state_new(a);
    a->ops.merge(a, dst, back);
    column *out = col_new(a->ret);
    CHECK(a->ops.finalize(a, dst, out) == 0);
    buf txt = {0};
    text_opts o;
    text_opts_default(&o);
    text_write(&txt, out, 0, TEXT_TSV, &o);
    buf_putc(&txt, 0);
    CHECK_STR((const char *)txt.p, want);
    agg_state_free(a, dst);
    col_free(out);
    buf_free(&txt);
    buf_free(&b);
    free(raw);
    agg_call_free(a);
}

static void test_states(void)
{
    column *u = col_new(type_parse_cstr("UInt64"));
    column *s = col_new(type_parse_cstr("String"));
    column *n = col_new(type_parse_cstr("Nullable(UInt64)"));
    for (uint64_t i = 1; i <= 1000; i++) {
        uint64_t v = i * 3 % 1001; /* a permutation of 1..1000 */
        col_push_fixed(u, &v);
        char txt[32];
        int len = snprintf(txt, sizeof txt, "s%llu", (unsigned long long)v);
        col_push_str(s, txt, (size_t)len);
        if (i % 3)
            col_push_null(n);
        else {
            col_push_fixed(n->inner, &v);
            col_nullable_commit(n, false);
        }
    }
    roundtrip("sum", 0, NULL, u, "500500");
    roundtrip("avg", 0, NULL, u, "500.5");
    roundtrip("max", 0, NULL, s, "s999");
    roundtrip("any", 0, NULL, s, "s3");
    roundtrip("uniqExact", 0, NULL, u, "1000");
    double half = 0.5;
    roundtrip("quantileExact", 1, &half, u, "501");
    roundtrip("sumOrNull", 0, NULL, n, "167166");
    roundtrip("maxOrNull", 0, NULL, s, "s999");
    roundtrip("anyLast", 0, NULL, n, "995");
    /* states that cannot be spilled yet are refused by name */
    const type *t = u->type;
    agg_call *a;
    CHECK(agg_resolve("uniq", 1, &t, 0, NULL, &a) == 0);
    CHECK(agg_state_spill_check(a) == -1 && err_code() == ERR_NOT_IMPLEMENTED && strstr(err_msg(), "uniq"));
    err_clear();
    agg_call_free(a);
    col_free(u);
    col_free(s);
    col_free(n);
}

/* ---- the external sort step ---- */

typedef struct collect_step {
    step base;
    block *all;
} collect_step;

static int collect_push(step *st, block *b)
{
    collect_step *c = (collect_step *)st;
    if (!c->all) {
        c->all = b;
        return 0;
    }
    block_append(c->all, b);
    block_free(b);
    return 0;
}
static int collect_finish(step *st) { return 0; }
static void collect_destroy(step *st)
{
    block_free(((collect_step *)st)->all);
    free(st);
}
static const step_ops collect_ops = {"collect", collect_push, collect_finish, collect_destroy};

static block *make_block(uint64_t from, size_t rows)
{
    block *b = block_new(2, rows);
    b->cols[0] = col_new(type_parse_cstr("UInt64"));
    b->cols[1] = col_new(type_parse_cstr("String"));
    for (size_t i = 0; i < rows; i++) {
        uint64_t v = (from + i) * 2654435761u % 100003;
        col_push_fixed(b->cols[0], &v);
        char txt[48];
        int len = snprintf(txt, sizeof txt, "row-%llu-padding-padding", (unsigned long long)(from + i));
        col_push_str(b->cols[1], txt, (size_t)len);
    }
    return b;
}

/* Sorts 50 blocks by (UInt64 key DESC, String) through the external sort with a small
 * threshold and through sort_rows; returns the runs written. */
static int sort_case(query_ctx *q, size_t want, bool finish)
{
    bool desc[2] = {true, false};
    int nulls[2] = {1, 1};
    collect_step *c = calloc(1, sizeof *c);
    c->base.ops = &collect_ops;
    step *x = step_external_sort_new(q, 200000, 0, 2, desc, nulls, want);
    x->next = &c->base;
    block *ref = NULL;
    for (int i = 0; i < 50; i++) {
        block *b = make_block((uint64_t)i * 1000, 1000);
        if (!ref)
            ref = block_slice(b, 0, b->rows);
        else
            block_append(ref, b);
        CHECK(step_push(x, b) == 0);
    }
    int runs = external_sort_runs(x);
    if (!finish) { /* cancelled: destroyed without finishing */
        step_chain_free(x);
        block_free(ref);
        return runs;
    }
    CHECK(step_finish(x) == 0);
    ref = sort_rows(ref, 0, 2, desc, nulls, want);
    CHECK(c->all && c->all->rows == ref->rows);
    bool same = c->all != NULL;
    for (size_t r = 0; same && r < ref->rows; r++)
        for (int k = 0; k < 2; k++)
            same &= col_compare(c->all->cols[k], r, ref->cols[k], r, 1) == 0;
    CHECK(same);
    block_free(ref);
    step_chain_free(x);
    return runs;
}

static void test_sort(const char *dir)
{
    query_ctx q = {0};
    q.st = settings_new();
    q.tmp_path = dir;
    mem_tracker_init(&q.mem, 0, NULL);
    int64_t open0 = spill_open_files();
    CHECK(sort_case(&q, SIZE_MAX, true) > 2);
    CHECK(sort_case(&q, 1234, true) >= 1);
    CHECK(spill_open_files() == open0);
    CHECK(sort_case(&q, SIZE_MAX, false) > 2);
    CHECK(spill_open_files() == open0); /* the file went with the step */
    CHECK(dir_entries(dir) == 0);
    settings_free(q.st);
}

int main(void)
{
    mem_init();
    char dir[] = "/tmp/shale-test-spill-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    test_file(dir);
    test_threshold();
    test_states();
    test_sort(dir);
    rmdir(dir);
    return check_done("spill");
}
