/* toStringCutToZero(s): a String or FixedString up to its first zero byte, as a String.
 *
 * toJSONString(value): a value of any type as JSON text, as ClickHouse writes it with its
 * default JSON settings for this function: 64-bit and wider integers and decimals bare
 * (not quoted), nan/inf as null, '/' escaped, dates and times as strings, arrays as
 * arrays, named tuples as objects and unnamed ones as arrays, maps as objects with the
 * keys' text as names, Nullable NULL inside a value as null (column/text.h, TEXT_JSON).
 * A NULL argument gives NULL (the default Nullable handling); a LowCardinality argument a
 * LowCardinality result. Thread-safe. */
#include "func/func.h"

#include "base/buf.h"
#include "base/err.h"
#include "column/text.h"

#include <string.h>

static int tojson_exec(const fn_call *c, column **a, size_t n, column **out)
{
    text_opts o;
    text_opts_default(&o);
    o.tz = c->env ? c->env->timezone : NULL;
    o.json_quote_64bit_integers = false;
    o.json_quote_decimals = false;
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    buf b = {0};
    for (size_t i = 0; i < n; i++) {
        b.len = 0;
        text_write(&b, a[0], col_idx(a[0], i), TEXT_JSON, &o);
        col_push_str(r, (const char *)b.p, b.len);
    }
    buf_free(&b);
    *out = r;
    return 0;
}

static int tojson_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    c->ret = type_simple(T_STRING);
    c->exec = tojson_exec;
    return 0;
}

static int cut_zero_exec(const fn_call *c, column **a, size_t n, column **out)
{
    column *r = col_new(type_simple(T_STRING));
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = col_str(a[0], col_idx(a[0], i), &len);
        const char *z = memchr(s, 0, len);
        col_push_str(r, s, z ? (size_t)(z - s) : len);
    }
    *out = r;
    return 0;
}

static int cut_zero_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    type_id id = type_phys(c->arg_types[0])->id;
    if (id != T_STRING && id != T_FIXEDSTRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", c->arg_types[0]->name,
                       c->name);
    c->ret = type_simple(T_STRING);
    c->exec = cut_zero_exec;
    return 0;
}

void func_register_tojson(void)
{
    static const func_def defs[] = {
        {"toJSONString", 0, tojson_resolve, NULL, "a value of any type as JSON text"},
        {"toStringCutToZero", 0, cut_zero_resolve, NULL, "a string up to its first zero byte"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
