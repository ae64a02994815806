/* Functions over aggregate function states: finalizeAggregation(state) and
 * initializeAggregation('f', args…). States are AggregateFunction columns of serialized
 * states (func/agg_state.h); each row is read into a live state, used and destroyed.
 * runningAccumulate is left out: ClickHouse deprecates it behind a setting that functions
 * cannot see here. */
#include "func/agg_state.h"
#include "func/func.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>

static const agg_call *state_arg(const fn_call *c, int i)
{
    const type *t = type_phys(c->arg_types[i]);
    if (t->id != T_AGGSTATE)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "Illegal type %s of argument for function %s: must be AggregateFunction(...)",
                       c->arg_types[i]->name, c->name), NULL;
    return agg_state_call(t);
}

/* Reads row i of the state column into a new state (freed by the caller). */
static void *read_row(const agg_call *a, const column *c, size_t i)
{
    size_t n, used;
    const char *p = col_str(c, i, &n);
    void *st = agg_state_new(a);
    if (agg_state_read(a, st, (const uint8_t *)p, n, &used) < 0) {
        agg_state_free(a, st);
        return NULL;
    }
    return st;
}

static int finalize_exec(const fn_call *c, column **args, size_t rows, column **out)
{
    const agg_call *a = c->state;
    column *res = col_new(c->ret);
    col_reserve(res, rows);
    for (size_t i = 0; i < rows; i++) {
        void *st = read_row(a, args[0], i);
        int rc = st ? a->ops.finalize(a, st, res) : -1;
        if (st)
            agg_state_free(a, st);
        if (rc < 0) {
            col_free(res);
            return -1;
        }
    }
    *out = res;
    return 0;
}

static int finalize_resolve(fn_call *c)
{
    if (c->nargs != 1)
        return fn_bad_nargs(c, "1");
    const agg_call *a = state_arg(c, 0);
    if (!a)
        return -1;
    c->state = (void *)a; /* cached per type, never freed */
    c->ret = a->ret;
    c->exec = finalize_exec;
    return 0;
}

static int init_exec(const fn_call *c, column **args, size_t rows, column **out)
{
    const agg_call *a = c->state;
    column *res = col_new(c->ret);
    col_reserve(res, rows);
    char **sts = mem_calloc(sizeof(char *) * (rows ? rows : 1));
    for (size_t i = 0; i < rows; i++)
        sts[i] = agg_state_new(a);
    a->ops.add_rows(a, sts, 0, args + 1, rows);
    int rc = 0;
    for (size_t i = 0; i < rows; i++) {
        if (rc == 0)
            rc = a->ops.finalize(a, sts[i], res);
        agg_state_free(a, sts[i]);
    }
    mem_free(sts);
    if (rc < 0) {
        col_free(res);
        return -1;
    }
    *out = res;
    return 0;
}

static void init_free(void *state) { agg_call_free(state); }

static int init_resolve(fn_call *c)
{
    if (c->nargs < 2)
        return fn_bad_nargs(c, "at least 2");
    size_t len;
    const char *spec = fn_const_str(c, 0, &len);
    if (!spec)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                       "First argument for function %s must be constant string: name of aggregate function", c->name);
    char *s = xstrndup(spec, len);
    agg_call *a;
    int rc = agg_resolve_spec(s, c->nargs - 1, (const type *const *)c->arg_types + 1, &a);
    free(s);
    if (rc < 0)
        return -1;
    c->state = a;
    c->ret = a->ret;
    c->exec = init_exec;
    return 0;
}

void func_register_aggstate(void)
{
    static const func_def defs[] = {
        {"finalizeAggregation", 0, finalize_resolve, NULL, "The final value of each aggregate function state"},
        {"initializeAggregation", FN_OWN_NULLS, init_resolve, init_free,
         "initializeAggregation('f', args…): f over each row alone (a state with -State)"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        func_register(&defs[i]);
}
