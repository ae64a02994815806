#include "storage/tablefunc/read_common.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/func.h"

#include <stdlib.h>
#include <string.h>

int *read_cols_copy(const int *cols, int ncols)
{
    int *c = xcalloc((size_t)ncols + 1, sizeof *c);
    if (ncols)
        memcpy(c, cols, sizeof *cols * (size_t)ncols);
    return c;
}

bool *read_needed(const int *cols, int ncols, int nfile)
{
    bool *needed = xcalloc((size_t)nfile + 1, sizeof *needed);
    for (int i = 0; i < ncols; i++)
        if (cols[i] < nfile)
            needed[cols[i]] = true;
    return needed;
}

void read_select_columns(fmt_reader *r, const int *cols, int ncols, int nfile, const bool *coded)
{
    bool *needed = read_needed(cols, ncols, nfile);
    fmt_reader_select(r, needed);
    free(needed);
    if (coded)
        fmt_reader_keep_codes(r, coded);
}

void read_accept_codes(bool **dst, const bool *coded, int nfile)
{
    free(*dst);
    *dst = xcalloc((size_t)nfile + 1, sizeof **dst);
    memcpy(*dst, coded, (size_t)nfile * sizeof **dst);
}

const char *read_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

block *read_project(block *b, const int *cols, int ncols, int nfile, const char *path, int64_t size)
{
    block *p = block_new(ncols, b->rows);
    for (int i = 0; i < ncols; i++) {
        int c = cols[i];
        if (c < nfile) {
            p->cols[i] = col_ref(b->cols[c]);
        } else if (c < nfile + 2) {
            const char *v = c == nfile ? path : read_base_name(path);
            column *one = col_new(type_lowcard(type_simple(T_STRING)));
            col_push_str(one, v, strlen(v));
            p->cols[i] = col_new_const(one, b->rows);
        } else {
            column *one = col_new(type_nullable(type_simple(T_UINT64)));
            uint64_t sz = size >= 0 ? (uint64_t)size : 0;
            col_push_fixed(one->inner, &sz);
            col_nullable_commit(one, size < 0);
            p->cols[i] = col_new_const(one, b->rows);
        }
    }
    block_free(b);
    return p;
}

/* Bytewise comparison, as ClickHouse compares strings. */
static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

/* `v [NOT] [I]LIKE pattern` by the engine's own like/notLike/ilike/notILike (one
 * matcher for WHERE and for pruning, so both agree on escapes, '_' over UTF-8 and case);
 * true when it may hold or cannot be judged. */
static bool like_holds(const src_filter *f, const char *v)
{
    static const char *const names[] = {"like", "notLike", "ilike", "notILike"};
    static const func_env env = {.timezone = "UTC", .query_start = 0};
    const column *pat = f->vals;
    if (!pat || pat->len < 1 || col_is_null(pat, 0) || type_phys(pat->type)->id != T_STRING)
        return true;
    func_registry_init();
    column *pc = col_new_const(col_ref((column *)(uintptr_t)pat), 1);
    column *vc = col_new(type_simple(T_STRING));
    col_push_str(vc, v, strlen(v));
    const type *ats[2] = {vc->type, pc->type};
    column *cargs[2] = {NULL, pc};
    fn_call *call = NULL;
    column *res = NULL;
    bool may = true;
    if (func_resolve(names[f->op - SF_LIKE], 2, ats, cargs, &env, &call) == 0) {
        column *args[2] = {vc, pc};
        if (fn_exec(call, args, 1, &res) == 0 && res && res->len >= 1)
            may = COL_DATA(res, uint8_t)[col_idx(res, 0)] != 0;
    }
    if (!call || !res)
        err_clear(); /* cannot judge: keep the object, WHERE decides */
    col_free(res);
    fn_call_free(call);
    col_free(vc);
    col_free(pc);
    return may;
}

/* One filter against the value v of _path or _file; true when it may hold (or cannot be
 * judged here). */
static bool filter_holds(const src_filter *f, const char *v)
{
    if (f->op >= SF_LIKE && f->op <= SF_NOT_ILIKE)
        return like_holds(f, v);
    const column *vals = f->vals;
    const column *data = type_is_nullable(vals->type) ? vals->inner : vals;
    if (!data || type_base(data->type)->id != T_STRING || data->type->width)
        return true;
    size_t vn = strlen(v);
    size_t rows = vals->is_const ? 1 : vals->len;
    if (f->op == SF_IN || f->op == SF_NOT_IN) {
        bool found = false;
        for (size_t i = 0; i < rows && !found; i++) {
            size_t n;
            if (col_is_null(vals, i))
                continue;
            const char *s = col_str(data, i, &n);
            found = cmp_bytes(v, vn, s, n) == 0;
        }
        return f->op == SF_IN ? found : !found;
    }
    if (rows < 1 || col_is_null(vals, 0))
        return true;
    size_t n;
    const char *s = col_str(data, 0, &n);
    int c = cmp_bytes(v, vn, s, n);
    switch (f->op) {
    case SF_EQ: return c == 0;
    case SF_NE: return c != 0;
    case SF_LT: return c < 0;
    case SF_LE: return c <= 0;
    case SF_GT: return c > 0;
    case SF_GE: return c >= 0;
    default: return true;
    }
}

bool read_has_path_filter(const src_filter *f, int n, int nfile)
{
    for (int i = 0; i < n; i++)
        if (f[i].col == nfile || f[i].col == nfile + 1)
            return true;
    return false;
}

bool read_object_may_match(const src_filter *f, int n, int nfile, const char *path)
{
    for (int i = 0; i < n; i++) {
        if (f[i].col != nfile && f[i].col != nfile + 1)
            continue;
        if (!filter_holds(&f[i], f[i].col == nfile ? path : read_base_name(path)))
            return false;
    }
    return true;
}

schema *read_source_schema(const schema *file_schema, bool with_size)
{
    int nf = file_schema->n;
    schema *sch = schema_new(nf + 2 + with_size);
    for (int i = 0; i < nf; i++)
        schema_set(sch, i, file_schema->names[i], file_schema->types[i]);
    schema_set(sch, nf, "_path", type_lowcard(type_simple(T_STRING)));
    schema_set(sch, nf + 1, "_file", type_lowcard(type_simple(T_STRING)));
    if (with_size)
        schema_set(sch, nf + 2, "_size", type_nullable(type_simple(T_UINT64)));
    return sch;
}

src_filter *read_file_filters(const src_filter *f, int n, int nfile, int *nout)
{
    src_filter *out = xcalloc((size_t)n + 1, sizeof *out);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (f[i].col >= 0 && f[i].col < nfile) {
            out[k] = f[i];
            out[k++].vals = col_ref(f[i].vals);
        }
    *nout = k;
    return out;
}

void read_filters_free(src_filter *f, int n)
{
    for (int i = 0; i < n; i++)
        col_free(f[i].vals);
    free(f);
}

fmt_filter *read_format_filters(const src_filter *f, int n, const schema *file_schema, int *nout)
{
    fmt_filter *out = xcalloc((size_t)n + 1, sizeof *out);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (f[i].col < 0 || f[i].col >= file_schema->n || f[i].op > SF_NOT_IN)
            continue; /* virtual columns; LIKE is not judged by statistics */
        out[k++] = (fmt_filter){.col = file_schema->names[f[i].col], .want = file_schema->types[f[i].col],
                                .op = (int)f[i].op, .vals = f[i].vals};
    }
    *nout = k;
    return out;
}

bool *read_prefilter_init(read_prefilter *p, const int *cols, int ncols, int nfile, const char *path,
                          const bool *pre, fmt_prefilter_fn fn, void *ctx)
{
    memset(p, 0, sizeof *p);
    bool *file_cols = xcalloc((size_t)nfile + 1, sizeof *file_cols);
    for (int i = 0; i < ncols; i++) {
        if (!pre[i])
            continue;
        if (cols[i] < nfile) {
            file_cols[cols[i]] = true;
        } else if (cols[i] > nfile + 1) { /* _size */
            free(file_cols);
            return NULL;
        }
    }
    *p = (read_prefilter){.cols = cols, .ncols = ncols, .nfile = nfile, .path = path, .fn = fn, .ctx = ctx};
    p->pre = xcalloc((size_t)ncols + 1, sizeof *p->pre);
    memcpy(p->pre, pre, (size_t)ncols * sizeof *pre);
    return file_cols;
}

long read_prefilter_call(void *ctx, const block *b, uint8_t *keep)
{
    read_prefilter *p = ctx;
    block *v = block_new(p->ncols, b->rows);
    for (int i = 0; i < p->ncols; i++) {
        int c = p->cols[i];
        if (!p->pre[i])
            continue;
        if (c < p->nfile) {
            v->cols[i] = col_ref(b->cols[c]);
        } else {
            const char *val = c == p->nfile ? p->path : read_base_name(p->path);
            column *one = col_new(type_lowcard(type_simple(T_STRING)));
            col_push_str(one, val, strlen(val));
            v->cols[i] = col_new_const(one, b->rows);
        }
    }
    long kept = p->fn(p->ctx, v, keep);
    block_free(v);
    return kept;
}

void read_prefilter_free(read_prefilter *p)
{
    free(p->pre);
    p->pre = NULL;
}
