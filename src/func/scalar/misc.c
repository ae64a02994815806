/* Miscellaneous functions: toTypeName, materialize, ignore, identity, currentDatabase,
 * version, hostName, isFinite, isInfinite, isNaN, rand, rand64, throwIf, tuple,
 * tupleElement.
 *
 * toTypeName sees the original argument type (FN_OWN_NULLS | FN_OWN_LOWCARD).
 * rand/rand64 use a per-thread xorshift generator seeded from the clock and thread, so
 * they are thread-safe and differ between calls (FN_NOT_DETERMINISTIC). */
#include <errno.h>
#include <time.h>
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/version.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>


static column *const_string(const char *s, size_t n, size_t rows)
{
    column *one = col_new(type_simple(T_STRING));
    col_push_str(one, s, n);
    return col_new_const(one, rows);
}

static int typename_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const char *s = c->state;
    *out = const_string(s, strlen(s), n);
    return 0;
}

static int typename_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    c->state = (void *)c->arg_types[0]->name;
    c->ret = type_simple(T_STRING);
    c->exec = typename_exec;
    return 0;
}

static int materialize_exec(const fn_call *c, column **a, size_t n, column **out)
{
    *out = col_materialize(col_ref(a[0]));
    if ((*out)->refs > 1) {
        column *cp = col_clone(*out);
        col_free(*out);
        *out = cp;
    }
    return 0;
}

static int materialize_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    c->ret = c->arg_types[0];
    c->exec = materialize_exec;
    return 0;
}

static int ignore_exec(const fn_call *c, column **a, size_t n, column **out)
{
    uint8_t *d;
    *out = num_new_u8(n, &d);
    memset(d, 0, n);
    return 0;
}

static int ignore_resolve(fn_call *c)
{
    c->ret = type_simple(T_UINT8);
    c->exec = ignore_exec;
    return 0;
}

static int conststr_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const char *s = c->state;
    *out = const_string(s, strlen(s), n);
    return 0;
}

static int conststr_resolve(fn_call *c)
{
    if (c->nargs != 0)
        return fn_bad_nargs(c, "0");
    const char *nm = c->def->name;
    static char host[256];
    if (!strcmp(nm, "currentDatabase"))
        c->state = (void *)(c->env && c->env->database ? c->env->database : "default");
    else if (!strcmp(nm, "currentUser"))
        c->state = (void *)(c->env && c->env->user ? c->env->user : "default");
    else if (!strcmp(nm, "version"))
        c->state = (void *)SHALE_VERSION;
    else {
        if (!host[0] && gethostname(host, sizeof host - 1) != 0)
            strcpy(host, "localhost");
        c->state = host;
    }
    c->ret = type_simple(T_STRING);
    c->exec = conststr_exec;
    return 0;
}

typedef enum { KF_FINITE, KF_INFINITE, KF_NAN } fpclass;

static int fp_exec(const fn_call *c, column **a, size_t n, column **out)
{
    fpclass k = (fpclass)(intptr_t)c->state;
    uint8_t *d;
    *out = num_new_u8(n, &d);
    const type *t = c->arg_types[0];
    if (!num_is_float(t)) {
        memset(d, k == KF_FINITE, n);
        return 0;
    }
    double *v = mem_alloc((n ? n : 1) * 8);
    num_load_f64(t, a[0]->data.p, n, v);
    for (size_t i = 0; i < n; i++)
        d[i] = k == KF_FINITE ? isfinite(v[i]) != 0 : k == KF_INFINITE ? isinf(v[i]) != 0 : isnan(v[i]) != 0;
    mem_free(v);
    return 0;
}

static int fp_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!type_is_number(c->arg_types[0]))
        return fn_bad_types(c);
    const char *nm = c->def->name;
    c->state = (void *)(intptr_t)(!strcmp(nm, "isFinite") ? KF_FINITE : !strcmp(nm, "isInfinite") ? KF_INFINITE : KF_NAN);
    c->ret = type_simple(T_UINT8);
    c->exec = fp_exec;
    return 0;
}

static _Thread_local uint64_t rng_state;

uint64_t fn_rand_u64(void)
{
    if (!rng_state) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        rng_state = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)&rng_state ^ (uint64_t)ts.tv_sec;
        if (!rng_state) rng_state = 1;
    }
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static int rand_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(c->ret);
    if (c->ret->id == T_UINT64) {
        uint64_t *d = buf_grow(&r->data, n * 8);
        for (size_t i = 0; i < n; i++) d[i] = fn_rand_u64();
    } else {
        uint32_t *d = buf_grow(&r->data, n * 4);
        for (size_t i = 0; i < n; i++) d[i] = (uint32_t)(fn_rand_u64() >> 32);
    }
    r->len = n;
    *out = r;
    return 0;
}

static int rand_resolve(fn_call *c)
{
    c->ret = type_simple(strcmp(c->def->name, "rand64") == 0 ? T_UINT64 : T_UINT32);
    c->exec = rand_exec;
    return 0;
}

static int throwif_exec(const fn_call *c, column **a, size_t n, column **out)
{
    for (size_t i = 0; i < n; i++)
        if (col_get_f64(a[0], i) != 0) {
            size_t ml;
            const char *m = fn_const_str(c, 1, &ml);
            if (m)
                return err_set(ERR_FUNCTION_THROW_IF_VALUE_IS_NON_ZERO, "%.*s", (int)ml, m);
            return err_set(ERR_FUNCTION_THROW_IF_VALUE_IS_NON_ZERO, "Value passed to 'throwIf' function is non-zero");
        }
    uint8_t *d;
    *out = num_new_u8(n, &d);
    memset(d, 0, n);
    return 0;
}

static int throwif_resolve(fn_call *c)
{
    if (c->nargs != 1 && c->nargs != 2)
        return fn_bad_nargs(c, "1 or 2");
    if (!num_is_int(c->arg_types[0]) && !num_is_float(c->arg_types[0]))
        return fn_bad_types(c);
    if (c->nargs == 2 && !fn_const_str(c, 1, &(size_t){0}))
        return err_set(ERR_ILLEGAL_COLUMN, "Second argument of function throwIf must be a constant string");
    c->ret = type_simple(T_UINT8);
    c->exec = throwif_exec;
    return 0;
}

/* sleep(seconds): pauses once per block; sleepEachRow(seconds): seconds × the block's rows
 * (at most 3 s a block either way, as ClickHouse). Both return 0. */
static int sleep_exec(const fn_call *c, column **a, size_t n, column **out)
{
    double secs = n ? col_get_f64(a[0], 0) : 0;
    if (c->state && secs >= 0)
        secs *= (double)n;
    if (!(secs >= 0) || secs > 3)
        return err_set(ERR_BAD_ARGUMENTS, "The maximum sleep time is 3000000 microseconds. Requested: %g seconds", secs);
    if (n && secs > 0) {
        struct timespec ts = {(time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9)};
        while (nanosleep(&ts, &ts) && errno == EINTR)
            ;
    }
    uint8_t *d;
    *out = num_new_u8(n, &d);
    memset(d, 0, n);
    (void)c;
    return 0;
}

static int sleep_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!num_is_int(c->arg_types[0]) && !num_is_float(c->arg_types[0]))
        return fn_bad_types(c);
    c->ret = type_simple(T_UINT8);
    c->exec = sleep_exec;
    c->state = strcmp(c->def->name, "sleepEachRow") == 0 ? (void *)1 : NULL;
    return 0;
}

static int tuple_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(c->ret);
    for (int k = 0; k < c->nargs; k++) {
        col_free(r->fields[k]);
        r->fields[k] = col_clone(a[k]);
        r->fields[k]->type = c->ret->fields[k];
    }
    r->len = n;
    *out = r;
    return 0;
}

static int tuple_resolve(fn_call *c)
{
    c->ret = type_tuple(c->nargs, c->arg_types, NULL); /* tuple() is the empty Tuple() */
    c->exec = tuple_exec;
    return 0;
}

static int tupleelement_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int k = (int)(intptr_t)c->state;
    *out = col_clone(a[0]->fields[k]);
    return 0;
}

static int tupleelement_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *t = c->arg_types[0];
    if (t->id != T_TUPLE)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be tuple or array of tuple. Actual %s",
                       c->name, t->name);
    int64_t idx;
    size_t nl;
    const char *nm;
    int k = -1;
    if (fn_const_int(c, 1, &idx) == 0) {
        if (idx < 1 || idx > t->nfields)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Index for tuple element is out of range");
        k = (int)idx - 1;
    } else if ((nm = fn_const_str(c, 1, &nl)) && t->field_names) {
        for (int i = 0; i < t->nfields; i++)
            if (strlen(t->field_names[i]) == nl && !memcmp(t->field_names[i], nm, nl))
                k = i;
        if (k < 0)
            return err_set(ERR_NOT_IMPLEMENTED, "Tuple doesn't have element with name '%.*s'", (int)nl, nm);
    } else {
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Second argument to %s must be a constant UInt or String", c->name);
    }
    c->state = (void *)(intptr_t)k;
    c->ret = t->fields[k];
    c->exec = tupleelement_exec;
    return 0;
}

void func_register_misc(void)
{
    static const func_def defs[] = {
        {"toTypeName", FN_OWN_NULLS | FN_OWN_LOWCARD, typename_resolve, NULL, "the type name of the argument"},
        {"materialize", FN_OWN_NULLS | FN_OWN_LOWCARD | FN_NO_CONST_FOLD, materialize_resolve, NULL, "a constant as a full column"},
        {"identity", FN_OWN_NULLS | FN_OWN_LOWCARD, materialize_resolve, NULL, "the argument itself"},
        {"ignore", FN_OWN_NULLS | FN_OWN_LOWCARD, ignore_resolve, NULL, "0 for any arguments"},
        {"currentDatabase", 0, conststr_resolve, NULL, "the current database"},
        {"currentUser", 0, conststr_resolve, NULL, "the user running the query"},
        {"version", FN_CASE_INSENSITIVE, conststr_resolve, NULL, "shale's version"},
        {"hostName", 0, conststr_resolve, NULL, "the host name"},
        {"isFinite", 0, fp_resolve, NULL, "1 if the float is finite"},
        {"isInfinite", 0, fp_resolve, NULL, "1 if the float is infinite"},
        {"isNaN", 0, fp_resolve, NULL, "1 if the float is NaN"},
        {"rand", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD | FN_CASE_INSENSITIVE, rand_resolve, NULL, "random UInt32"},
        {"rand64", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, rand_resolve, NULL, "random UInt64"},
        {"throwIf", 0, throwif_resolve, NULL, "throws when the argument is non-zero"},
        {"sleep", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, sleep_resolve, NULL, "pauses for the given seconds (at most 3), returns 0"},
        {"sleepEachRow", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, sleep_resolve, NULL, "pauses for the given seconds per row (at most 3 a block), returns 0"},
        {"tuple", FN_OWN_NULLS, tuple_resolve, NULL, "a tuple of the arguments"},
        {"tupleElement", 0, tupleelement_resolve, NULL, "element of a tuple by index or name"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("DATABASE", "currentDatabase");
    func_register_alias("user", "currentUser");
    func_register_alias("rand32", "rand");
}
