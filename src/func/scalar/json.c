/* JSON functions over String documents (the parser is json_doc.h):
 *   isValidJSON, JSONHas, JSONLength, JSONType, JSONExtractUInt/Int/Float/Bool/String/Raw,
 *   JSONExtractKeys, JSONExtractArrayRaw, JSONExtractKeysAndValuesRaw,
 *   JSONExtract(json, path..., 'Type'), JSONExtractKeysAndValues(json, path..., 'Type').
 *
 * The path arguments after the document are keys (String: an object member, the first when
 * keys repeat) or indexes (any integer: 1-based, negative from the end, over an array's
 * elements or an object's members; 0 finds nothing). As in ClickHouse, an invalid document
 * or a path that finds nothing gives the result type's default (0, '', [], NULL for
 * Nullable), never an error. Conversions follow ClickHouse's JSONExtract tree: numbers
 * convert when they fit (doubles truncate toward zero), strings holding numbers are parsed,
 * null is the default, a value that does not convert is the default — inside an array,
 * tuple or map only that element is. JSONExtractInt/UInt/Float do not convert booleans;
 * JSONExtract(…, 'Int') does. A JSONExtract type shale cannot produce (Decimal, Date,
 * DateTime, Enum, UUID, …) is NOT_IMPLEMENTED.
 * Stateless kernels (the target type lives in fn_call->ret), thread-safe. */
#include "func/func.h"
#include "func/scalar/json_doc.h"

#include "base/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- arguments and the path ---- */

static int first_arg(const fn_call *c)
{
    if (c->nargs < 1)
        return fn_bad_nargs(c, "at least 1");
    /* ClickHouse handles LowCardinality itself here and rejects LowCardinality(Nullable). */
    const type *t = c->arg_types[0];
    if (type_phys(t)->id != T_STRING)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "The first argument of function %s should be a string containing JSON or a JSON object, "
                       "illegal type: %s",
                       c->name, type_phys(t)->name);
    return 0;
}

static bool is_int_type(type_id id) { return id >= T_UINT8 && id <= T_INT128 && id != T_UINT128 && id != T_INT128; }

static int path_args(const fn_call *c, int from, int to)
{
    for (int i = from; i < to; i++) {
        type_id id = type_phys(c->arg_types[i])->id;
        if (id != T_STRING && !is_int_type(id))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "The argument %d of function %s should be a string specifying key or an integer specifying "
                           "index, illegal type: %s",
                           i + 1, c->name, c->arg_types[i]->name);
    }
    return 0;
}

/* Row i's document, followed along path arguments [1, 1 + npath). False when the document
 * is invalid or the path finds nothing. */
static bool locate(const fn_call *c, column **a, size_t i, int npath, jd_val *out)
{
    size_t n;
    const char *s = col_str(a[0], i, &n);
    jd_val v;
    if (!jd_parse(s, n, &v))
        return false;
    for (int k = 1; k <= npath; k++) {
        type_id id = type_phys(c->arg_types[k])->id;
        jd_val next;
        bool found;
        if (id == T_STRING) {
            size_t kl;
            const char *key = col_str(a[k], i, &kl);
            found = jd_find_key(&v, key, kl, &next);
        } else if (id == T_UINT64) {
            found = jd_find_index(&v, (int64_t)col_get_u64(a[k], i), &next); /* wraps, as ClickHouse */
        } else {
            found = jd_find_index(&v, col_get_i64(a[k], i), &next);
        }
        if (!found)
            return false;
        v = next;
    }
    *out = v;
    return true;
}

/* ---- numbers ---- */

/* A parsed number: exactly one of i (signed), u (unsigned) or d (double) per `src`. */
typedef struct num {
    enum { N_INT, N_UINT, N_DOUBLE } src;
    int64_t i;
    uint64_t u;
    double d;
} num;

/* ClickHouse's tryReadIntText: optional sign, digits, nothing else. */
static bool parse_int_text(const char *s, size_t n, num *out)
{
    jd_kind k;
    int64_t i;
    uint64_t u;
    if (!jd_parse_integer(s, n, true, &k, &i, &u))
        return false;
    *out = k == JD_INT64 ? (num){.src = N_INT, .i = i} : (num){.src = N_UINT, .u = u};
    return true;
}

/* ClickHouse's tryReadFloatText over the whole string: decimal or exponent notation, inf,
 * infinity and nan (no hexadecimal, no surrounding spaces). */
static bool parse_float_text(const char *s, size_t n, double *out)
{
    if (n == 0 || n > 400 || s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || memchr(s, 'x', n) || memchr(s, 'X', n) ||
        memchr(s, 0, n))
        return false;
    char b[401];
    memcpy(b, s, n);
    b[n] = 0;
    char *e;
    *out = strtod(b, &e);
    return e == b + n;
}

static bool num_of(const jd_val *v, bool bool_to_num, bool float_target, num *out)
{
    switch (v->kind) {
    case JD_INT64: *out = (num){.src = N_INT, .i = jd_int64(v)}; return true;
    case JD_UINT64: *out = (num){.src = N_UINT, .u = jd_uint64(v)}; return true;
    case JD_DOUBLE: *out = (num){.src = N_DOUBLE, .d = jd_double(v)}; return true;
    case JD_BOOL:
        if (!bool_to_num)
            return false;
        *out = (num){.src = N_INT, .i = v->p[0] == 't'};
        return true;
    case JD_STRING: {
        buf t = {0};
        jd_string(v, &t);
        const char *s = (const char *)t.p;
        bool ok;
        if (!float_target && parse_int_text(s, t.len, out)) {
            ok = true;
        } else {
            out->src = N_DOUBLE;
            ok = parse_float_text(s, t.len, &out->d);
        }
        buf_free(&t);
        return ok;
    }
    default: return false;
    }
}

/* n as the integer type of `bits` bits (signed or not) when it fits; doubles truncate. */
static bool num_to_int(const num *n, int bits, bool is_signed, int64_t *si, uint64_t *ui)
{
    int64_t smin = is_signed ? (bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    int64_t smax = bits == 64 ? INT64_MAX : is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    uint64_t umax = bits == 64 ? UINT64_MAX : (uint64_t)smax;
    switch (n->src) {
    case N_INT:
        if (is_signed ? n->i < smin || n->i > smax : n->i < 0 || (uint64_t)n->i > umax)
            return false;
        *si = n->i;
        *ui = (uint64_t)n->i;
        return true;
    case N_UINT:
        if (n->u > (is_signed ? (uint64_t)smax : umax))
            return false;
        *si = (int64_t)n->u;
        *ui = n->u;
        return true;
    case N_DOUBLE: {
        double d = n->d;
        if (bits == 64) {
            if (is_signed ? !(d >= -9223372036854775808.0 && d < 9223372036854775808.0)
                          : !(d >= 0 && d < 18446744073709551616.0))
                return false;
        } else if (!(d >= (double)smin && d <= (double)smax)) {
            return false;
        }
        if (is_signed)
            *si = (int64_t)d, *ui = (uint64_t)*si;
        else
            *ui = (uint64_t)d, *si = (int64_t)*ui;
        return true;
    }
    }
    return false;
}

static double num_to_double(const num *n)
{
    return n->src == N_INT ? (double)n->i : n->src == N_UINT ? (double)n->u : n->d;
}

static int int_bits(type_id id)
{
    switch (id) {
    case T_UINT8:
    case T_INT8:
    case T_BOOL: return 8;
    case T_UINT16:
    case T_INT16: return 16;
    case T_UINT32:
    case T_INT32: return 32;
    default: return 64;
    }
}

static bool is_signed_id(type_id id) { return id >= T_INT8 && id <= T_INT64; }

/* Pushes v converted to the numeric type t; false (nothing pushed) when it does not convert. */
static bool push_number(column *c, type_id id, const jd_val *v, bool bool_to_num)
{
    bool fl = id == T_FLOAT32 || id == T_FLOAT64;
    num n;
    if (!num_of(v, bool_to_num, fl, &n))
        return false;
    if (fl) {
        double d = num_to_double(&n);
        if (id == T_FLOAT32) {
            float f = (float)d;
            col_push_fixed(c, &f);
        } else {
            col_push_fixed(c, &d);
        }
        return true;
    }
    int64_t si;
    uint64_t ui;
    if (!num_to_int(&n, id == T_BOOL ? 8 : int_bits(id), is_signed_id(id), &si, &ui))
        return false;
    if (id == T_BOOL)
        ui = ui != 0;
    switch (int_bits(id)) {
    case 8: { uint8_t x = (uint8_t)ui; col_push_fixed(c, &x); break; }
    case 16: { uint16_t x = (uint16_t)ui; col_push_fixed(c, &x); break; }
    case 32: { uint32_t x = (uint32_t)ui; col_push_fixed(c, &x); break; }
    default: col_push_fixed(c, &ui); break;
    }
    return true;
}

/* ---- JSONExtract's conversion tree ---- */

/* The value as a string: the unescaped text of a string, else its serialization. */
static void text_of(const jd_val *v, buf *out)
{
    if (v->kind == JD_STRING)
        jd_string(v, out);
    else
        jd_to_text(v, out);
}

static bool conv(const type *t, const jd_val *v, column *c);

static void conv_or_default(const type *t, const jd_val *v, column *c)
{
    if (!conv(t, v, c))
        col_push_default(c);
}

/* Pushes v converted to t onto c; false (nothing pushed) when it does not convert. */
static bool conv(const type *t, const jd_val *v, column *c)
{
    switch (t->id) {
    case T_LOWCARDINALITY: return conv(t->inner, v, c);
    case T_NULLABLE:
        if (v->kind == JD_NULL || !conv(t->inner, v, c->inner))
            col_push_null(c);
        else
            col_nullable_commit(c, false);
        return true;
    case T_ARRAY:
        if (v->kind != JD_ARRAY)
            return false;
        {
            jd_iter it;
            jd_val k, x;
            jd_iter_init(&it, v);
            while (jd_next(&it, &k, &x))
                conv_or_default(t->inner, &x, c->inner);
            col_array_commit(c);
        }
        return true;
    case T_MAP:
        if (v->kind != JD_OBJECT)
            return false;
        {
            column *kv = c->inner;
            const type *vt = t->inner->fields[1];
            jd_iter it;
            jd_val k, x;
            buf key = {0};
            jd_iter_init(&it, v);
            while (jd_next(&it, &k, &x)) {
                key.len = 0;
                jd_string(&k, &key);
                col_push_str(kv->fields[0], (const char *)key.p, key.len);
                conv_or_default(vt, &x, kv->fields[1]);
                kv->len++;
            }
            buf_free(&key);
            col_array_commit(c);
        }
        return true;
    case T_TUPLE: {
        if (v->kind != JD_ARRAY && v->kind != JD_OBJECT)
            return false;
        jd_iter it;
        jd_val k, x;
        if (v->kind == JD_OBJECT && t->field_names) {
            for (int f = 0; f < t->nfields; f++) {
                const char *nm = t->field_names[f];
                if (jd_find_key(v, nm, strlen(nm), &x))
                    conv_or_default(t->fields[f], &x, c->fields[f]);
                else
                    col_push_default(c->fields[f]);
            }
        } else {
            jd_iter_init(&it, v);
            int f = 0;
            for (; f < t->nfields && jd_next(&it, &k, &x); f++)
                conv_or_default(t->fields[f], &x, c->fields[f]);
            for (; f < t->nfields; f++)
                col_push_default(c->fields[f]);
        }
        c->len++;
        return true;
    }
    case T_STRING:
    case T_FIXEDSTRING: {
        if (v->kind == JD_NULL)
            return false;
        buf s = {0};
        text_of(v, &s);
        bool ok = t->id == T_STRING || s.len <= t->width;
        if (ok)
            col_push_str(c, (const char *)s.p, s.len);
        buf_free(&s);
        return ok;
    }
    default:
        if (v->kind == JD_NULL)
            return false;
        return push_number(c, t->id, v, true);
    }
}

/* Whether JSONExtract can produce t; -1 with an error when not. */
static int check_target(const fn_call *c, const type *t, const type *whole)
{
    switch (t->id) {
    case T_LOWCARDINALITY:
    case T_NULLABLE:
    case T_ARRAY: return check_target(c, t->inner, whole);
    case T_MAP:
        if (t->inner->fields[0]->id != T_STRING && type_phys(t->inner->fields[0])->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "%s doesn't support the return type schema: %s with key type not String", c->name, t->name);
        return check_target(c, t->inner->fields[1], whole);
    case T_TUPLE:
        for (int f = 0; f < t->nfields; f++)
            if (check_target(c, t->fields[f], whole) < 0)
                return -1;
        return 0;
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
    case T_FLOAT32: case T_FLOAT64: case T_BOOL: case T_STRING: case T_FIXEDSTRING:
        return 0;
    default:
        return err_set(ERR_NOT_IMPLEMENTED, "%s to type %s (in %s) is not implemented in shale", c->name, t->name,
                       whole->name);
    }
}

/* ---- kernels ---- */

typedef enum {
    K_VALID, K_HAS, K_LENGTH, K_TYPE, K_UINT, K_INT, K_FLOAT, K_BOOL, K_STRING, K_RAW,
    K_KEYS, K_ARRAY_RAW, K_KV_RAW, K_EXTRACT, K_KV,
} jkind;

static const struct {
    const char *name;
    jkind k;
    const char *description;
} jfuncs[] = {
    {"isValidJSON", K_VALID, "1 if the string is valid JSON"},
    {"JSONHas", K_HAS, "1 if the JSON value at the path exists"},
    {"JSONLength", K_LENGTH, "elements of the JSON array or members of the object at the path"},
    {"JSONType", K_TYPE, "the type of the JSON value at the path"},
    {"JSONExtractUInt", K_UINT, "the JSON value at the path as UInt64"},
    {"JSONExtractInt", K_INT, "the JSON value at the path as Int64"},
    {"JSONExtractFloat", K_FLOAT, "the JSON value at the path as Float64"},
    {"JSONExtractBool", K_BOOL, "the JSON boolean at the path"},
    {"JSONExtractString", K_STRING, "the JSON string at the path, unescaped"},
    {"JSONExtractRaw", K_RAW, "the JSON value at the path as JSON text"},
    {"JSONExtractKeys", K_KEYS, "the keys of the JSON object at the path"},
    {"JSONExtractArrayRaw", K_ARRAY_RAW, "the elements of the JSON array at the path as JSON text"},
    {"JSONExtractKeysAndValuesRaw", K_KV_RAW, "(key, JSON text) of each member of the object at the path"},
    {"JSONExtract", K_EXTRACT, "the JSON value at the path converted to a type"},
    {"JSONExtractKeysAndValues", K_KV, "(key, value of a type) of each member of the object at the path"},
};

static jkind kind_of(const fn_call *c)
{
    for (size_t i = 0; i < sizeof jfuncs / sizeof jfuncs[0]; i++)
        if (!strcmp(jfuncs[i].name, c->def->name))
            return jfuncs[i].k;
    return K_VALID;
}

static void push_u8(column *r, bool v)
{
    uint8_t x = v;
    col_push_fixed(r, &x);
}

static int json_exec(const fn_call *c, column **a, size_t n, column **out)
{
    jkind k = kind_of(c);
    bool typed = k == K_EXTRACT || k == K_KV;
    int npath = c->nargs - 1 - typed;
    column *r = col_new(c->ret);
    col_reserve(r, n);
    buf t = {0};
    for (size_t i = 0; i < n; i++) {
        jd_val v;
        bool found = locate(c, a, i, npath, &v);
        switch (k) {
        case K_VALID:
        case K_HAS: push_u8(r, found); break;
        case K_LENGTH: {
            uint64_t len = found ? jd_count(&v) : 0;
            col_push_fixed(r, &len);
            break;
        }
        case K_TYPE: {
            static const int8_t codes[] = {[JD_NULL] = 0, [JD_BOOL] = 98, [JD_INT64] = 105, [JD_UINT64] = 117,
                                           [JD_DOUBLE] = 100, [JD_STRING] = 34, [JD_ARRAY] = 91, [JD_OBJECT] = 123};
            int8_t code = found ? codes[v.kind] : 0;
            col_push_fixed(r, &code);
            break;
        }
        case K_UINT:
        case K_INT:
        case K_FLOAT:
            if (!found || !push_number(r, k == K_UINT ? T_UINT64 : k == K_INT ? T_INT64 : T_FLOAT64, &v, false))
                col_push_default(r);
            break;
        case K_BOOL:
            push_u8(r, found && (v.kind == JD_BOOL   ? v.p[0] == 't'
                                 : v.kind == JD_INT64 ? jd_int64(&v) != 0
                                 : v.kind == JD_UINT64 ? jd_uint64(&v) != 0
                                                       : false));
            break;
        case K_STRING:
        case K_RAW:
            t.len = 0;
            if (found && !(k == K_STRING && v.kind == JD_NULL)) {
                if (k == K_STRING)
                    text_of(&v, &t);
                else
                    jd_to_text(&v, &t);
            }
            col_push_str(r, (const char *)t.p, t.len);
            break;
        case K_KEYS:
        case K_ARRAY_RAW:
        case K_KV_RAW:
        case K_KV: {
            jd_kind want = k == K_ARRAY_RAW ? JD_ARRAY : JD_OBJECT;
            if (found && v.kind == want) {
                jd_iter it;
                jd_val key, x;
                jd_iter_init(&it, &v);
                column *e = r->inner;
                while (jd_next(&it, &key, &x)) {
                    t.len = 0;
                    if (k == K_ARRAY_RAW) {
                        jd_to_text(&x, &t);
                        col_push_str(e, (const char *)t.p, t.len);
                        continue;
                    }
                    jd_string(&key, &t);
                    if (k == K_KEYS) {
                        col_push_str(e, (const char *)t.p, t.len);
                        continue;
                    }
                    col_push_str(e->fields[0], (const char *)t.p, t.len);
                    if (k == K_KV_RAW) {
                        t.len = 0;
                        jd_to_text(&x, &t);
                        col_push_str(e->fields[1], (const char *)t.p, t.len);
                    } else {
                        conv_or_default(c->ret->inner->fields[1], &x, e->fields[1]);
                    }
                    e->len++;
                }
            }
            col_array_commit(r);
            break;
        }
        case K_EXTRACT:
            if (!found || !conv(c->ret, &v, r))
                col_push_default(r);
            break;
        }
    }
    buf_free(&t);
    *out = r;
    return 0;
}

static int json_resolve(fn_call *c)
{
    jkind k = kind_of(c);
    if (first_arg(c) < 0)
        return -1;
    bool typed = k == K_EXTRACT || k == K_KV;
    if (k == K_VALID && c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (typed && c->nargs < 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function %s requires at least two arguments", c->name);
    if (path_args(c, 1, c->nargs - typed) < 0)
        return -1;
    const type *target = NULL;
    if (typed) {
        size_t tl;
        const char *ts = fn_const_str(c, c->nargs - 1, &tl);
        if (!ts || type_phys(c->arg_types[c->nargs - 1])->id != T_STRING)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "The last argument of function %s should be a constant string specifying the return data "
                           "type, illegal value: %s",
                           c->name, c->arg_types[c->nargs - 1]->name);
        target = type_parse(ts, tl);
        if (!target || check_target(c, target, target) < 0)
            return -1;
    }
    static const enum_item jtypes[] = {{"Null", 0},     {"String", 34}, {"Array", 91},  {"Bool", 98},
                                       {"Double", 100}, {"Int64", 105}, {"UInt64", 117}, {"Object", 123}};
    const type *str = type_simple(T_STRING);
    switch (k) {
    case K_VALID:
    case K_HAS:
    case K_BOOL: c->ret = type_simple(T_UINT8); break;
    case K_LENGTH:
    case K_UINT: c->ret = type_simple(T_UINT64); break;
    case K_TYPE: c->ret = type_enum(8, 8, jtypes); break;
    case K_INT: c->ret = type_simple(T_INT64); break;
    case K_FLOAT: c->ret = type_simple(T_FLOAT64); break;
    case K_STRING:
    case K_RAW: c->ret = str; break;
    case K_KEYS:
    case K_ARRAY_RAW: c->ret = type_array(str); break;
    case K_KV_RAW:
    case K_KV: {
        const type *f[2] = {str, k == K_KV ? target : str};
        c->ret = type_array(type_tuple(2, f, NULL));
        break;
    }
    case K_EXTRACT: c->ret = target; break;
    }
    c->exec = json_exec;
    return 0;
}

void func_register_json(void)
{
    static func_def defs[sizeof jfuncs / sizeof jfuncs[0]];
    for (size_t i = 0; i < sizeof jfuncs / sizeof jfuncs[0]; i++) {
        defs[i] = (func_def){jfuncs[i].name, FN_OWN_LOWCARD, json_resolve, NULL, jfuncs[i].description};
        func_register(&defs[i]);
    }
}
