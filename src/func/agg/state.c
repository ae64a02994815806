/* Aggregate function states as values: the -State, -Merge and -MergeState combinators, the
 * per-type call cache behind AggregateFunction columns, and the byte helpers the families'
 * (de)serializers share (func/agg_state.h). */
#include "agg_impl.h"
#include "func/agg_state.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- bytes ---- */

int agg_rd_short(agg_rd *r, size_t n)
{
    size_t have = (size_t)(r->end - r->p);
    r->short_by = n > have ? n - have : 1;
    return err_set(ERR_CANNOT_READ_ALL_DATA,
                   "Cannot read all data of an aggregate function state: needed %zu more bytes, %zu left", n,
                   (size_t)(r->end - r->p));
}

int agg_rd_bytes(agg_rd *r, void *dst, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return agg_rd_short(r, n);
    if (n)
        memcpy(dst, r->p, n);
    r->p += n;
    return 0;
}

int agg_rd_varuint(agg_rd *r, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        if (r->p >= r->end) {
            r->short_by = 1;
            return err_set(ERR_CANNOT_READ_ALL_DATA,
                           "Cannot read all data of an aggregate function state: truncated VarUInt");
        }
        uint8_t b = *r->p++;
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return err_set(ERR_INCORRECT_DATA, "Malformed VarUInt in an aggregate function state");
}

void agg_put_varuint(buf *b, uint64_t v)
{
    while (v >= 0x80) {
        buf_putc(b, (char)(uint8_t)(v | 0x80));
        v >>= 7;
    }
    buf_putc(b, (char)(uint8_t)v);
}

void agg_put_value(buf *b, const column *c, size_t i)
{
    const type *t = type_phys(c->type);
    i = col_idx(c, i);
    switch (t->id) {
    case T_NULLABLE:
        if (c->nulls.p[i]) {
            buf_putc(b, 1);
        } else {
            buf_putc(b, 0);
            agg_put_value(b, c->inner, i);
        }
        return;
    case T_ARRAY:
    case T_MAP: {
        const uint64_t *o = col_offs(c);
        agg_put_varuint(b, o[i + 1] - o[i]);
        for (uint64_t j = o[i]; j < o[i + 1]; j++)
            agg_put_value(b, c->inner, (size_t)j);
        return;
    }
    case T_TUPLE:
        for (int f = 0; f < c->nfields; f++)
            agg_put_value(b, c->fields[f], i);
        return;
    case T_STRING:
    case T_AGGSTATE: {
        size_t n;
        const char *s = col_str(c, i, &n);
        if (t->id == T_STRING)
            agg_put_varuint(b, n);
        buf_append(b, s, n);
        return;
    }
    default:
        buf_append(b, c->data.p + i * t->width, t->width);
        return;
    }
}

enum { MAX_VALUE_BYTES = 1 << 30 };

int agg_get_value(agg_rd *r, column *dst)
{
    const type *t = type_phys(dst->type);
    switch (t->id) {
    case T_NULLABLE: {
        uint8_t f = 0;
        if (agg_rd_bytes(r, &f, 1) < 0)
            return -1;
        if (f > 1)
            return err_set(ERR_INCORRECT_DATA, "Malformed Nullable flag %u in an aggregate function state", f);
        if (f) {
            col_push_null(dst);
            return 0;
        }
        if (agg_get_value(r, dst->inner) < 0)
            return -1;
        col_nullable_commit(dst, false);
        return 0;
    }
    case T_ARRAY:
    case T_MAP: {
        uint64_t n = 0;
        if (agg_rd_varuint(r, &n) < 0)
            return -1;
        if (n > (uint64_t)(r->end - r->p))
            return agg_rd_short(r, (size_t)n);
        for (uint64_t j = 0; j < n; j++)
            if (agg_get_value(r, dst->inner) < 0)
                return -1;
        col_array_commit(dst);
        return 0;
    }
    case T_TUPLE:
        for (int f = 0; f < dst->nfields; f++)
            if (agg_get_value(r, dst->fields[f]) < 0)
                return -1;
        dst->len++;
        return 0;
    case T_STRING: {
        uint64_t n = 0;
        if (agg_rd_varuint(r, &n) < 0)
            return -1;
        if (n > MAX_VALUE_BYTES || n > (uint64_t)(r->end - r->p))
            return n > MAX_VALUE_BYTES ? err_set(ERR_INCORRECT_DATA,
                                                 "Too large string size %llu in an aggregate function state",
                                                 (unsigned long long)n)
                                       : agg_rd_short(r, (size_t)n);
        col_push_str(dst, (const char *)r->p, (size_t)n);
        r->p += n;
        return 0;
    }
    case T_AGGSTATE: {
        size_t used;
        if (agg_state_span(t, r->p, (size_t)(r->end - r->p), &used) < 0)
            return -1;
        col_push_str(dst, (const char *)r->p, used);
        r->p += used;
        return 0;
    }
    default: {
        if ((size_t)(r->end - r->p) < t->width)
            return agg_rd_short(r, t->width);
        col_push_fixed(dst, r->p);
        r->p += t->width;
        return 0;
    }
    }
}

/* ---- values as ClickHouse's columns write them into an arena (serializeValueIntoArena) ---- */

void agg_put_arena(buf *b, const column *c, size_t i)
{
    const type *t = type_phys(c->type);
    i = col_idx(c, i);
    switch (t->id) {
    case T_NULLABLE:
        buf_putc(b, c->nulls.p[i] ? 1 : 0);
        if (!c->nulls.p[i])
            agg_put_arena(b, c->inner, i);
        return;
    case T_ARRAY:
    case T_MAP: {
        const uint64_t *o = col_offs(c);
        uint64_t n = o[i + 1] - o[i];
        buf_append(b, &n, 8);
        for (uint64_t j = o[i]; j < o[i + 1]; j++)
            agg_put_arena(b, c->inner, (size_t)j);
        return;
    }
    case T_TUPLE:
        for (int f = 0; f < c->nfields; f++)
            agg_put_arena(b, c->fields[f], i);
        return;
    case T_STRING: {
        size_t n;
        const char *p = col_str(c, i, &n);
        uint64_t sz = n + 1; /* counts the terminating NUL, which follows the bytes */
        buf_append(b, &sz, 8);
        buf_append(b, p, n);
        buf_putc(b, 0);
        return;
    }
    default:
        agg_put_value(b, c, i);
        return;
    }
}

int agg_get_arena(agg_rd *r, column *dst)
{
    const type *t = type_phys(dst->type);
    switch (t->id) {
    case T_NULLABLE: {
        uint8_t f = 0;
        if (agg_rd_bytes(r, &f, 1) < 0)
            return -1;
        if (f) {
            col_push_null(dst);
            return 0;
        }
        if (agg_get_arena(r, dst->inner) < 0)
            return -1;
        col_nullable_commit(dst, false);
        return 0;
    }
    case T_ARRAY:
    case T_MAP: {
        uint64_t n = 0;
        if (agg_rd_bytes(r, &n, 8) < 0)
            return -1;
        if (n > (uint64_t)(r->end - r->p))
            return agg_rd_short(r, n);
        for (uint64_t j = 0; j < n; j++)
            if (agg_get_arena(r, dst->inner) < 0)
                return -1;
        col_array_commit(dst);
        return 0;
    }
    case T_TUPLE:
        for (int f = 0; f < dst->nfields; f++)
            if (agg_get_arena(r, dst->fields[f]) < 0)
                return -1;
        dst->len++;
        return 0;
    case T_STRING: {
        uint64_t n = 0;
        if (agg_rd_bytes(r, &n, 8) < 0)
            return -1;
        if (n == 0 || n > (uint64_t)(r->end - r->p))
            return n ? agg_rd_short(r, n) : err_set(ERR_INCORRECT_DATA, "String of size 0 in an aggregate state");
        col_push_str(dst, (const char *)r->p, (size_t)n - 1);
        r->p += n;
        return 0;
    }
    default:
        return agg_get_value(r, dst);
    }
}

/* ---- whole states ---- */

void agg_state_write(const agg_call *a, const void *state, buf *out) { a->ops.serialize(a, state, out); }

static int read_need(const agg_call *a, void *state, const uint8_t *p, size_t n, size_t *used, size_t *need)
{
    agg_rd r = {p, p + n, 0};
    if (a->ops.deserialize(a, state, &r) < 0) {
        if (need)
            *need = err_code() == ERR_CANNOT_READ_ALL_DATA && r.short_by ? r.short_by : 0;
        return -1;
    }
    *used = (size_t)(r.p - p);
    return 0;
}

int agg_state_read(const agg_call *a, void *state, const uint8_t *p, size_t n, size_t *used)
{
    return read_need(a, state, p, n, used, NULL);
}

int agg_state_merge_bytes(const agg_call *a, void *dst, const uint8_t *p, size_t n)
{
    void *tmp = agg_state_new(a);
    size_t used;
    int rc = agg_state_read(a, tmp, p, n, &used);
    if (rc == 0 && used != n)
        rc = err_set(ERR_INCORRECT_DATA, "Aggregate function state has %zu bytes after its end", n - used);
    if (rc == 0)
        a->ops.merge(a, dst, tmp);
    agg_state_free(a, tmp);
    return rc;
}

int agg_state_span_need(const type *t, const uint8_t *p, size_t n, size_t *used, size_t *need)
{
    const agg_call *a = agg_state_call(t);
    if (need)
        *need = 0;
    if (!a)
        return -1;
    void *tmp = agg_state_new(a);
    int rc = read_need(a, tmp, p, n, used, need);
    agg_state_free(a, tmp);
    return rc;
}

int agg_state_span(const type *t, const uint8_t *p, size_t n, size_t *used)
{
    return agg_state_span_need(t, p, n, used, NULL);
}

void agg_state_default(const type *t, buf *out)
{
    const agg_call *a = agg_state_call(t);
    if (!a)
        return; /* the type was validated when made; nothing sensible to write otherwise */
    void *tmp = agg_state_new(a);
    agg_state_write(a, tmp, out);
    agg_state_free(a, tmp);
}

/* ---- the call behind an AggregateFunction type ---- */

typedef struct call_ent {
    const type *t;
    agg_call *a;
    struct call_ent *next;
} call_ent;

static call_ent *calls;
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;

/* Splits "name(p1, p2)" into name and numeric parameters. */
static int split_func(const char *f, char *name, size_t cap, double *params, int maxp, int *np)
{
    const char *lp = strchr(f, '(');
    size_t nl = lp ? (size_t)(lp - f) : strlen(f);
    if (nl + 1 > cap)
        return err_set(ERR_BAD_ARGUMENTS, "Aggregate function name too long: %s", f);
    memcpy(name, f, nl);
    name[nl] = 0;
    *np = 0;
    if (!lp)
        return 0;
    const char *s = lp + 1;
    while (*s && *s != ')') {
        char *end;
        if (*np == maxp)
            return err_set(ERR_BAD_ARGUMENTS, "Too many parameters for aggregate function %s", name);
        params[(*np)++] = strtod(s, &end);
        if (end == s)
            return err_set(ERR_BAD_ARGUMENTS, "Bad parameter of aggregate function %s", f);
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    return 0;
}

int agg_resolve_spec(const char *spec, int nargs, const type *const *types, agg_call **out)
{
    char name[256];
    double params[64];
    int np = 0;
    if (split_func(spec, name, sizeof name, params, 64, &np) < 0)
        return -1;
    return agg_resolve(name, nargs, types, np, params, out);
}

/* Resolves the call of an AggregateFunction type without the cache. */
static agg_call *resolve_type(const type *t)
{
    agg_call *a;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(t->agg_func, "("), t->agg_func);
    if (agg_resolve_spec(t->agg_func, t->nfields, t->fields, &a) < 0)
        return NULL;
    if (!a->ops.serialize || !a->ops.deserialize) {
        err_set(ERR_NOT_IMPLEMENTED, "States of aggregate function %s are not supported yet (type %s)", name,
                t->name);
        agg_call_free(a);
        return NULL;
    }
    return a;
}

const agg_call *agg_state_call(const type *t)
{
    t = type_phys(t);
    pthread_mutex_lock(&calls_lock);
    for (call_ent *e = calls; e; e = e->next)
        if (e->t == t) {
            pthread_mutex_unlock(&calls_lock);
            return e->a;
        }
    pthread_mutex_unlock(&calls_lock);
    if (t->id != T_AGGSTATE) {
        err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Type %s is not an AggregateFunction type", t->name);
        return NULL;
    }
    agg_call *a = resolve_type(t);
    if (!a)
        return NULL;
    pthread_mutex_lock(&calls_lock);
    for (call_ent *e = calls; e; e = e->next)
        if (e->t == t) { /* another thread won */
            pthread_mutex_unlock(&calls_lock);
            agg_call_free(a);
            return e->a;
        }
    call_ent *e = xmalloc(sizeof *e);
    *e = (call_ent){t, a, calls};
    calls = e;
    pthread_mutex_unlock(&calls_lock);
    return a;
}

/* ---- type hooks ---- */

static int hook_validate(const type *t) { return agg_state_call(t) ? 0 : -1; }
static void hook_default(const type *t, void *out) { agg_state_default(t, out); }
static int hook_validate_simple(const char *func, const type *t)
{
    static const char *const allowed[] = {"any", "anyLast", "min", "max", "sum", "sumWithOverflow",
                                          "groupBitAnd", "groupBitOr", "groupBitXor", "sumMap", "minMap",
                                          "maxMap", "groupArrayArray", "groupUniqArrayArray",
                                          "anyRespectNulls", "anyLastRespectNulls", "groupArrayLastArray"};
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        if (strcmp(func, allowed[i]) == 0) {
            agg_call *a;
            const type *args[1] = {t};
            if (agg_resolve(func, 1, args, 0, NULL, &a) < 0)
                return -1;
            const type *ret = a->ret;
            agg_call_free(a);
            if (ret != t)
                return err_set(ERR_BAD_ARGUMENTS, "Incompatible data types between aggregate function '%s' which "
                               "returns %s and column storage type %s", func, ret->name, t->name);
            return 0;
        }
    return err_set(ERR_BAD_ARGUMENTS, "Unsupported aggregate function %s, supported functions are any, anyLast, "
                   "min, max, sum, sumWithOverflow, groupBitAnd, groupBitOr, groupBitXor, sumMap, minMap, maxMap, "
                   "groupArrayArray, groupArrayLastArray, groupUniqArrayArray, anyRespectNulls, anyLastRespectNulls",
                   func);
}

static int hook_check_state(const type *t, const void *p, size_t n)
{
    size_t used;
    if (agg_state_span(t, p, n, &used) < 0)
        return -1;
    if (used != n)
        return err_set(ERR_BAD_ARGUMENTS, "AggregateFunction state for `%s` has %zu trailing byte(s) after "
                       "deserialization", agg_state_call(t)->name, n - used);
    return 0;
}

/* sumMap, minMap, maxMap and sumMapWithOverflow over arrays are ClickHouse's versioned
 * functions (their state format 1 promotes the values); their Map form is not. */
static int hook_version(const char *func, int nargs, const type *const *args)
{
    static const char *const versioned[] = {"sumMap", "minMap", "maxMap", "sumMapWithOverflow"};
    for (size_t i = 0; i < sizeof versioned / sizeof versioned[0]; i++)
        if (strcmp(func, versioned[i]) == 0)
            return nargs == 1 && type_base(args[0])->id == T_MAP ? 0 : 1;
    return 0;
}

static const type_agg_hooks hooks = {.version = hook_version,
                                     .validate = hook_validate,
                                     .default_state = hook_default,
                                     .validate_simple = hook_validate_simple,
                                     .check_state = hook_check_state};

void agg_state_install_hooks(void) { type_set_agg_hooks(&hooks); }

/* Installed before main so that types parsed anywhere (CREATE TABLE, CAST, formats) are
 * checked and get their default values. */
__attribute__((constructor)) static void install_at_start(void) { agg_state_install_hooks(); }

/* ---- -State: the result is the serialized state ---- */

static void st_init(const agg_call *a, void *s) { a->nested->ops.init(a->nested, s); }
static void st_add_all(const agg_call *a, void *s, column *const *args, size_t rows)
{
    a->nested->ops.add_all(a->nested, s, args, rows);
}
static void st_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    a->nested->ops.add_rows(a->nested, sts, off, args, rows);
}
static void st_add_all_mask(const agg_call *a, void *s, column *const *args, size_t rows, const uint8_t *m)
{
    a->nested->ops.add_all_mask(a->nested, s, args, rows, m);
}
static void st_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                             const uint8_t *m)
{
    a->nested->ops.add_rows_mask(a->nested, sts, off, args, rows, m);
}
static void st_merge(const agg_call *a, void *d, void *s) { a->nested->ops.merge(a->nested, d, s); }
static void st_destroy(const agg_call *a, void *s)
{
    if (a->nested->ops.destroy)
        a->nested->ops.destroy(a->nested, s);
}
static int st_finalize(const agg_call *a, void *s, column *out)
{
    buf b = {0};
    a->nested->ops.serialize(a->nested, s, &b);
    col_push_str(out, (const char *)b.p, b.len);
    buf_free(&b);
    return 0;
}
static void st_serialize(const agg_call *a, const void *s, buf *out) { a->nested->ops.serialize(a->nested, s, out); }
static int st_deserialize(const agg_call *a, void *s, agg_rd *in)
{
    return a->nested->ops.deserialize(a->nested, s, in);
}

/* Copies the shape of nested into a new layer named name (the caller sets ret and ops). */
static agg_call *layer_new(agg_call *nested, const char *name, int nargs, const type *const *types)
{
    agg_call *a = xcalloc(1, sizeof *a);
    a->def = nested->def;
    a->name = xstrdup(name);
    a->nargs = nargs;
    a->arg_types = xcalloc((size_t)(nargs ? nargs : 1), sizeof *a->arg_types);
    for (int i = 0; i < nargs; i++)
        a->arg_types[i] = types[i];
    a->nparams = nested->nparams;
    a->params = xcalloc((size_t)(a->nparams ? a->nparams : 1), sizeof(double));
    memcpy(a->params, nested->params, sizeof(double) * (size_t)a->nparams);
    a->state_size = nested->state_size;
    a->state_align = nested->state_align;
    a->nested = nested;
    return a;
}

/* The parameters as ClickHouse prints them in a type name. */
static void put_params(buf *b, const double *p, int n)
{
    if (!n)
        return;
    buf_putc(b, '(');
    for (int i = 0; i < n; i++) {
        if (i)
            buf_puts(b, ", ");
        if (p[i] == (double)(long long)p[i] && p[i] > -1e18 && p[i] < 1e18) {
            buf_printf(b, "%lld", (long long)p[i]);
            continue;
        }
        char tmp[40];
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(tmp, sizeof tmp, "%.*g", prec, p[i]);
            if (strtod(tmp, NULL) == p[i])
                break;
        }
        buf_puts(b, tmp);
    }
    buf_putc(b, ')');
}

int agg_wrap_state(agg_call *nested, const char *name, size_t base_len, int nargs, const type *const *types,
                   const type *ret, agg_call **out)
{
    if (!nested->ops.serialize || !nested->ops.deserialize) {
        int rc = err_set(ERR_NOT_IMPLEMENTED, "Aggregate function %s: the state of %.*s is not supported yet",
                         name, (int)base_len, name);
        agg_call_free(nested);
        return rc;
    }
    if (!ret) {
        buf f = {0};
        buf_append(&f, name, base_len);
        put_params(&f, nested->params, nested->nparams);
        ret = type_aggstate(buf_cstr(&f), nargs, types);
        buf_free(&f);
        if (!ret) {
            agg_call_free(nested);
            return -1;
        }
    }
    agg_call *a = layer_new(nested, name, nargs, types);
    a->ret = ret;
    a->ops = (agg_ops){.init = st_init,
                       .add_all = st_add_all,
                       .add_rows = st_add_rows,
                       .merge = st_merge,
                       .finalize = st_finalize,
                       .destroy = st_destroy,
                       .add_all_mask = st_add_all_mask,
                       .add_rows_mask = st_add_rows_mask,
                       .serialize = st_serialize,
                       .deserialize = st_deserialize};
    *out = a;
    return 0;
}

/* ---- -Merge: rows are serialized states, merged into the state ---- */

/* Merges row i of the state column c into state s; on a malformed state the error is
 * remembered in the call's first failure (kernels cannot fail) and the row is skipped. */
static void mg_one(const agg_call *a, void *s, const column *c, size_t i)
{
    size_t n;
    const char *p = col_str(c, i, &n);
    if (agg_state_merge_bytes(a->nested, s, (const uint8_t *)p, n) < 0) {
        _Atomic int *bad = a->data;
        atomic_store(bad, 1);
    }
}
static inline void mg_row(const agg_call *a, void *s, column *const *args, size_t i) { mg_one(a, s, args[0], i); }
AGG_ROW_OPS(mg, mg_row)

static int mg_finalize(const agg_call *a, void *s, column *out)
{
    _Atomic int *bad = a->data;
    if (atomic_load(bad))
        return err_set(ERR_INCORRECT_DATA, "Aggregate function %s got a malformed state", a->name);
    return a->nested->ops.finalize(a->nested, s, out);
}

int agg_wrap_merge(const char *name, size_t base_len, int nargs, const type *const *types, int nparams,
                   const double *params, agg_call **out)
{
    if (nargs != 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Incorrect number of arguments for aggregate function with Merge suffix");
    const type *t = type_phys(types[0]);
    if (t->id != T_AGGSTATE)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument for aggregate function with Merge suffix. Must be "
                       "AggregateFunction(...)", types[0]->name);
    size_t fl = strcspn(t->agg_func, "(");
    if (fl != base_len || memcmp(t->agg_func, name, base_len) != 0)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument for aggregate function %s, expected %.*s or equivalent type",
                       types[0]->name, name, (int)base_len, name);
    agg_call *nested = NULL;
    if (nparams > 0) {
        char base[256];
        snprintf(base, sizeof base, "%.*s", (int)base_len, name);
        if (agg_resolve(base, t->nfields, t->fields, nparams, params, &nested) < 0)
            return -1;
        if (!nested->ops.serialize || !nested->ops.deserialize) {
            agg_call_free(nested);
            return err_set(ERR_NOT_IMPLEMENTED, "States of aggregate function %s are not supported yet (type %s)",
                           base, t->name);
        }
    } else if (!(nested = resolve_type(t))) {
        return -1;
    }
    agg_call *a = layer_new(nested, name, nargs, types);
    a->ret = nested->ret;
    a->data = xcalloc(1, sizeof(_Atomic int));
    a->ops = (agg_ops){.init = st_init,
                       .merge = st_merge,
                       .finalize = mg_finalize,
                       .destroy = st_destroy,
                       .serialize = st_serialize,
                       .deserialize = st_deserialize};
    AGG_SET_ADD_OPS(a, mg);
    *out = a;
    return 0;
}
