/* The bounded window steps: see window.h ("Bounded"). */
#include "base/err.h"
#include "base/mem.h"
#include "exec/external_sort.h"
#include "exec/spill.h"
#include "exec/window_eval.h"
#include "parse/ast.h"

#include <stdlib.h>
#include <string.h>

/* ---- keys: appends a window's partition and order keys as columns, for the sort ---- */

typedef struct keys_step {
    step base;
    const win_spec *sp;
} keys_step;

static int keys_push(step *s, block *b)
{
    const win_spec *sp = ((keys_step *)s)->sp;
    int nk = sp->npart + sp->norder;
    column **keys = xcalloc((size_t)nk + 1, sizeof *keys);
    if (win_eval_cols(sp->part, sp->npart, b, keys)) {
        free(keys);
        block_free(b);
        return -1;
    }
    if (win_eval_cols(sp->order, sp->norder, b, keys + sp->npart)) {
        for (int i = 0; i < sp->npart; i++)
            col_free(keys[i]);
        free(keys);
        block_free(b);
        return -1;
    }
    block *o = block_new(b->ncols + nk, b->rows);
    for (int c = 0; c < b->ncols; c++) {
        o->cols[c] = b->cols[c];
        b->cols[c] = NULL;
    }
    memcpy(o->cols + b->ncols, keys, sizeof *keys * (size_t)nk);
    free(keys);
    b->ncols = 0;
    block_free(b);
    return step_push(s->next, o);
}

static int keys_finish(step *s)
{
    return step_finish(s->next);
}

static void keys_destroy(step *s)
{
    free(s);
}

static const step_ops keys_ops = {"window_keys", keys_push, keys_finish, keys_destroy};

/* ---- the window over sorted rows ---- */

typedef struct wstream {
    step st;
    const window_plan *w;
    query_ctx *q;
    const win_spec *sp;
    int width;          /* the input's columns before the keys: passed on */
    int nk;             /* partition then order keys, columns [width, width + nk) */
    int *funcs, nf;     /* this window's functions */
    const int *final;   /* the last window: column of function f among the results, else NULL */
    bool *desc;         /* for the sort before this step (it reads them) */
    int *nulls;
    /* the rows of the current partition held: [first, first + n), numbered in the partition */
    bool open;
    size_t first, n, cap, done; /* done: the first row whose values are not out yet */
    size_t last_group;  /* first row of the last peer group */
    column **cols;      /* width + nk */
    column ***args;     /* per function */
    size_t *peer_start, *peer_end;
    win_run *runs;
} wstream;

static const win_func *fn_at(const wstream *ws, int i)
{
    return &ws->w->funcs[ws->funcs[i]];
}

static bool frame_func(win_kind k)
{
    return k == WK_AGG || k == WK_LAG_IN_FRAME || k == WK_LEAD_IN_FRAME || k == WK_NTH_VALUE;
}

/* Whether f's first value needs the partition's end (its size, or a frame to its end). */
static bool needs_end(const win_spec *sp, const win_func *f)
{
    if (f->kind == WK_PERCENT_RANK || f->kind == WK_CUME_DIST || f->kind == WK_NTILE || f->kind == WK_LEAD)
        return true;
    return frame_func(f->kind) && (sp->end == WB_UNBOUNDED_FOLLOWING || win_range_offsets(sp));
}

/* One past the last row whose values can be computed from the rows held (the partition
 * goes on): every row its frame reaches is held. */
static size_t ready_end(const wstream *ws)
{
    const win_spec *sp = ws->sp;
    size_t end = ws->first + ws->n, r = end;
    for (int i = 0; i < ws->nf; i++) {
        const win_func *f = fn_at(ws, i);
        if (needs_end(sp, f))
            return ws->done;
        if (!frame_func(f->kind))
            continue;
        size_t fr = end;
        if (sp->end == WB_CURRENT_ROW && sp->frame_kind == WF_RANGE)
            fr = ws->last_group; /* the last peer group may go on */
        else if (sp->end == WB_FOLLOWING)
            fr = end > (size_t)sp->end_off ? end - (size_t)sp->end_off : 0;
        if (fr < r)
            r = fr;
    }
    return r < ws->done ? ws->done : r;
}

/* The first row that a value not computed yet may read. */
static size_t keep_from(const wstream *ws)
{
    const win_spec *sp = ws->sp;
    size_t d = ws->done, end = ws->first + ws->n, keep = d;
    for (int i = 0; i < ws->nf; i++) {
        const win_func *f = fn_at(ws, i);
        size_t k = d;
        if (f->kind == WK_LAG || f->kind == WK_LEAD)
            k = 0; /* offsets read from a column: anywhere in the partition */
        else if (frame_func(f->kind)) {
            switch (sp->start) {
            case WB_UNBOUNDED_PRECEDING:
                /* an aggregate keeps a growing state: only rows not added yet */
                k = f->kind == WK_AGG && ws->runs[i].state ? ws->runs[i].added : 0;
                break;
            case WB_PRECEDING:
                k = sp->frame_kind == WF_RANGE ? 0 : d > (size_t)sp->start_off ? d - (size_t)sp->start_off : 0;
                break;
            case WB_CURRENT_ROW:
                k = sp->frame_kind == WF_ROWS ? d : d < end ? ws->peer_start[d - ws->first] : ws->last_group;
                break;
            default: k = sp->frame_kind == WF_RANGE ? 0 : d; break;
            }
        }
        if (k < keep)
            keep = k;
    }
    /* the last row stays: the next one is compared with it */
    return end && keep > end - 1 ? end - 1 : keep;
}

/* Drops held rows before keep_from once they are at least half of them (and 64 Ki). */
static void release(wstream *ws)
{
    size_t keep = keep_from(ws);
    size_t drop = keep > ws->first ? keep - ws->first : 0;
    if (drop < 65536 || drop < ws->n / 2)
        return;
    size_t rest = ws->n - drop;
    for (int c = 0; c < ws->width + ws->nk; c++) {
        column *s = col_slice(ws->cols[c], drop, rest);
        col_free(ws->cols[c]);
        ws->cols[c] = s;
    }
    for (int i = 0; i < ws->nf; i++)
        for (int j = 0; j < fn_at(ws, i)->nargs; j++) {
            column *s = col_slice(ws->args[i][j], drop, rest);
            col_free(ws->args[i][j]);
            ws->args[i][j] = s;
        }
    memmove(ws->peer_start, ws->peer_start + drop, sizeof *ws->peer_start * rest);
    memmove(ws->peer_end, ws->peer_end + drop, sizeof *ws->peer_end * rest);
    ws->first = keep;
    ws->n = rest;
}

/* Computes rows [done, to) and pushes them on: the input's columns and one per function,
 * in the plan's order on the last window. */
static int emit(wstream *ws, size_t to)
{
    if (to <= ws->done)
        return 0;
    size_t from = ws->done, rows = to - from, res0 = ws->w->base;
    part_ctx pc = {.sp = ws->sp, .base = ws->first, .ps = 0, .pe = ws->first + ws->n, .peer_start = ws->peer_start,
                   .peer_end = ws->peer_end,
                   .range_col = win_range_offsets(ws->sp) ? ws->cols[ws->width + ws->sp->npart] : NULL};
    block *o = block_new(ws->width + ws->nf, rows);
    for (int c = 0; c < ws->width; c++)
        o->cols[c] = col_slice(ws->cols[c], from - ws->first, rows);
    int rc = 0;
    for (int i = 0; i < ws->nf; i++) {
        const win_func *f = fn_at(ws, i);
        column *out = col_new(f->ret);
        o->cols[ws->width + i] = out;
        if (!rc)
            rc = win_func_rows(&pc, f, ws->args[i], &ws->runs[i], from, to, out);
    }
    if (rc) {
        block_free(o);
        return -1;
    }
    ws->done = to;
    if (ws->final) { /* results so far in window order → the plan's order */
        column **res = xmalloc(sizeof *res * (size_t)ws->w->nfuncs);
        for (int f = 0; f < ws->w->nfuncs; f++)
            res[f] = o->cols[res0 + ws->final[f]];
        memcpy(o->cols + res0, res, sizeof *res * (size_t)ws->w->nfuncs);
        free(res);
    }
    return step_push(ws->st.next, o);
}

static void drop_partition(wstream *ws)
{
    if (!ws->open)
        return;
    for (int c = 0; c < ws->width + ws->nk; c++)
        col_free(ws->cols[c]);
    for (int i = 0; i < ws->nf; i++) {
        for (int j = 0; j < fn_at(ws, i)->nargs; j++)
            col_free(ws->args[i][j]);
        win_run_free(fn_at(ws, i), &ws->runs[i]);
    }
    ws->open = false;
    ws->first = ws->n = ws->done = ws->last_group = 0;
}

/* The partition ended: the rest of its values, then it is dropped. */
static int close_partition(wstream *ws)
{
    if (!ws->open)
        return 0;
    size_t end = ws->first + ws->n;
    for (size_t r = ws->last_group > ws->first ? ws->last_group : ws->first; r < end; r++)
        ws->peer_end[r - ws->first] = end;
    int rc = emit(ws, end);
    drop_partition(ws);
    return rc;
}

static bool same_keys(const wstream *ws, column *const *a, size_t i, column *const *b, size_t j, int n)
{
    for (int k = 0; k < n; k++)
        if (col_compare(a[k], i, b[k], j, k < ws->sp->npart ? 1 : ws->sp->order_nulls[k - ws->sp->npart]))
            return false;
    return true;
}

/* Appends rows [from, to) of b (args: the functions' arguments over b) to the partition. */
static void hold(wstream *ws, block *b, column *const *const *args, size_t from, size_t to)
{
    size_t rows = to - from;
    if (!ws->open) {
        for (int c = 0; c < ws->width + ws->nk; c++)
            ws->cols[c] = col_slice(b->cols[c], from, rows);
        for (int i = 0; i < ws->nf; i++)
            for (int j = 0; j < fn_at(ws, i)->nargs; j++)
                ws->args[i][j] = col_slice(args[i][j], from, rows);
        ws->open = true;
    } else {
        for (int c = 0; c < ws->width + ws->nk; c++)
            col_push_range(ws->cols[c], b->cols[c], from, rows);
        for (int i = 0; i < ws->nf; i++)
            for (int j = 0; j < fn_at(ws, i)->nargs; j++)
                col_push_range(ws->args[i][j], args[i][j], from, rows);
    }
    if (ws->n + rows > ws->cap) {
        ws->cap = (ws->n + rows) * 2;
        ws->peer_start = xrealloc(ws->peer_start, sizeof *ws->peer_start * ws->cap);
        ws->peer_end = xrealloc(ws->peer_end, sizeof *ws->peer_end * ws->cap);
    }
    column *const *keys = (column *const *)ws->cols + ws->width;
    for (size_t r = 0; r < rows; r++) {
        size_t at = ws->n + r, row = ws->first + at;
        bool peer = at > 0 && same_keys(ws, keys, at - 1, keys, at, ws->nk);
        ws->peer_start[at] = peer ? ws->peer_start[at - 1] : row;
        if (!peer && at > 0) { /* the group before ends here */
            for (size_t g = ws->last_group > ws->first ? ws->last_group : ws->first; g < row; g++)
                ws->peer_end[g - ws->first] = row;
        }
        if (!peer)
            ws->last_group = row;
    }
    ws->n += rows;
}

static void free_args(const wstream *ws, column ***args)
{
    for (int i = 0; i < ws->nf; i++) {
        for (int j = 0; j < fn_at(ws, i)->nargs; j++)
            col_free(args[i][j]);
        free(args[i]);
    }
    free(args);
}

static int wstream_push(step *s, block *b)
{
    wstream *ws = (wstream *)s;
    for (int c = 0; c < b->ncols; c++)
        b->cols[c] = col_materialize(b->cols[c]);
    column ***args = xcalloc((size_t)ws->nf + 1, sizeof *args);
    for (int i = 0; i < ws->nf; i++) {
        args[i] = xcalloc((size_t)fn_at(ws, i)->nargs + 1, sizeof *args[i]);
        if (win_eval_args(fn_at(ws, i), b, args[i])) {
            memset(args[i], 0, sizeof *args[i] * (size_t)fn_at(ws, i)->nargs);
            free_args(ws, args);
            block_free(b);
            return -1;
        }
        for (int j = 0; j < fn_at(ws, i)->nargs; j++)
            args[i][j] = col_materialize(args[i][j]);
    }
    int rc = 0;
    column *const *keys = (column *const *)b->cols + ws->width;
    size_t from = 0;
    for (size_t r = 0; r <= b->rows && !rc; r++) {
        /* a partition starts at row r: the rows before it close the one held */
        bool starts = r == b->rows ||
                      (ws->sp->npart &&
                       (r > 0 ? !same_keys(ws, keys, r - 1, keys, r, ws->sp->npart)
                              : ws->open && !same_keys(ws, (column *const *)ws->cols + ws->width, ws->n - 1, keys,
                                                       0, ws->sp->npart)));
        if (!starts)
            continue;
        if (r > from) {
            hold(ws, b, (column *const *const *)args, from, r);
            from = r;
        }
        if (r < b->rows)
            rc = close_partition(ws);
    }
    free_args(ws, args);
    block_free(b);
    if (!rc && ws->open) {
        rc = emit(ws, ready_end(ws));
        if (rc != -1)
            release(ws);
    }
    if (!rc)
        rc = query_check(ws->q);
    return rc;
}

static int wstream_finish(step *s)
{
    wstream *ws = (wstream *)s;
    int rc = close_partition(ws);
    if (rc == STEP_ENOUGH)
        rc = 0;
    return rc ? rc : step_finish(s->next);
}

static void wstream_destroy(step *s)
{
    wstream *ws = (wstream *)s;
    drop_partition(ws);
    for (int i = 0; i < ws->nf; i++)
        free(ws->args[i]);
    free(ws->args);
    free(ws->cols);
    free(ws->runs);
    free(ws->peer_start);
    free(ws->peer_end);
    free(ws->funcs);
    free((void *)ws->final);
    free(ws->desc);
    free(ws->nulls);
    free(ws);
}

static const step_ops wstream_ops = {"window_bounded", wstream_push, wstream_finish, wstream_destroy};

/* A sort (spilling past sort_threshold when non-zero) and a bounded step per window. */
static int bounded_steps(const window_plan *w, query_ctx *q, uint64_t sort_threshold, step **out)
{
    int n = 0, width = w->base, placed = 0;
    int *pos = xcalloc((size_t)w->nfuncs + 1, sizeof *pos); /* column of function f after base */
    for (int k = 0; k < w->nspecs; k++) {
        const win_spec *sp = &w->specs[k];
        wstream *ws = xcalloc(1, sizeof *ws);
        ws->st.ops = &wstream_ops;
        ws->w = w;
        ws->q = q;
        ws->sp = sp;
        ws->width = width;
        ws->nk = sp->npart + sp->norder;
        ws->funcs = xcalloc((size_t)w->nfuncs + 1, sizeof *ws->funcs);
        for (int f = 0; f < w->nfuncs; f++)
            if (w->funcs[f].spec == k) {
                pos[f] = placed++;
                ws->funcs[ws->nf++] = f;
            }
        ws->cols = xcalloc((size_t)(width + ws->nk) + 1, sizeof *ws->cols);
        ws->args = xcalloc((size_t)ws->nf + 1, sizeof *ws->args);
        for (int i = 0; i < ws->nf; i++)
            ws->args[i] = xcalloc((size_t)fn_at(ws, i)->nargs + 1, sizeof *ws->args[i]);
        ws->runs = xcalloc((size_t)ws->nf + 1, sizeof *ws->runs);
        ws->desc = xcalloc((size_t)ws->nk + 1, sizeof *ws->desc);
        ws->nulls = xcalloc((size_t)ws->nk + 1, sizeof *ws->nulls);
        for (int i = 0; i < ws->nk; i++) {
            bool part = i < sp->npart;
            ws->desc[i] = !part && sp->order_desc[i - sp->npart];
            ws->nulls[i] = part ? 1 : sp->order_nulls[i - sp->npart];
        }
        if (ws->nk) {
            keys_step *ks = xcalloc(1, sizeof *ks);
            ks->base.ops = &keys_ops;
            ks->sp = sp;
            out[n++] = &ks->base;
            out[n++] = sort_threshold ? step_external_sort_new(q, sort_threshold, width, ws->nk, ws->desc, ws->nulls,
                                                               SIZE_MAX)
                                      : step_sort_new(width, ws->nk, ws->desc, ws->nulls, SIZE_MAX);
        }
        if (k == w->nspecs - 1)
            ws->final = pos;
        out[n++] = &ws->st;
        width += ws->nf;
    }
    if (!w->nspecs)
        free(pos);
    return n;
}

/* The threshold of the sorts before the windows (0: never spill). */
static uint64_t sort_threshold(const query_ctx *q)
{
    uint64_t at = 0; /* validated by select_run */
    if (spill_threshold(q, "max_bytes_before_external_sort", "max_bytes_ratio_before_external_sort", &at))
        err_clear();
    return at;
}

bool window_bounded(const query_ctx *q)
{
    return sort_threshold(q) || q->mem.limit;
}

int window_steps(const window_plan *w, query_ctx *q, step **out)
{
    if (!window_bounded(q)) {
        out[0] = step_window_new(w, q);
        return 1;
    }
    return bounded_steps(w, q, sort_threshold(q), out);
}
