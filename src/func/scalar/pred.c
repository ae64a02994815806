/* Small functions on types and bytes: isNullable, isZeroOrNull, reinterpretAsString,
 * ascii, randConstant, randomPrintableASCII (and current_database, currentDatabase's alias).
 *
 * isNullable looks at the argument's type (FN_OWN_NULLS | FN_OWN_LOWCARD); isZeroOrNull
 * takes a number that may be Nullable and is 1 for zero or NULL (never Nullable itself);
 * reinterpretAsString gives a fixed-width value's bytes in memory order without trailing
 * zero bytes (strings as they are, FixedString without its zero padding), as ClickHouse.
 * The random ones use fn_rand_u64 (per-thread; FN_NOT_DETERMINISTIC). */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"
#include "base/mem.h"

#include <string.h>

static int is_nullable_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)a;
    column *one = col_new(type_simple(T_UINT8));
    uint8_t v = c->state != NULL;
    col_push_fixed(one, &v);
    *out = col_new_const(one, n);
    return 0;
}

static int is_nullable_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    c->state = type_is_nullable(c->arg_types[0]) ? (void *)1 : NULL;
    c->ret = type_simple(T_UINT8);
    c->exec = is_nullable_exec;
    return 0;
}

static int zero_or_null_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const column *v = a[0];
    const uint8_t *nulls = NULL;
    const type *t = type_phys(c->arg_types[0]);
    if (t->id == T_NULLABLE) {
        nulls = v->nulls.p;
        v = v->inner;
        t = t->inner;
    }
    uint8_t *d;
    *out = num_new_u8(n, &d);
    if (t->id == T_NOTHING) {
        memset(d, 1, n);
        return 0;
    }
    double *x = mem_alloc((n ? n : 1) * sizeof *x);
    num_load_f64(t, v->data.p, n, x);
    for (size_t i = 0; i < n; i++)
        d[i] = (nulls && nulls[i]) || x[i] == 0;
    mem_free(x);
    return 0;
}

static int zero_or_null_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *b = type_strip_nullable(c->arg_types[0]);
    /* Decimals and 128/256-bit integers pass ClickHouse's type check but its kernel has no
     * case for them: ILLEGAL_COLUMN (even over no rows, so here). */
    if (b->id != T_NOTHING && (!num_is_int(b) || num_size(b) > 8) && !num_is_float(b))
        return err_set(type_is_decimal(b) || num_is_int(b) ? ERR_ILLEGAL_COLUMN : ERR_BAD_ARGUMENTS,
                       "The argument of function %s must have simple numeric type, possibly Nullable or Null", c->name);
    c->ret = type_simple(T_UINT8);
    c->exec = zero_or_null_exec;
    return 0;
}

static int reinterpret_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *t = c->arg_types[0];
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *p;
        if (t->id == T_STRING) {
            p = col_str(a[0], i, &len);
        } else {
            p = t->id == T_FIXEDSTRING ? col_str(a[0], i, &len)
                                       : (const char *)a[0]->data.p + i * t->width;
            if (t->id != T_FIXEDSTRING)
                len = t->width;
            while (len && p[len - 1] == 0)
                len--;
        }
        col_push_str(r, p, len);
    }
    *out = r;
    return 0;
}

static int reinterpret_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (!(t->id == T_STRING || t->id == T_FIXEDSTRING ||
          (t->width && (type_is_number(t) || type_is_date_or_time(t) || t->id == T_UUID || type_is_ip(t)))))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as String because it is not contiguous in memory",
                       t->name);
    c->ret = type_simple(T_STRING);
    c->exec = reinterpret_exec;
    return 0;
}

static int rand_constant_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)c, (void)a;
    column *one = col_new(type_simple(T_UINT32));
    uint32_t v = (uint32_t)(fn_rand_u64() >> 32);
    col_push_fixed(one, &v);
    *out = col_new_const(one, n);
    return 0;
}

static int rand_constant_resolve(fn_call *c)
{
    if (c->nargs > 1)
        return fn_bad_nargs(c, "0 or 1");
    c->ret = type_simple(T_UINT32);
    c->exec = rand_constant_exec;
    return 0;
}

#define PRINTABLE_MAX (1ll << 30) /* ClickHouse's limit on one random string */

static int printable_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf tmp = {0};
    for (size_t i = 0; i < n; i++) {
        int64_t len = type_is_signed(c->arg_types[0]) ? col_get_i64(a[0], i) : (int64_t)col_get_u64(a[0], i);
        if (len < 0 || len > PRINTABLE_MAX) {
            buf_free(&tmp);
            col_free(r);
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too large string size in function %s", c->name);
        }
        tmp.len = 0;
        char *p = buf_grow(&tmp, (size_t)len + 1);
        for (int64_t k = 0; k < len; k++)
            p[k] = (char)(32 + fn_rand_u64() % 95);
        col_push_str(r, p, (size_t)len);
    }
    buf_free(&tmp);
    *out = r;
    return 0;
}

static int printable_resolve(fn_call *c)
{
    if (c->nargs < 1 || c->nargs > 2)
        return fn_bad_nargs(c, "1 or 2");
    if (!type_is_integer(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s",
                       c->arg_types[0]->name, c->name);
    c->ret = type_simple(T_STRING);
    c->exec = printable_exec;
    return 0;
}

/* ascii(s): the first byte as Int32, 0 for an empty string. */
static int ascii_exec(const fn_call *c, column **a, size_t n, column **out)
{
    (void)c;
    column *r = col_new(type_simple(T_INT32));
    int32_t *d = buf_grow(&r->data, (n ? n : 1) * sizeof *d);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *p = col_str(a[0], i, &len);
        d[i] = len ? (unsigned char)p[0] : 0;
    }
    r->len = n;
    *out = r;
    return 0;
}

static int ascii_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!type_is_string(c->arg_types[0]))
        return fn_bad_types(c);
    c->ret = type_simple(T_INT32);
    c->exec = ascii_exec;
    return 0;
}

void func_register_pred(void)
{
    static const func_def defs[] = {
        {"isNullable", FN_OWN_NULLS | FN_OWN_LOWCARD, is_nullable_resolve, NULL, "1 if the argument's type is Nullable"},
        {"isZeroOrNull", FN_OWN_NULLS, zero_or_null_resolve, NULL, "1 for zero or NULL"},
        {"reinterpretAsString", 0, reinterpret_resolve, NULL, "a value's bytes without trailing zero bytes"},
        {"ascii", FN_CASE_INSENSITIVE, ascii_resolve, NULL, "the first byte's code"},
        {"randConstant", FN_NOT_DETERMINISTIC, rand_constant_resolve, NULL, "one random UInt32 for the whole block"},
        {"randomPrintableASCII", FN_NOT_DETERMINISTIC | FN_NO_CONST_FOLD, printable_resolve, NULL,
         "a string of n random printable ASCII characters"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
    func_register_alias("current_database", "currentDatabase");
}
