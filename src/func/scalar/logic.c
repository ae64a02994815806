/* Logical functions: and, or (n-ary, ≥ 2 arguments), xor, not.
 *
 * and/or/xor handle NULLs themselves (FN_OWN_NULLS) with SQL three-valued logic as in
 * ClickHouse: NULL AND 0 = 0, NULL OR 1 = 1, otherwise NULL propagates; the result is
 * Nullable(UInt8) when any argument is Nullable, else UInt8 (Bool instead of UInt8 when
 * some argument is a plain Bool). Internally each row is a
 * ternary value F=0 < NULL=1 < T=2, so AND is min and OR is max. Any number (or Bool)
 * is true when non-zero. not() uses the default NULL handling. */
#include "func/func.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <stdlib.h>

typedef enum { L_AND, L_OR, L_XOR } lop;

static bool truthy_type(const type *t)
{
    t = type_base(t);
    return num_is_int(t) || num_is_float(t) || t->id == T_NOTHING;
}

/* Byte loops with restrict pointers and fixed chunks (NUM_FOR) so gcc -O2 vectorizes them. */
static void u8_truth(const uint8_t *restrict p, uint8_t *restrict out, size_t n) { NUM_FOR(i, n, out[i] = p[i] ? 2 : 0); }
static void u8_and(uint8_t *restrict acc, const uint8_t *restrict cur, size_t n)
{
    NUM_FOR(i, n, acc[i] = cur[i] < acc[i] ? cur[i] : acc[i]);
}
static void u8_or(uint8_t *restrict acc, const uint8_t *restrict cur, size_t n)
{
    NUM_FOR(i, n, acc[i] = cur[i] > acc[i] ? cur[i] : acc[i]);
}
static void u8_is(const uint8_t *restrict acc, uint8_t *restrict r, uint8_t v, size_t n) { NUM_FOR(i, n, r[i] = acc[i] == v); }

/* Row values of argument col as ternary F/N/T into out[n]. */
static void ternary(const column *col, const type *t, size_t n, uint8_t *out)
{
    const column *v = col;
    const uint8_t *nulls = NULL;
    if (type_phys(t)->id == T_NULLABLE) {
        nulls = col->nulls.p;
        v = col->inner;
        t = type_strip_nullable(t);
    }
    t = type_phys(t);
    if (t->id == T_NOTHING) {
        memset(out, 1, n);
        return;
    }
    if (t->id == T_UINT8 || t->id == T_BOOL || t->id == T_INT8) {
        u8_truth(v->data.p, out, n);
    } else {
        double *d = mem_alloc((n ? n : 1) * sizeof *d);
        num_load_f64(t, v->data.p, n, d);
        for (size_t i = 0; i < n; i++)
            out[i] = d[i] != 0 ? 2 : 0;
        mem_free(d);
    }
    if (nulls)
        for (size_t i = 0; i < n; i++)
            if (nulls[i])
                out[i] = 1;
}

static int logic_exec(const fn_call *c, column **args, size_t n, column **out)
{
    lop op = (lop)(intptr_t)c->state;
    uint8_t *acc = mem_alloc(n ? n : 1), *cur = mem_alloc(n ? n : 1);
    ternary(args[0], c->arg_types[0], n, acc);
    for (int a = 1; a < c->nargs; a++) {
        ternary(args[a], c->arg_types[a], n, cur);
        switch (op) {
        case L_AND: u8_and(acc, cur, n); break;
        case L_OR: u8_or(acc, cur, n); break;
        case L_XOR:
            for (size_t i = 0; i < n; i++)
                acc[i] = (acc[i] == 1 || cur[i] == 1) ? 1 : ((acc[i] == 2) != (cur[i] == 2)) ? 2 : 0;
            break;
        }
    }
    uint8_t *r;
    column *res = num_new_u8(n, &r);
    u8_is(acc, r, 2, n);
    res->type = type_strip_nullable(c->ret); /* UInt8 or Bool: same layout */
    if (c->ret->id == T_NULLABLE) {
        column *w = col_new(c->ret);
        col_free(w->inner);
        w->inner = res;
        uint8_t *nm = buf_grow(&w->nulls, n);
        for (size_t i = 0; i < n; i++)
            nm[i] = acc[i] == 1;
        w->len = n;
        res = w;
    }
    mem_free(acc);
    mem_free(cur);
    *out = res;
    return 0;
}

static int logic_resolve(fn_call *c, lop op)
{
    if (c->nargs < 2)
        return err_set(ERR_TOO_FEW_ARGUMENTS_FOR_FUNCTION,
                       "Number of arguments for function \"%s\" should be at least 2: passed %d", c->name, c->nargs);
    bool nullable = false, is_bool = false;
    for (int i = 0; i < c->nargs; i++) {
        if (!truthy_type(c->arg_types[i]))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type (%s) of %d argument of function %s",
                           c->arg_types[i]->name, i + 1, c->name);
        if (type_is_nullable(c->arg_types[i]))
            nullable = true;
        /* ClickHouse returns Bool when some argument is exactly Bool (a Nullable(Bool)
         * argument does not count): true AND 1 is Bool, toNullable(true) OR 0 is
         * Nullable(UInt8). xor counts a Nullable(Bool) too: xor(toNullable(true),
         * toNullable(false), 1) is Nullable(Bool). */
        if (c->arg_types[i]->id == T_BOOL || (op == L_XOR && type_base(c->arg_types[i])->id == T_BOOL))
            is_bool = true;
    }
    const type *rt = type_simple(is_bool ? T_BOOL : T_UINT8);
    c->ret = nullable ? type_nullable(rt) : rt;
    c->state = (void *)(intptr_t)op;
    c->exec = logic_exec;
    return 0;
}

static int and_resolve(fn_call *c) { return logic_resolve(c, L_AND); }
static int or_resolve(fn_call *c) { return logic_resolve(c, L_OR); }
static int xor_resolve(fn_call *c) { return logic_resolve(c, L_XOR); }

static int not_exec(const fn_call *c, column **args, size_t n, column **out)
{
    uint8_t *t = mem_alloc(n ? n : 1), *r;
    ternary(args[0], c->arg_types[0], n, t);
    *out = num_new_u8(n, &r);
    (*out)->type = c->ret;
    u8_is(t, r, 0, n);
    mem_free(t);
    return 0;
}

static int not_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    if (!truthy_type(c->arg_types[0]))
        return fn_bad_types(c);
    /* not(Bool) is Bool (NULLs are stripped before resolve: NOT toNullable(true) is
     * Nullable(Bool)). */
    c->ret = type_simple(type_base(c->arg_types[0])->id == T_BOOL ? T_BOOL : T_UINT8);
    c->exec = not_exec;
    return 0;
}

void func_register_logic(void)
{
    static const func_def defs[] = {
        {"and", FN_OWN_NULLS | FN_NO_LOWCARD_RESULT, and_resolve, NULL, "logical AND with three-valued NULL logic"},
        {"or", FN_OWN_NULLS | FN_NO_LOWCARD_RESULT, or_resolve, NULL, "logical OR with three-valued NULL logic"},
        {"xor", FN_OWN_NULLS | FN_NO_LOWCARD_RESULT, xor_resolve, NULL, "logical XOR"},
        {"not", 0, not_resolve, NULL, "logical NOT"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
