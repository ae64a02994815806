/* Helpers for function unit tests: build small columns, call a function, read values. */
#ifndef SHALE_TEST_FUNC_UTIL_H
#define SHALE_TEST_FUNC_UTIL_H

#include "base/err.h"
#include "func/func.h"

#include <stdio.h>
#include <stdlib.h>

static func_env test_env = {"UTC", 0};

/* A column of type tn from integers (or, for floats, doubles given as ints*1). */
static inline column *icol(const char *tn, int n, const long long *v)
{
    const type *t = type_parse_cstr(tn);
    column *c = col_new(t);
    for (int i = 0; i < n; i++) {
        uint8_t b[16] = {0};
        const type *p = type_base(t);
        if (p->id == T_FLOAT64) { double d = (double)v[i]; memcpy(b, &d, 8); }
        else if (p->id == T_FLOAT32) { float f = (float)v[i]; memcpy(b, &f, 4); }
        else if (p->width == 16) { int128_t x = v[i]; memcpy(b, &x, 16); }
        else memcpy(b, &v[i], p->width);
        if (type_phys(t)->id == T_NULLABLE) { col_push_fixed(c->inner, b); col_nullable_commit(c, false); }
        else col_push_fixed(c, b);
    }
    return c;
}
static inline column *fcol(const char *tn, int n, const double *v)
{
    const type *t = type_parse_cstr(tn);
    column *c = col_new(t);
    for (int i = 0; i < n; i++) {
        if (type_base(t)->id == T_FLOAT32) { float f = (float)v[i]; col_push_fixed(c, &f); }
        else col_push_fixed(c, &v[i]);
    }
    return c;
}
static inline column *scol(int n, const char *const *v)
{
    column *c = col_new(type_simple(T_STRING));
    for (int i = 0; i < n; i++)
        col_push_str(c, v[i], strlen(v[i]));
    return c;
}
static inline column *constcol(column *one, size_t rows) { return col_new_const(one, rows); }

/* Calls name(args) over rows; constant args are also offered to the resolver. Returns the
 * result column or NULL (error left in err_msg()). Sets *tname to the result type name. */
static inline column *call(const char *name, int n, column **args, size_t rows, const char **tname)
{
    const type *types[16];
    column *consts[16];
    for (int i = 0; i < n; i++) {
        types[i] = args[i]->type;
        consts[i] = args[i]->is_const ? args[i] : NULL;
    }
    fn_call *fc;
    if (func_resolve(name, n, types, consts, &test_env, &fc) < 0)
        return NULL;
    column *out;
    int rc = fn_exec(fc, args, rows, &out);
    if (tname)
        *tname = fc->result_type->name;
    fn_call_free(fc);
    return rc < 0 ? NULL : out;
}

static inline void free_args(int n, column **args)
{
    for (int i = 0; i < n; i++)
        col_free(args[i]);
}

/* Value i of a result as text, for comparisons (ints, floats %.17g, strings). */
static inline const char *val(const column *c, size_t i)
{
    static char b[8][256];
    static int k;
    char *o = b[k++ & 7];
    if (type_phys(c->type)->id == T_NULLABLE) {
        if (col_is_null(c, i))
            return "NULL";
        c = c->inner;
        i = col_idx(c, i);
        if (c->is_const) i = 0;
    }
    const type *t = type_base(c->type);
    if (t->id == T_STRING || t->id == T_FIXEDSTRING) {
        size_t n;
        const char *s = col_str(c, i, &n);
        snprintf(o, 256, "%.*s", (int)n, s);
    } else if (t->id == T_FLOAT64 || t->id == T_FLOAT32) {
        snprintf(o, 256, "%.17g", col_get_f64(c, i));
    } else if (t->id == T_UINT64) {
        snprintf(o, 256, "%llu", (unsigned long long)col_get_u64(c, i));
    } else if (t->width == 16) {
        snprintf(o, 256, "%lld", (long long)col_get_i64(c, i));
    } else if (t->id == T_NOTHING) {
        snprintf(o, 256, "NULL");
    } else {
        snprintf(o, 256, "%lld", (long long)col_get_i64(c, i));
    }
    return o;
}
#endif
