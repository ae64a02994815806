/* reinterpret(x, 'T') and reinterpretAs<T>(x): a value's bytes in memory read as another
 * type (reinterpretAsString lives in pred.c).
 *
 * A value's bytes are ClickHouse's in-memory layout, which shale's columns share (little-
 * endian numbers, decimals as scaled integers, UUID with its first half in the low 64 bits,
 * IPv6 in network order); a String or FixedString gives its own bytes. A numeric target
 * takes the first bytes and zero-fills the rest (so reinterpretAsInt128(toInt8(-1)) is 255,
 * not -1), a FixedString(N) target truncates or zero-pads to N, an Array target splits a
 * string into elements (its length must be a multiple of the element size). As in
 * ClickHouse, only numbers, Bool, Date, DateTime, DateTime64, decimals, UUID and strings
 * can become numbers (Date32, Enum and IP addresses cannot), a String cannot become a
 * FixedString, and the target must be a number, String, FixedString or an Array of numbers. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <string.h>

/* The target is a number in ClickHouse's sense (what reinterpret accepts as one). */
static bool numeric_target(const type *t)
{
    switch (t->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINT128:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_INT128:
    case T_FLOAT32: case T_FLOAT64: case T_BOOL: case T_DATE: case T_DATETIME: case T_DATETIME64:
    case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128: case T_UUID:
    case T_UINT256: case T_INT256: case T_DECIMAL256:
        return true;
    default:
        return false;
    }
}

/* Sources a number can be made from: the numeric targets and strings. */
static bool numeric_source(const type *t)
{
    return numeric_target(t) || t->id == T_STRING || t->id == T_FIXEDSTRING;
}

/* Row i's bytes (a pointer into the column) and their count. */
static const char *value_bytes(const column *c, const type *t, size_t i, size_t *len)
{
    if (t->id == T_STRING || t->id == T_FIXEDSTRING)
        return col_str(c, i, len);
    *len = t->width;
    return (const char *)c->data.p + col_idx(c, i) * t->width;
}

static int reinterpret_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const type *from = c->arg_types[0], *to = type_phys(c->ret);
    column *res = col_new(c->ret);
    col_reserve(res, n);
    char tmp[32];
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *p = value_bytes(a[0], from, i, &len);
        if (to->id == T_STRING) {
            if (from->id != T_STRING)
                while (len && p[len - 1] == 0)
                    len--;
            col_push_str(res, p, len);
        } else if (to->id == T_FIXEDSTRING) {
            col_push_str(res, p, len < to->width ? len : to->width); /* pads with zeros */
        } else if (to->id == T_ARRAY) {
            unsigned w = type_phys(to->inner)->width;
            if (len % w) {
                col_free(res);
                return err_set(ERR_BAD_ARGUMENTS, "Incorrect length argument for method ColumnArray::insertData");
            }
            for (size_t k = 0; k < len; k += w)
                col_push_fixed(res->inner, p + k);
            col_array_commit(res);
        } else {
            memset(tmp, 0, sizeof tmp);
            memcpy(tmp, p, len < to->width ? len : to->width);
            col_push_fixed(res, tmp);
        }
    }
    *out = res;
    return 0;
}

static int check_pair(const fn_call *c, const type *from, const type *to)
{
    if (to->id == T_STRING)
        return from->id == T_STRING || from->id == T_FIXEDSTRING || (from->width && from->id != T_NOTHING) ? 0
               : err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as String because it is not contiguous in memory",
                         from->name);
    if (to->id == T_FIXEDSTRING) {
        if (from->id == T_FIXEDSTRING || (from->width && from->id != T_NOTHING))
            return 0;
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as FixedString because it is not fixed size "
                       "and contiguous in memory", from->name);
    }
    if (to->id == T_ARRAY) {
        const type *e = to->inner;
        if (!numeric_target(e) || e->id == T_UUID)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as %s because only reinterpretation in "
                           "String, FixedString and Numeric types is supported", from->name, to->name);
        if (from->id != T_STRING && from->id != T_FIXEDSTRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as %s because only String or FixedString "
                           "can be reinterpreted as array", from->name, to->name);
        return 0;
    }
    if (!numeric_target(to))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as %s because only reinterpretation in String, "
                       "FixedString and Numeric types is supported", from->name, to->name);
    if (!numeric_source(from))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret %s as %s because only Numeric, String or "
                       "FixedString can be reinterpreted in Numeric", from->name, to->name);
    (void)c;
    return 0;
}

static int reinterpret_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    if (!c->const_args[1] || c->arg_types[1]->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Second argument to %s must be a constant string describing type. "
                       "Instead there is non-constant column of type %s", c->name, c->arg_types[1]->name);
    size_t len;
    const char *s = fn_const_str(c, 1, &len);
    const type *to = s ? type_parse(s, len) : NULL;
    if (!to)
        return -1;
    if (check_pair(c, c->arg_types[0], to) < 0)
        return -1;
    c->ret = to;
    c->exec = reinterpret_exec;
    return 0;
}

/* reinterpretAs<T>: the target is the part of the name after "reinterpretAs". */
static int reinterpret_as_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const char *tn = c->def->name + strlen("reinterpretAs");
    const type *from = c->arg_types[0], *to;
    if (!strcmp(tn, "FixedString")) {
        if (from->id == T_STRING || !(from->id == T_FIXEDSTRING || (from->width && from->id != T_NOTHING)))
            return check_pair(c, from, type_fixedstring(1));
        to = from->id == T_FIXEDSTRING ? from : type_fixedstring(from->width);
    } else {
        to = type_parse_cstr(tn);
        if (!to || check_pair(c, from, to) < 0)
            return -1;
    }
    c->ret = to;
    c->exec = reinterpret_exec;
    return 0;
}

void func_register_reinterpret(void)
{
    static const func_def defs[] = {
        {"reinterpret", 0, reinterpret_resolve, NULL, "the value's bytes in memory read as the named type"},
        {"reinterpretAsUInt8", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UInt8"},
        {"reinterpretAsUInt16", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UInt16"},
        {"reinterpretAsUInt32", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UInt32"},
        {"reinterpretAsUInt64", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UInt64"},
        {"reinterpretAsUInt128", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UInt128"},
        {"reinterpretAsInt8", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Int8"},
        {"reinterpretAsInt16", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Int16"},
        {"reinterpretAsInt32", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Int32"},
        {"reinterpretAsInt64", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Int64"},
        {"reinterpretAsInt128", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Int128"},
        {"reinterpretAsInt256", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Int256"},
        {"reinterpretAsUInt256", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UInt256"},
        {"reinterpretAsFloat32", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Float32"},
        {"reinterpretAsFloat64", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Float64"},
        {"reinterpretAsDate", 0, reinterpret_as_resolve, NULL, "the value's bytes read as Date"},
        {"reinterpretAsDateTime", 0, reinterpret_as_resolve, NULL, "the value's bytes read as DateTime"},
        {"reinterpretAsUUID", 0, reinterpret_as_resolve, NULL, "the value's bytes read as UUID"},
        {"reinterpretAsFixedString", 0, reinterpret_as_resolve, NULL, "the value's bytes as a FixedString of its width"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
