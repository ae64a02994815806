/* The window step: see window.h. */
#include "exec/window.h"
#include "exec/window_eval.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/supertype.h"
#include "parse/ast.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void window_plan_free(window_plan *w)
{
    if (!w)
        return;
    for (int s = 0; s < w->nspecs; s++) {
        win_spec *sp = &w->specs[s];
        for (int i = 0; i < sp->npart; i++)
            expr_free(sp->part[i]);
        for (int i = 0; i < sp->norder; i++)
            expr_free(sp->order[i]);
        free(sp->part);
        free(sp->order);
        free(sp->order_desc);
        free(sp->order_nulls);
    }
    free(w->specs);
    for (int f = 0; f < w->nfuncs; f++) {
        win_func *fn = &w->funcs[f];
        for (int i = 0; i < fn->nargs; i++)
            expr_free(fn->args[i]);
        free(fn->args);
        agg_call_free(fn->agg);
    }
    free(w->funcs);
    free(w);
}

/* ---- sorting one window's rows ---- */

typedef struct wsort {
    column **cols; /* partition keys then order keys */
    int npart, n;
    const bool *desc;
    const int *nulls;
} wsort;

static int cmp_keys(const wsort *s, uint32_t i, uint32_t j, int from, int to)
{
    for (int k = from; k < to; k++) {
        bool part = k < s->npart;
        int c = col_compare(s->cols[k], i, s->cols[k], j, part ? 1 : s->nulls[k - s->npart]);
        if (c)
            return !part && s->desc[k - s->npart] ? -c : c;
    }
    return 0;
}

static int cmp_sort(const void *a, const void *b, void *arg)
{
    const wsort *s = arg;
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    int c = cmp_keys(s, i, j, 0, s->n);
    return c ? c : (i > j) - (i < j); /* stable: peers keep their input order */
}

/* ---- RANGE offsets ---- */

/* The numeric value of row i of a RANGE frame's ORDER BY key (exact for 64-bit integers). */
static long double range_key(const column *c, size_t i)
{
    const type *t = type_phys(c->type);
    if (type_is_float(t))
        return (long double)col_get_f64(c, i);
    if (t->id == T_UINT64 || t->id == T_UINT32 || t->id == T_UINT16 || t->id == T_UINT8)
        return (long double)col_get_u64(c, i);
    return (long double)col_get_i64(c, i);
}

/* The first row in [from, to) whose key passes `target` in the sort direction: with
 * ascending keys the first key >= target (> with strict); descending, <= (or <). */
static size_t range_bound(const column *key, size_t base, size_t from, size_t to, long double target, bool desc,
                          bool strict)
{
    size_t lo = from, hi = to;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        long double v = range_key(key, mid - base);
        bool before = desc ? (strict ? v >= target : v > target) : (strict ? v <= target : v < target);
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- one partition ---- */

bool win_range_offsets(const win_spec *sp)
{
    return sp->frame_kind == WF_RANGE && (sp->start == WB_PRECEDING || sp->start == WB_FOLLOWING ||
                                          sp->end == WB_PRECEDING || sp->end == WB_FOLLOWING);
}

/* Where bound b (offset off) puts the frame of row i: its first row, or with is_end one
 * past its last row. */
static size_t bound_row(const part_ctx *pc, int b, int64_t off, size_t i, bool is_end)
{
    size_t ps = pc->ps, pe = pc->pe, e = is_end, o = (size_t)off;
    bool rows = pc->sp->frame_kind == WF_ROWS;
    long double v = pc->range_col ? range_key(pc->range_col, i - pc->base) : 0;
    bool desc = pc->sp->norder && pc->sp->order_desc[0];
    switch (b) {
    case WB_UNBOUNDED_PRECEDING: return ps;
    case WB_UNBOUNDED_FOLLOWING: return pe;
    case WB_CURRENT_ROW: return rows ? i + e : is_end ? pc->peer_end[i - pc->base] : pc->peer_start[i - pc->base];
    case WB_PRECEDING:
        if (rows)
            return i + e - ps > o ? i + e - o : ps;
        return range_bound(pc->range_col, pc->base, ps, pe, desc ? v + off : v - off, desc, is_end);
    default: /* WB_FOLLOWING */
        if (rows)
            return pe - i > o ? i + e + o : pe;
        return range_bound(pc->range_col, pc->base, ps, pe, desc ? v - off : v + off, desc, is_end);
    }
}

/* Frame [*fs, *fe) of row i (empty when the end comes first). */
static void frame_of(const part_ctx *pc, size_t i, size_t *fs, size_t *fe)
{
    *fs = bound_row(pc, pc->sp->start, pc->sp->start_off, i, false);
    *fe = bound_row(pc, pc->sp->end, pc->sp->end_off, i, true);
    if (*fe < *fs)
        *fe = *fs;
}

/* Adds rows [from, to) of args to state. */
static void agg_add_range(const agg_call *a, void *state, column *const *args, int nargs, size_t from, size_t to)
{
    if (to <= from)
        return;
    column *sl[64] = {0};
    for (int j = 0; j < nargs; j++)
        sl[j] = col_slice(args[j], from, to - from);
    a->ops.add_all(a, state, sl, to - from);
    for (int j = 0; j < nargs; j++)
        col_free(sl[j]);
}

/* Rows [from, to) of an aggregate over its frame. A frame that starts at UNBOUNDED
 * PRECEDING grows run's state (kept across calls for the partition); other frames compute
 * a fresh state per distinct frame. */
static int agg_over_rows(const part_ctx *pc, const win_func *f, column *const *args, win_run *run, size_t from,
                         size_t to, column *out)
{
    const agg_call *a = f->agg;
    size_t base = pc->base;
    int rc = 0;
    if (pc->sp->start == WB_UNBOUNDED_PRECEDING) {
        if (!run->state) {
            run->state = agg_state_new(a);
            run->added = pc->ps;
        }
        for (size_t i = from; i < to && !rc; i++) {
            size_t fs, fe;
            frame_of(pc, i, &fs, &fe);
            if (fe > run->added) {
                agg_add_range(a, run->state, args, f->nargs, run->added - base, fe - base);
                run->added = fe;
            }
            rc = a->ops.finalize(a, run->state, out);
        }
        return rc;
    }
    size_t last_fs = 0, last_fe = 0;
    bool have = false;
    for (size_t i = from; i < to && !rc; i++) {
        size_t fs, fe;
        frame_of(pc, i, &fs, &fe);
        if (have && fs == last_fs && fe == last_fe) { /* peers of a RANGE frame: same value */
            column *prev = col_slice(out, out->len - 1, 1); /* out may move as it grows */
            col_push_from(out, prev, 0);
            col_free(prev);
            continue;
        }
        void *state = agg_state_new(a);
        agg_add_range(a, state, args, f->nargs, fs - base, fe - base);
        rc = a->ops.finalize(a, state, out);
        agg_state_free(a, state);
        last_fs = fs, last_fe = fe, have = true;
    }
    return rc;
}

void win_run_free(const win_func *f, win_run *run)
{
    if (run->state)
        agg_state_free(f->agg, run->state);
    *run = (win_run){0};
}

static void push_u64(column *out, uint64_t v)
{
    col_push_fixed(out, &v);
}

static void push_f64(column *out, double v)
{
    col_push_fixed(out, &v);
}

/* The value of args[0] at row j when j is in [lo, hi), else the default (args[2] at row i
 * or the type's default). */
static void push_at(column *out, column *const *args, int nargs, size_t j, bool inside, size_t i)
{
    if (inside)
        col_push_from(out, args[0], j);
    else if (nargs > 2)
        col_push_from(out, args[2], i);
    else
        col_push_default(out);
}

int win_func_rows(const part_ctx *pc, const win_func *f, column *const *args, win_run *run, size_t from, size_t to,
                  column *out)
{
    size_t ps = pc->ps, pe = pc->pe, n = pe - ps, base = pc->base;
    if (f->kind == WK_AGG)
        return agg_over_rows(pc, f, args, run, from, to, out);
    for (size_t i = from; i < to; i++) {
        size_t peer_start = pc->peer_start[i - base];
        run->dense += peer_start == i;
        switch (f->kind) {
        case WK_ROW_NUMBER: push_u64(out, i - ps + 1); break;
        case WK_RANK: push_u64(out, peer_start - ps + 1); break;
        case WK_DENSE_RANK: push_u64(out, run->dense); break;
        case WK_PERCENT_RANK: push_f64(out, n > 1 ? (double)(peer_start - ps) / (double)(n - 1) : 0.0); break;
        case WK_CUME_DIST: push_f64(out, (double)(pc->peer_end[i - base] - ps) / (double)n); break;
        case WK_NTILE: {
            /* n rows in k buckets: the first n % k buckets hold one row more */
            uint64_t k = (uint64_t)f->n, r = i - ps, small = n / k, extra = n % k;
            uint64_t big_rows = extra * (small + 1);
            push_u64(out, r < big_rows ? r / (small + 1) + 1 : extra + (r - big_rows) / (small ? small : 1) + 1);
            break;
        }
        case WK_LAG:
        case WK_LEAD:
        case WK_LAG_IN_FRAME:
        case WK_LEAD_IN_FRAME: {
            int64_t off = 1;
            if (f->nargs > 1) {
                off = col_get_i64(args[1], i - base);
                if (off < 0)
                    return err_set(ERR_BAD_ARGUMENTS, "The offset for function %s must be nonnegative, %lld given",
                                   f->kind == WK_LAG || f->kind == WK_LAG_IN_FRAME ? "lagInFrame" : "leadInFrame",
                                   (long long)off);
            }
            size_t lo = ps, hi = pe;
            if (f->kind == WK_LAG_IN_FRAME || f->kind == WK_LEAD_IN_FRAME)
                frame_of(pc, i, &lo, &hi);
            bool back = f->kind == WK_LAG || f->kind == WK_LAG_IN_FRAME;
            /* off <= INT64_MAX and rows < 2^32: no overflow in int64 */
            int64_t j = back ? (int64_t)i - off : (int64_t)i + (off > INT32_MAX ? INT32_MAX : off);
            if (back && off > INT32_MAX)
                j = -1;
            bool inside = j >= (int64_t)lo && j < (int64_t)hi;
            push_at(out, args, f->nargs, inside ? (size_t)j - base : 0, inside, i - base);
            break;
        }
        case WK_NTH_VALUE: {
            size_t fs, fe;
            frame_of(pc, i, &fs, &fe);
            int64_t k = col_get_i64(args[1], i - base);
            if (k <= 0)
                return err_set(ERR_BAD_ARGUMENTS, "The offset for function nth_value must be in (0, %lld], %lld given",
                               (long long)INT64_MAX, (long long)k);
            bool inside = (uint64_t)(k - 1) < fe - fs;
            push_at(out, args, 0, inside ? fs + (size_t)(k - 1) - base : 0, inside, i - base);
            break;
        }
        default: return err_set(ERR_LOGICAL_ERROR, "window function kind %d", (int)f->kind);
        }
    }
    return 0;
}

/* ---- partitions in parallel ---- */

/* Partitions [p0, p1) of one function, into out (a column of its own). */
typedef struct part_job {
    query_ctx *q;
    part_ctx pc;
    const win_func *fn;
    column *const *args;
    const size_t *pstart;
    size_t p0, p1;
    column *out;
    int rc;
    err_saved err;
} part_job;

static void *part_job_run(void *arg)
{
    part_job *j = arg;
    mem_tracker *prev = j->q ? mem_tracker_attach(&j->q->mem) : NULL;
    for (size_t p = j->p0; p < j->p1 && !j->rc; p++) {
        j->pc.ps = j->pstart[p];
        j->pc.pe = j->pstart[p + 1];
        win_run run = {0};
        if (win_func_rows(&j->pc, j->fn, j->args, &run, j->pc.ps, j->pc.pe, j->out)) {
            j->rc = -1;
            err_save(&j->err);
        }
        win_run_free(j->fn, &run);
    }
    if (j->q)
        mem_tracker_attach(prev);
    return NULL;
}

/* Computes fn over every partition into *out: with max_threads > 1 and enough rows, the
 * partitions are split into contiguous runs of about equal rows, one thread each, whose
 * columns are then joined in order. */
static int parts_run(query_ctx *q, const part_ctx *pc, const win_func *fn, column *const *args, const size_t *pstart,
                     size_t nparts, column **out)
{
    size_t rows = pstart[nparts];
    int nt = q && q->max_threads > 1 ? q->max_threads : 1;
    if ((size_t)nt > nparts)
        nt = (int)nparts;
    if (rows < 65536 || nt < 2)
        nt = 1;
    part_job *jobs = xcalloc((size_t)nt, sizeof *jobs);
    pthread_t *th = xcalloc((size_t)nt, sizeof *th);
    size_t p = 0;
    for (int t = 0; t < nt; t++) {
        size_t until = rows / (size_t)nt * (size_t)(t + 1), p1 = p;
        while (p1 < nparts && (t == nt - 1 || pstart[p1] < until))
            p1++;
        jobs[t] = (part_job){.q = nt > 1 ? q : NULL, .pc = *pc, .fn = fn, .args = args, .pstart = pstart, .p0 = p,
                             .p1 = p1, .out = col_new(fn->ret)};
        p = p1;
    }
    for (int t = 1; t < nt; t++)
        pthread_create(&th[t], NULL, part_job_run, &jobs[t]);
    part_job_run(&jobs[0]);
    for (int t = 1; t < nt; t++)
        pthread_join(th[t], NULL);
    int rc = 0;
    for (int t = 0; t < nt && !rc; t++)
        if (jobs[t].rc)
            rc = err_restore(&jobs[t].err);
    for (int t = 1; t < nt; t++) {
        if (!rc)
            col_push_range(jobs[0].out, jobs[t].out, 0, jobs[t].out->len);
        col_free(jobs[t].out);
    }
    *out = jobs[0].out;
    free(jobs);
    free(th);
    return rc;
}

/* ---- the step ---- */

typedef struct window_step {
    step base;
    const window_plan *w;
    query_ctx *q;
    block **held;
    int n, cap;
} window_step;

static int window_push(step *s, block *b)
{
    window_step *ws = (window_step *)s;
    if (ws->n == ws->cap) {
        ws->cap = ws->cap ? ws->cap * 2 : 16;
        ws->held = xrealloc(ws->held, sizeof *ws->held * (size_t)ws->cap);
    }
    ws->held[ws->n++] = b;
    return 0;
}

static void gather_all(block *b, column **res, int nres, const uint32_t *perm)
{
    for (int c = 0; c < b->ncols; c++) {
        column *g = col_gather(b->cols[c], perm, b->rows);
        col_free(b->cols[c]);
        b->cols[c] = g;
    }
    for (int f = 0; f < nres; f++)
        if (res[f]) {
            column *g = col_gather(res[f], perm, b->rows);
            col_free(res[f]);
            res[f] = g;
        }
}

int win_eval_cols(expr *const *ex, int n, const block *b, column **out)
{
    for (int i = 0; i < n; i++) {
        if (expr_eval(ex[i], b, &out[i])) {
            for (int k = 0; k < i; k++)
                col_free(out[k]);
            return -1;
        }
        out[i] = col_materialize(out[i]);
    }
    return 0;
}

static bool byte_type(const type *t)
{
    return t->id == T_UINT8 || t->id == T_BOOL;
}

int win_eval_args(const win_func *fn, const block *b, column **args)
{
    if (win_eval_cols(fn->args, fn->nargs, b, args))
        return -1;
    if (fn->nargs > 2 && (fn->kind >= WK_LAG && fn->kind <= WK_LEAD_IN_FRAME) && args[2]->type != fn->ret &&
        !(byte_type(args[2]->type) && byte_type(fn->ret))) {
        /* (Bool and UInt8 share their bytes: copied as they are) */
        column *cast = type_cast_super(args[2], args[2]->type, fn->ret, NULL);
        col_free(args[2]);
        args[2] = cast;
        if (!cast) {
            for (int j = 0; j < fn->nargs; j++)
                col_free(args[j]);
            return -1;
        }
    }
    return 0;
}

/* Computes the functions of spec k over b (sorting b, and the results so far, first). */
static int run_spec(const window_plan *w, query_ctx *q, int k, block *b, column **res)
{
    const win_spec *sp = &w->specs[k];
    int nk = sp->npart + sp->norder;
    column **keys = xcalloc((size_t)nk + 1, sizeof *keys);
    int rc = -1;
    size_t *peer_start = NULL, *peer_end = NULL, *pstart = NULL, nparts = 0;
    if (win_eval_cols(sp->part, sp->npart, b, keys) ||
        win_eval_cols(sp->order, sp->norder, b, keys + sp->npart)) {
        free(keys);
        return -1;
    }
    wsort ws = {.cols = keys, .npart = sp->npart, .n = nk, .desc = sp->order_desc, .nulls = sp->order_nulls};
    size_t rows = b->rows;
    if (nk && rows > 1) {
        uint32_t *perm = xmalloc(sizeof *perm * rows);
        for (size_t i = 0; i < rows; i++)
            perm[i] = (uint32_t)i;
        qsort_r(perm, rows, sizeof *perm, cmp_sort, &ws);
        gather_all(b, res, w->nfuncs, perm);
        for (int i = 0; i < nk; i++) {
            column *g = col_gather(keys[i], perm, rows);
            col_free(keys[i]);
            keys[i] = g;
        }
        free(perm);
    }
    /* peer groups: equal partition and order keys */
    peer_start = xmalloc(sizeof *peer_start * (rows + 1));
    peer_end = xmalloc(sizeof *peer_end * (rows + 1));
    for (size_t i = 0; i < rows; i++)
        peer_start[i] = i > 0 && cmp_keys(&ws, (uint32_t)(i - 1), (uint32_t)i, 0, nk) == 0 ? peer_start[i - 1] : i;
    for (size_t i = rows; i-- > 0;)
        peer_end[i] = i + 1 < rows && peer_start[i + 1] == peer_start[i] ? peer_end[i + 1] : i + 1;
    /* partitions: pstart[p] .. pstart[p + 1] */
    pstart = xmalloc(sizeof *pstart * (rows + 2));
    for (size_t i = 0; i < rows; i++)
        if (i == 0 || cmp_keys(&ws, (uint32_t)(i - 1), (uint32_t)i, 0, sp->npart) != 0)
            pstart[nparts++] = i;
    pstart[nparts] = rows;
    /* the functions of this window: their arguments, then partition by partition */
    for (int f = 0; f < w->nfuncs; f++) {
        const win_func *fn = &w->funcs[f];
        if (fn->spec != k)
            continue;
        column *args[64] = {0};
        if (win_eval_args(fn, b, args))
            goto out;
        part_ctx pc = {.sp = sp, .peer_start = peer_start, .peer_end = peer_end,
                       .range_col = win_range_offsets(sp) ? keys[sp->npart] : NULL};
        int frc = parts_run(q, &pc, fn, args, pstart, nparts, &res[f]);
        for (int j = 0; j < fn->nargs; j++)
            col_free(args[j]);
        if (frc)
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < nk; i++)
        col_free(keys[i]);
    free(keys);
    free(peer_start);
    free(peer_end);
    free(pstart);
    return rc;
}

static int window_finish(step *s)
{
    window_step *ws = (window_step *)s;
    const window_plan *w = ws->w;
    if (ws->n == 0)
        return step_finish(s->next);
    block *b = concat_blocks(ws->held, ws->n, ws->held[0]->ncols, NULL);
    for (int i = 0; i < ws->n; i++)
        block_free(ws->held[i]);
    ws->n = 0;
    column **res = xcalloc((size_t)w->nfuncs + 1, sizeof *res);
    int rc = 0;
    for (int k = 0; k < w->nspecs && !rc; k++)
        rc = run_spec(w, ws->q, k, b, res);
    if (rc) {
        for (int f = 0; f < w->nfuncs; f++)
            col_free(res[f]);
        free(res);
        block_free(b);
        return -1;
    }
    block *o = block_new(b->ncols + w->nfuncs, b->rows);
    for (int c = 0; c < b->ncols; c++) {
        o->cols[c] = b->cols[c];
        b->cols[c] = NULL;
    }
    for (int f = 0; f < w->nfuncs; f++)
        o->cols[b->ncols + f] = res[f];
    free(res);
    b->ncols = 0;
    block_free(b);
    rc = step_push(s->next, o);
    if (rc == STEP_ENOUGH)
        rc = 0;
    return rc ? rc : step_finish(s->next);
}

static void window_destroy(step *s)
{
    window_step *ws = (window_step *)s;
    for (int i = 0; i < ws->n; i++)
        block_free(ws->held[i]);
    free(ws->held);
    free(ws);
}

static const step_ops window_ops = {"window", window_push, window_finish, window_destroy};

step *step_window_new(const window_plan *w, query_ctx *q)
{
    window_step *ws = xcalloc(1, sizeof *ws);
    ws->base.ops = &window_ops;
    ws->w = w;
    ws->q = q;
    return &ws->base;
}
