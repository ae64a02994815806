/* toJSONString(value): a value of any type as JSON text, as ClickHouse writes it with its
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

void func_register_tojson(void)
{
    static const func_def def = {"toJSONString", 0, tojson_resolve, NULL, "a value of any type as JSON text"};
    func_register(&def);
}
