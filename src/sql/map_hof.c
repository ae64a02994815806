/* Map higher-order functions as array ones: see map_hof.h. */
#include "sql/map_hof.h"

#include "base/err.h"

#include <string.h>

typedef enum { MH_FILTER, MH_APPLY, MH_EXISTS, MH_ALL, MH_SORT, MH_REVERSE_SORT } mh_kind;

static const struct {
    const char *name;
    mh_kind kind;
    const char *array_fn;
} mh_defs[] = {
    {"mapFilter", MH_FILTER, "arrayFilter"},  {"mapApply", MH_APPLY, "arrayMap"},
    {"mapExists", MH_EXISTS, "arrayExists"},  {"mapAll", MH_ALL, "arrayAll"},
    {"mapSort", MH_SORT, "arraySort"},        {"mapReverseSort", MH_REVERSE_SORT, "arrayReverseSort"},
};

static ast *node(arena *a, ast_kind k, const ast *at)
{
    ast *n = ast_new(a, k, at->pos);
    n->end = at->end;
    return n;
}

static ast *call(arena *a, const ast *at, const char *name, int n, ast *const *args)
{
    ast *f = node(a, AST_FUNC, at);
    f->name = name;
    for (int i = 0; i < n; i++)
        ast_list_push(a, &f->args, args[i]);
    return f;
}

static ast *call1(arena *a, const ast *at, const char *name, ast *x) { return call(a, at, name, 1, &x); }

static ast *ident(arena *a, const ast *at, const char *name)
{
    ast *n = node(a, AST_IDENT, at);
    n->nparts = 1;
    n->parts = ARENA_ARRAY(a, const char *, 1);
    n->parts[0] = name;
    return n;
}

static ast *lambda(arena *a, const ast *at, const char *p1, const char *p2, ast *body)
{
    ast *l = node(a, AST_LAMBDA, at);
    l->nparts = 2;
    l->parts = ARENA_ARRAY(a, const char *, 2);
    l->parts[0] = p1;
    l->parts[1] = p2;
    ast_list_push(a, &l->args, body);
    return l;
}

static ast *uint_lit(arena *a, const ast *at, uint64_t v, const char *text)
{
    ast *n = node(a, AST_LITERAL, at);
    n->lit = LIT_UINT;
    n->u = v;
    n->text = text;
    return n;
}

int map_hof_rewrite(arena *a, const ast *e, const ast **out)
{
    if (e->kind != AST_FUNC || e->has_params || e->over || e->over_name)
        return 0;
    int d = -1;
    for (int i = 0; i < (int)(sizeof mh_defs / sizeof *mh_defs); i++)
        if (strcmp(e->name, mh_defs[i].name) == 0)
            d = i;
    if (d < 0)
        return 0;
    if (!a)
        return err_set(ERR_NOT_IMPLEMENTED, "Function %s is not supported here", e->name);
    mh_kind k = mh_defs[d].kind;
    const char *afn = mh_defs[d].array_fn;
    int n = e->args.n;
    const ast *lam = n && e->args.items[0]->kind == AST_LAMBDA ? e->args.items[0] : NULL;
    bool sort = k == MH_SORT || k == MH_REVERSE_SORT;
    if (!lam && !(sort && n == 1)) {
        /* what ClickHouse says: the array function misses its lambda */
        if (n < 2 && k != MH_EXISTS && k != MH_ALL)
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function %s needs at least 2 arguments, passed %d",
                           afn, n);
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be a function", afn);
    }
    if (lam && n != 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function %s needs one lambda and one Map, passed %d arguments",
                       e->name, n);
    ast *m = (ast *)e->args.items[n - 1];
    ast *keys = call1(a, e, "mapKeys", m), *vals = call1(a, e, "mapValues", m);
    const char *p1, *p2;
    ast *body;
    if (lam) {
        if (lam->nparts != 2) {
            /* arrayFilter(f, K, V) reports the arity as ClickHouse does */
            ast *args[3] = {(ast *)lam, keys, vals};
            *out = call(a, e, afn, 3, args);
            return 1;
        }
        p1 = lam->parts[0], p2 = lam->parts[1];
        body = lam->args.items[0];
    } else {
        p1 = "__map_key", p2 = "__map_value";
        body = ident(a, e, p1);
    }
    if (k == MH_EXISTS || k == MH_ALL) {
        ast *args[3] = {(ast *)lam, keys, vals};
        *out = call(a, e, afn, 3, args);
        return 1;
    }
    ast *ka, *va;
    if (k == MH_APPLY) {
        ast *b1[2] = {body, uint_lit(a, e, 1, "1")}, *b2[2] = {body, uint_lit(a, e, 2, "2")};
        ast *ak[3] = {lambda(a, e, p1, p2, call(a, e, "tupleElement", 2, b1)), keys, vals};
        ast *av[3] = {lambda(a, e, p1, p2, call(a, e, "tupleElement", 2, b2)), keys, vals};
        ka = call(a, e, afn, 3, ak);
        va = call(a, e, afn, 3, av);
    } else {
        ast *ak[3] = {lambda(a, e, p1, p2, body), keys, vals};
        ast *av[3] = {lambda(a, e, p2, p1, body), vals, keys};
        ka = call(a, e, afn, 3, ak);
        va = call(a, e, afn, 3, av);
    }
    ast *mk[2] = {ka, va};
    *out = call(a, e, "mapFromArrays", 2, mk);
    return 1;
}
