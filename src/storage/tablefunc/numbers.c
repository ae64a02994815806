/* numbers(N), numbers(offset, N), system.numbers: a UInt64 column `number`.
 * The range is cut into tasks of 16 blocks so that workers share it; blocks have
 * max_block_size rows like ClickHouse's. */
#include "base/err.h"
#include "base/mem.h"
#include "storage/tablefunc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct numbers_src {
    uint64_t start, count;      /* count = UINT64_MAX: unbounded */
    uint64_t block_rows;
    uint64_t task_rows;
} numbers_src;

typedef struct numbers_it {
    uint64_t next, end;
    uint64_t block_rows;
    bool want_col;
    query_ctx *q;
} numbers_it;

static int num_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **it)
{
    numbers_src *n = s->impl;
    numbers_it *i = xcalloc(1, sizeof *i);
    uint64_t from = (uint64_t)task * n->task_rows;
    i->next = n->start + from;
    uint64_t len = n->count == UINT64_MAX ? n->task_rows
                   : (n->count - from < n->task_rows ? n->count - from : n->task_rows);
    i->end = i->next + len;
    i->block_rows = n->block_rows;
    i->want_col = ncols > 0;
    i->q = q;
    (void)cols;
    *it = i;
    return 0;
}

/* d[k] = start + k, four values per step in two 16-byte vectors (SSE2 / NEON
 * registers); gcc -O2 does not vectorize the plain loop. */
typedef uint64_t u64x2 __attribute__((vector_size(16)));

static void fill_iota(uint64_t *restrict d, uint64_t n, uint64_t start)
{
    u64x2 v0 = {start, start + 1}, v1 = {start + 2, start + 3};
    const u64x2 step = {4, 4};
    uint64_t b = 0;
    for (; b + 4 <= n; b += 4) {
        memcpy(d + b, &v0, sizeof v0);
        memcpy(d + b + 2, &v1, sizeof v1);
        v0 += step;
        v1 += step;
    }
    for (; b < n; b++)
        d[b] = start + b;
}

static int num_next(void *itp, block **out)
{
    numbers_it *i = itp;
    if (i->next >= i->end) {
        *out = NULL;
        return 0;
    }
    uint64_t n = i->end - i->next < i->block_rows ? i->end - i->next : i->block_rows;
    block *b = block_new(i->want_col ? 1 : 0, n);
    if (i->want_col) {
        column *c = col_new(type_simple(T_UINT64));
        uint64_t *d = buf_grow(&c->data, n * sizeof(uint64_t));
        fill_iota(d, n, i->next);
        c->len = n;
        b->cols[0] = c;
    }
    i->next += n;
    query_add_read(i->q, n, n * sizeof(uint64_t));
    *out = b;
    return 0;
}

static void num_close(void *it) { free(it); }
static void num_destroy(source *s) { free(s->impl); }

static int64_t num_count(source *s, query_ctx *q)
{
    (void)q;
    numbers_src *n = s->impl;
    return n->count == UINT64_MAX ? -1 : (int64_t)n->count;
}

static void num_set_limit(source *s, uint64_t rows)
{
    numbers_src *n = s->impl;
    if (rows < n->count) {
        n->count = rows;
        s->ntasks = (int)((rows + n->task_rows - 1) / n->task_rows);
        s->total_rows_hint = rows;
    }
    if (rows && rows < n->block_rows)
        n->block_rows = rows;
}

static int arg_u64(column *c, const char *fn, int pos, uint64_t *v)
{
    if (!type_is_integer(c->type) || type_is_nullable(c->type))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument %d of table function '%s'",
                       c->type->name, pos, fn);
    int64_t x = col_get_i64(c, 0);
    if (type_is_signed(c->type) && x < 0)
        return err_set(ERR_BAD_ARGUMENTS, "Table function '%s' requires non-negative arguments", fn);
    *v = col_get_u64(c, 0);
    return 0;
}

int tablefunc_numbers(column *const *args, int nargs, bool is_system_numbers, query_ctx *q, source **out)
{
    numbers_src *n = xcalloc(1, sizeof *n);
    n->count = UINT64_MAX;
    if (!is_system_numbers) {
        if (nargs < 1 || nargs > 3) {
            free(n);
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                           "Table function 'numbers' requires 'length' or 'offset, length' arguments");
        }
        uint64_t a, b;
        if (arg_u64(args[0], "numbers", 1, &a) || (nargs >= 2 && arg_u64(args[1], "numbers", 2, &b))) {
            free(n);
            return -1;
        }
        if (nargs == 1)
            n->count = a;
        else {
            n->start = a;
            n->count = b;
        }
    }
    uint64_t bs = (uint64_t)settings_int(q->st, "max_block_size");
    n->block_rows = bs ? bs : 65409;
    n->task_rows = n->block_rows * 16;
    source *s = xcalloc(1, sizeof *s);
    s->sch = schema_new(1);
    schema_set(s->sch, 0, "number", type_simple(T_UINT64));
    s->nvisible = 1;
    if (n->count == UINT64_MAX)
        s->ntasks = INT_MAX;
    else
        s->ntasks = (int)((n->count + n->task_rows - 1) / n->task_rows);
    s->total_rows_hint = n->count == UINT64_MAX ? 0 : n->count;
    s->impl = n;
    s->open = num_open;
    s->next = num_next;
    s->close = num_close;
    s->destroy = num_destroy;
    s->count_rows = num_count;
    s->set_limit = num_set_limit;
    *out = s;
    return 0;
}
