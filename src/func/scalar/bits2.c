/* More bit functions, as ClickHouse 26.7 (measured with chdb):
 *   bitRotateLeft/Right(x, n): in the width of bitAnd(x, n)'s type (the wider, signed when
 *     either is), n taken modulo the width (negative n rotates the other way); 128-bit
 *     integers are NOT_IMPLEMENTED.
 *   bitTestAll/bitTestAny(x, pos, ...): UInt8; positions unsigned integers below x's width
 *     (else PARAMETER_OUT_OF_BOUND).
 *   bitPositionsToArray(x): Array(UInt64) of the set bits' positions in x's width;
 *   bitmaskToArray(x): Array of x's type with the powers of two of the set bits;
 *   bitmaskToList(x): the same joined by ','.
 *   byteSwap(x): the bytes of an integer reversed, same type.
 *   bitHammingDistance(a, b): UInt8 count of differing bits of the values sign-extended to
 *     64 bits.
 * Stateless kernels over int128 loads (sign- or zero-extended by type); thread-safe. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <stdio.h>
#include <string.h>

static int128_t *load_all(const type *t, const column *c, size_t n)
{
    int128_t *v = mem_alloc((n ? n : 1) * sizeof *v);
    size_t k = c->is_const ? 1 : n;
    if (type_phys(t)->id == T_UINT128)
        memcpy(v, c->data.p, k * sizeof *v);
    else
        num_load_i128(type_phys(t), c->data.p, k, v);
    for (size_t i = k; i < n; i++)
        v[i] = v[0];
    return v;
}

static bool is_big(const type *t) { return num_size(t) > 8; }

/* ---- bitRotateLeft, bitRotateRight ---- */

static int rot_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool left = strstr(c->def->name, "Left") != NULL;
    int128_t *x = load_all(c->arg_types[0], a[0], n), *y = load_all(c->arg_types[1], a[1], n);
    unsigned w = num_size(c->ret) * 8;
    uint64_t mask = w == 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t u = (uint64_t)x[i] & mask;
        int128_t m = y[i] % (int128_t)w;
        unsigned s = (unsigned)(m < 0 ? m + w : m);
        if (!left)
            s = (w - s) % w;
        x[i] = s ? (int128_t)(((u << s) | (u >> (w - s))) & mask) : (int128_t)u;
    }
    *out = num_store_i128(c->ret, x, n);
    mem_free(x);
    mem_free(y);
    return 0;
}

static int rot_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    const type *a = c->arg_types[0], *b = c->arg_types[1];
    if (!num_is_int(a) || !num_is_int(b))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types %s and %s of arguments of function %s", a->name,
                       b->name, c->name);
    if (is_big(a) || is_big(b))
        return err_set(ERR_NOT_IMPLEMENTED, "Bit rotate is not implemented for big integers");
    unsigned sz = num_size(a) > num_size(b) ? num_size(a) : num_size(b);
    c->ret = num_int_type(!num_is_uint(a) || !num_is_uint(b), sz);
    c->exec = rot_exec;
    return 0;
}

/* ---- bitTestAll, bitTestAny ---- */

static int testall_exec(const fn_call *c, column **a, size_t n, column **out)
{
    bool all = !strcmp(c->def->name, "bitTestAll");
    unsigned w = num_size(c->arg_types[0]) * 8;
    int128_t *x = load_all(c->arg_types[0], a[0], n);
    column *r = col_new_defaults(type_simple(T_UINT8), n);
    for (size_t i = 0; i < n; i++)
        COL_DATA(r, uint8_t)[i] = all;
    for (int k = 1; k < c->nargs; k++) {
        int128_t *p = load_all(c->arg_types[k], a[k], n);
        for (size_t i = 0; i < n; i++) {
            if (p[i] >= (int128_t)w) {
                long long bad = (long long)p[i];
                mem_free(p);
                mem_free(x);
                col_free(r);
                return err_set(ERR_PARAMETER_OUT_OF_BOUND, "The bit position argument %lld is out of bounds for number", bad);
            }
            bool bit = (x[i] >> (unsigned)p[i]) & 1;
            uint8_t *o = &COL_DATA(r, uint8_t)[i];
            *o = all ? (*o && bit) : (*o || bit);
        }
        mem_free(p);
    }
    mem_free(x);
    *out = r;
    return 0;
}

static int testall_resolve(fn_call *c)
{
    if (c->nargs < 2)
        return err_set(ERR_TOO_FEW_ARGUMENTS_FOR_FUNCTION,
                       "Number of arguments for function %s doesn't match: passed %d, should be at least 2", c->name,
                       c->nargs);
    if (!num_is_int(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of first argument of function %s",
                       c->arg_types[0]->name, c->name);
    for (int k = 1; k < c->nargs; k++)
        if (!num_is_uint(c->arg_types[k]) || c->arg_types[k]->id == T_BOOL)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of %d argument of function %s",
                           c->arg_types[k]->name, k, c->name);
    if (is_big(c->arg_types[0]))
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of argument of function %s", c->arg_types[0]->name,
                       c->name);
    c->ret = type_simple(T_UINT8);
    c->exec = testall_exec;
    return 0;
}

/* ---- bitPositionsToArray, bitmaskToArray, bitmaskToList ---- */

enum { BP_POSITIONS, BP_MASKS, BP_LIST };

static int bp_exec(const fn_call *c, column **a, size_t n, column **out)
{
    const char *nm = c->def->name;
    int op = !strcmp(nm, "bitPositionsToArray") ? BP_POSITIONS : !strcmp(nm, "bitmaskToArray") ? BP_MASKS : BP_LIST;
    const type *t = c->arg_types[0];
    unsigned w = num_size(t) * 8;
    int128_t *x = load_all(t, a[0], n);
    column *r = col_new(c->ret);
    col_reserve(r, n);
    for (size_t i = 0; i < n; i++) {
        uint128_t u = (uint128_t)x[i];
        char text[1200];
        size_t tl = 0;
        for (unsigned b = 0; b < w; b++) {
            if (!((u >> b) & 1))
                continue;
            if (op == BP_POSITIONS) {
                uint64_t p = b;
                col_push_fixed(r->inner, &p);
                continue;
            }
            /* the power of two as a value of x's type: the top bit of a signed type is negative */
            int128_t v = num_is_uint(t) ? (int128_t)((uint128_t)1 << b) : b == w - 1 ? -((int128_t)1 << b) : (int128_t)1 << b;
            if (op == BP_MASKS) {
                column *one = num_store_i128(type_phys(t), &v, 1);
                col_push_fixed(r->inner, one->data.p);
                col_free(one);
            } else {
                tl += (size_t)snprintf(text + tl, sizeof text - tl, "%s%lld", tl ? "," : "", (long long)v);
            }
        }
        if (op == BP_LIST)
            col_push_str(r, text, tl);
        else
            col_array_commit(r);
    }
    mem_free(x);
    *out = r;
    return 0;
}

static int bp_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    bool pos = !strcmp(c->def->name, "bitPositionsToArray");
    if (!num_is_int(t))
        return pos ? err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", c->name, t->name)
                   : err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
    if (!pos && is_big(t))
        return err_set(ERR_ILLEGAL_COLUMN, "Illegal column %s of argument of function %s", t->name, c->name);
    if (pos)
        c->ret = type_array(type_simple(T_UINT64));
    else if (!strcmp(c->def->name, "bitmaskToArray"))
        c->ret = type_array(t->id == T_BOOL ? type_simple(T_UINT8) : t);
    else
        c->ret = type_simple(T_STRING);
    c->exec = bp_exec;
    return 0;
}

/* ---- byteSwap ---- */

static int swap_exec(const fn_call *c, column **a, size_t n, column **out)
{
    size_t w = num_size(c->ret);
    column *r = col_new_defaults(type_phys(c->ret), n);
    const unsigned char *s = a[0]->data.p;
    unsigned char *d = r->data.p;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < w; k++)
            d[i * w + k] = s[i * w + w - 1 - k];
    *out = r;
    return 0;
}

static int swap_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const type *t = c->arg_types[0];
    if (num_is_float(t))
        return err_set(ERR_NOT_IMPLEMENTED, "byteSwap is not implemented for %s datatype",
                       t->id == T_FLOAT32 ? "float" : "double");
    if (!num_is_int(t))
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
    c->ret = t->id == T_BOOL ? type_simple(T_UINT8) : t;
    c->exec = swap_exec;
    return 0;
}

/* ---- bitHammingDistance ---- */

static int ham_exec(const fn_call *c, column **a, size_t n, column **out)
{
    int128_t *x = load_all(c->arg_types[0], a[0], n), *y = load_all(c->arg_types[1], a[1], n);
    column *r = col_new_defaults(type_simple(T_UINT8), n);
    for (size_t i = 0; i < n; i++)
        COL_DATA(r, uint8_t)[i] = (uint8_t)__builtin_popcountll((uint64_t)x[i] ^ (uint64_t)y[i]);
    mem_free(x);
    mem_free(y);
    *out = r;
    return 0;
}

static int ham_resolve(fn_call *c)
{
    if (c->nargs != 2)
        return fn_bad_nargs(c, "2");
    for (int k = 0; k < 2; k++) {
        const type *t = c->arg_types[k];
        if (num_is_float(t) || type_is_string(t))
            return err_set(ERR_NOT_IMPLEMENTED, "bitHammingDistance of %s is not supported yet", t->name);
        if (!num_is_int(t))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type %s of argument of function %s", t->name, c->name);
        if (is_big(t))
            return err_set(ERR_ILLEGAL_COLUMN, "Unsupported data type combination in function '%s'", c->name);
    }
    c->ret = type_simple(T_UINT8);
    c->exec = ham_exec;
    return 0;
}

void func_register_bits2(void)
{
    static const func_def defs[] = {
        {"bitRotateLeft", 0, rot_resolve, NULL, "rotates the bits left"},
        {"bitRotateRight", 0, rot_resolve, NULL, "rotates the bits right"},
        {"bitTestAll", 0, testall_resolve, NULL, "1 if all the given bits are set"},
        {"bitTestAny", 0, testall_resolve, NULL, "1 if any of the given bits is set"},
        {"bitPositionsToArray", 0, bp_resolve, NULL, "positions of the set bits"},
        {"bitmaskToArray", 0, bp_resolve, NULL, "the powers of two that sum to the value"},
        {"bitmaskToList", 0, bp_resolve, NULL, "the powers of two that sum to the value, as text"},
        {"byteSwap", FN_CASE_INSENSITIVE, swap_resolve, NULL, "the bytes of an integer reversed"},
        {"bitHammingDistance", 0, ham_resolve, NULL, "number of differing bits"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
