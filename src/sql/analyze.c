/* SELECT analysis: AST → select_plan. See analyze.h for the rules. */
#include "sql/analyze.h"
#include "sql/explain.h"
#include "sql/sample.h"
#include "sql/type_check.h"
#include "sql/map_hof.h"
#include "sql/set_ops.h"
#include "sql/join_engine.h"

#include "func/supertype.h"

#include "base/err.h"
#include "base/mem.h"
#include "column/text.h"
#include "column/type_pretty.h"
#include "func/supertype.h"
#include "storage/catalog.h"
#include "storage/tablefunc.h"
#include "exec/array_join.h"
#include "format/format.h"
#include "func/hof.h"
#include "func/udf.h"

#include <limits.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A lambda being compiled: its parameters, and the outer values its body uses. An
 * expression in the body that uses none of the parameters is compiled in the enclosing
 * scope and captured (evaluated once per outer row, repeated per element), so outer
 * columns, aggregates and GROUP BY keys mean inside a lambda what they mean outside. */
typedef struct lambda_scope {
    struct lambda_scope *parent;
    int nparams;
    const char *const *params;
    const type *ptypes[64];
    int ncaps;
    expr **caps;               /* compiled in the parent scope */
} lambda_scope;

/* Pre-stage column numbers of ARRAY JOIN elements while analysing: the source columns are
 * numbered as they are first used, so the elements (which follow them in the block) get
 * their final numbers at the end (aj_finish). */
#define AJ_BASE (1 << 24)
#define AJ_MAX 64
/* Placeholders of the post stage, each below the next: GROUPING calls from (1 << 22),
 * window function results from (1 << 23) (compile_grouping, compile_window). They differ
 * from AJ_BASE: the window results are placed after the ARRAY JOIN elements (aj_finish). */
#define GROUPING_COL_BASE (1 << 22)
#define WIN_COL_BASE (1 << 23)

typedef struct actx {
    query_ctx *q;
    lambda_scope *lam;         /* innermost lambda being compiled, or NULL */
    const ast *sel;
    select_plan *p;
    const schema *src;         /* source columns (visible + virtual) */
    int nvisible;
    const char *table_alias;
    const char *table_name;
    char *const *qual;         /* per source column qualifier (joins), or NULL */
    char *const *qual2;        /* per source column second qualifier (USING keys), or NULL */
    char *const *bare;
    int *src_map;              /* source column → position in p->src_cols, -1 if unread */
    /* aliases from WITH and the select list */
    int naliases;
    const char *alias_names[512];
    const ast *alias_asts[512];
    bool alias_active[512];    /* being expanded: refers to the column inside itself */
    int8_t alias_agg[512];     /* alias_has_aggregate of each alias: 0 unknown, 1 no, 2 yes */
    uint64_t nodes;            /* expression nodes compiled, aliases expanded */
    uint64_t max_nodes;        /* max_expanded_ast_elements (0 = unlimited) */
    /* aggregation */
    bool post;
    int nkeys;
    char *key_names[256];
    ast_list gkeys;                /* ROLLUP / CUBE / GROUPING SETS: the GROUP BY keys, deduplicated */
    int naggs;
    char *agg_names[256];
    int depth;
    /* window functions: where a window function is found when not allowed here ("in
     * WHERE", "inside an aggregate function"), NULL where it is allowed */
    const char *win_ctx;
    int nwins;
    char *win_names[256];
    int nwin_specs;
    char *win_spec_keys[256];
    arena *scratch;
    /* IN with a literal list: the expression and its values (for filter push-down) */
    int nin;
    expr *in_ex[64];
    column *in_vals[64];       /* NULL: not usable */
    bool in_overflow;          /* more than 64: no IN push-down */
    /* ARRAY JOIN element columns (pre stage index AJ_BASE + k until aj_finish) */
    int naj;
    char *aj_names[AJ_MAX];        /* the name a clause's element answers to, or NULL */
    char *aj_keys[AJ_MAX];         /* arrayJoin(…) call text: the same call is one join */
    const type *aj_types[AJ_MAX];
    int aj_step[AJ_MAX];
    bool aj_shadow[AJ_MAX];        /* ARRAY JOIN col without alias: `*` shows the element */
    bool aj_in_clause[AJ_MAX];     /* an arrayJoin() inside an ARRAY JOIN clause's array */
    int in_clause;                 /* compiling an ARRAY JOIN clause's arrays */
} actx;

static int compile(actx *c, const ast *e, expr **out);
static int compile_param(actx *c, const ast *e, expr **out);

static char *name_of(const ast *e)
{
    buf b = {0};
    ast_format_name(&b, e);
    char *s = xstrdup(buf_cstr(&b));
    buf_free(&b);
    return s;
}

/* ---- literals ---- */

static column *literal_column(const ast *e)
{
    column *col;
    switch (e->lit) {
    case LIT_NULL:
        col = col_new(type_nullable(type_simple(T_NOTHING)));
        col_push_null(col);
        return col;
    case LIT_BOOL: {
        col = col_new(type_simple(T_BOOL));
        uint8_t v = e->u != 0;
        col_push_fixed(col, &v);
        return col;
    }
    case LIT_UINT: {
        uint64_t v = e->u;
        if (v <= UINT8_MAX) {
            uint8_t x = (uint8_t)v;
            col = col_new(type_simple(T_UINT8));
            col_push_fixed(col, &x);
        } else if (v <= UINT16_MAX) {
            uint16_t x = (uint16_t)v;
            col = col_new(type_simple(T_UINT16));
            col_push_fixed(col, &x);
        } else if (v <= UINT32_MAX) {
            uint32_t x = (uint32_t)v;
            col = col_new(type_simple(T_UINT32));
            col_push_fixed(col, &x);
        } else {
            col = col_new(type_simple(T_UINT64));
            col_push_fixed(col, &v);
        }
        return col;
    }
    case LIT_INT: {
        int64_t v = e->i;
        if (v >= INT8_MIN && v <= INT8_MAX) {
            int8_t x = (int8_t)v;
            col = col_new(type_simple(T_INT8));
            col_push_fixed(col, &x);
        } else if (v >= INT16_MIN && v <= INT16_MAX) {
            int16_t x = (int16_t)v;
            col = col_new(type_simple(T_INT16));
            col_push_fixed(col, &x);
        } else if (v >= INT32_MIN && v <= INT32_MAX) {
            int32_t x = (int32_t)v;
            col = col_new(type_simple(T_INT32));
            col_push_fixed(col, &x);
        } else {
            col = col_new(type_simple(T_INT64));
            col_push_fixed(col, &v);
        }
        return col;
    }
    case LIT_FLOAT:
        col = col_new(type_simple(T_FLOAT64));
        col_push_fixed(col, &e->f);
        return col;
    case LIT_STRING:
    default:
        col = col_new(type_simple(T_STRING));
        col_push_str(col, e->str ? e->str : "", e->str_len);
        return col;
    }
}

/* ---- identifiers ---- */

static int find_alias(actx *c, const char *name)
{
    for (int i = c->naliases - 1; i >= 0; i--)
        if (strcmp(c->alias_names[i], name) == 0)
            return i;
    return -1;
}

static int use_source_column(actx *c, int col)
{
    if (c->src_map[col] < 0) {
        c->src_map[col] = c->p->nsrc_cols;
        c->p->src_cols = xrealloc(c->p->src_cols, sizeof(int) * (size_t)(c->p->nsrc_cols + 1));
        c->p->src_cols[c->p->nsrc_cols++] = col;
    }
    return c->src_map[col];
}

/* The SELECT being analysed, as ClickHouse names it in messages ("In scope SELECT …"):
 * its text on one line. */
static void scope_text(actx *c, char *out, size_t cap)
{
    out[0] = 0;
    if (!c->sel || !c->q->sql_text || c->sel->end <= c->sel->pos || (size_t)c->sel->end > c->q->sql_len) {
        snprintf(out, cap, "SELECT");
        return;
    }
    size_t n = 0;
    bool space = false;
    for (int i = c->sel->pos; i < c->sel->end && n + 1 < cap; i++) {
        char ch = c->q->sql_text[i];
        if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
            space = n > 0;
            continue;
        }
        if (space && n + 2 < cap)
            out[n++] = ' ';
        space = false;
        out[n++] = ch;
    }
    out[n] = 0;
}

static int unknown_identifier(actx *c, const char *name)
{
    char scope[1024];
    scope_text(c, scope, sizeof scope);
    /* Suggest close names like ClickHouse's "Maybe you meant: ['x']". */
    char hint[512] = "";
    size_t len = 0;
    for (int i = 0; c->src && i < c->src->n && len < 400; i++) {
        const char *cand = c->src->names[i];
        size_t a = strlen(cand), b = strlen(name);
        int diff = 0;
        for (size_t k = 0; k < a || k < b; k++)
            if (k >= a || k >= b || cand[k] != name[k])
                diff++;
        if (diff <= 2 && strcmp(cand, name) != 0)
            len += (size_t)snprintf(hint + len, sizeof hint - len, "%s'%s'", len ? "," : "", cand);
    }
    if (len)
        return err_set(ERR_UNKNOWN_IDENTIFIER, "Unknown expression identifier `%s` in scope %s. Maybe you meant: [%s].",
                       name, scope, hint);
    return err_set(ERR_UNKNOWN_IDENTIFIER, "Unknown expression identifier `%s` in scope %s.", name, scope);
}

/* Whether source column i of a join belongs to table qualifier q. */
static bool has_qualifier(const actx *c, int i, const char *q)
{
    return (c->qual[i] && strcmp(c->qual[i], q) == 0) || (c->qual2 && c->qual2[i] && strcmp(c->qual2[i], q) == 0);
}

static int compile_ident(actx *c, const ast *e, expr **out)
{
    const char *name = e->parts[e->nparts - 1];
    char joined[1024];
    if (c->lam && e->nparts == 1)
        for (int i = 0; i < c->lam->nparams; i++)
            if (strcmp(c->lam->params[i], name) == 0) {
                *out = expr_col(i, c->lam->ptypes[i]);
                return 0;
            }
    char dotted[1024] = "";
    if (e->nparts == 2 && c->naj)
        snprintf(dotted, sizeof dotted, "%s.%s", e->parts[0], e->parts[1]);
    if (e->nparts == 1 || dotted[0])
        for (int k = c->naj - 1; k >= 0; k--)
            if (c->aj_names[k] && strcmp(c->aj_names[k], e->nparts == 1 ? name : dotted) == 0) {
                if (c->post)
                    return err_set(ERR_NOT_AN_AGGREGATE,
                                   "Column `%s` is not under aggregate function and not in GROUP BY keys. In scope SELECT.",
                                   c->aj_names[k]);
                *out = expr_col(AJ_BASE + k, c->aj_types[k]);
                return 0;
            }
    if (e->nparts == 1) {
        int a = find_alias(c, name);
        if (a >= 0 && !c->alias_active[a]) {
            c->alias_active[a] = true;
            c->nodes--; /* the identifier is replaced by the alias's expression */
            int rc = compile(c, c->alias_asts[a], out);
            c->alias_active[a] = false;
            return rc;
        }
    } else if (e->nparts == 2 && c->qual && !c->post) {
        for (int i = 0; c->src && i < c->src->n; i++)
            if (has_qualifier(c, i, e->parts[0]) && strcmp(c->bare[i], name) == 0) {
                *out = expr_col(use_source_column(c, i), c->src->types[i]);
                return 0;
            }
        snprintf(joined, sizeof joined, "%s.%s", e->parts[0], name);
        name = joined;
    } else if (e->nparts == 2) {
        const char *q = e->parts[0];
        bool qualifier_ok = (c->table_alias && strcmp(q, c->table_alias) == 0) ||
                            (c->table_name && strcmp(q, c->table_name) == 0);
        if (!qualifier_ok) {
            snprintf(joined, sizeof joined, "%s.%s", q, name);
            name = joined;
        }
    }
    if (c->post)
        return err_set(ERR_NOT_AN_AGGREGATE,
                       "Column `%s` is not under aggregate function and not in GROUP BY keys. In scope SELECT.", name);
    if (c->src)
        for (int i = 0; i < c->src->n; i++)
            if (strcmp(c->src->names[i], name) == 0) {
                *out = expr_col(use_source_column(c, i), c->src->types[i]);
                return 0;
            }
    if (c->bare && e->nparts == 1)
        for (int i = 0; i < c->src->n; i++)
            if (strcmp(c->bare[i], name) == 0) {
                *out = expr_col(use_source_column(c, i), c->src->types[i]);
                return 0;
            }
    return unknown_identifier(c, name);
}

/* ---- result column names ---- */

/* The source column a qualified identifier `q.name` reads (as compile_ident resolves it),
 * or -1 when q is not a table qualifier (a Nested column `n.a`, a tuple element). */
static int qualified_column(const actx *c, const ast *e)
{
    if (e->kind != AST_IDENT || e->nparts != 2 || !c->src)
        return -1;
    const char *q = e->parts[0], *name = e->parts[1];
    if (c->qual) {
        for (int i = 0; i < c->src->n; i++)
            if (has_qualifier(c, i, q) && strcmp(c->bare[i], name) == 0)
                return i;
        return -1;
    }
    bool table_q = (c->table_alias && strcmp(q, c->table_alias) == 0) || (c->table_name && strcmp(q, c->table_name) == 0);
    if (!table_q)
        return -1;
    for (int i = 0; i < c->src->n; i++)
        if (strcmp(c->src->names[i], name) == 0)
            return i;
    return -1;
}

/* The source column the bare identifier `name` would read, or -1 (also when a SELECT
 * alias of that name would be taken instead). */
static int bare_column(actx *c, const char *name)
{
    if (find_alias(c, name) >= 0 || !c->src)
        return -1;
    for (int i = 0; i < c->src->n; i++)
        if (strcmp(c->src->names[i], name) == 0)
            return i;
    for (int i = 0; c->bare && i < c->src->n; i++)
        if (strcmp(c->bare[i], name) == 0)
            return i;
    return -1;
}

/* e with every `t.col` that `col` alone would read the same way written as `col`: how
 * ClickHouse names result columns (SELECT t.a FROM t → a; FROM t, u: u.a stays u.a when
 * t has an `a` too). Returns e itself when nothing changes; new nodes go in arena a. */
static const ast *drop_redundant_qualifiers(actx *c, arena *a, const ast *e, int depth)
{
    if (!e || depth > 200)
        return e;
    if (e->kind == AST_IDENT) {
        int col = qualified_column(c, e);
        if (col < 0 || bare_column(c, e->parts[1]) != col)
            return e;
        ast *n = arena_alloc(a, sizeof *n, 8);
        *n = *e;
        n->nparts = 1;
        n->parts = e->parts + 1;
        return n;
    }
    if (e->kind != AST_FUNC)
        return e;
    ast *n = NULL;
    for (int i = 0; i < e->args.n; i++) {
        const ast *arg = drop_redundant_qualifiers(c, a, e->args.items[i], depth + 1);
        if (arg == e->args.items[i])
            continue;
        if (!n) {
            n = arena_alloc(a, sizeof *n, 8);
            *n = *e;
            n->args.items = arena_alloc(a, sizeof *n->args.items * (size_t)(e->args.n + 1), 8);
            memcpy(n->args.items, e->args.items, sizeof *n->args.items * (size_t)e->args.n);
        }
        n->args.items[i] = (ast *)arg;
    }
    return n ? n : e;
}

/* ---- functions ---- */

static int fold_if_const(actx *c, expr *e, expr **out)
{
    bool all_const = e->nargs > 0 || e->kind == EX_FUNC;
    for (int i = 0; i < e->nargs; i++)
        if (e->args[i]->kind != EX_CONST)
            all_const = false;
    /* materialize(), rand(), randomString(): a full column, one value per row, even over
     * constant arguments (ClickHouse never folds them) */
    if (!all_const || (e->call && (e->call->def->flags & FN_NO_CONST_FOLD)) ||
        (e->call && (e->call->def->flags & FN_NOT_DETERMINISTIC) && e->nargs > 0)) {
        *out = e;
        return 0;
    }
    block *one = block_new(0, 1);
    column *v;
    int rc = expr_eval(e, one, &v);
    block_free(one);
    if (rc) {
        expr_free(e);
        return -1;
    }
    v = col_materialize(v);
    column *first = col_slice(v, 0, 1);
    col_free(v);
    expr_free(e);
    *out = expr_const(first);
    return 0;
}

/* ClickHouse's IN keeps only the values that convert exactly to the left side's type (a
 * set value 2.55 cannot match a Decimal(9, 1), nor 300 a UInt8): for numbers, drops the
 * rows where the converted value differs from the original. Takes conv. */
static const type *array_leaf(const type *t)
{
    t = type_base(t);
    while (type_phys(t)->id == T_ARRAY)
        t = type_base(type_phys(t)->inner);
    return t;
}

static column *in_exact_only(actx *c, column *orig, column *conv)
{
    /* numbers, and arrays of numbers ([toUInt8(255)] IN [-1] matches nothing either) */
    const type *lo = array_leaf(orig->type), *lc = array_leaf(conv->type);
    if (!(type_is_number(lo) || type_is_wide(lo)) || !(type_is_number(lc) || type_is_wide(lc)) || conv->len == 0)
        return conv;
    fn_call *call;
    column *ex[2] = {orig, conv}, *m = NULL, *text[2] = {NULL, NULL};
    if (type_phys(type_base(orig->type))->id == T_ARRAY) {
        /* equals() needs one element type: arrays are compared by their text ([-1] and
         * [255] differ, [1.0] and [1] do not) */
        for (int k = 0; k < 2; k++) {
            const type *at = ex[k]->type;
            column *none = NULL;
            if (func_resolve("toString", 1, &at, &none, &c->q->env, &call)) {
                err_clear();
                col_free(text[0]);
                return conv;
            }
            int trc = fn_exec(call, &ex[k], conv->len, &text[k]);
            fn_call_free(call);
            if (trc) {
                err_clear();
                col_free(text[0]);
                return conv;
            }
            ex[k] = text[k] = col_materialize(text[k]);
        }
    }
    const type *ats[2] = {ex[0]->type, ex[1]->type};
    column *cargs[2] = {NULL, NULL};
    if (func_resolve("equals", 2, ats, cargs, &c->q->env, &call)) {
        err_clear();
        col_free(text[0]);
        col_free(text[1]);
        return conv;
    }
    int rc = fn_exec(call, ex, conv->len, &m);
    fn_call_free(call);
    col_free(text[0]);
    col_free(text[1]);
    if (rc) {
        err_clear();
        return conv;
    }
    m = col_materialize(m);
    uint8_t *keep = xmalloc(conv->len);
    size_t kept = expr_truth_mask(m, keep);
    col_free(m);
    if (kept < conv->len) {
        column *f = col_filter(conv, keep, kept);
        col_free(conv);
        conv = f;
    }
    free(keep);
    return conv;
}

/* Nesting of Array and Tuple (through the first element), Nullable and LowCardinality
 * ignored: how ClickHouse tells `x IN value` from `x IN collection`. */
static int type_depth(const type *t)
{
    t = type_phys(type_strip_nullable(type_phys(t)));
    if (t->id == T_ARRAY)
        return 1 + type_depth(t->inner);
    if (t->id == T_TUPLE)
        return 1 + (t->nfields ? type_depth(t->fields[0]) : 0);
    return 0;
}

/* Adds the rows of the subquery sub to set, converted to t, the left side's type (without
 * Nullable); several columns are the elements of t, a tuple. */
static int in_set_from_blocks(actx *c, schema *sch, block **bs, int nb, const type *t, in_set *set,
                              bool *tuple_null_misses);

static int in_set_from_subquery(actx *c, const ast *sub, const type *t, in_set *set, bool *tuple_null_misses)
{
    schema *sch;
    block **bs;
    int nb;
    if (run_query_to_blocks(sub, c->q, &sch, &bs, &nb))
        return -1;
    return in_set_from_blocks(c, sch, bs, nb, t, set, tuple_null_misses);
}

/* in_set_from_subquery over rows already read (sch, bs: taken). */
static int in_set_from_blocks(actx *c, schema *sch, block **bs, int nb, const type *t, in_set *set,
                              bool *tuple_null_misses)
{
    int nb_done;
    /* several columns are the elements of the left side's tuple */
    int ncols = sch->n;
    if (ncols > 1 && (t->id != T_TUPLE || t->nfields != ncols)) {
        err_set(ERR_NUMBER_OF_COLUMNS_DOESNT_MATCH,
                "Number of columns in section IN doesn't match. %d at left, %d at right.",
                t->id == T_TUPLE ? t->nfields : 1, ncols);
        nb_done = 0;
        goto fail;
    }
    *tuple_null_misses = ncols > 1;
    for (int i = 0; i < nb; i++) {
        if (bs[i]->ncols > 0) {
            column *src;
            if (ncols > 1) {
                src = col_new(type_tuple(ncols, (const type *const *)sch->types, NULL));
                for (int k = 0; k < ncols; k++) {
                    col_free(src->fields[k]);
                    src->fields[k] = col_materialize(col_ref(bs[i]->cols[k]));
                }
                src->len = bs[i]->rows;
            } else {
                src = col_materialize(col_ref(bs[i]->cols[0]));
            }
            column *casted = src;
            for (size_t r = 0; r < src->len; r++)
                if (col_is_null(src, r)) {
                    in_set_mark_null(set);
                    break;
                }
            if (src->type != t && type_strip_nullable(src->type) != t) {
                /* NULLs stay NULL (they mark the set, below) */
                const type *to = type_is_nullable(src->type) && type_can_be_nullable(t) ? type_nullable(t) : t;
                if (func_cast_column(src, to, &c->q->env, &casted)) {
                    col_free(src);
                    nb_done = i;
                    goto fail;
                }
                casted = in_exact_only(c, src, casted);
                col_free(src);
            }
            in_set_add_column(set, casted);
            col_free(casted);
        }
        block_free(bs[i]);
    }
    free(bs);
    schema_free(sch);
    return 0;
fail: /* blocks before nb_done are freed already */
    for (int k = nb_done; k < nb; k++)
        block_free(bs[k]);
    free(bs);
    schema_free(sch);
    return -1;
}

/* Whether the identifier e names something of the expression's scope (a column, an
 * alias): on the right of IN, a name that does not is a table's. */
static bool ident_resolves(actx *c, const ast *e)
{
    expr *x;
    if (compile(c, e, &x) == 0) {
        expr_free(x);
        return true;
    }
    if (err_code() != ERR_UNKNOWN_IDENTIFIER)
        return true; /* the compile that follows reports it */
    err_clear();
    return false;
}

static int compile_in(actx *c, const ast *e, bool negate, expr **out)
{
    expr *lhs;
    if (compile(c, e->args.items[0], &lhs))
        return -1;
    const ast *rhs = e->args.items[1];
    /* transform_null_in: NULL is a value like any other (NULL IN (NULL) is 1), the result
     * never NULL. */
    bool null_in = settings_bool(c->q->st, "transform_null_in");
    if (type_base(lhs->type)->id == T_NOTHING && null_in) {
        expr_free(lhs);
        lhs = expr_const(col_new_defaults(type_nullable(type_simple(T_UINT8)), 1));
    }
    if (type_base(lhs->type)->id == T_NOTHING) {
        /* NULL IN (…) is NULL (transform_null_in = 0). */
        expr_free(lhs);
        column *v = col_new(type_nullable(type_simple(T_NOTHING)));
        col_push_null(v);
        *out = expr_const(v);
        return 0;
    }
    const type *t = type_strip_nullable(type_phys(lhs->type));
    in_set *set = in_set_new(t);
    /* a tuple against a list of tuples: NULL elements match nothing (see expr.h) */
    bool tuple_null_misses = t->id == T_TUPLE && rhs->kind != AST_SUBQUERY;
    /* Gather the right side as a column of lhs's type: a subquery's first column, a
     * tuple of literals, or one literal. */
    column *vals = NULL, *lit = NULL;
    /* `x IN name`: a column or alias first, else a table (a Set table's rows: storage/joinset.h) */
    int table_rows = 0;
    if (rhs->kind == AST_IDENT && !ident_resolves(c, rhs)) {
        schema *tsch;
        block **tbs;
        int tnb;
        table_rows = in_table_rows(rhs, c->q, &tsch, &tbs, &tnb);
        if (table_rows > 0) {
            tuple_null_misses = false;
            table_rows = in_set_from_blocks(c, tsch, tbs, tnb, t, set, &tuple_null_misses) ? -1 : 1;
        }
        if (table_rows < 0) {
            in_set_free(set);
            expr_free(lhs);
            return -1;
        }
    }
    if (table_rows) {
        ; /* the set is filled */
    } else if (rhs->kind == AST_SUBQUERY) {
        if (in_set_from_subquery(c, rhs->sub, t, set, &tuple_null_misses)) {
            in_set_free(set);
            expr_free(lhs);
            return -1;
        }
    } else {
        /* The right side is one constant: a single element when its depth (nesting of
         * Array/Tuple) equals the left side's — 1 IN 1, (1, 2) IN (1, 2) — or a collection
         * of elements when one deeper — 1 IN (1, 2), 1 IN [1, 2], (1, 2) IN ((1, 2), (3, 4)),
         * as ClickHouse decides. */
        expr *rv;
        if (rhs->kind == AST_FUNC && strcmp(rhs->name, "tuple") == 0 && rhs->args.n == 0) {
            rv = expr_const(col_new_defaults(type_array(type_simple(T_NOTHING)), 1)); /* x IN (): empty */
        } else if (compile(c, rhs, &rv)) {
            in_set_free(set);
            expr_free(lhs);
            return -1;
        }
        if (rv->kind != EX_CONST) {
            expr_free(rv);
            in_set_free(set);
            expr_free(lhs);
            return err_set(ERR_BAD_ARGUMENTS, "The right side of IN must be a constant list or a subquery");
        }
        column *rcol = col_materialize(col_ref(rv->value));
        const type *rt = type_phys(type_strip_nullable(type_phys(rcol->type)));
        int ld = type_depth(lhs->type), rd = type_depth(rcol->type);
        column **items = NULL;
        int n = 0;
        if (ld == rd) {
            items = xcalloc(1, sizeof *items);
            items[n++] = col_ref(rcol);
        } else if (ld + 1 == rd && rt->id == T_TUPLE) {
            items = xcalloc((size_t)rcol->nfields + 1, sizeof *items);
            for (int i = 0; i < rcol->nfields; i++)
                items[n++] = col_ref(rcol->fields[i]);
        } else if (ld + 1 == rd && rt->id == T_ARRAY) {
            const column *arr = type_is_nullable(rcol->type) ? rcol->inner : rcol;
            size_t from = col_offs(arr)[0], to = col_offs(arr)[1];
            items = xcalloc(to - from + 1, sizeof *items);
            for (size_t i = from; i < to; i++)
                items[n++] = col_slice(arr->inner, i, 1);
        } else {
            err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                    "Unsupported types for IN. First argument type %s. Second argument type %s.", lhs->type->name,
                    rcol->type->name);
        }
        col_free(rcol);
        expr_free(rv);
        if (!items) {
            in_set_free(set);
            expr_free(lhs);
            return -1;
        }
        const type *lt = type_phys(type_strip_nullable(type_phys(lhs->type)));
        for (int i = 0; i < n && lt->id == T_TUPLE; i++) {
            const type *it = type_phys(type_strip_nullable(type_phys(items[i]->type)));
            int bad = it->id != T_TUPLE ? err_set(ERR_INCORRECT_ELEMENT_OF_SET, "Invalid type in set. Expected tuple, got %s.",
                                                  it->id == T_ARRAY ? "Array" : it->name)
                      : it->nfields != lt->nfields
                          ? err_set(ERR_INCORRECT_ELEMENT_OF_SET, "Incorrect size of tuple in set: %d instead of %d.",
                                    it->nfields, lt->nfields)
                          : 0;
            if (bad) {
                for (int k = 0; k < n; k++)
                    col_free(items[k]);
                free(items);
                in_set_free(set);
                expr_free(lhs);
                return -1;
            }
        }
        for (int i = 0; i < n; i++) {
            column *val = items[i];
            items[i] = NULL;
            if (col_is_null(val, 0)) {
                in_set_mark_null(set);
                col_free(val);
                continue;
            }
            bool dec_val = type_is_decimal(type_base(val->type)) || type_base(val->type)->id == T_DECIMAL256;
            if (dec_val && !type_is_decimal(t) && t->id != T_DECIMAL256 && (type_is_number(t) || type_is_wide(t))) {
                /* As ClickHouse: a Decimal literal in the list of a non-Decimal number. */
                const type *vt = type_base(val->type);
                col_free(val);
                for (int k = i + 1; k < n; k++)
                    col_free(items[k]);
                free(items);
                in_set_free(set);
                expr_free(lhs);
                return err_set(ERR_TYPE_MISMATCH, "Type mismatch in IN or VALUES section. Expected: %s. Got: %s", t->name,
                               type_id_name(vt->id));
            }
            if (type_strip_nullable(val->type) != t) {
                /* Convert the literal to the left side's type; a value that does not fit
                 * (e.g. 300 for UInt8) simply cannot match. */
                fn_call *call;
                column *targ = col_new(type_simple(T_STRING));
                col_push_str(targ, t->name, strlen(t->name));
                column *tconst = col_new_const(targ, 1);
                const type *ats[2] = {val->type, type_simple(T_STRING)};
                column *cargs[2] = {val, tconst};
                column *conv = NULL;
                bool failed = true;
                if (func_resolve("CAST", 2, ats, cargs, &c->q->env, &call) == 0) {
                    column *ex[2] = {val, tconst};
                    failed = fn_exec(call, ex, 1, &conv) != 0;
                    if (failed)
                        conv = NULL;
                    fn_call_free(call);
                }
                const type *vb = type_base(val->type);
                while (type_phys(vb)->id == T_ARRAY)
                    vb = type_base(type_phys(vb)->inner);
                if (failed && type_phys(vb)->id == T_STRING && !type_is_string(type_base(t))) {
                    /* a string that does not parse as the left side's type is an error in
                     * ClickHouse, unlike a number out of its range (which matches nothing) */
                    col_free(tconst);
                    col_free(val);
                    for (int k = i + 1; k < n; k++)
                        col_free(items[k]);
                    free(items);
                    in_set_free(set);
                    expr_free(lhs);
                    col_free(vals);
                    const type *tb = type_base(t);
                    while (type_phys(tb)->id == T_ARRAY)
                        tb = type_base(type_phys(tb)->inner);
                    if (!type_is_number(tb)) /* dates and others: the conversion's own error */
                        return -1;
                    return err_set(ERR_TYPE_MISMATCH, "Cannot convert string in the set of IN to type %s", tb->name);
                }
                if (conv)
                    conv = in_exact_only(c, val, col_materialize(conv));
                if (conv && conv->len == 0) {
                    col_free(conv);
                    conv = NULL;
                }
                err_clear();
                col_free(tconst);
                col_free(val);
                val = conv;
            }
            if (val) {
                vals = vals ? vals : col_new(val->type);
                col_push_from(vals, val, 0);
                col_free(val);
            }
        }
        free(items);
        if (vals) {
            in_set_add_column(set, vals);
            lit = vals;
        }
    }
    expr *ex = xcalloc(1, sizeof *ex);
    /* Recorded even without usable values: a later IN may reuse a freed one's address,
     * and the newest record for an address is the one that counts. */
    if (c->nin < 64) {
        if (lit && in_set_has_null(set)) {
            col_free(lit);
            lit = NULL;
        }
        c->in_ex[c->nin] = ex;
        c->in_vals[c->nin++] = lit;
    } else {
        c->in_overflow = true;
        if (lit)
            col_free(lit);
    }
    ex->kind = EX_IN;
    /* A NULL on the left gives NULL, so a Nullable left side makes the result Nullable. */
    ex->type = type_is_nullable(lhs->type) && !null_in ? type_nullable(type_simple(T_UINT8)) : type_simple(T_UINT8);
    ex->null_in = null_in;
    ex->tuple_null_misses = tuple_null_misses && !null_in;
    ex->args = xcalloc(1, sizeof *ex->args);
    ex->args[0] = lhs;
    ex->nargs = 1;
    ex->set = set;
    ex->negate = negate;
    *out = ex;
    return 0;
}

/* Resolves the aggregate call e whose arguments are compiled into args (types alongside). */
static int resolve_aggregate(const ast *e, const type **types, agg_call **out)
{
    double params[16];
    int np = 0;
    for (int i = 0; i < e->params.n && np < 16; i++) {
        const ast *pa = e->params.items[i];
        if (pa->kind != AST_LITERAL || (pa->lit != LIT_UINT && pa->lit != LIT_INT && pa->lit != LIT_FLOAT))
            return err_set(ERR_BAD_ARGUMENTS, "Parameters of aggregate function %s must be numeric literals", e->name);
        params[np++] = pa->lit == LIT_UINT ? (double)pa->u : pa->lit == LIT_INT ? (double)pa->i : pa->f;
    }
    return agg_resolve(e->name, e->args.n, types, np, params, out);
}

/* ClickHouse's optimize_injective_functions_inside_uniq: uniq*(f(x)) counts x when f is
 * injective with one argument (the functions whose isInjective holds without arguments),
 * which changes the estimate of the approximate uniq functions. */
static const ast *uniq_argument(actx *c, const ast *fn, const ast *arg)
{
    static const char *const uniqs[] = {"uniq", "uniqExact", "uniqHLL12", "uniqCombined", "uniqCombined64", "uniqTheta"};
    static const char *const injective[] = {"toString", "negate",  "bitNot",          "tuple",          "reverse",
                                            "hex",      "unhex",   "bin",             "unbin",          "concat",
                                            "IPv4NumToString", "IPv6NumToString"};
    bool uniq = false;
    for (size_t i = 0; i < sizeof uniqs / sizeof uniqs[0]; i++)
        uniq |= strcmp(fn->name, uniqs[i]) == 0;
    if (!uniq || !settings_bool(c->q->st, "optimize_injective_functions_inside_uniq"))
        return arg;
    for (;;) {
        if (arg->kind != AST_FUNC || arg->args.n != 1 || arg->has_params || arg->over || arg->over_name)
            return arg;
        bool inj = false;
        for (size_t i = 0; i < sizeof injective / sizeof injective[0]; i++)
            inj |= strcmp(arg->name, injective[i]) == 0;
        if (!inj)
            return arg;
        arg = arg->args.items[0];
    }
}

static int compile_aggregate(actx *c, const ast *e, expr **out)
{
    if (!c->post)
        return err_set(ERR_ILLEGAL_AGGREGATION, "Aggregate function %s is found in WHERE or in arguments of another aggregate function in query",
                       e->name);
    char *name = name_of(e);
    for (int i = 0; i < c->naggs; i++)
        if (strcmp(c->agg_names[i], name) == 0) {
            free(name);
            *out = expr_col(c->nkeys + i, c->p->aggs[i]->ret);
            return 0;
        }
    if (c->naggs == 256) {
        free(name);
        return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many aggregate functions in one query");
    }
    select_plan *p = c->p;
    int n = e->args.n;
    expr **args = xcalloc((size_t)n + 1, sizeof *args);
    const type **types = xcalloc((size_t)n + 1, sizeof *types);
    c->post = false;
    const char *win_ctx = c->win_ctx;
    c->win_ctx = "inside an aggregate function";
    for (int i = 0; i < n; i++)
        if (compile(c, uniq_argument(c, e, e->args.items[i]), &args[i])) {
            c->win_ctx = win_ctx;
            c->post = true;
            for (int k = 0; k < i; k++)
                expr_free(args[k]);
            free(args);
            free(types);
            free(name);
            return -1;
        } else {
            types[i] = args[i]->type;
        }
    c->win_ctx = win_ctx;
    c->post = true;
    agg_call *a;
    if (resolve_aggregate(e, types, &a)) {
        for (int k = 0; k < n; k++)
            expr_free(args[k]);
        free(args);
        free(types);
        free(name);
        return -1;
    }
    free(types);
    int idx = p->naggs++;
    p->aggs = xrealloc(p->aggs, sizeof *p->aggs * (size_t)p->naggs);
    p->agg_args = xrealloc(p->agg_args, sizeof *p->agg_args * (size_t)p->naggs);
    p->agg_nargs = xrealloc(p->agg_nargs, sizeof *p->agg_nargs * (size_t)p->naggs);
    p->agg_offsets = xrealloc(p->agg_offsets, sizeof *p->agg_offsets * (size_t)p->naggs);
    p->aggs[idx] = a;
    p->agg_args[idx] = args;
    p->agg_nargs[idx] = n;
    size_t align = a->state_align ? a->state_align : 8;
    size_t off = (p->state_size + align - 1) / align * align;
    p->agg_offsets[idx] = off;
    p->state_size = off + a->state_size;
    if (align > p->state_align)
        p->state_align = align;
    c->agg_names[c->naggs++] = name;
    *out = expr_col(c->nkeys + idx, a->ret);
    return 0;
}

static int compile_interval_arith(actx *c, const ast *e, expr **out, bool *done);
static int compile_window(actx *c, const ast *e, expr **out);
static int window_kind_of(const char *name);
static const ast *expand_aliases(actx *c, arena *a, const ast *e, int depth);
static const ast *positional(actx *c, const ast_list *select, const ast *e);

/* getSetting('name'): the setting's current value as a constant of its natural type. */
static int compile_get_setting(actx *c, const ast *e, expr **out)
{
    if (e->args.n != 1 || e->args.items[0]->kind != AST_LITERAL || e->args.items[0]->lit != LIT_STRING)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function getSetting takes one constant string argument");
    const char *name = e->args.items[0]->str;
    int i = settings_index(name);
    if (i < 0)
        return err_set(ERR_UNKNOWN_SETTING, "Unknown setting '%s'", name);
    const setting_def *d = settings_def_at(i);
    column *v;
    double num = settings_num_at(c->q->st, i);
    switch (d->kind) {
    case SET_BOOL: {
        uint8_t b = num != 0;
        v = col_new(type_simple(T_BOOL));
        col_push_fixed(v, &b);
        break;
    }
    case SET_UINT:
    case SET_MAXTHREADS: {
        uint64_t u = (uint64_t)num;
        v = col_new(type_simple(T_UINT64));
        col_push_fixed(v, &u);
        break;
    }
    case SET_INT: {
        int64_t x = (int64_t)num;
        v = col_new(type_simple(T_INT64));
        col_push_fixed(v, &x);
        break;
    }
    case SET_FLOAT:
        v = col_new(type_simple(T_FLOAT64));
        col_push_fixed(v, &num);
        break;
    default:
        v = col_new(type_simple(T_STRING));
        col_push_str(v, settings_text_at(c->q->st, i), strlen(settings_text_at(c->q->st, i)));
        break;
    }
    *out = expr_const(v);
    return 0;
}



/* ---- ARRAY JOIN and arrayJoin() ---- */

static int aj_new_step(actx *c, expr **arrays, int n, bool left)
{
    if (!c->p->array_join)
        c->p->array_join = xcalloc(1, sizeof *c->p->array_join);
    return array_join_add_step(c->p->array_join, arrays, n, left);
}

static int aj_array_type(const expr *ex, const char *what)
{
    const type *t = type_phys(ex->type);
    if (t->id == T_MAP)
        return err_set(ERR_NOT_IMPLEMENTED, "ARRAY JOIN over a Map (%s) is not supported yet", what);
    if (t->id != T_ARRAY)
        return err_set(ERR_TYPE_MISMATCH, "ARRAY JOIN requires expression %s with Array or Map type. Actual: %s", what,
                       ex->type->name);
    return 0;
}

/* One [LEFT] ARRAY JOIN clause: its arrays are zipped into one step; their names take
 * effect after the whole clause (`ARRAY JOIN arr AS a, arrayEnumerate(arr) AS i` reads
 * the array twice). */
/* `ARRAY JOIN n` where n is no column but the prefix of array columns n.a, n.b, … (a
 * Nested structure stored flat): those arrays, zipped. Returns how many (0: not such). */
static int nested_columns(actx *c, const char *prefix, int *cols, int cap)
{
    if (!c->src || find_alias(c, prefix) >= 0 || schema_find(c->src, prefix) >= 0)
        return 0;
    size_t pl = strlen(prefix);
    int n = 0;
    for (int i = 0; i < c->nvisible && n < cap; i++)
        if (strncmp(c->src->names[i], prefix, pl) == 0 && c->src->names[i][pl] == '.' &&
            type_phys(c->src->types[i])->id == T_ARRAY)
            cols[n++] = i;
    return n;
}

static int compile_array_join_clause(actx *c, const ast *clause)
{
    expr *arrays[AJ_MAX];
    char *names[AJ_MAX];
    bool shadow[AJ_MAX];
    int n = 0;
    if (clause->args.n == 0)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "ARRAY JOIN requires at least single expression");
    for (int i = 0; i < clause->args.n; i++) {
        const ast *it = clause->args.items[i];
        int nested[AJ_MAX];
        int nn = it->kind == AST_IDENT && it->nparts == 1 ? nested_columns(c, it->parts[0], nested, AJ_MAX) : 0;
        if (c->naj + n + (nn ? nn : 1) > AJ_MAX) {
            for (int k = 0; k < n; k++)
                expr_free(arrays[k]);
            return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many ARRAY JOIN arrays");
        }
        for (int j = 0; j < nn; j++) {
            /* n.a answers to the same name (or to alias.a) */
            const char *col = c->src->names[nested[j]];
            arrays[n] = expr_col(use_source_column(c, nested[j]), c->src->types[nested[j]]);
            if (it->alias) {
                buf b = {0};
                buf_printf(&b, "%s%s", it->alias, col + strlen(it->parts[0]));
                names[n] = xstrdup(buf_cstr(&b));
                buf_free(&b);
            } else {
                names[n] = xstrdup(col);
            }
            shadow[n++] = !it->alias;
        }
        if (nn)
            continue;
        char *nm = name_of(it);
        c->in_clause++;
        int rc = compile(c, it, &arrays[n]);
        c->in_clause--;
        if (!rc && aj_array_type(arrays[n], nm)) {
            expr_free(arrays[n]);
            rc = -1;
        }
        free(nm);
        if (rc) {
            for (int k = 0; k < n; k++) {
                expr_free(arrays[k]);
                free(names[k]);
            }
            return -1;
        }
        const char *name = it->alias ? it->alias : it->kind == AST_IDENT ? it->parts[it->nparts - 1] : NULL;
        names[n] = name ? xstrdup(name) : NULL;
        shadow[n++] = !it->alias && it->kind == AST_IDENT;
    }
    int step = aj_new_step(c, arrays, n, strcmp(clause->join_kind, "LEFT") == 0);
    for (int i = 0; i < n; i++) {
        int k = c->naj++;
        c->aj_step[k] = step;
        c->aj_types[k] = type_phys(arrays[i]->type)->inner;
        c->aj_keys[k] = NULL;
        c->aj_shadow[k] = shadow[i];
        c->aj_names[k] = names[i];
    }
    return 0;
}

/* arrayJoin(arr): a step of its own, shared by every use of the same call. */
static int compile_array_join_fn(actx *c, const ast *e, expr **out)
{
    if (e->args.n != 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function arrayJoin doesn't match: passed %d, should be 1", e->args.n);
    if (c->lam) {
        buf b = {0};
        ast_format_expr(&b, e->args.items[0]);
        int rc = err_set(ERR_BAD_ARGUMENTS, "Expression in arrayJoin cannot depend on lambda argument: %s", buf_cstr(&b));
        buf_free(&b);
        return rc;
    }
    if (c->post)
        return err_set(ERR_NOT_IMPLEMENTED, "arrayJoin() over aggregated values is not supported yet");
    ast bare = *e; /* `arrayJoin(a) AS x, arrayJoin(a) AS y` is one join */
    bare.alias = NULL;
    char *key = name_of(&bare);
    for (int k = 0; k < c->naj; k++)
        if (c->aj_keys[k] && strcmp(c->aj_keys[k], key) == 0) {
            free(key);
            *out = expr_col(AJ_BASE + k, c->aj_types[k]);
            return 0;
        }
    if (c->naj == AJ_MAX) {
        free(key);
        return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many arrayJoin() calls");
    }
    expr *arr;
    if (compile(c, e->args.items[0], &arr)) {
        free(key);
        return -1;
    }
    if (type_phys(arr->type)->id != T_ARRAY) {
        int rc = type_phys(arr->type)->id == T_MAP
                     ? err_set(ERR_NOT_IMPLEMENTED, "arrayJoin() over a Map is not supported yet")
                     : err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function arrayJoin must be Array or Map");
        expr_free(arr);
        free(key);
        return rc;
    }
    int k = c->naj++;
    c->aj_types[k] = type_phys(arr->type)->inner;
    c->aj_step[k] = aj_new_step(c, &arr, 1, false);
    c->aj_keys[k] = key;
    c->aj_in_clause[k] = c->in_clause > 0;
    c->aj_names[k] = NULL;
    c->aj_shadow[k] = false;
    *out = expr_col(AJ_BASE + k, c->aj_types[k]);
    return 0;
}

static void aj_mark(const expr *e, uint8_t *used)
{
    if (!e)
        return;
    if (e->kind == EX_COL && e->col >= AJ_BASE)
        used[e->col - AJ_BASE] = 1;
    for (int i = 0; i < e->nargs; i++)
        aj_mark(e->args[i], used);
}

static void aj_remap(expr *e, const int *map)
{
    if (!e)
        return;
    if (e->kind == EX_COL && e->col >= AJ_BASE)
        e->col = map[e->col - AJ_BASE];
    for (int i = 0; i < e->nargs; i++)
        aj_remap(e->args[i], map);
}

/* Marks the block columns e reads; the window results (placeholders until after
 * aj_finish) are not columns of the joined block. */
static void aj_mark_cols(const expr *e, uint8_t *used)
{
    if (!e)
        return;
    if (e->kind == EX_COL && e->col < GROUPING_COL_BASE)
        used[e->col] = 1;
    for (int i = 0; i < e->nargs; i++)
        aj_mark_cols(e->args[i], used);
}

/* Calls f on every expression of the plan that may read the pre-stage block. */
static void aj_walk(select_plan *p, void (*mark)(const expr *, uint8_t *), uint8_t *used,
                    void (*remap)(expr *, const int *), const int *map)
{
#define AJ_VISIT(x) (mark ? mark((x), used) : remap((x), map))
    AJ_VISIT(p->where);
    for (int i = 0; i < p->nkeys; i++)
        AJ_VISIT(p->keys[i]);
    for (int i = 0; i < p->naggs; i++)
        for (int j = 0; j < p->agg_nargs[i]; j++)
            AJ_VISIT(p->agg_args[i][j]);
    if (!p->aggregate) {
        AJ_VISIT(p->having);
        for (int i = 0; i < p->nout; i++)
            AJ_VISIT(p->out[i]);
        for (int i = 0; i < p->norder; i++)
            AJ_VISIT(p->order[i]);
        /* without aggregation the window step reads the joined block */
        const window_plan *w = p->windows;
        for (int s = 0; w && s < w->nspecs; s++) {
            for (int k = 0; k < w->specs[s].npart; k++)
                AJ_VISIT(w->specs[s].part[k]);
            for (int k = 0; k < w->specs[s].norder; k++)
                AJ_VISIT(w->specs[s].order[k]);
        }
        for (int f = 0; w && f < w->nfuncs; f++)
            for (int k = 0; k < w->funcs[f].nargs; k++)
                AJ_VISIT(w->funcs[f].args[k]);
    }
    for (int s = 0; p->array_join && s < p->array_join->nsteps; s++)
        for (int k = 0; k < p->array_join->steps[s].narrays; k++)
            AJ_VISIT(p->array_join->steps[s].arrays[k]);
#undef AJ_VISIT
}

/* Gives the element columns their block positions (after the source columns), leaving
 * out, as ClickHouse does, the arrays of a clause whose elements nothing reads (one stays,
 * so that the rows still multiply) and the arrayJoin() calls written inside those arrays. */
static void aj_finish(actx *c)
{
    select_plan *p = c->p;
    array_join_plan *aj = p->array_join;
    if (!aj)
        return;
    int (*ids)[AJ_MAX] = xcalloc(AJ_MAX, sizeof *ids); /* element number of each remaining array */
    for (int s = 0, k = 0; s < aj->nsteps; s++)
        for (int i = 0; i < aj->steps[s].narrays; i++)
            ids[s][i] = k++;
    for (bool changed = true; changed;) {
        changed = false;
        uint8_t used[AJ_MAX] = {0};
        aj_walk(p, aj_mark, used, NULL, NULL);
        for (int s = 0; s < aj->nsteps; s++) {
            array_join_step *st = &aj->steps[s];
            if (!st->narrays)
                continue;
            /* an arrayJoin() call goes with the clause array it was written in */
            bool fn = c->aj_keys[ids[s][0]] != NULL && c->aj_in_clause[ids[s][0]], any = false;
            for (int i = 0; i < st->narrays; i++)
                any |= used[ids[s][i]] != 0;
            int w = 0;
            for (int i = 0; i < st->narrays; i++) {
                int k = ids[s][i];
                if (!used[k] && (fn || any || i > 0)) {
                    expr_free(st->arrays[i]);
                    changed = true;
                    continue;
                }
                st->arrays[w] = st->arrays[i];
                ids[s][w++] = k;
            }
            st->narrays = w;
        }
    }
    int map[AJ_MAX], next = p->nsrc_cols, ns = 0;
    for (int s = 0; s < aj->nsteps; s++) {
        array_join_step st = aj->steps[s];
        if (!st.narrays) {
            free(st.arrays);
            continue;
        }
        for (int i = 0; i < st.narrays; i++)
            map[ids[s][i]] = next++;
        aj->steps[ns++] = st;
    }
    aj->nsteps = ns;
    free(ids);
    if (p->where) {
        uint8_t in_where[AJ_MAX] = {0};
        aj_mark(p->where, in_where);
        p->where_before_array_join = !memchr(in_where, 1, sizeof in_where);
    }
    aj_walk(p, NULL, NULL, aj_remap, map);
    /* what the steps after the first and everything after the join read */
    aj->nneeded = next;
    aj->needed = xcalloc((size_t)next + 1, 1);
    array_join_step *first = &aj->steps[0];
    int nfirst = first->narrays;
    first->narrays = 0; /* the first step's arrays read the unjoined block */
    aj_walk(p, aj_mark_cols, aj->needed, NULL, NULL);
    first->narrays = nfirst;
}

/* ---- lambdas and higher-order functions ---- */

static bool ast_uses(const ast *e, const char *const *names, int n);

static bool list_uses(const ast_list *l, const char *const *names, int n)
{
    for (int i = 0; i < l->n; i++)
        if (ast_uses(l->items[i], names, n))
            return true;
    return false;
}

/* Whether e refers to one of names (parameters of the lambda being compiled), minding the
 * parameters of lambdas inside e that shadow them. */
static bool ast_uses(const ast *e, const char *const *names, int n)
{
    if (!e || n == 0)
        return false;
    switch (e->kind) {
    case AST_IDENT:
        for (int i = 0; i < n; i++)
            if (strcmp(e->parts[0], names[i]) == 0)
                return true;
        return false;
    case AST_LAMBDA: {
        const char *left[64];
        int m = 0;
        for (int i = 0; i < n && m < 64; i++) {
            bool shadowed = false;
            for (int k = 0; k < e->nparts; k++)
                shadowed |= strcmp(e->parts[k], names[i]) == 0;
            if (!shadowed)
                left[m++] = names[i];
        }
        return e->args.n && ast_uses(e->args.items[0], left, m);
    }
    case AST_FUNC:
        return list_uses(&e->args, names, n) || list_uses(&e->params, names, n) ||
               (e->over && ast_uses(e->over, names, n));
    case AST_WINDOW: return list_uses(&e->partition_by, names, n) || list_uses(&e->order_by, names, n);
    case AST_ORDER_ITEM: return ast_uses(e->sub, names, n);
    default: return false;
    }
}

/* Compiles e, which uses no parameter of the innermost lambda, in the enclosing scope and
 * makes it a captured column of the lambda's block (constants stay constants). */
static int compile_captured(actx *c, const ast *e, expr **out)
{
    lambda_scope *ls = c->lam;
    c->lam = ls->parent;
    c->nodes--; /* counted once, by this compile */
    expr *v;
    int rc = compile(c, e, &v);
    c->lam = ls;
    if (rc)
        return -1;
    if (v->kind == EX_CONST) {
        *out = v;
        return 0;
    }
    for (int k = 0; k < ls->ncaps; k++)
        if (v->kind == EX_COL && ls->caps[k]->kind == EX_COL && ls->caps[k]->col == v->col) {
            *out = expr_col(ls->nparams + k, v->type);
            expr_free(v);
            return 0;
        }
    ls->caps = xrealloc(ls->caps, sizeof *ls->caps * (size_t)(ls->ncaps + 1));
    ls->caps[ls->ncaps++] = v;
    *out = expr_col(ls->nparams + ls->ncaps - 1, v->type);
    return 0;
}

static void lambda_text(const ast *l, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "Function(");
    if (l->nparts > 1)
        n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "(");
    for (int i = 0; i < l->nparts && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, "%s?", i ? ", " : "");
    if (n < cap)
        snprintf(out + n, cap - n, "%s -> ?)", l->nparts > 1 ? ")" : "");
}

/* name(lambda, arrays…[, accumulator]) or name(arrays…): see func/hof.h. */
static int compile_hof(actx *c, const ast *e, const hof_def *d, expr **out)
{
    int n = e->args.n;
    const ast *lam = n && e->args.items[0]->kind == AST_LAMBDA ? e->args.items[0] : NULL;
    bool fold = d->kind == HOF_FOLD;
    int min_args = d->needs_lambda ? 2 + fold : 1;
    if (n < min_args)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function %s needs at least %d argument%s, passed %d",
                       d->name, min_args, min_args > 1 ? "s" : "", n);
    for (int i = lam ? 1 : 0; i < n; i++)
        if (e->args.items[i]->kind == AST_LAMBDA)
            return err_set(ERR_BAD_ARGUMENTS, "Lambda is allowed only as the first argument of function %s", d->name);
    int first = lam ? 1 : 0, narrays = n - first - fold;
    expr *ex = xcalloc(1, sizeof *ex);
    ex->kind = EX_HOF;
    ex->args = xcalloc((size_t)n + 1, sizeof *ex->args);
    lambda_scope ls = {0};
    int rc = 0;
    for (int i = first; i < n && !rc; i++) {
        rc = compile(c, e->args.items[i], &ex->args[ex->nargs]);
        if (rc)
            break;
        ex->nargs++;
        const type *t = ex->args[ex->nargs - 1]->type;
        if (ex->nargs <= narrays && type_phys(t)->id != T_ARRAY) {
            if (!lam && i == 0 && narrays > 0 && n > 1)
                rc = err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be a function. Actual %s",
                             d->name, t->name);
            else
                rc = err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument %d of function %s must be Array. Found %s instead.",
                             i + 1, d->name, t->name);
        }
    }
    if (!rc && !lam && (d->needs_lambda || narrays != 1))
        rc = err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be a function. Actual %s", d->name,
                     ex->args[0]->type->name);
    if (!rc && lam && lam->nparts != narrays + fold) {
        char ft[256];
        lambda_text(lam, ft, sizeof ft);
        rc = err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                     "First argument for this overload of %s must be a function with %d arguments, found %s instead.",
                     d->name, narrays + fold, ft);
    }
    if (!rc && narrays > 60)
        rc = err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many arrays for function %s", d->name);
    const type *arr_types[64];
    for (int i = 0; !rc && i < narrays; i++)
        arr_types[i] = ex->args[i]->type;
    expr *body = NULL;
    if (!rc && lam) {
        ls.parent = c->lam;
        ls.nparams = lam->nparts;
        ls.params = lam->parts;
        int p = 0;
        if (fold)
            ls.ptypes[p++] = ex->args[narrays]->type;
        for (int i = 0; i < narrays; i++)
            ls.ptypes[p++] = hof_elem_type(arr_types[i]);
        c->lam = &ls;
        rc = compile(c, lam->args.items[0], &body);
        c->lam = ls.parent;
    }
    if (!rc)
        rc = hof_resolve(d, narrays, arr_types, lam != NULL, body ? body->type : NULL,
                         fold ? ex->args[narrays]->type : NULL, &c->q->env, &ex->hof);
    if (rc) {
        expr_free(body);
        for (int k = 0; k < ls.ncaps; k++)
            expr_free(ls.caps[k]);
        free(ls.caps);
        expr_free(ex);
        return -1;
    }
    ex->narrays = narrays;
    ex->ncaps_from = ex->nargs;
    ex->type = ex->hof->ret;
    if (lam) {
        ex->lambda = xcalloc(1, sizeof *ex->lambda);
        ex->lambda->body = body;
        ex->lambda->nparams = ls.nparams;
        ex->args = xrealloc(ex->args, sizeof *ex->args * (size_t)(ex->nargs + ls.ncaps + 1));
        for (int k = 0; k < ls.ncaps; k++)
            ex->args[ex->nargs++] = ls.caps[k];
        free(ls.caps);
    }
    return fold_if_const(c, ex, out);
}

/* grouping(k1, …, kn) after ROLLUP / CUBE / GROUPING SETS: bit n-1-i is 1 when ki is
 * not in the row's grouping set (force_grouping_standard_compatibility, the default).
 * The executor fills a post column per call (placeholder GROUPING_COL_BASE + i until the
 * width of the post block is known); with a plain GROUP BY it is 0. */

/* The name a GROUP BY key or a grouping set's item is matched by (aliases expanded). */
static char *key_match_name(actx *c, const ast *e)
{
    ast bare = *expand_aliases(c, c->scratch, positional(c, &c->sel->select, e), 0);
    bare.alias = NULL;
    return name_of(&bare);
}

/* The key e is (matched by key_match_name), or -1. */
static int find_key(actx *c, const ast *e)
{
    char *name = key_match_name(c, e);
    int found = -1;
    for (int k = 0; k < c->nkeys && found < 0; k++) {
        char *kn = c->gkeys.n ? key_match_name(c, c->gkeys.items[k]) : xstrdup(c->key_names[k]);
        if (strcmp(kn, name) == 0)
            found = k;
        free(kn);
    }
    free(name);
    return found;
}

static int compile_grouping(actx *c, const ast *e, expr **out)
{
    char *text = name_of(e);
    int rc = -1;
    if (!c->p->aggregate)
        err_set(ERR_ILLEGAL_AGGREGATION, "GROUPING function %s is found in SELECT without GROUP BY in query", text);
    else if (!c->post || c->lam)
        err_set(ERR_ILLEGAL_AGGREGATION, "GROUPING function %s is found %s in query", text,
                c->win_ctx ? c->win_ctx : "in a lambda");
    else if (e->args.n == 0 || e->args.n > 64)
        err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function GROUPING expects from 1 to 64 arguments, got %d",
                e->args.n);
    else
        rc = 0;
    free(text);
    if (rc)
        return -1;
    int *args = xmalloc(sizeof *args * (size_t)e->args.n);
    for (int i = 0; i < e->args.n; i++) {
        args[i] = find_key(c, e->args.items[i]);
        /* ClickHouse drops constant keys: grouping() of one is not a key */
        if (args[i] >= 0 && c->p->nsets && (c->p->sets_const_mask >> args[i] & 1))
            args[i] = -1;
        if (args[i] < 0) {
            buf b = {0};
            ast_format_expr(&b, e->args.items[i]);
            err_set(ERR_BAD_ARGUMENTS, "GROUPING function argument %s is not in GROUP BY keys", buf_cstr(&b));
            buf_free(&b);
            free(args);
            return -1;
        }
    }
    select_plan *p = c->p;
    if (p->nsets == 0) {
        free(args);
        column *v = col_new(type_simple(T_UINT64));
        uint64_t zero = 0;
        col_push_fixed(v, &zero);
        *out = expr_const(v);
        return 0;
    }
    p->grouping_args = xrealloc(p->grouping_args, sizeof *p->grouping_args * (size_t)(p->ngrouping + 1));
    p->grouping_nargs = xrealloc(p->grouping_nargs, sizeof *p->grouping_nargs * (size_t)(p->ngrouping + 1));
    p->grouping_args[p->ngrouping] = args;
    p->grouping_nargs[p->ngrouping] = e->args.n;
    *out = expr_col(GROUPING_COL_BASE + p->ngrouping++, type_simple(T_UINT64));
    return 0;
}

static void remap_grouping_cols(expr *e, int base)
{
    if (!e)
        return;
    if (e->kind == EX_COL && e->col >= GROUPING_COL_BASE && e->col < 2 * GROUPING_COL_BASE)
        e->col = base + (e->col - GROUPING_COL_BASE);
    for (int i = 0; i < e->nargs; i++)
        remap_grouping_cols(e->args[i], base);
}

/* ROLLUP / CUBE / GROUPING SETS: the keys (each distinct expression once, as ClickHouse
 * dedupes them) into *keys; the sets become masks once the keys are compiled
 * (plan_grouping_sets). */
static void grouping_keys(actx *c, const ast *sel, ast_list *keys)
{
    ast_list all = {0};
    if (sel->group_by_mod == GB_SETS) {
        for (int i = 0; i < sel->grouping_sets.n; i++)
            for (int j = 0; j < sel->grouping_sets.items[i]->args.n; j++)
                ast_list_push(c->scratch, &all, sel->grouping_sets.items[i]->args.items[j]);
    } else {
        all = *keys;
    }
    ast_list out = {0};
    for (int i = 0; i < all.n; i++) {
        char *name = key_match_name(c, all.items[i]);
        bool seen = false;
        for (int j = 0; j < out.n && !seen; j++) {
            char *other = key_match_name(c, out.items[j]);
            seen = strcmp(name, other) == 0;
            free(other);
        }
        free(name);
        if (!seen)
            ast_list_push(c->scratch, &out, all.items[i]);
    }
    *keys = out;
    c->gkeys = out;
}

static int plan_grouping_sets(actx *c, const ast *sel)
{
    select_plan *p = c->p;
    int n = p->nkeys;
    if (n > 64)
        return err_set(ERR_NOT_IMPLEMENTED, "ROLLUP, CUBE or GROUPING SETS over more than 64 keys are not supported");
    /* constant keys are in every set (ClickHouse drops them from ROLLUP and CUBE) */
    int var[64], nv = 0;
    for (int k = 0; k < n; k++)
        if (expr_is_const(p->keys[k]))
            p->sets_const_mask |= UINT64_C(1) << k;
        else
            var[nv++] = k;
    if (sel->group_by_mod == GB_ROLLUP) {
        p->nsets = nv + 1;
        p->set_masks = xmalloc(sizeof *p->set_masks * (size_t)p->nsets);
        for (int i = 0; i <= nv; i++) {
            p->set_masks[i] = p->sets_const_mask;
            for (int j = 0; j < nv - i; j++)
                p->set_masks[i] |= UINT64_C(1) << var[j];
        }
    } else if (sel->group_by_mod == GB_CUBE) {
        if (nv > 16)
            return err_set(ERR_NOT_IMPLEMENTED, "CUBE over more than 16 keys is not supported");
        p->nsets = 1 << nv;
        p->set_masks = xmalloc(sizeof *p->set_masks * (size_t)p->nsets);
        for (int i = 0; i < p->nsets; i++) {
            uint64_t bits = (uint64_t)(p->nsets - 1 - i);
            p->set_masks[i] = p->sets_const_mask;
            for (int j = 0; j < nv; j++)
                if (bits >> j & 1)
                    p->set_masks[i] |= UINT64_C(1) << var[j];
        }
    } else {
        p->nsets = sel->grouping_sets.n;
        p->set_masks = xcalloc((size_t)p->nsets, sizeof *p->set_masks);
        for (int i = 0; i < p->nsets; i++) {
            const ast *set = sel->grouping_sets.items[i];
            p->sets_empty_row |= set->args.n == 0;
            p->set_masks[i] = p->sets_const_mask;
            for (int j = 0; j < set->args.n; j++)
                p->set_masks[i] |= UINT64_C(1) << find_key(c, set->args.items[j]);
        }
        if (n == 0) { /* GROUPING SETS (()): one group of every row */
            if (p->nsets > 1)
                return err_set(ERR_NOT_IMPLEMENTED, "GROUPING SETS of only empty sets are not supported");
            free(p->set_masks);
            p->set_masks = NULL;
            p->nsets = 0;
            return 0;
        }
    }
    if (settings_int(c->q->st, "group_by_use_nulls")) {
        p->key_post_types = xmalloc(sizeof *p->key_post_types * (size_t)n);
        for (int k = 0; k < n; k++) {
            const type *t = p->keys[k]->type;
            if (p->sets_const_mask >> k & 1)
                ;
            else if (t->id == T_LOWCARDINALITY && type_can_be_nullable(t->inner))
                t = type_lowcard(type_nullable(t->inner));
            else if (type_can_be_nullable(t))
                t = type_nullable(t);
            p->key_post_types[k] = t;
        }
    }
    return 0;
}

/* f(…) IGNORE NULLS / RESPECT NULLS. IGNORE NULLS is what aggregate and window functions do
 * anyway (ClickHouse accepts and keeps them); RESPECT NULLS needs the *_respect_nulls
 * variants, not implemented; other functions cannot take either (as ClickHouse). */
static int check_nulls_action(const ast *e)
{
    bool agg_or_window = e->over || e->over_name || window_kind_of(e->name) >= 0 ||
                         (!func_lookup(e->name) && agg_exists(e->name));
    const char *action = e->nulls_action == 'I' ? "IGNORE NULLS" : "RESPECT NULLS";
    if (!agg_or_window)
        return err_set(ERR_SYNTAX_ERROR, "Function with name `%s` cannot use %s", e->name, action);
    if (e->nulls_action == 'R')
        return err_set(ERR_NOT_IMPLEMENTED, "Function %s with RESPECT NULLS is not supported yet", e->name);
    return 0;
}

/* A constant String argument of joinGet (the table may also be a bare identifier, db.name
 * or name), in out (cap bytes). */
static int join_get_name_arg(actx *c, const ast *a, bool table, char *out, size_t cap)
{
    if (table && a->kind == AST_IDENT && a->nparts <= 2) {
        snprintf(out, cap, "%s%s%s", a->nparts == 2 ? a->parts[0] : "", a->nparts == 2 ? "." : "", a->parts[a->nparts - 1]);
        return 0;
    }
    expr *x;
    if (compile(c, a, &x))
        return -1;
    bool ok = x->kind == EX_CONST && type_is_string(type_base(x->type));
    if (ok) {
        const column *v = x->value;
        size_t len;
        const char *p = col_str(v, 0, &len);
        snprintf(out, cap, "%.*s", (int)len, p);
    }
    expr_free(x);
    return ok ? 0 : err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type of %s argument of function joinGet, expected a const string",
                            table ? "first" : "second");
}

/* joinGet(table, column, keys…): the arguments compiled here, the rest in sql/join_engine.c. */
static int compile_join_get(actx *c, const ast *e, expr **out)
{
    if (e->args.n < 3)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Number of arguments for function %s doesn't match: passed %d, should be greater or equal to 3",
                       e->name, e->args.n);
    char tname[512], cname[512];
    if (join_get_name_arg(c, e->args.items[0], true, tname, sizeof tname) ||
        join_get_name_arg(c, e->args.items[1], false, cname, sizeof cname))
        return -1;
    int n = e->args.n - 2;
    expr **keys = xcalloc((size_t)n + 1, sizeof *keys);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        rc = compile(c, e->args.items[i + 2], &keys[i]);
    expr *ex = NULL;
    if (!rc)
        rc = join_get_compile(e->name, tname, cname, keys, n, c->q, &ex);
    else
        for (int i = 0; i < n; i++)
            if (keys[i])
                expr_free(keys[i]);
    free(keys);
    return rc ? -1 : fold_if_const(c, ex, out);
}

static int compile_func(actx *c, const ast *e, expr **out)
{
    if (e->nulls_action && check_nulls_action(e))
        return -1;
    if (e->over || e->over_name)
        return compile_window(c, e, out);
    if (window_kind_of(e->name) >= 0)
        return err_set(ERR_BAD_ARGUMENTS,
                       "The function '%s' can only be used as a window function, not as an aggregate function",
                       e->name);
    if (strcmp(e->name, "arrayJoin") == 0 && !e->has_params)
        return compile_array_join_fn(c, e, out);
    const ast *rewritten;
    int mrc = map_hof_rewrite(c->scratch, e, &rewritten);
    if (mrc)
        return mrc < 0 ? -1 : compile(c, rewritten, out);
    const hof_def *hd = hof_lookup(e->name);
    if (hd && !e->has_params && (!hd->plain_exists || (e->args.n && e->args.items[0]->kind == AST_LAMBDA)))
        return compile_hof(c, e, hd, out);
    if (strcmp(e->name, "getSetting") == 0)
        return compile_get_setting(c, e, out);
    if ((!strcasecmp(e->name, "CAST") || !strcmp(e->name, "_CAST") || !strncmp(e->name, "accurateCast", 12)) &&
        e->args.n == 2 && e->args.items[1]->kind == AST_LITERAL && e->args.items[1]->lit == LIT_STRING) {
        /* the target type as ClickHouse checks it before creating its column */
        const ast *ty = e->args.items[1];
        const type *t = type_parse(ty->str, ty->str_len);
        if (t && type_check_suspicious(t, c->q->st))
            return -1;
        err_clear();
    }
    bool done;
    int irc = compile_interval_arith(c, e, out, &done);
    if (done || irc)
        return irc;
    if (strcmp(e->name, "in") == 0 || strcmp(e->name, "globalIn") == 0)
        return compile_in(c, e, false, out);
    if (strcmp(e->name, "notIn") == 0 || strcmp(e->name, "globalNotIn") == 0)
        return compile_in(c, e, true, out);
    if (strcasecmp(e->name, "grouping") == 0 && !e->over && !e->over_name)
        return compile_grouping(c, e, out);
    if (!strcmp(e->name, "joinGet") || !strcmp(e->name, "joinGetOrNull"))
        return compile_join_get(c, e, out);
    if (!func_lookup(e->name) && agg_exists(e->name)) {
        if (c->lam)
            return err_set(ERR_ILLEGAL_AGGREGATION,
                           "Aggregate function %s inside a lambda uses the lambda's parameters", e->name);
        return compile_aggregate(c, e, out);
    }
    if (e->has_params)
        return err_set(ERR_UNKNOWN_AGGREGATE_FUNCTION, "Unknown aggregate function %s", e->name);
    int n = e->args.n;
    expr *ex = xcalloc(1, sizeof *ex);
    ex->kind = EX_FUNC;
    ex->args = xcalloc((size_t)n + 1, sizeof *ex->args);
    const type **types = xcalloc((size_t)n + 1, sizeof *types);
    column **consts = xcalloc((size_t)n + 1, sizeof *consts);
    for (int i = 0; i < n; i++) {
        if (compile(c, e->args.items[i], &ex->args[i])) {
            ex->nargs = i;
            expr_free(ex);
            free(types);
            free(consts);
            return -1;
        }
        types[i] = ex->args[i]->type;
        consts[i] = ex->args[i]->kind == EX_CONST ? ex->args[i]->value : NULL;
    }
    ex->nargs = n;
    int rc = func_resolve(e->name, n, types, consts, &c->q->env, &ex->call);
    free(types);
    free(consts);
    if (rc) {
        const char *m = err_msg(), *at = strstr(m, "does not exist.");
        if (err_code() == ERR_UNKNOWN_FUNCTION && at) {
            /* ClickHouse names the scope: "… does not exist. In scope SELECT …. Maybe …" */
            char scope[1024], head[ERR_MSG_MAX], tail[ERR_MSG_MAX];
            scope_text(c, scope, sizeof scope);
            size_t hl = (size_t)(at - m) + strlen("does not exist.");
            snprintf(head, sizeof head, "%.*s", (int)hl, m);
            snprintf(tail, sizeof tail, "%s", m + hl);
            err_set(ERR_UNKNOWN_FUNCTION, "%s In scope %s.%s", head, scope, tail);
        }
        expr_free(ex);
        return -1;
    }
    ex->type = ex->call->result_type;
    /* toTypeName spells named tuples over several lines under print_pretty_type_names;
     * the name depends only on the type, so it is a constant. */
    if (n == 1 && strcmp(ex->call->def->name, "toTypeName") == 0) {
        /* a constant, whatever the argument, as in ClickHouse (so toTypeName(x) alone
         * does not make x read, nor an ARRAY JOIN of x kept) */
        buf b = {0};
        if (type_has_pretty_name(ex->args[0]->type) && settings_bool(c->q->st, "print_pretty_type_names"))
            type_pretty_name(&b, ex->args[0]->type, 0);
        else
            buf_puts(&b, ex->args[0]->type->name);
        column *v = col_new(type_simple(T_STRING));
        col_push_str(v, (const char *)b.p, b.len);
        buf_free(&b);
        expr_free(ex);
        *out = expr_const(v);
        return 0;
    }
    return fold_if_const(c, ex, out);
}

static int compile(actx *c, const ast *e, expr **out)
{
    /* As ClickHouse's max_expanded_ast_elements: aliases that name aliases expand into a
     * tree that may grow exponentially (a + a AS b, b + b AS c, …). */
    if (!c->max_nodes && c->q->st) {
        int64_t m = settings_int(c->q->st, "max_expanded_ast_elements");
        c->max_nodes = m > 0 ? (uint64_t)m : UINT64_MAX;
    }
    if (++c->nodes > c->max_nodes && c->max_nodes)
        return err_set(ERR_BAD_ARGUMENTS, "Query tree is too big. Maximum: %llu", (unsigned long long)c->max_nodes);
    if (++c->depth > 500) {
        c->depth--;
        return err_set(ERR_TOO_DEEP_AST, "Expression is too deep (or an alias refers to itself)");
    }
    int rc;
    if (c->lam && e->kind != AST_LITERAL && e->kind != AST_LAMBDA && !ast_uses(e, c->lam->params, c->lam->nparams)) {
        rc = compile_captured(c, e, out);
        c->depth--;
        return rc;
    }
    /* After aggregation, a whole expression equal to a GROUP BY key is that key (by its
     * text: its own alias, which names it by the alias, does not count). */
    if (c->post && c->nkeys && e->kind != AST_LITERAL && !c->lam) {
        ast bare = *e;
        bare.alias = NULL;
        char *name = name_of(&bare);
        for (int k = 0; k < c->nkeys; k++)
            if (strcmp(c->key_names[k], name) == 0) {
                free(name);
                *out = expr_col(k, c->p->key_post_types ? c->p->key_post_types[k] : c->p->keys[k]->type);
                c->depth--;
                return 0;
            }
        free(name);
    }
    /* `number * 2 AS number`: inside its own definition a name is the column, not the alias
     * (as when the alias is reached through an identifier, compile_ident). */
    int self = -1;
    if (e->alias && e->kind != AST_IDENT) {
        int a = find_alias(c, e->alias);
        if (a >= 0 && c->alias_asts[a] == e && !c->alias_active[a])
            c->alias_active[self = a] = true;
    }
    switch (e->kind) {
    case AST_LITERAL: *out = expr_const(literal_column(e)); rc = 0; break;
    case AST_IDENT: rc = compile_ident(c, e, out); break;
    case AST_FUNC: rc = compile_func(c, e, out); break;
    case AST_SUBQUERY: {
        schema *sch;
        block **bs;
        int nb;
        rc = run_query_to_blocks(e->sub, c->q, &sch, &bs, &nb);
        if (rc)
            break;
        column *v = NULL;
        size_t total = 0;
        for (int i = 0; i < nb; i++) {
            if (!v && bs[i]->rows > 0 && bs[i]->ncols > 0)
                v = col_slice(bs[i]->cols[0], 0, 1);
            total += bs[i]->rows;
            block_free(bs[i]);
        }
        free(bs);
        if (total > 1) {
            col_free(v);
            schema_free(sch);
            rc = err_set(ERR_INCORRECT_RESULT_OF_SCALAR_SUBQUERY, "Scalar subquery returned more than one row");
            break;
        }
        if (!v) {
            /* An empty scalar subquery is NULL (or the default for non-Nullable types). */
            const type *t = sch->n ? sch->types[0] : type_simple(T_UINT8);
            v = col_new(type_can_be_nullable(type_phys(t)) ? type_nullable(t) : t);
            col_push_default(v);
        }
        schema_free(sch);
        *out = expr_const(v);
        rc = 0;
        break;
    }
    case AST_ASTERISK:
        rc = err_set(ERR_UNEXPECTED_AST_STRUCTURE, "Asterisk is only allowed in the select list");
        break;
    case AST_LAMBDA: {
        buf b = {0};
        ast_format_expr(&b, e);
        rc = err_set(ERR_BAD_ARGUMENTS, "Lambda %s is not allowed in expression context", buf_cstr(&b));
        buf_free(&b);
        break;
    }
    case AST_PARAM:
        rc = compile_param(c, e, out);
        break;
    default:
        rc = err_set(ERR_UNEXPECTED_AST_STRUCTURE, "Unexpected element in an expression");
        break;
    }
    if (self >= 0)
        c->alias_active[self] = false;
    c->depth--;
    return rc;
}

/* ---- window functions (exec/window.h) ---- */

/* Window function columns are placeholders WIN_COL_BASE + i until the width of the block
 * they extend is known (remap_window_cols, after aj_finish). */

static const struct {
    const char *name;
    win_kind kind;
    int min_args, max_args;
} window_funcs[] = {
    {"row_number", WK_ROW_NUMBER, 0, 0},   {"rank", WK_RANK, 0, 0},
    {"dense_rank", WK_DENSE_RANK, 0, 0},   {"percent_rank", WK_PERCENT_RANK, 0, 0},
    {"cume_dist", WK_CUME_DIST, 0, 0},     {"ntile", WK_NTILE, 1, 1},
    {"lag", WK_LAG, 1, 3},                 {"lead", WK_LEAD, 1, 3},
    {"lagInFrame", WK_LAG_IN_FRAME, 1, 3}, {"leadInFrame", WK_LEAD_IN_FRAME, 1, 3},
    {"nth_value", WK_NTH_VALUE, 2, 2},
};

static int window_kind_of(const char *name)
{
    for (size_t i = 0; i < sizeof window_funcs / sizeof *window_funcs; i++)
        if (strcasecmp(window_funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

static const ast *find_window(actx *c, const char *name)
{
    for (int i = 0; i < c->sel->windows.n; i++)
        if (strcmp(c->sel->windows.items[i]->alias, name) == 0)
            return c->sel->windows.items[i];
    char scope[1024];
    scope_text(c, scope, sizeof scope);
    err_set(ERR_BAD_ARGUMENTS, "Window '%s' does not exist. In scope %s.", name, scope);
    return NULL;
}

/* The expression as the current stage reads it (aliases expanded after GROUP BY, so that
 * GROUP BY keys match by name). */
static int compile_stage(actx *c, const ast *e, expr **out)
{
    return compile(c, c->post ? expand_aliases(c, c->scratch, e, 0) : e, out);
}

static const char *bound_text(int bound, int64_t off, char *buf, size_t cap)
{
    switch (bound) {
    case WB_UNBOUNDED_PRECEDING: return "UNBOUNDED PRECEDING";
    case WB_UNBOUNDED_FOLLOWING: return "UNBOUNDED FOLLOWING";
    case WB_CURRENT_ROW: return "CURRENT ROW";
    default: snprintf(buf, cap, "%lld %s", (long long)off, bound == WB_PRECEDING ? "PRECEDING" : "FOLLOWING"); return buf;
    }
}

/* A frame offset: a constant integer in [0, 2^31). */
static int frame_offset(actx *c, const ast *e, const char *which, int kind, int64_t *v)
{
    expr *x;
    if (compile(c, e, &x))
        return -1;
    bool ok = x->kind == EX_CONST && type_is_integer(x->type) && x->value->type == x->type;
    int64_t n = -1;
    if (ok)
        n = type_is_signed(x->type) ? col_get_i64(x->value, 0)
            : col_get_u64(x->value, 0) > INT32_MAX ? -1 : (int64_t)col_get_u64(x->value, 0);
    buf b = {0};
    ast_format_name(&b, e);
    if (!ok || n < 0 || n > INT32_MAX) {
        err_set(ERR_BAD_ARGUMENTS, "Frame %s offset for '%s' frame must be a nonnegative 32-bit integer, '%s' of type '%s' given",
                which, kind == WF_ROWS ? "ROWS" : "RANGE", buf_cstr(&b), x->type->name);
        buf_free(&b);
        expr_free(x);
        return -1;
    }
    buf_free(&b);
    expr_free(x);
    *v = n;
    return 0;
}

/* Builds the spec of window w (an AST_WINDOW, with its base window resolved). */
static int build_window_spec(actx *c, const ast *w, win_spec *sp)
{
    const ast *base = NULL;
    if (w->window_base && !(base = find_window(c, w->window_base)))
        return -1;
    if (base && (base->window_base || w->partition_by.n || (base->order_by.n && w->order_by.n) || base->frame_kind))
        return err_set(ERR_NOT_IMPLEMENTED, "Window '%s' can only be extended by ORDER BY and a frame here",
                       w->window_base);
    const ast_list *part = base ? &base->partition_by : &w->partition_by;
    const ast_list *order = base && base->order_by.n ? &base->order_by : &w->order_by;
    *sp = (win_spec){0};
    sp->part = xcalloc((size_t)part->n + 1, sizeof *sp->part);
    for (; sp->npart < part->n; sp->npart++)
        if (compile_stage(c, part->items[sp->npart], &sp->part[sp->npart]))
            return -1;
    sp->order = xcalloc((size_t)order->n + 1, sizeof *sp->order);
    sp->order_desc = xcalloc((size_t)order->n + 1, sizeof *sp->order_desc);
    sp->order_nulls = xcalloc((size_t)order->n + 1, sizeof *sp->order_nulls);
    for (; sp->norder < order->n; sp->norder++) {
        const ast *o = order->items[sp->norder];
        if (o->with_fill || o->collate)
            return err_set(ERR_NOT_IMPLEMENTED, "WITH FILL and COLLATE are not supported in a window's ORDER BY");
        if (compile_stage(c, o->sub, &sp->order[sp->norder]))
            return -1;
        sp->order_desc[sp->norder] = o->desc;
        int dir = o->nulls == 1 ? -1 : 1; /* as the query's ORDER BY (analyze_select) */
        sp->order_nulls[sp->norder] = o->desc ? -dir : dir;
    }
    const ast *fr = w->frame_kind ? w : base && base->frame_kind ? base : NULL;
    if (!fr) {
        /* ClickHouse's default frame */
        sp->frame_kind = WF_RANGE;
        sp->start = WB_UNBOUNDED_PRECEDING;
        sp->end = sp->norder ? WB_CURRENT_ROW : WB_UNBOUNDED_FOLLOWING;
        sp->frame_default = true;
        return 0;
    }
    if (fr->frame_kind == WF_GROUPS)
        return err_set(ERR_NOT_IMPLEMENTED, "Window frame 'GROUPS' is not implemented");
    sp->frame_kind = fr->frame_kind;
    sp->start = fr->frame_start;
    sp->end = fr->frame_end;
    if (sp->start == WB_UNBOUNDED_FOLLOWING)
        return err_set(ERR_BAD_ARGUMENTS, "Frame start cannot be UNBOUNDED FOLLOWING");
    if (sp->end == WB_UNBOUNDED_PRECEDING)
        return err_set(ERR_BAD_ARGUMENTS, "Frame end cannot be UNBOUNDED PRECEDING");
    if ((sp->start == WB_PRECEDING || sp->start == WB_FOLLOWING) &&
        frame_offset(c, fr->frame_start_off, "start", sp->frame_kind, &sp->start_off))
        return -1;
    if ((sp->end == WB_PRECEDING || sp->end == WB_FOLLOWING) &&
        frame_offset(c, fr->frame_end_off, "end", sp->frame_kind, &sp->end_off))
        return -1;
    /* a FOLLOWING start before CURRENT ROW, or CURRENT ROW before a PRECEDING end, whatever
     * the offsets */
    if ((sp->start == WB_FOLLOWING && sp->end == WB_CURRENT_ROW) ||
        (sp->start == WB_CURRENT_ROW && sp->end == WB_PRECEDING)) {
        char b1[64], b2[64];
        return err_set(ERR_BAD_ARGUMENTS, "Window frame '%s BETWEEN %s AND %s' is invalid",
                       sp->frame_kind == WF_ROWS ? "ROWS" : "RANGE", bound_text(sp->start, sp->start_off, b1, sizeof b1),
                       bound_text(sp->end, sp->end_off, b2, sizeof b2));
    }
    /* the start must not come after the end: compare signed positions */
    int64_t sa = sp->start == WB_UNBOUNDED_PRECEDING ? INT64_MIN : sp->start == WB_PRECEDING ? -sp->start_off
                 : sp->start == WB_FOLLOWING ? sp->start_off : 0;
    int64_t ea = sp->end == WB_UNBOUNDED_FOLLOWING ? INT64_MAX : sp->end == WB_PRECEDING ? -sp->end_off
                 : sp->end == WB_FOLLOWING ? sp->end_off : 0;
    if (sa > ea) {
        char b1[64], b2[64];
        return err_set(ERR_BAD_ARGUMENTS, "Frame start offset %s does not precede the frame end offset %s",
                       bound_text(sp->start, sp->start_off, b1, sizeof b1), bound_text(sp->end, sp->end_off, b2, sizeof b2));
    }
    bool range_off = sp->frame_kind == WF_RANGE && (sp->start == WB_PRECEDING || sp->start == WB_FOLLOWING ||
                                                    sp->end == WB_PRECEDING || sp->end == WB_FOLLOWING);
    if (range_off) {
        if (sp->norder != 1)
            return err_set(ERR_BAD_ARGUMENTS, "The RANGE OFFSET window frame requires exactly one ORDER BY column, %d given",
                           sp->norder);
        const type *t = type_phys(sp->order[0]->type);
        if (t->id == T_NULLABLE || type_is_decimal(t) || !(type_is_number(t) || type_is_date_or_time(t)) ||
            t->id == T_DATETIME64 || t->id == T_UINT128 || t->id == T_INT128)
            return err_set(ERR_NOT_IMPLEMENTED, "A RANGE frame with offsets over an ORDER BY key of type %s is not supported",
                           sp->order[0]->type->name);
        /* the offsets must be values of the key's type, as in ClickHouse */
        int64_t max = t->id == T_UINT8 || t->id == T_BOOL ? 255 : t->id == T_INT8 ? 127
                      : t->id == T_UINT16 || t->id == T_DATE ? 65535 : t->id == T_INT16 ? 32767 : INT64_MAX;
        for (int k = 0; k < 2; k++) {
            int bound = k ? sp->end : sp->start;
            int64_t off = k ? sp->end_off : sp->start_off;
            if ((bound == WB_PRECEDING || bound == WB_FOLLOWING) && off > max)
                return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Cannot convert value '%lld': it cannot be represented as %s",
                               (long long)off, t->name);
        }
    }
    return 0;
}

static void free_window_spec(win_spec *sp)
{
    window_plan tmp = {.nspecs = 1, .specs = xmalloc(sizeof *sp)};
    tmp.specs[0] = *sp;
    window_plan *w = xmalloc(sizeof *w);
    *w = tmp;
    window_plan_free(w);
}

/* The spec index of e's window (deduplicated by the window's text). */
static int window_spec_of(actx *c, const ast *e, const char *fname)
{
    window_plan *wp = c->p->windows;
    const char *over = strstr(fname, " OVER ");
    const char *key = over ? over + 6 : fname;
    for (int i = 0; i < c->nwin_specs; i++)
        if (strcmp(c->win_spec_keys[i], key) == 0)
            return i;
    if (c->nwin_specs == 256)
        return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many windows in one query");
    const ast *w = e->over;
    if (!w && !(w = find_window(c, e->over_name)))
        return -1;
    win_spec sp;
    if (build_window_spec(c, w, &sp)) {
        free_window_spec(&sp);
        return -1;
    }
    wp->specs = xrealloc(wp->specs, sizeof *wp->specs * (size_t)(wp->nspecs + 1));
    wp->specs[wp->nspecs++] = sp;
    c->win_spec_keys[c->nwin_specs++] = xstrdup(key);
    return wp->nspecs - 1;
}

/* Checks and types a window-only function (row_number, lag, …); fills fn. */
static int resolve_window_func(actx *c, const ast *e, int which, win_func *fn)
{
    fn->kind = window_funcs[which].kind;
    int n = fn->nargs;
    if (n < window_funcs[which].min_args || n > window_funcs[which].max_args) {
        if (window_funcs[which].min_args == window_funcs[which].max_args)
            return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                           "Number of arguments for window function %s doesn't match: passed %d, should be %d", e->name, n,
                           window_funcs[which].min_args);
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Function %s takes %d to %d arguments, %d given", e->name, window_funcs[which].min_args,
                       window_funcs[which].max_args, n);
    }
    const win_spec *sp = &c->p->windows->specs[fn->spec];
    switch (fn->kind) {
    case WK_ROW_NUMBER:
    case WK_RANK:
    case WK_DENSE_RANK:
    case WK_NTILE: fn->ret = type_simple(T_UINT64); break;
    case WK_PERCENT_RANK:
    case WK_CUME_DIST: fn->ret = type_simple(T_FLOAT64); break;
    default: /* the argument's type without LowCardinality, as ClickHouse */
        fn->ret = fn->args[0]->type->id == T_LOWCARDINALITY ? fn->args[0]->type->inner : fn->args[0]->type;
        break;
    }
    if (fn->kind == WK_NTILE) {
        const expr *a = fn->args[0];
        if (a->kind != EX_CONST || !type_is_integer(type_base(a->type)) || col_is_null(a->value, 0))
            return err_set(ERR_BAD_ARGUMENTS, "Argument of 'ntile' function must be a constant");
        int64_t k = col_get_i64(a->value, 0);
        if (k <= 0)
            return err_set(ERR_BAD_ARGUMENTS, "Argument of 'ntile' function must be greater than zero");
        fn->n = k;
        bool whole = sp->start == WB_UNBOUNDED_PRECEDING && sp->end == WB_UNBOUNDED_FOLLOWING;
        if (!sp->norder || !(sp->frame_default || whole))
            return err_set(ERR_BAD_ARGUMENTS, "Unsupported window frame type for function 'ntile'");
    }
    if (fn->kind >= WK_LAG && fn->kind <= WK_NTH_VALUE && n > 1) {
        const type *t = type_base(fn->args[1]->type);
        if (!type_is_integer(t) || type_is_nullable(fn->args[1]->type))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Offset of function %s must be an integer, got %s", e->name,
                           fn->args[1]->type->name);
        if (fn->args[1]->kind == EX_CONST && type_is_signed(t) && col_get_i64(fn->args[1]->value, 0) < 0)
            return err_set(ERR_BAD_ARGUMENTS, "The offset for function %s must be in (0, %lld], %lld given", e->name,
                           (long long)INT64_MAX, (long long)col_get_i64(fn->args[1]->value, 0));
    }
    if (n == 3) {
        const type *ts[2] = {fn->args[0]->type, fn->args[2]->type};
        /* LowCardinality is dropped from both, as in ClickHouse 26.7 */
        const type *bare[2] = {fn->ret, type_phys(ts[1])};
        /* ClickHouse's type equality here takes Bool for UInt8 (the same data type) */
        bool same = ts[0] == ts[1] || ((bare[0]->id == T_BOOL || bare[0]->id == T_UINT8) &&
                                       (bare[1]->id == T_BOOL || bare[1]->id == T_UINT8));
        const type *st = same ? fn->ret : type_supertype(2, bare);
        if (!st)
            return err_set(ERR_BAD_ARGUMENTS, "There is no supertype for the argument type '%s' and the default value type '%s'",
                           ts[0]->name, ts[1]->name);
        if (st != fn->ret)
            return err_set(ERR_BAD_ARGUMENTS,
                           "The supertype '%s' for the argument type '%s' and the default value type '%s' is not the same "
                           "as the argument type",
                           st->name, ts[0]->name, ts[1]->name);
    }
    return 0;
}

static int compile_window(actx *c, const ast *e, expr **out)
{
    char *name = name_of(e);
    if (c->win_ctx) {
        err_set(ERR_ILLEGAL_AGGREGATION, "Window function %s is found %s in query.", name, c->win_ctx);
        free(name);
        return -1;
    }
    if (c->lam) { /* one that does not is compiled outside the lambda (compile_captured) */
        err_set(ERR_NOT_FOUND_COLUMN_IN_BLOCK,
                "Window function %s inside a lambda uses the lambda's parameters, which are no columns of the block "
                "windows are computed over",
                name);
        free(name);
        return -1;
    }
    for (int i = 0; i < c->nwins; i++)
        if (strcmp(c->win_names[i], name) == 0) {
            free(name);
            *out = expr_col(WIN_COL_BASE + i, c->p->windows->funcs[i].ret);
            return 0;
        }
    if (c->nwins == 256) {
        free(name);
        return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many window functions in one query");
    }
    int which = window_kind_of(e->name);
    bool is_agg = which < 0 && !func_lookup(e->name) && agg_exists(e->name);
    if (which < 0 && !is_agg) {
        free(name);
        return err_set(ERR_UNKNOWN_AGGREGATE_FUNCTION, "Function %s is not an aggregate or window function and cannot be used with OVER",
                       e->name);
    }
    if (!c->p->windows)
        c->p->windows = xcalloc(1, sizeof *c->p->windows);
    window_plan *wp = c->p->windows;
    c->win_ctx = "inside another window function";
    win_func fn = {.kind = WK_AGG};
    int rc = -1;
    if ((fn.spec = window_spec_of(c, e, name)) < 0)
        goto done;
    fn.args = xcalloc((size_t)e->args.n + 1, sizeof *fn.args);
    for (; fn.nargs < e->args.n; fn.nargs++)
        if (compile_stage(c, e->args.items[fn.nargs], &fn.args[fn.nargs]))
            goto done;
    if (fn.nargs > 64) {
        err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many arguments for window function %s", e->name);
        goto done;
    }
    if (is_agg) {
        const type **types = xcalloc((size_t)fn.nargs + 1, sizeof *types);
        for (int i = 0; i < fn.nargs; i++)
            types[i] = fn.args[i]->type;
        int arc = resolve_aggregate(e, types, &fn.agg);
        free(types);
        if (arc)
            goto done;
        fn.ret = fn.agg->ret;
    } else if (resolve_window_func(c, e, which, &fn)) {
        goto done;
    }
    wp->funcs = xrealloc(wp->funcs, sizeof *wp->funcs * (size_t)(wp->nfuncs + 1));
    wp->funcs[wp->nfuncs++] = fn;
    fn = (win_func){0};
    c->win_names[c->nwins++] = name;
    name = NULL;
    *out = expr_col(WIN_COL_BASE + wp->nfuncs - 1, wp->funcs[wp->nfuncs - 1].ret);
    rc = 0;
done:
    c->win_ctx = NULL;
    for (int i = 0; i < fn.nargs; i++)
        expr_free(fn.args[i]);
    free(fn.args);
    agg_call_free(fn.agg);
    free(name);
    return rc;
}

/* Window function placeholders → columns base + i of the block the window step pushes. */
static void remap_window_cols(expr *e, int base)
{
    if (!e)
        return;
    if (e->kind == EX_COL && e->col >= WIN_COL_BASE && e->col < AJ_BASE)
        e->col = base + (e->col - WIN_COL_BASE);
    for (int i = 0; i < e->nargs; i++)
        remap_window_cols(e->args[i], base);
}

/* {name:Type}: the value of --param_name parsed as Type, like ClickHouse's substitution. */
static int compile_param(actx *c, const ast *e, expr **out)
{
    for (int i = c->q->nparams - 1; i >= 0; i--) {
        if (strcmp(c->q->param_names[i], e->name) != 0)
            continue;
        const type *t = type_parse(e->str, e->str_len);
        if (!t)
            return -1;
        column *v = col_new(t);
        text_opts o;
        text_opts_default(&o);
        o.tz = c->q->env.timezone;
        const char *val = c->q->param_values[i];
        size_t n = strlen(val);
        int rc;
        if (type_is_nullable(t) && strcmp(val, "\\N") == 0) {
            col_push_null(v);
            rc = 0;
        } else if (type_phys(t)->id == T_ARRAY) {
            rc = text_parse_array(v, val, n, &o);
        } else {
            rc = text_parse(v, val, n, &o);
        }
        if (rc) {
            col_free(v);
            return err_set(ERR_BAD_QUERY_PARAMETER, "Value %s cannot be parsed as %s for query parameter '%s'", val,
                           t->name, e->name);
        }
        *out = expr_const(v);
        return 0;
    }
    return err_set(ERR_UNKNOWN_QUERY_PARAMETER, "Substitution `%s` is not set", e->name);
}

/* d + INTERVAL n UNIT → addUNITs(d, n); d - INTERVAL … → subtractUNITs(d, n). */
static const char *interval_unit(const ast *e)
{
    if (e->kind != AST_FUNC || strncmp(e->name, "toInterval", 10) != 0 || e->args.n != 1)
        return NULL;
    return e->name + 10;
}

static int compile_interval_arith(actx *c, const ast *e, expr **out, bool *done)
{
    *done = false;
    bool plus = strcmp(e->name, "plus") == 0, minus = strcmp(e->name, "minus") == 0;
    if ((!plus && !minus) || e->args.n != 2)
        return 0;
    const ast *a = e->args.items[0], *b = e->args.items[1];
    const char *unit = interval_unit(b);
    const ast *value = a, *iv = b;
    if (!unit && plus && (unit = interval_unit(a))) {
        value = b;
        iv = a;
    }
    if (!unit)
        return 0;
    char fname[64];
    snprintf(fname, sizeof fname, "%s%ss", plus ? "add" : "subtract", unit);
    ast call = *e;
    ast *args[2] = {(ast *)value, iv->args.items[0]};
    call.name = fname;
    call.args.n = 2;
    call.args.items = args;
    call.alias = NULL;
    *done = true;
    return compile(c, &call, out);
}

/* ---- aggregation detection ---- */

static bool alias_has_aggregate(actx *c, const ast *e, int depth)
{
    if (!e || depth > 64)
        return false;
    if (e->kind == AST_IDENT && e->nparts == 1) {
        int a = find_alias(c, e->parts[0]);
        if (a >= 0 && c->alias_asts[a] != e) {
            /* remembered: a chain of aliases naming aliases is walked once per alias */
            if (!c->alias_agg[a])
                c->alias_agg[a] = alias_has_aggregate(c, c->alias_asts[a], depth + 1) ? 2 : 1;
            return c->alias_agg[a] == 2;
        }
    }
    if (e->kind == AST_FUNC) {
        if (!func_lookup(e->name) && agg_exists(e->name) && !e->over && !e->over_name)
            return true;
        for (int i = 0; i < e->args.n; i++)
            if (alias_has_aggregate(c, e->args.items[i], depth + 1))
                return true;
    }
    if (e->kind == AST_LAMBDA && e->args.n)
        return alias_has_aggregate(c, e->args.items[0], depth + 1);
    return false;
}

/* Replaces alias identifiers by their definitions, for naming GROUP BY keys. */
static const ast *expand_aliases(actx *c, arena *a, const ast *e, int depth)
{
    if (!e || depth > 64)
        return e;
    if (depth == 0 && e->alias) {
        /* `f(x) AS x`: inside its own expression, x is the column, never the alias itself */
        int k = find_alias(c, e->alias);
        if (k >= 0 && c->alias_asts[k] == e && !c->alias_active[k]) {
            c->alias_active[k] = true;
            const ast *r = expand_aliases(c, a, e, 1);
            c->alias_active[k] = false;
            return r;
        }
    }
    if (e->kind == AST_IDENT && e->nparts == 1) {
        int k = find_alias(c, e->parts[0]);
        if (k >= 0 && !c->alias_active[k]) {
            c->alias_active[k] = true;
            const ast *r = expand_aliases(c, a, c->alias_asts[k], depth + 1);
            c->alias_active[k] = false;
            return r;
        }
        return e;
    }
    if (e->kind == AST_FUNC && e->args.n) {
        ast *copy = ARENA_NEW(a, ast);
        *copy = *e;
        copy->alias = NULL;
        copy->args.items = ARENA_ARRAY(a, ast *, (size_t)e->args.n);
        for (int i = 0; i < e->args.n; i++)
            copy->args.items[i] = (ast *)expand_aliases(c, a, e->args.items[i], depth + 1);
        return copy;
    }
    if (e->kind == AST_LAMBDA && e->args.n) {
        /* a parameter hides an alias of the same name inside the body */
        bool was[64];
        int hidden[64], nh = 0;
        for (int k = 0; k < e->nparts && nh < 64; k++) {
            int al = find_alias(c, e->parts[k]);
            if (al >= 0) {
                hidden[nh] = al;
                was[nh++] = c->alias_active[al];
                c->alias_active[al] = true;
            }
        }
        ast *copy = ARENA_NEW(a, ast);
        *copy = *e;
        copy->args.items = ARENA_ARRAY(a, ast *, 1);
        copy->args.items[0] = (ast *)expand_aliases(c, a, e->args.items[0], depth + 1);
        for (int k = nh - 1; k >= 0; k--)
            c->alias_active[hidden[k]] = was[k];
        return copy;
    }
    return e;
}

/* * EXCEPT …: 1 when column `name` is left out, 0 when not, -1 with an error for a bad
 * regular expression. Names compare exactly; strings are regular expressions searched in
 * the name (as ClickHouse's partial match). matched[i] is set for each item that hits. */
static int star_excludes(const ast *star, const char *name, bool *matched)
{
    int hit = 0;
    for (int i = 0; i < star->except_cols.n; i++) {
        const ast *it = star->except_cols.items[i];
        if (it->kind == AST_IDENT) {
            if (strcmp(it->parts[0], name) == 0) {
                hit = 1;
                if (matched)
                    matched[i] = true;
            }
            continue;
        }
        int ec;
        PCRE2_SIZE eo;
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)it->str, it->str_len, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &ec, &eo,
                                       NULL);
        if (!re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(ec, msg, sizeof msg);
            return err_set(ERR_CANNOT_COMPILE_REGEXP, "Cannot compile regular expression '%.*s': %s", (int)it->str_len,
                           it->str, (const char *)msg);
        }
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
        int m = pcre2_match(re, (PCRE2_SPTR)name, strlen(name), 0, 0, md, NULL);
        pcre2_match_data_free(md);
        pcre2_code_free(re);
        if (m >= 0) {
            hit = 1;
            if (matched)
                matched[i] = true;
        }
    }
    return hit;
}

/* ---- COLUMNS(…) matchers and the APPLY / REPLACE transformers ----
 * A select item `*`, `t.*` or COLUMNS(…) with APPLY or REPLACE, and any COLUMNS(…), is
 * expanded into ordinary select items before the query is analyzed, so that `* APPLY(sum)`
 * makes an aggregating query of sum(a), sum(b)… with ClickHouse's column names. Plain `*`
 * and `* EXCEPT` stay for the select list's own expansion (it knows ARRAY JOIN shadows). */

static bool is_matcher(const ast *e)
{
    return e->kind == AST_ASTERISK && (e->columns_matcher || e->col_transforms.n);
}

/* A copy of e with its identifiers params[i] replaced by by[i], all at once (an APPLY
 * lambda's body, a user-defined function's body); a lambda inside that names one of them
 * as a parameter hides it. */
static ast *subst_params(arena *a, const ast *e, const char *const *params, ast *const *by, int n)
{
    if (e->kind == AST_IDENT && e->nparts == 1)
        for (int i = 0; i < n; i++)
            if (strcmp(e->parts[0], params[i]) == 0)
                return by[i];
    if ((e->kind != AST_FUNC && e->kind != AST_LAMBDA) || !e->args.n)
        return (ast *)e;
    if (e->kind == AST_LAMBDA)
        for (int k = 0; k < e->nparts; k++)
            for (int i = 0; i < n; i++)
                if (strcmp(e->parts[k], params[i]) == 0)
                    return (ast *)e; /* shadowed (one hidden name hides all here: rare) */
    ast *copy = ARENA_NEW(a, ast);
    *copy = *e;
    copy->args.items = ARENA_ARRAY(a, ast *, (size_t)e->args.n);
    for (int i = 0; i < e->args.n; i++)
        copy->args.items[i] = subst_params(a, e->args.items[i], params, by, n);
    return copy;
}

/* One column of a matcher as it goes through the transformers. */
typedef struct mcol {
    const char *name; /* as EXCEPT / REPLACE match it: the column's, after APPLY the result's */
    ast *e;
    bool replaced;    /* REPLACE took it (a later REPLACE leaves it, as ClickHouse) */
} mcol;

static int apply_transformer(actx *c, const ast *t, mcol *cols, int *n)
{
    arena *a = c->scratch;
    if (!strcmp(t->name, "EXCEPT")) {
        ast star = {.kind = AST_ASTERISK, .except_cols = t->args};
        bool hit[64] = {0};
        if (t->args.n > 64)
            return err_set(ERR_NOT_IMPLEMENTED, "More than 64 names in EXCEPT are not supported");
        int m = 0;
        for (int i = 0; i < *n; i++) {
            int ex = star_excludes(&star, cols[i].name, hit);
            if (ex < 0)
                return -1;
            if (!ex)
                cols[m++] = cols[i];
        }
        *n = m;
        for (int k = 0; t->distinct && k < t->args.n; k++)
            if (t->args.items[k]->kind == AST_IDENT && !hit[k])
                return err_set(ERR_BAD_ARGUMENTS, "Column transformer EXCEPT expects column %s to be in the table",
                               t->args.items[k]->parts[0]);
        return 0;
    }
    if (!strcmp(t->name, "REPLACE")) {
        for (int k = 0; k < t->args.n; k++)
            for (int j = 0; j < k; j++)
                if (strcmp(t->args.items[j]->alias, t->args.items[k]->alias) == 0)
                    return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                                   "Expressions in column transformer replace should not contain same replacement %s "
                                   "more than once",
                                   t->args.items[k]->alias);
        for (int k = 0; k < t->args.n; k++) {
            const ast *r = t->args.items[k];
            bool hit = false;
            for (int i = 0; i < *n; i++)
                if (!cols[i].replaced && strcmp(cols[i].name, r->alias) == 0) {
                    cols[i].e = (ast *)r;
                    cols[i].replaced = hit = true;
                }
            if (!hit && t->distinct)
                return err_set(ERR_BAD_ARGUMENTS,
                               "Strict REPLACE column transformer expects following column(s) : %s", r->alias);
        }
        return 0;
    }
    /* APPLY: f(column) or the lambda's body with the column for its parameter */
    const ast *f = t->args.items[0];
    if (f->kind == AST_LAMBDA && f->nparts != 1)
        return err_set(ERR_BAD_ARGUMENTS, "APPLY column transformer lambda must have exactly one argument, got %d",
                       f->nparts);
    for (int i = 0; i < *n; i++) {
        ast *arg = ARENA_NEW(a, ast);
        *arg = *cols[i].e;
        arg->alias = NULL;
        ast *r;
        if (f->kind == AST_LAMBDA) {
            r = subst_params(a, f->args.items[0], f->parts, &arg, 1);
        } else {
            r = ARENA_NEW(a, ast);
            *r = *f;
            r->args = (ast_list){0};
            ast_list_push(a, &r->args, arg);
        }
        if (r == arg) { /* x -> x */
            r = ARENA_NEW(a, ast);
            *r = *arg;
        }
        r->alias = NULL;
        cols[i].e = r;
        char *nm = name_of(r);
        cols[i].name = arena_strdup(a, nm);
        free(nm);
    }
    return 0;
}

/* Appends the items that matcher `m` stands for to `out`. */
static int expand_matcher(actx *c, const ast *m, ast_list *out)
{
    arena *a = c->scratch;
    if (m->nparts > 1)
        return err_set(ERR_NOT_IMPLEMENTED, "db.table.* with column transformers is not supported");
    int cap = c->nvisible + (m->columns_matcher ? m->matcher_cols.n : 0) + 1;
    mcol *cols = ARENA_ARRAY(a, mcol, (size_t)cap);
    int n = 0;
    bool by_name = m->columns_matcher && (m->matcher_cols.n != 1 || m->matcher_cols.items[0]->kind != AST_LITERAL);
    if (by_name) {
        /* COLUMNS(a, b): those columns, in that order, resolved as written */
        for (int i = 0; i < m->matcher_cols.n; i++) {
            const ast *id = m->matcher_cols.items[i];
            cols[n] = (mcol){.name = id->parts[id->nparts - 1], .e = (ast *)id};
            n++;
        }
    } else {
        ast re = {.kind = AST_ASTERISK};
        if (m->columns_matcher)
            re.except_cols = m->matcher_cols;
        bool matched = m->nparts == 0;
        for (int k = 0; k < c->nvisible; k++) {
            if (m->nparts == 1) {
                const char *tq = m->parts[0];
                bool mine = c->qual ? has_qualifier(c, k, tq)
                                    : (c->table_alias && strcmp(tq, c->table_alias) == 0) ||
                                          (c->table_name && strcmp(tq, c->table_name) == 0);
                if (!mine)
                    continue;
                matched = true;
            }
            const char *name = c->bare ? c->bare[k] : c->src->names[k];
            if (m->columns_matcher) {
                int hit = star_excludes(&re, name, NULL);
                if (hit < 0)
                    return -1;
                if (!hit)
                    continue;
            }
            ast *id = ARENA_NEW(a, ast);
            id->kind = AST_IDENT;
            id->pos = m->pos;
            id->end = m->end;
            id->nparts = 1;
            id->parts = ARENA_ARRAY(a, const char *, 1);
            id->parts[0] = c->src->names[k];
            cols[n] = (mcol){.name = name, .e = id};
            n++;
        }
        if (!matched) {
            char scope[1024];
            scope_text(c, scope, sizeof scope);
            return err_set(ERR_UNKNOWN_IDENTIFIER, "Qualified matcher %s.* does not find table. In scope %s.",
                           m->parts[0], scope);
        }
    }
    for (int i = 0; i < m->col_transforms.n; i++)
        if (apply_transformer(c, m->col_transforms.items[i], cols, &n))
            return -1;
    for (int i = 0; i < n; i++)
        ast_list_push(a, out, cols[i].e);
    return 0;
}

static bool has_matcher(const ast *e, int depth)
{
    if (is_matcher(e))
        return true;
    if (e->kind != AST_FUNC || depth > 64)
        return false;
    for (int i = 0; i < e->args.n; i++)
        if (has_matcher(e->args.items[i], depth + 1))
            return true;
    return false;
}

/* e with the matchers among its function arguments spliced in (plus(COLUMNS('a')) is
 * plus(a, ab)). */
static int expand_list(actx *c, const ast_list *in, ast_list *out, int depth);

static int expand_in_args(actx *c, const ast *e, ast **out, int depth)
{
    if (!has_matcher(e, depth)) {
        *out = (ast *)e;
        return 0;
    }
    ast *copy = ARENA_NEW(c->scratch, ast);
    *copy = *e;
    copy->args = (ast_list){0};
    if (expand_list(c, &e->args, &copy->args, depth + 1))
        return -1;
    *out = copy;
    return 0;
}

/* in's items into out: a matcher becomes the columns it names, other items have the
 * matchers among their arguments expanded. */
static int expand_list(actx *c, const ast_list *in, ast_list *out, int depth)
{
    for (int i = 0; i < in->n; i++) {
        const ast *x = in->items[i];
        ast *y;
        if (is_matcher(x)) {
            if (expand_matcher(c, x, out))
                return -1;
        } else if (expand_in_args(c, x, &y, depth)) {
            return -1;
        } else {
            ast_list_push(c->scratch, out, y);
        }
    }
    return 0;
}

/* The SELECT with its matchers expanded (itself when it has none); the copy lives in
 * c->scratch. */
static int expand_select_matchers(actx *c, const ast **selp)
{
    const ast *sel = *selp;
    bool any = false;
    for (int i = 0; i < sel->select.n && !any; i++)
        any = has_matcher(sel->select.items[i], 0);
    const ast *conds0[] = {sel->where, sel->prewhere, sel->having};
    for (int i = 0; i < 3 && !any; i++)
        any = conds0[i] && has_matcher(conds0[i], 0);
    if (!any)
        return 0;
    ast *ns = ARENA_NEW(c->scratch, ast);
    *ns = *sel;
    ns->select = (ast_list){0};
    if (expand_list(c, &sel->select, &ns->select, 0))
        return -1;
    if (!ns->select.n)
        return err_set(ERR_EMPTY_LIST_OF_COLUMNS_QUERIED, "Empty list of columns in projection");
    /* WHERE NOT ignore(COLUMNS('.+')): matchers among function arguments elsewhere */
    ast **conds[] = {&ns->where, &ns->prewhere, &ns->having};
    for (int i = 0; i < 3; i++)
        if (*conds[i] && expand_in_args(c, *conds[i], conds[i], 0))
            return -1;
    *selp = ns;
    c->sel = ns;
    return 0;
}

/* ---- SQL user-defined functions (func/udf.h) ----
 * Calls are replaced by the function's body with the arguments substituted, before the
 * query is analyzed (as ClickHouse's UserDefinedSQLFunctionVisitor): an aggregate in the
 * body makes an aggregating query. A select item keeps the name it had as written
 * (f(1), plus(f(x), 1)). */

/* The parameters and body of a stored definition (x -> …, or lambda(tuple(x), …)). */
static int udf_parse(actx *c, const char *name, const char *text, const ast **lam, const char ***params, int *np,
                     const ast **body)
{
    char *sql = arena_printf(c->scratch, "SELECT %s", text);
    size_t pos = 0;
    ast *st;
    if (sql_parse_statement(c->scratch, sql, strlen(sql), &pos, 1000, &st) || !st || st->kind != AST_STMT_SELECT ||
        st->sub->kind != AST_SELECT || st->sub->select.n != 1)
        return err_prefix("user-defined function %s: ", name), -1;
    const ast *l = st->sub->select.items[0];
    *lam = l;
    if (l->kind == AST_LAMBDA && l->args.n) {
        *params = l->parts;
        *np = l->nparts;
        *body = l->args.items[0];
        return 0;
    }
    if (l->kind == AST_FUNC && !strcmp(l->name, "lambda") && l->args.n == 2 && l->args.items[0]->kind == AST_FUNC) {
        const ast *t = l->args.items[0];
        const char **ps = ARENA_ARRAY(c->scratch, const char *, (size_t)t->args.n + 1);
        for (int i = 0; i < t->args.n; i++)
            ps[i] = t->args.items[i]->kind == AST_IDENT ? t->args.items[i]->parts[0] : "";
        *params = ps;
        *np = t->args.n;
        *body = l->args.items[1];
        return 0;
    }
    return err_set(ERR_BAD_ARGUMENTS, "Lambda must have valid arguments");
}

/* e with every call of a user-defined function expanded (e itself when there is none);
 * `stack` holds the functions being expanded, to refuse recursion as ClickHouse does. */
static int udf_expand(actx *c, const ast *e, ast **out, const char **stack, int nstack)
{
    *out = (ast *)e;
    if (!e || (e->kind != AST_FUNC && e->kind != AST_LAMBDA) || nstack >= 64)
        return nstack >= 64 ? err_set(ERR_TOO_DEEP_AST, "User-defined functions nest too deep") : 0;
    ast *copy = NULL;
    for (int i = 0; i < e->args.n; i++) {
        ast *y;
        if (udf_expand(c, e->args.items[i], &y, stack, nstack))
            return -1;
        if (y != e->args.items[i] && !copy) {
            copy = ARENA_NEW(c->scratch, ast);
            *copy = *e;
            copy->args.items = ARENA_ARRAY(c->scratch, ast *, (size_t)e->args.n);
            memcpy(copy->args.items, e->args.items, sizeof(ast *) * (size_t)e->args.n);
        }
        if (copy)
            copy->args.items[i] = y;
    }
    const ast *call = copy ? copy : e;
    *out = (ast *)call;
    if (e->kind != AST_FUNC || e->has_params)
        return 0;
    char *text = udf_lambda(e->name);
    if (!text)
        return 0;
    /* ClickHouse counts every SQL user-defined function as non-deterministic for the query
     * cache; shale has no cache, but refuses what ClickHouse refuses */
    if (settings_bool(c->q->st, "use_query_cache") &&
        !strcmp(settings_str(c->q->st, "query_cache_nondeterministic_function_handling"), "throw")) {
        free(text);
        return err_set(ERR_QUERY_CACHE_USED_WITH_NONDETERMINISTIC_FUNCTIONS,
                       "The query result was not cached because the query contains a non-deterministic function. Use "
                       "setting `query_cache_nondeterministic_function_handling = 'save'` or `= 'ignore'` to cache the "
                       "query result regardless, or omit caching.");
    }
    const ast *lam = NULL, *body = NULL;
    const char **params = NULL;
    int np = 0;
    int rc = udf_parse(c, e->name, text, &lam, &params, &np, &body);
    free(text);
    if (rc)
        return -1;
    buf lt = {0};
    for (int i = 0; i < nstack; i++)
        if (strcmp(stack[i], e->name) == 0) {
            ast_format_lambda_ch(&lt, lam);
            rc = err_set(ERR_UNSUPPORTED_METHOD, "Recursive lambda %s", buf_cstr(&lt));
            buf_free(&lt);
            return rc;
        }
    if (np != call->args.n) {
        ast_format_lambda_ch(&lt, lam);
        rc = err_set(ERR_BAD_ARGUMENTS, "Lambda %s expect %d arguments. Actual: %d", buf_cstr(&lt), np,
                     call->args.n);
        buf_free(&lt);
        return rc;
    }
    ast *r = subst_params(c->scratch, body, params, call->args.items, np);
    stack[nstack] = e->name;
    if (udf_expand(c, r, &r, stack, nstack + 1))
        return -1;
    /* a copy to carry the call's own alias (the body and the arguments are shared) */
    ast *top = ARENA_NEW(c->scratch, ast);
    *top = *r;
    top->alias = e->alias;
    r = top;
    *out = r;
    return 0;
}

static int udf_expand_list(actx *c, ast_list *l, bool keep_names)
{
    const char *stack[64];
    ast_list nl = {0};
    bool changed = false;
    for (int i = 0; i < l->n; i++) {
        const ast *it = l->items[i];
        const ast *x = it->kind == AST_ORDER_ITEM ? it->sub : it;
        ast *y, *item = (ast *)it;
        if (udf_expand(c, x, &y, stack, 0))
            return -1;
        if (y != x) {
            changed = true;
            if (keep_names && !y->alias) {
                char *nm = name_of(x);
                y->alias = arena_strdup(c->scratch, nm);
                free(nm);
            }
            item = y;
            if (it->kind == AST_ORDER_ITEM) {
                item = ARENA_NEW(c->scratch, ast);
                *item = *it;
                item->sub = y;
            }
        }
        ast_list_push(c->scratch, &nl, item);
    }
    if (changed)
        *l = nl;
    return 0;
}

/* The SELECT with user-defined functions expanded in its clauses (itself when there are
 * none); the copy lives in c->scratch. */
static int expand_select_udfs(actx *c, const ast **selp)
{
    if (!udf_count())
        return 0;
    ast *ns = ARENA_NEW(c->scratch, ast);
    *ns = **selp;
    const char *stack[64];
    if (udf_expand_list(c, &ns->select, true) || udf_expand_list(c, &ns->group_by, false) ||
        udf_expand_list(c, &ns->order_by, false) || udf_expand_list(c, &ns->limit_by, false) ||
        udf_expand(c, ns->where, &ns->where, stack, 0) || udf_expand(c, ns->prewhere, &ns->prewhere, stack, 0) ||
        udf_expand(c, ns->having, &ns->having, stack, 0))
        return -1;
    *selp = ns;
    c->sel = ns;
    return 0;
}

/* ORDER BY 2 / GROUP BY 1 / LIMIT 1 BY 1: the select item at that position of the list
 * as `*` expands it (ClickHouse counts the expanded columns). */
static const ast *positional(actx *c, const ast_list *select, const ast *e)
{
    if (e->kind != AST_LITERAL || e->lit != LIT_UINT || e->u < 1)
        return e;
    uint64_t pos = e->u;
    for (int i = 0; i < select->n; i++) {
        const ast *item = select->items[i];
        if (item->kind != AST_ASTERISK) {
            if (--pos == 0)
                return item;
            continue;
        }
        /* `*` over one source: its visible columns by name (a join's or t.*: not mapped) */
        if (item->nparts || c->qual || !c->src || !c->scratch || item->except_cols.n)
            return e;
        if (pos <= (uint64_t)c->nvisible) {
            ast *id = ARENA_NEW(c->scratch, ast);
            id->kind = AST_IDENT;
            id->pos = e->pos;
            id->end = e->end;
            id->nparts = 1;
            id->parts = ARENA_ARRAY(c->scratch, const char *, 1);
            id->parts[0] = c->src->names[pos - 1];
            return id;
        }
        pos -= (uint64_t)c->nvisible;
    }
    return e;
}

/* ORDER BY / GROUP BY / LIMIT BY positions past the select list (as `*` expands it) are
 * BAD_ARGUMENTS, as ClickHouse (not a constant key). Lists with t.* or a join's * are not
 * counted. */
static int check_positions(actx *c, const ast *sel)
{
    uint64_t n = 0;
    bool except = false;
    for (int i = 0; i < sel->select.n; i++) {
        const ast *item = sel->select.items[i];
        except |= item->kind == AST_ASTERISK && item->except_cols.n;
    }
    for (int i = 0; i < sel->select.n && !except; i++) {
        const ast *item = sel->select.items[i];
        if (item->kind != AST_ASTERISK)
            n++;
        else if (item->nparts || c->qual)
            return 0;
        else
            n += (uint64_t)c->nvisible;
    }
    const ast_list *lists[] = {&sel->order_by, sel->group_by_all ? NULL : &sel->group_by, &sel->limit_by};
    for (int l = 0; l < 3; l++) {
        for (int i = 0; lists[l] && i < lists[l]->n; i++) {
            const ast *e = lists[l]->items[i];
            if (e->kind == AST_ORDER_ITEM)
                e = e->sub;
            if (!e || e->kind != AST_LITERAL || e->lit != LIT_UINT || (!except && e->u >= 1 && e->u <= n))
                continue;
            if (except)
                return err_set(ERR_NOT_IMPLEMENTED, "Positional arguments with * EXCEPT in the select list are not "
                                                    "supported yet");
            char scope[1024];
            scope_text(c, scope, sizeof scope);
            return err_set(ERR_BAD_ARGUMENTS,
                           "Positional argument number %llu is out of bounds. Expected in range [1, %llu]. In scope %s.",
                           (unsigned long long)e->u, (unsigned long long)n, scope);
        }
    }
    return 0;
}

static int const_u64(actx *c, const ast *e, const char *what, uint64_t *v)
{
    expr *x;
    if (compile(c, e, &x))
        return -1;
    int rc = 0;
    if (x->kind != EX_CONST || !type_is_integer(x->type))
        rc = err_set(ERR_BAD_ARGUMENTS, "%s must be a constant non-negative integer", what);
    else
        *v = col_get_u64(x->value, 0);
    expr_free(x);
    return rc;
}

/* ---- tables ---- */

static source *system_one(void)
{
    schema *sch = schema_new(1);
    schema_set(sch, 0, "dummy", type_simple(T_UINT8));
    block *b = block_new(1, 1);
    b->cols[0] = col_new_defaults(type_simple(T_UINT8), 1);
    block **bs = xcalloc(1, sizeof *bs);
    bs[0] = b;
    return source_from_blocks(sch, bs, 1);
}

int analyze_table_args(const ast *f, query_ctx *q, column ***out)
{
    actx c = {.q = q};
    int n = f->args.n;
    column **args = xcalloc((size_t)n + 1, sizeof *args);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        expr *x;
        const ast *arg = f->args.items[i];
        /* WITH (SELECT …) AS s … format(TSVRaw, s): the scalar subquery's value */
        for (int k = q->nctes - 1; arg->kind == AST_IDENT && arg->nparts == 1 && k >= 0; k--) {
            const ast *w = q->ctes[k];
            if (w->kind == AST_SUBQUERY && !w->cte && w->alias && strcmp(w->alias, arg->parts[0]) == 0)
                arg = w;
        }
        /* file('x.csv', CSV, 'a Int32'): a bare identifier names a format. */
        if (arg->kind == AST_IDENT && arg->nparts == 1) {
            args[i] = col_new(type_simple(T_STRING));
            col_push_str(args[i], arg->parts[0], strlen(arg->parts[0]));
            continue;
        }
        rc = compile(&c, arg, &x);
        if (rc)
            break;
        if (x->kind != EX_CONST) {
            rc = err_set(ERR_BAD_ARGUMENTS, "Arguments of table function '%s' must be constants", f->name);
            expr_free(x);
            break;
        }
        args[i] = col_ref(x->value);
        expr_free(x);
    }
    if (rc) {
        for (int i = 0; i < n; i++)
            col_free(args[i]);
        free(args);
        return -1;
    }
    *out = args;
    return 0;
}

static int analyze_one_table(const ast *t, query_ctx *q, source **out);
static int analyze_query_at(const ast *query, query_ctx *q, bool top, query_plan **out);

/* Qualifier of a table element: its alias, else its table name. */
static const char *table_qualifier(const ast *t)
{
    return t->alias ? t->alias : t->table_name;
}

static void set_qualifiers(source *s, const char *qual)
{
    if (s->col_qual)
        return;
    int n = s->sch->n;
    s->col_qual = xcalloc((size_t)n + 1, sizeof *s->col_qual);
    s->col_bare = xcalloc((size_t)n + 1, sizeof *s->col_bare);
    for (int i = 0; i < n; i++) {
        s->col_qual[i] = qual ? xstrdup(qual) : NULL;
        s->col_bare[i] = xstrdup(s->sch->names[i]);
    }
}

/* joined_subquery_requires_alias: a subquery or table function joined to another table
 * (or the one they are joined to) needs an alias. */
static int check_join_aliases(const ast *t, query_ctx *q)
{
    if (!settings_bool(q->st, "joined_subquery_requires_alias"))
        return 0;
    bool first = true;
    for (const ast *j = t->join, *cur = t; j; cur = j->sub, j = j->sub->join) {
        if (!j->sub || j->sub->kind != AST_TABLE)
            continue;
        const ast *pair[2] = {first ? cur : NULL, j->sub};
        first = false;
        for (int k = 0; k < 2; k++)
            if (pair[k] && (pair[k]->table_func || pair[k]->sub) && !pair[k]->alias)
                return err_set(ERR_ALIAS_REQUIRED,
                               "No alias for a subquery or table function in JOIN (set joined_subquery_requires_alias = 0 "
                               "to disable the restriction)");
    }
    return 0;
}

/* True when e may change how many rows a SELECT returns per source row: an aggregate, a
 * window function, arrayJoin(). */
static bool changes_row_count(const ast *e, int depth)
{
    if (!e || depth > 64)
        return false;
    if (e->kind == AST_FUNC) {
        if (e->over || e->over_name || !strcasecmp(e->name, "arrayJoin") || (!func_lookup(e->name) && agg_exists(e->name)))
            return true;
        for (int i = 0; i < e->args.n; i++)
            if (changes_row_count(e->args.items[i], depth + 1))
                return true;
    }
    if (e->kind == AST_LAMBDA && e->args.n)
        return changes_row_count(e->args.items[0], depth + 1);
    return false;
}

/* Rows of its FROM that a SELECT needs at most: offset + limit when the SELECT only
 * projects each row (no WHERE, grouping, sort, DISTINCT, ARRAY JOIN, aggregate, window)
 * and both are literals; else UINT64_MAX. */
static uint64_t rows_needed(const ast *sel)
{
    const ast *l = sel->limit, *o = sel->offset;
    if (!l || l->kind != AST_LITERAL || l->lit != LIT_UINT || (o && (o->kind != AST_LITERAL || o->lit != LIT_UINT)) ||
        sel->where || sel->prewhere || sel->group_by.n || sel->group_by_all || sel->grouping_sets.n || sel->having ||
        sel->order_by.n || sel->select_distinct || sel->limit_by.n || sel->array_joins.n || sel->windows.n ||
        sel->with_totals)
        return UINT64_MAX;
    for (int i = 0; i < sel->with.n; i++)
        if (changes_row_count(sel->with.items[i], 0))
            return UINT64_MAX;
    for (int i = 0; i < sel->select.n; i++)
        if (changes_row_count(sel->select.items[i], 0))
            return UINT64_MAX;
    uint64_t n = l->u + (o ? o->u : 0);
    return n >= l->u ? n : UINT64_MAX;
}

/* enable_analyzer = 0: ClickHouse's old analyzer offers only the ordinary columns of a
 * table joined to another; its MATERIALIZED, ALIAS and virtual columns are unknown
 * identifiers there (UNKNOWN_IDENTIFIER), so the right side drops them. */
static void old_analyzer_joined_columns(source *s)
{
    for (int i = s->nvisible; i < s->sch->n; i++) {
        free(s->sch->names[i]);
        s->sch->names[i] = NULL;
    }
    s->sch->n = s->nvisible;
    for (int i = 0; i < s->nalias; i++) {
        free(s->alias_name[i]);
        free(s->alias_sql[i]);
    }
    s->nalias = 0;
}

/* where: the SELECT's WHERE, whose equalities turn CROSS joins into INNER ones; need: the
 * rows the SELECT takes from the join's result at most (rows_needed). */
static int analyze_from(const ast *t, const ast *where, uint64_t need, query_ctx *q, source **out)
{
    if (!t->join)
        return analyze_one_table(t, q, out);
    if (check_join_aliases(t, q))
        return -1;
    /* Joins are evaluated left-deep: ((t1 JOIN t2) JOIN t3). */
    source *cur;
    if (analyze_one_table(t, q, &cur))
        return -1;
    set_qualifiers(cur, table_qualifier(t));
    /* LEFT [ANY|ALL] joins give every left row one or more rows, in the left side's order:
     * the first `need` rows of the first table make the rows the SELECT keeps (and an
     * unbounded one, system.numbers, then ends). */
    bool all_left = need != UINT64_MAX && cur->set_limit;
    for (const ast *j = t->join; j && all_left; j = j->sub->join)
        all_left = j->join_kind && !strcasecmp(j->join_kind, "LEFT") &&
                   (!j->join_strictness || !strcasecmp(j->join_strictness, "ANY") || !strcasecmp(j->join_strictness, "ALL"));
    if (all_left)
        cur->set_limit(cur, need);
    for (const ast *j = t->join; j; j = j->sub->join) {
        source *right;
        table *join_table; /* a Join table on the right (storage/joinset.h) */
        if (join_engine_check(j, q, &join_table)) {
            source_free(cur);
            return -1;
        }
        const void *saved_right = q->join_right_table;
        if (join_table)
            q->join_right_table = join_table;
        int arc = analyze_one_table(j->sub, q, &right);
        if (arc) {
            q->join_right_table = saved_right;
            if (join_table)
                table_unref(join_table);
            source_free(cur);
            return -1;
        }
        if (j->sub->table_name &&
            (!settings_bool(q->st, "enable_analyzer") || !settings_bool(q->st, "allow_experimental_analyzer")))
            old_analyzer_joined_columns(right);
        set_qualifiers(right, table_qualifier(j->sub));
        source *joined;
        int rc = join_sources(cur, right, j, where, q, &joined);
        q->join_right_table = saved_right;
        if (join_table)
            table_unref(join_table);
        source_free(cur);
        source_free(right);
        if (rc)
            return -1;
        cur = joined;
    }
    *out = cur;
    return 0;
}

int analyze_table(const ast *t, query_ctx *q, source **out)
{
    return analyze_from(t, NULL, UINT64_MAX, q, out);
}

/* ---- a subquery (or CTE) as a table: analysed now, run when the outer query runs ----
 * so that the outer query's analysis (and its errors) finish before any execution starts.
 * The first open() runs the plan to completion into memory; task k then serves the k-th
 * contiguous range of the result blocks (in order, so streaming keeps the subquery's
 * order). */
typedef struct subq_source {
    query_plan *plan;
    table *view;             /* the view whose SELECT this is (a reference: its AST), or NULL */
    pthread_mutex_t lock;
    bool ran, failed;
    err_saved err;
    block **blocks;
    int nblocks;
    /* Piped (a plan that streams: no aggregation, sort or DISTINCT): one task; open()
     * starts the plan on a producer thread whose blocks pass through a bounded queue, so
     * memory stays bounded and the outer LIMIT stops it (close() cancels). */
    bool piped;
    pthread_t producer;
    bool producing;
    pthread_cond_t cond;
    size_t queued_bytes;
    int head;                /* next block to hand out */
    bool done, cancel;
    query_ctx *q;
} subq_source;

#define SUBQ_PIPE_BYTES (16u << 20)

static int subq_pipe_write(block_sink *s, block *b)
{
    subq_source *sq = s->ctx;
    pthread_mutex_lock(&sq->lock);
    while (!sq->cancel && sq->queued_bytes > SUBQ_PIPE_BYTES)
        pthread_cond_wait(&sq->cond, &sq->lock);
    if (sq->cancel) {
        pthread_mutex_unlock(&sq->lock);
        block_free(b);
        return err_set(ERR_QUERY_WAS_CANCELLED, "Subquery read stopped");
    }
    sq->blocks = xrealloc(sq->blocks, sizeof *sq->blocks * (size_t)(sq->nblocks + 1));
    sq->blocks[sq->nblocks++] = b;
    sq->queued_bytes += block_bytes(b);
    pthread_cond_broadcast(&sq->cond);
    pthread_mutex_unlock(&sq->lock);
    return 0;
}

static void *subq_produce(void *arg)
{
    subq_source *sq = arg;
    mem_thread_init();
    mem_tracker *prev = mem_tracker_attach(&sq->q->mem);
    block_sink sink = {.write = subq_pipe_write, .ctx = sq};
    int rc = query_plan_run(sq->plan, sq->q, &sink);
    pthread_mutex_lock(&sq->lock);
    if (rc && !sq->cancel) {
        sq->failed = true;
        err_save(&sq->err);
    }
    sq->done = true;
    pthread_cond_broadcast(&sq->cond);
    pthread_mutex_unlock(&sq->lock);
    mem_tracker_attach(prev);
    return NULL;
}

/* The next piped block, NULL at the end. */
static int subq_pipe_next(subq_source *sq, block **out)
{
    pthread_mutex_lock(&sq->lock);
    while (sq->head >= sq->nblocks && !sq->done)
        pthread_cond_wait(&sq->cond, &sq->lock);
    int rc = 0;
    *out = NULL;
    if (sq->head < sq->nblocks) {
        *out = sq->blocks[sq->head];
        sq->blocks[sq->head++] = NULL;
        sq->queued_bytes -= block_bytes(*out);
        pthread_cond_broadcast(&sq->cond);
    } else if (sq->failed) {
        rc = err_restore(&sq->err);
    }
    pthread_mutex_unlock(&sq->lock);
    return rc;
}

static void subq_pipe_stop(subq_source *sq)
{
    if (!sq->producing)
        return;
    pthread_mutex_lock(&sq->lock);
    sq->cancel = true;
    pthread_cond_broadcast(&sq->cond);
    pthread_mutex_unlock(&sq->lock);
    pthread_join(sq->producer, NULL);
    sq->producing = false;
}

typedef struct subq_it {
    subq_source *sq;
    int from, to;
    int *cols, ncols;
} subq_it;

static int subq_collect(block_sink *s, block *b);

static int subq_run(subq_source *sq, query_ctx *q)
{
    pthread_mutex_lock(&sq->lock);
    if (!sq->ran) {
        sq->ran = true;
        block_sink sink = {.write = subq_collect, .ctx = sq};
        if (query_plan_run(sq->plan, q, &sink)) {
            sq->failed = true;
            err_save(&sq->err);
        }
    }
    int rc = sq->failed ? err_restore(&sq->err) : 0;
    pthread_mutex_unlock(&sq->lock);
    return rc;
}

static int subq_collect(block_sink *s, block *b)
{
    subq_source *sq = s->ctx;
    sq->blocks = xrealloc(sq->blocks, sizeof *sq->blocks * (size_t)(sq->nblocks + 1));
    sq->blocks[sq->nblocks++] = b;
    return 0;
}

static int subq_open(source *s, int task, const int *cols, int ncols, query_ctx *q, void **it)
{
    subq_source *sq = s->impl;
    if (sq->piped) {
        if (sq->ran)
            return err_set(ERR_LOGICAL_ERROR, "A piped subquery was opened twice");
        sq->ran = true;
        sq->q = q;
        if (pthread_create(&sq->producer, NULL, subq_produce, sq))
            return err_set(ERR_LOGICAL_ERROR, "Cannot start a thread for a subquery");
        sq->producing = true;
    } else if (subq_run(sq, q)) {
        return -1;
    }
    subq_it *i = xcalloc(1, sizeof *i);
    i->sq = sq;
    i->from = (int)((int64_t)sq->nblocks * task / s->ntasks);
    i->to = (int)((int64_t)sq->nblocks * (task + 1) / s->ntasks);
    i->cols = xcalloc((size_t)ncols + 1, sizeof *i->cols);
    if (ncols)
        memcpy(i->cols, cols, sizeof *cols * (size_t)ncols);
    i->ncols = ncols;
    *it = i;
    return 0;
}

static int subq_next(void *itp, block **out)
{
    subq_it *i = itp;
    block *piped = NULL;
    if (i->sq->piped) {
        if (subq_pipe_next(i->sq, &piped))
            return -1;
        if (!piped) {
            *out = NULL;
            return 0;
        }
    } else if (i->from >= i->to) {
        *out = NULL;
        return 0;
    }
    const block *src = piped ? piped : i->sq->blocks[i->from++];
    block *b = block_new(i->ncols, src->rows);
    for (int k = 0; k < i->ncols; k++)
        b->cols[k] = col_ref(src->cols[i->cols[k]]);
    block_free(piped);
    *out = b;
    return 0;
}

static void subq_close(void *itp)
{
    subq_it *i = itp;
    if (i->sq->piped)
        subq_pipe_stop(i->sq);
    free(i->cols);
    free(i);
}

static void subq_destroy(source *s)
{
    subq_source *sq = s->impl;
    subq_pipe_stop(sq);
    for (int i = 0; i < sq->nblocks; i++)
        block_free(sq->blocks[i]);
    free(sq->blocks);
    query_plan_free(sq->plan);
    table_unref(sq->view);
    pthread_mutex_destroy(&sq->lock);
    pthread_cond_destroy(&sq->cond);
    free(sq);
}

static int64_t subq_count(source *s, query_ctx *q)
{
    subq_source *sq = s->impl;
    if (subq_run(sq, q)) {
        err_clear();
        return -1; /* the error comes again from open() */
    }
    int64_t n = 0;
    for (int i = 0; i < sq->nblocks; i++)
        n += (int64_t)sq->blocks[i]->rows;
    return n;
}

static int subquery_source(const ast *sub, query_ctx *q, source **out)
{
    query_plan *plan;
    if (analyze_query_at(sub, q, false, &plan))
        return -1;
    subq_source *sq = xcalloc(1, sizeof *sq);
    sq->plan = plan;
    pthread_mutex_init(&sq->lock, NULL);
    pthread_cond_init(&sq->cond, NULL);
    sq->piped = plan->nsubs == 0;
    for (int i = 0; i < plan->nparts; i++) {
        const select_plan *p = plan->parts[i];
        sq->piped &= !p->aggregate && p->norder == 0 && !p->distinct && p->nlimit_by == 0;
    }
    source *s = xcalloc(1, sizeof *s);
    s->impl = sq;
    s->sch = schema_clone(plan->out_schema);
    s->nvisible = s->sch->n;
    s->ntasks = sq->piped ? 1 : q->max_threads > 1 ? q->max_threads : 1;
    s->open = subq_open;
    s->next = subq_next;
    s->close = subq_close;
    s->destroy = subq_destroy;
    s->count_rows = sq->piped ? NULL : subq_count;
    *out = s;
    return 0;
}

int analyze_subquery_source(const ast *sub, query_ctx *q, source **out) { return subquery_source(sub, q, out); }

/* ignore_data_skipping_indices, once set, must name at least one index of a table that has
 * some: ClickHouse parses it when it selects a MergeTree table's granules (so only for a
 * table with data) and refuses a value without an identifier. The indexes themselves are
 * not used by shale, so the names need not exist. */
static int check_ignored_indexes(source *src, query_ctx *q)
{
    int si = settings_index("ignore_data_skipping_indices");
    if (si < 0 || !settings_changed_at(q->st, si) || !src->count_rows || src->count_rows(src, q) == 0)
        return 0;
    const char *v = settings_text_at(q->st, si);
    for (const char *p = v; *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            return 0;
    return err_set(ERR_CANNOT_PARSE_TEXT, "Cannot parse string ('%s') into set of identifiers", v);
}

/* A view: its SELECT analyzed as a subquery in the view's own scope — no CTE of the
 * outer query, unqualified tables in the view's database. The source keeps the view
 * (whose AST the plan points into) until it is destroyed; takes the reference v. */
static int view_source(table *v, bool final, query_ctx *q, source **out)
{
    if (final) {
        table_unref(v);
        return err_set(ERR_ILLEGAL_FINAL, "Storage View doesn't support FINAL");
    }
    int saved_ctes = q->nctes;
    const char *saved_db = q->database;
    q->nctes = 0;
    q->database = v->database;
    int rc = subquery_source(v->create->as_select, q, out);
    q->nctes = saved_ctes;
    q->database = saved_db;
    if (rc) {
        err_prefix("View %s: ", table_full_name(v));
        table_unref(v);
        return -1;
    }
    ((subq_source *)(*out)->impl)->view = v;
    return 0;
}

int analyze_view_source(table *view, query_ctx *q, source **out) { return view_source(view, false, q, out); }

/* One constant string argument of a table function. */
static int const_string_arg(const ast *f, int i, query_ctx *q, char **out)
{
    actx c = {.q = q};
    expr *x;
    *out = NULL;
    if (compile(&c, f->args.items[i], &x))
        return -1;
    int rc = 0;
    if (x->kind != EX_CONST || type_base(x->value->type)->id != T_STRING || col_is_null(x->value, 0))
        rc = err_set(ERR_BAD_ARGUMENTS, "Argument %d of table function '%s' must be a constant string", i + 1, f->name);
    else {
        size_t len;
        const char *p = col_str(x->value, 0, &len);
        *out = xstrndup(p, len);
    }
    expr_free(x);
    return rc;
}

int analyze_remote_args(const ast *f, query_ctx *q, remote_args *out)
{
    memset(out, 0, sizeof *out);
    int n = f->args.n;
    out->secure = strcasecmp(f->name, "remoteSecure") == 0;
    if (n < 2 || n > 5)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                       "Table function '%s' requires from 2 to 5 parameters: addresses, db.table or db, table or "
                       "table_function(...) [, user [, password]]",
                       f->name);
    char *addr = NULL, *user = NULL, *password = NULL;
    buf target = {0};
    int rc = const_string_arg(f, 0, q, &addr);
    const ast *a1 = f->args.items[1];
    int next = 2;
    if (!rc && a1->kind == AST_FUNC) {
        ast_format_sql(&target, a1);
    } else if (!rc && a1->kind == AST_IDENT && a1->nparts == 2) {
        ast_format_ident(&target, a1->parts[0]);
        buf_putc(&target, '.');
        ast_format_ident(&target, a1->parts[1]);
    } else if (!rc) {
        /* db, table (identifiers or strings), or 'db.table', or a bare table name */
        char *first = NULL, *second = NULL;
        if (a1->kind == AST_IDENT && a1->nparts == 1)
            first = xstrdup(a1->parts[0]);
        else
            rc = const_string_arg(f, 1, q, &first);
        /* As ClickHouse: a database without a dot is followed by the table. */
        if (!rc && n >= 3 && !strchr(first, '.')) {
            const ast *a2 = f->args.items[2];
            if (a2->kind == AST_IDENT && a2->nparts == 1)
                second = xstrdup(a2->parts[0]);
            else
                rc = const_string_arg(f, 2, q, &second);
            next = 3;
        }
        if (!rc && second) {
            ast_format_ident(&target, first);
            buf_putc(&target, '.');
            ast_format_ident(&target, second);
        } else if (!rc) {
            const char *dot = strchr(first, '.');
            if (dot) {
                char *db = xstrndup(first, (size_t)(dot - first));
                ast_format_ident(&target, db);
                free(db);
                buf_putc(&target, '.');
                ast_format_ident(&target, dot + 1);
            } else {
                ast_format_ident(&target, first);
            }
        }
        free(first);
        free(second);
    }
    if (!rc && next < n)
        rc = const_string_arg(f, next, q, &user);
    if (!rc && next + 1 < n)
        rc = const_string_arg(f, next + 1, q, &password);
    if (!rc && next + 2 < n)
        rc = err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Table function '%s': too many arguments (sharding keys "
                                                           "are not implemented)", f->name);
    out->addresses = addr;
    out->target = xstrdup(buf_cstr(&target));
    out->user = user;
    out->password = password;
    buf_free(&target);
    if (rc)
        remote_args_free(out);
    return rc;
}

void remote_args_free(remote_args *a)
{
    free(a->addresses);
    free(a->target);
    free(a->user);
    free(a->password);
    free(a->cluster);
    free(a->secret);
    memset(a, 0, sizeof *a);
}

static int remote_table(const ast *f, query_ctx *q, source **out)
{
    remote_args a;
    if (analyze_remote_args(f, q, &a))
        return -1;
    int rc = tablefunc_remote(a.addresses, a.target, a.user, a.password, a.secure, q, out);
    remote_args_free(&a);
    return rc;
}

/* The block being inserted into a materialized view's source table (query_ctx.mv_block),
 * as that table reads: a materialized view's SELECT runs over each inserted block. */
static int inserted_block_source(const table *tbl, query_ctx *q, source **out)
{
    const block *b = q->mv_block;
    block *copy = block_new(b->ncols, b->rows);
    for (int i = 0; i < b->ncols; i++)
        copy->cols[i] = col_ref(b->cols[i]);
    block **blocks = xmalloc(sizeof *blocks);
    blocks[0] = copy;
    *out = source_from_blocks(schema_clone(tbl->sch), blocks, 1);
    return 0;
}

static int analyze_one_table(const ast *t, query_ctx *q, source **out);

/* A materialized view: its target table's rows, under the view's columns (matched by
 * name; the target's other columns and virtual columns stay behind them, unseen by
 * SELECT *). SAMPLE goes to the target. Takes the reference mv. */
static int mview_source(table *mv, const ast *t, query_ctx *q, source **out)
{
    const ast *to = mv->create->mv_to;
    ast target = *t;
    target.database = to->database ? to->database : mv->database;
    target.table_name = to->table_name;
    target.join = NULL;
    source *src;
    if (analyze_one_table(&target, q, &src)) {
        table_unref(mv);
        return -1;
    }
    /* The view's columns by name; the target's others (and virtual ones) behind them. */
    const schema *ts = src->sch;
    int nv = mv->sch->n, n = ts->n, extra = 0;
    int *map = xmalloc(sizeof(int) * (size_t)(nv + n + 1));
    bool *used = xcalloc((size_t)n + 1, sizeof *used);
    bool same = true;
    for (int i = 0; i < nv; i++) {
        map[i] = -1;
        for (int j = 0; j < src->nvisible && map[i] < 0; j++)
            if (strcmp(ts->names[j], mv->sch->names[i]) == 0)
                map[i] = j;
        same &= map[i] >= 0 && strcmp(ts->types[map[i]]->name, mv->sch->types[i]->name) == 0;
        if (map[i] >= 0)
            used[map[i]] = true;
    }
    for (int j = 0; j < n; j++)
        if (!used[j])
            map[nv + extra++] = j;
    if (same && nv + extra == n) {
        *out = source_reorder(src, map, nv);
    } else {
        /* missing columns fail when read; other types are cast, as ClickHouse does */
        schema *sch = schema_new(nv + extra);
        for (int i = 0; i < nv; i++)
            schema_set(sch, i, mv->sch->names[i], mv->sch->types[i]);
        for (int i = 0; i < extra; i++)
            schema_set(sch, nv + i, ts->names[map[nv + i]], ts->types[map[nv + i]]);
        char what[512];
        snprintf(what, sizeof what, "%s.%s", target.database, target.table_name);
        *out = source_convert(src, sch, map, nv, what);
    }
    free(map);
    free(used);
    table_unref(mv);
    return 0;
}

static int analyze_one_table(const ast *t, query_ctx *q, source **out)
{
    if (t->sample_size && (t->sub || t->table_func))
        return err_set(ERR_SAMPLING_NOT_SUPPORTED, "Illegal SAMPLE: %s doesn't support sampling",
                       t->sub ? "a subquery" : "a table function");
    if (t->sub && t->sub->kind == AST_STMT_EXPLAIN)
        return explain_source(t->sub, q, out);
    if (t->sub)
        return subquery_source(t->sub, q, out);
    if (t->table_func && (strcasecmp(t->table_func->name, "remote") == 0 ||
                          strcasecmp(t->table_func->name, "remoteSecure") == 0))
        return remote_table(t->table_func, q, out);
    if (t->table_func && analyze_is_cluster_function(t->table_func->name))
        return analyze_cluster_function(t->table_func, q, out);
    if (t->table_func) {
        const ast *f = t->table_func;
        column **args;
        int n = f->args.n;
        if (analyze_table_args(f, q, &args))
            return -1;
        int rc;
        {
            if (strcasecmp(f->name, "numbers") == 0 || strcmp(f->name, "numbers_mt") == 0)
                rc = tablefunc_numbers(args, n, false, q, out);
            else if (strcasecmp(f->name, "file") == 0)
                rc = tablefunc_file(args, n, q, out);
            else if (strcasecmp(f->name, "s3") == 0)
                rc = tablefunc_s3(args, n, q, out);
            else if (strcasecmp(f->name, "url") == 0)
                rc = tablefunc_url(args, n, q, out);
            else if (strcmp(f->name, "format") == 0)
                rc = tablefunc_format(args, n, q, out);
            else if (strcasecmp(f->name, "values") == 0)
                rc = tablefunc_values(args, n, q, out);
            else if (strcmp(f->name, "merge") == 0)
                rc = tablefunc_merge(args, n, q, out);
            else if (strcmp(f->name, "input") == 0) {
                size_t len = 0;
                const char *st = n >= 1 && type_base(args[0]->type)->id == T_STRING ? col_str(args[0], 0, &len) : NULL;
                char *structure = st ? xstrndup(st, len) : NULL;
                rc = n > 1 ? err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "input() takes at most one argument: the structure")
                           : tablefunc_stdin(structure, q, out);
                free(structure);
            }
            else
                rc = err_set(ERR_UNKNOWN_FUNCTION, "Unknown table function %s", f->name);
        }
        for (int i = 0; i < n; i++)
            col_free(args[i]);
        free(args);
        return rc;
    }
    const char *db = t->database, *name = t->table_name;
    if (!db)
        for (int i = q->nctes - 1; i >= 0; i--) {
            const ast *cte = q->ctes[i];
            if (strcmp(cte->alias, name) == 0) {
                /* The CTE's own scope: only the CTEs defined before it. */
                int saved = q->nctes;
                q->nctes = i;
                int rc = subquery_source(cte->sub, q, out);
                q->nctes = saved;
                return rc;
            }
        }
    if (!db && strcmp(name, "table") == 0)
        return tablefunc_stdin(NULL, q, out);
    if (db && strcmp(db, "system") == 0) {
        if (strcmp(name, "one") == 0) {
            *out = system_one();
            return 0;
        }
        if (strcmp(name, "numbers") == 0 || strcmp(name, "numbers_mt") == 0)
            return tablefunc_numbers(NULL, 0, true, q, out);
        if (t->final)
            return err_set(ERR_ILLEGAL_FINAL, "Storage SystemTables doesn't support FINAL");
        return system_table(name, q, out);
    }
    table *tbl;
    if (catalog_get_for_query(q, db, name, &tbl)) {
        return -1;
    }
    if (tbl->engine == &engine_view && t->sample_size) {
        int src = err_set(ERR_SAMPLING_NOT_SUPPORTED, "Illegal SAMPLE: table %s doesn't support sampling",
                          table_full_name(tbl));
        table_unref(tbl);
        return src;
    }
    if (tbl->engine == &engine_view)
        return view_source(tbl, t->final, q, out);
    if (tbl->engine == &engine_materialized_view && t->final) {
        int frc = err_set(ERR_ILLEGAL_FINAL, "Storage MaterializedView doesn't support FINAL");
        table_unref(tbl);
        return frc;
    }
    if (tbl->engine == &engine_materialized_view)
        return mview_source(tbl, t, q, out);
    int rc;
    if (q->mv_source == tbl)
        rc = inserted_block_source(tbl, q, out);
    else if (t->final && !tbl->engine->supports_final)
        rc = err_set(ERR_ILLEGAL_FINAL, "Storage %s doesn't support FINAL", tbl->engine->name);
    else
        rc = tbl->engine->read(tbl, t->final, q, out);
    if (!rc && tbl->has_skip_indexes)
        rc = check_ignored_indexes(*out, q);
    /* SELECT * leaves MATERIALIZED columns out, as ClickHouse does: they go after the
     * other stored columns, before the virtual ones (_part, …). */
    int nmat = 0;
    for (int i = 0; !rc && i < tbl->ncols; i++)
        nmat += tbl->cols[i].default_kind && !strcmp(tbl->cols[i].default_kind, "MATERIALIZED");
    if (!rc && nmat) {
        const schema *sch = (*out)->sch;
        int nvis = (*out)->nvisible;
        int *perm = xmalloc(sizeof(int) * (size_t)(sch->n + 1));
        int k = 0;
        for (int pass = 0; pass < 3; pass++)
            for (int c = 0; c < sch->n; c++) {
                bool mat = false;
                for (int i = 0; c < nvis && i < tbl->ncols; i++)
                    if (!strcmp(tbl->cols[i].name, sch->names[c]))
                        mat = tbl->cols[i].default_kind && !strcmp(tbl->cols[i].default_kind, "MATERIALIZED");
                int cls = c >= nvis ? 2 : mat ? 1 : 0;
                if (cls == pass)
                    perm[k++] = c;
            }
        *out = source_reorder(*out, perm, nvis - nmat);
        free(perm);
    }
    /* ALIAS columns: their expressions, compiled by each query that names them */
    for (int i = 0; !rc && i < tbl->ncols; i++) {
        const table_column *tc = &tbl->cols[i];
        if (!tc->default_kind || strcmp(tc->default_kind, "ALIAS") || !tc->default_expr)
            continue;
        source *s = *out;
        s->alias_name = xrealloc(s->alias_name, sizeof(char *) * (size_t)(s->nalias + 1));
        s->alias_sql = xrealloc(s->alias_sql, sizeof(char *) * (size_t)(s->nalias + 1));
        buf b = {0};
        buf_puts(&b, "CAST((");
        ast_format_sql(&b, tc->default_expr);
        buf_printf(&b, ") AS %s)", tc->type->name); /* the declared type, as ClickHouse */
        s->alias_name[s->nalias] = xstrdup(tc->name);
        s->alias_sql[s->nalias++] = xstrdup(buf_cstr(&b));
        buf_free(&b);
    }
    if (!rc && t->sample_size)
        rc = sample_source(tbl, t, q, out);
    table_unref(tbl);
    return rc;
}

static void remap_cols(expr *e, const int *map)
{
    if (e->kind == EX_COL)
        e->col = map[e->col];
    for (int i = 0; i < e->nargs; i++)
        remap_cols(e->args[i], map);
}

int analyze_expr_on(const ast *e, const source *src, query_ctx *q, expr **out)
{
    select_plan p = {0};
    actx *c = xcalloc(1, sizeof *c);
    c->q = q;
    c->p = &p;
    c->src = src->sch;
    c->nvisible = src->nvisible;
    c->qual = src->col_qual;
    c->qual2 = src->col_qual2;
    c->bare = src->col_bare;
    c->src_map = xmalloc(sizeof(int) * (size_t)(src->sch->n + 1));
    for (int i = 0; i < src->sch->n; i++)
        c->src_map[i] = -1;
    int rc = compile(c, e, out);
    if (!rc)
        remap_cols(*out, p.src_cols);
    for (int i = 0; i < c->nin; i++) /* the IN literals recorded for pruning: unused here */
        if (c->in_vals[i])
            col_free(c->in_vals[i]);
    free(p.src_cols);
    free(c->src_map);
    free(c);
    return rc;
}

/* ---- SELECT ---- */

static int add_output(select_plan *p, expr *e, const char *name, schema **names, int *cap)
{
    if (p->nout == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        p->out = xrealloc(p->out, sizeof *p->out * (size_t)*cap);
    }
    p->out[p->nout++] = e;
    schema *s = *names;
    schema *ns = schema_new(p->nout);
    for (int i = 0; s && i < s->n; i++)
        schema_set(ns, i, s->names[i], s->types[i]);
    schema_set(ns, p->nout - 1, name, e->type);
    schema_free(s);
    *names = ns;
    return 0;
}

/* ---- filter push-down: WHERE conjuncts `column op constant` for the source ---- */

/* A constant converted to type t (NULL when it does not convert). Takes v. */
static column *const_to(actx *c, column *v, const type *t)
{
    if (v->type == t)
        return v;
    fn_call *call;
    column *targ = col_new(type_simple(T_STRING));
    col_push_str(targ, t->name, strlen(t->name));
    column *tconst = col_new_const(targ, 1);
    const type *ats[2] = {v->type, type_simple(T_STRING)};
    column *cargs[2] = {v, tconst};
    column *conv = NULL;
    if (func_resolve("CAST", 2, ats, cargs, &c->q->env, &call) == 0) {
        column *ex[2] = {v, tconst};
        if (fn_exec(call, ex, 1, &conv))
            conv = NULL;
        fn_call_free(call);
    }
    err_clear();
    col_free(tconst);
    col_free(v);
    if (conv && conv->is_const)
        conv = col_materialize(conv);
    return conv;
}

static bool plain_number(const type *t)
{
    return type_is_number(t) && !type_is_decimal(t) && t->id != T_BOOL;
}

/* Adds "col op value" to the filters; false when it cannot be expressed as one. */
static bool add_filter(actx *c, src_filter **fl, int *n, int col, src_filter_op op, const column *value)
{
    column *v = col_ref((column *)(uintptr_t)value);
    if (v->is_const)
        v = col_materialize(v);
    if (v->len != 1 || col_is_null(v, 0) || type_base(v->type)->id == T_NOTHING) {
        col_free(v);
        return false;
    }
    const type *colt = type_base(c->src->types[col]);
    const type *ct = type_base(v->type);
    /* Numbers compare by value across types; anything else is compared in the column's
     * type, as ClickHouse converts the constant. */
    const type *target = plain_number(colt) && plain_number(ct) ? ct : colt;
    if (!(v = const_to(c, v, target)))
        return false;
    *fl = xrealloc(*fl, sizeof **fl * (size_t)(*n + 1));
    (*fl)[(*n)++] = (src_filter){.col = col, .op = op, .vals = v};
    return true;
}

/* Adds "col [NOT] [I]LIKE 'pattern'" for a String column and a constant String pattern
 * (vals: the pattern, one String row); false otherwise. */
static bool add_like_filter(actx *c, src_filter **fl, int *n, const expr *a, const expr *b, src_filter_op op)
{
    if (a->kind != EX_COL || b->kind != EX_CONST)
        return false;
    int col = c->p->src_cols[a->col];
    if (type_base(c->src->types[col])->id != T_STRING)
        return false;
    column *v = col_ref((column *)(uintptr_t)b->value);
    if (v->is_const)
        v = col_materialize(v);
    if (v->len != 1 || col_is_null(v, 0) || type_base(v->type)->id != T_STRING) {
        col_free(v);
        return false;
    }
    const type *st = type_simple(T_STRING);
    if (type_phys(v->type) != st && !(v = const_to(c, v, st)))
        return false;
    *fl = xrealloc(*fl, sizeof **fl * (size_t)(*n + 1));
    (*fl)[(*n)++] = (src_filter){.col = col, .op = op, .vals = v};
    return true;
}

/* Adds the conjuncts of e that compare a source column with a constant to the filters;
 * returns whether the filters express all of e (then rows satisfying every filter satisfy
 * e). */
static bool extract_filters(actx *c, const expr *e, src_filter **fl, int *n)
{
    if (e->kind == EX_FUNC && e->call && strcmp(e->call->def->name, "and") == 0) {
        bool all = true;
        for (int i = 0; i < e->nargs; i++)
            all &= extract_filters(c, e->args[i], fl, n);
        return all;
    }
    if (e->kind == EX_FUNC && e->call && e->nargs == 2) {
        static const struct {
            const char *name;
            src_filter_op op, flipped;
        } ops[] = {{"equals", SF_EQ, SF_EQ}, {"notEquals", SF_NE, SF_NE}, {"less", SF_LT, SF_GT},
                   {"lessOrEquals", SF_LE, SF_GE}, {"greater", SF_GT, SF_LT}, {"greaterOrEquals", SF_GE, SF_LE}};
        static const struct {
            const char *name;
            src_filter_op op;
        } likes[] = {{"like", SF_LIKE}, {"notLike", SF_NOT_LIKE}, {"ilike", SF_ILIKE}, {"notILike", SF_NOT_ILIKE}};
        for (size_t k = 0; k < sizeof likes / sizeof likes[0]; k++)
            if (strcmp(e->call->def->name, likes[k].name) == 0)
                return add_like_filter(c, fl, n, e->args[0], e->args[1], likes[k].op);
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
            if (strcmp(e->call->def->name, ops[k].name) == 0) {
                const expr *a = e->args[0], *b = e->args[1];
                if (a->kind == EX_COL && b->kind == EX_CONST)
                    return add_filter(c, fl, n, c->p->src_cols[a->col], ops[k].op, b->value);
                if (b->kind == EX_COL && a->kind == EX_CONST)
                    return add_filter(c, fl, n, c->p->src_cols[b->col], ops[k].flipped, a->value);
                return false;
            }
        return false;
    }
    if (e->kind == EX_IN && e->args[0]->kind == EX_COL && !c->in_overflow &&
        !settings_bool(c->q->st, "transform_null_in"))
        for (int i = c->nin - 1; i >= 0; i--)
            if (c->in_ex[i] == e) {
                if (!c->in_vals[i] || c->in_vals[i]->len == 0)
                    break;
                src_filter f = {.col = c->p->src_cols[e->args[0]->col], .op = e->negate ? SF_NOT_IN : SF_IN,
                                .vals = col_ref(c->in_vals[i])};
                *fl = xrealloc(*fl, sizeof **fl * (size_t)(*n + 1));
                (*fl)[(*n)++] = f;
                return true;
            }
    return false;
}

/* Hands the source the WHERE conjuncts it may use to skip data (source.set_filter). */
static void push_filters(actx *c)
{
    select_plan *p = c->p;
    if (!p->where || !p->src->set_filter)
        return;
    src_filter *fl = NULL;
    int n = 0;
    bool exact = extract_filters(c, p->where, &fl, &n);
    if (n)
        p->src->set_filter(p->src, fl, n, c->q);
    /* SELECT count() … WHERE <filters only>: rows the source knows match are counted
     * without reading them. */
    if (n && exact && p->src->take_matching && p->aggregate && p->nkeys == 0 && p->naggs == 1 && !p->having &&
        p->aggs[0]->nargs == 0 && strcasecmp(p->aggs[0]->name, "count") == 0)
        p->count_known = p->src->take_matching(p->src, c->q);
    for (int i = 0; i < n; i++)
        col_free(fl[i].vals);
    free(fl);
}

/* ---- PREWHERE ---- */

/* The format a file()/s3()/url() call reads: a literal argument naming an input format,
 * else the one its path's extension names; NULL when that cannot be told from the AST. */
static const char *tablefunc_format_of(const ast *f)
{
    const char *path = NULL;
    for (int i = 0; i < f->args.n; i++) {
        const ast *a = f->args.items[i];
        if (a->kind == AST_IDENT && a->nparts == 1 && i > 0 && fmt_input_canonical(a->parts[0]))
            return fmt_input_canonical(a->parts[0]);
        if (a->kind != AST_LITERAL || a->lit != LIT_STRING)
            continue;
        if (i == 0)
            path = a->str;
        else if (strcasecmp(a->str, "auto") != 0 && fmt_input_canonical(a->str))
            return fmt_input_canonical(a->str);
    }
    return path ? fmt_from_filename(path) : NULL;
}

/* ClickHouse allows PREWHERE only over storages that read columns lazily: MergeTree tables
 * and Parquet read by file()/s3()/url(); a subquery, a CTE, Memory, system tables and other
 * formats are ILLEGAL_PREWHERE. Joins follow their first table. */
static int check_prewhere_source(const ast *t, query_ctx *q)
{
    if (!t)
        return err_set(ERR_ILLEGAL_PREWHERE, "Storage SystemOne (table system.one) does not support PREWHERE");
    if (t->sub) {
        buf b = {0};
        ast_format_sql(&b, t->sub);
        err_set(ERR_ILLEGAL_PREWHERE, "Subquery %s does not support PREWHERE", buf_cstr(&b));
        buf_free(&b);
        return -1;
    }
    if (t->table_func) {
        const ast *f = t->table_func;
        const char *storage = strcasecmp(f->name, "file") == 0  ? "File"
                              : strcasecmp(f->name, "s3") == 0  ? "S3"
                              : strcasecmp(f->name, "url") == 0 ? "URL"
                              : strcasecmp(f->name, "numbers") == 0 || strcmp(f->name, "numbers_mt") == 0 ? "SystemNumbers"
                              : strcmp(f->name, "format") == 0 ? "Values" : "Input";
        if (strcmp(storage, "File") == 0 || strcmp(storage, "S3") == 0 || strcmp(storage, "URL") == 0) {
            const char *fmt = tablefunc_format_of(f);
            if (!fmt || strcmp(fmt, "Parquet") == 0)
                return 0;
        }
        return err_set(ERR_ILLEGAL_PREWHERE, "Storage %s (table _table_function.%s) does not support PREWHERE", storage,
                       f->name);
    }
    const char *db = t->database, *name = t->table_name;
    if (!db)
        for (int i = q->nctes - 1; i >= 0; i--)
            if (strcmp(((const ast *)q->ctes[i])->alias, name) == 0)
                return err_set(ERR_ILLEGAL_PREWHERE,
                               "Invalid column in PREWHERE. Expected column source to be table or table function. "
                               "Actual %s",
                               name);
    if (db && strcmp(db, "system") == 0)
        return err_set(ERR_ILLEGAL_PREWHERE, "Storage System (table system.%s) does not support PREWHERE", name);
    table *tbl;
    if (catalog_get_for_query(q, db, name, &tbl))
        return 0; /* the table's own error comes from reading it */
    size_t n = strlen(tbl->engine->name);
    int rc = 0;
    if (n < 9 || strcmp(tbl->engine->name + n - 9, "MergeTree") != 0)
        rc = err_set(ERR_ILLEGAL_PREWHERE, "Storage %s (table %s.%s) does not support PREWHERE", tbl->engine->name,
                     tbl->database, tbl->name);
    table_unref(tbl);
    return rc;
}

/* WHERE and PREWHERE keep rows by a number (any width up to 64 bits), Bool or NULL, maybe
 * Nullable or LowCardinality; other types are ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER. */
static int check_filter_type(const type *t, const char *clause)
{
    switch (type_base(t)->id) {
    case T_NOTHING: case T_BOOL: case T_FLOAT32: case T_FLOAT64:
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
        return 0;
    default:
        return err_set(ERR_ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER, "Invalid type for filter in %s: %s", clause, t->name);
    }
}

/* PREWHERE p WHERE w keeps the rows satisfying both: and(p, w). */
static int combine_filters(actx *c, expr *pre, expr **wherep)
{
    expr *where = *wherep;
    *wherep = NULL; /* owned by the and() from here, freed with it on failure */
    expr *ex = xcalloc(1, sizeof *ex);
    ex->kind = EX_FUNC;
    ex->nargs = 2;
    ex->args = xcalloc(2, sizeof *ex->args);
    ex->args[0] = pre;
    ex->args[1] = where;
    const type *types[2] = {pre->type, where->type};
    column *consts[2] = {pre->kind == EX_CONST ? pre->value : NULL, where->kind == EX_CONST ? where->value : NULL};
    if (func_resolve("and", 2, types, consts, &c->q->env, &ex->call)) {
        expr_free(ex);
        return -1;
    }
    ex->type = ex->call->result_type;
    return fold_if_const(c, ex, wherep);
}

/* The text of a SETTINGS value as settings_set takes it. */
static void setting_value_text(const ast *v, char *out, size_t cap)
{
    if (v->kind == AST_IDENT)
        snprintf(out, cap, "%s", v->parts[v->nparts - 1]);
    else if (v->kind == AST_LITERAL && v->lit == LIT_STRING)
        snprintf(out, cap, "%.*s", (int)v->str_len, v->str ? v->str : "");
    else if (v->kind == AST_LITERAL && v->lit == LIT_BOOL)
        snprintf(out, cap, "%d", v->u != 0);
    else if (v->kind == AST_LITERAL && v->text)
        snprintf(out, cap, "%s", v->text);
    else
        out[0] = 0;
}

/* A window function inside the definition of window `name` (WINDOW name AS (…)): the
 * first one found, or NULL. */
static const ast *window_fn_in(const ast *e, int depth)
{
    if (!e || depth > 64)
        return NULL;
    if (e->kind == AST_FUNC && (e->over || e->over_name))
        return e;
    const ast *f = e->kind == AST_ORDER_ITEM ? window_fn_in(e->sub, depth + 1) : NULL;
    for (int i = 0; !f && e->kind == AST_FUNC && i < e->args.n; i++)
        f = window_fn_in(e->args.items[i], depth + 1);
    return f;
}

/* ClickHouse analyses every WINDOW definition, used or not: none may hold a window
 * function (and one naming the window itself is a recursion). */
static int check_window_defs(const ast *sel)
{
    for (int i = 0; i < sel->windows.n; i++) {
        const ast *w = sel->windows.items[i];
        for (int part = 0; part < 2; part++) {
            const ast_list *l = part ? &w->order_by : &w->partition_by;
            for (int k = 0; k < l->n; k++) {
                const ast *f = window_fn_in(l->items[k], 0);
                if (!f)
                    continue;
                const char *base = f->over_name ? f->over_name : f->over ? f->over->window_base : NULL;
                if (base && w->alias && !strcmp(base, w->alias))
                    return err_set(ERR_UNSUPPORTED_METHOD, "Recursive window %s", w->alias);
                return err_set(ERR_ILLEGAL_AGGREGATION, "Window function %s is found in WINDOW in query", f->name);
            }
        }
    }
    return 0;
}

static int unsupported_clauses(const ast *sel, query_ctx *q)
{
    if (check_window_defs(sel))
        return -1;
    for (int i = 0; i < sel->order_by.n; i++) {
        if (sel->order_by.items[i]->fill_staleness)
            return err_set(ERR_NOT_IMPLEMENTED, "ORDER BY … WITH FILL STALENESS is not supported yet");
        if (sel->order_by.items[i]->collate)
            return err_set(ERR_NOT_IMPLEMENTED, "ORDER BY … COLLATE is not supported yet");
    }
    /* A SELECT's own SETTINGS: the statement's (outermost) ones are applied to the whole
     * query before analysis; a subquery's that would change a value are not supported
     * (they would apply to that subquery only), except those that only tune speed. */
    for (int i = 0; i < sel->settings.n; i++) {
        const ast *kv = sel->settings.items[i];
        if (!strcmp(kv->name, "max_threads") || !strcmp(kv->name, "max_block_size"))
            continue;
        bool overridden = false; /* SETTINGS a = 1, a = 2: the last one is the value */
        for (int j = i + 1; j < sel->settings.n && !overridden; j++)
            overridden = strcmp(sel->settings.items[j]->name, kv->name) == 0;
        if (overridden)
            continue;
        char val[1024];
        setting_value_text(kv->sub, val, sizeof val);
        settings *tmp = settings_clone(q->st);
        bool to_default = kv->sub->kind == AST_IDENT && kv->sub->nparts == 1 && !strcasecmp(kv->sub->parts[0], "DEFAULT");
        int rc = to_default ? settings_reset(tmp, kv->name) : settings_set(tmp, kv->name, val);
        int k = settings_index(kv->name);
        bool same = !rc && k >= 0 && settings_num_at(tmp, k) == settings_num_at(q->st, k) &&
                    (settings_def_at(k)->kind != SET_STRING ||
                     !strcmp(settings_text_at(tmp, k), settings_text_at(q->st, k)));
        settings_free(tmp);
        if (rc)
            return -1;
        if (!same)
            return err_set(ERR_NOT_IMPLEMENTED, "SETTINGS %s in a subquery are not supported yet", kv->name);
    }
    return 0;
}

/* ---- ORDER BY … WITH FILL (exec/fill.h) ---- */

static ast *fill_node(arena *a, ast_kind kind)
{
    ast *n = ARENA_NEW(a, ast);
    n->kind = kind;
    return n;
}

/* CAST(e, 't') compiled over a block of the columns of sch. */
static int fill_compile(actx *c, schema *sch, const ast *e, const type *t, expr **out)
{
    ast *cast = fill_node(c->scratch, AST_FUNC);
    cast->name = "CAST";
    ast *tn = fill_node(c->scratch, AST_LITERAL);
    tn->lit = LIT_STRING;
    tn->str = t->name;
    tn->str_len = strlen(t->name);
    ast_list_push(c->scratch, &cast->args, (ast *)e);
    ast_list_push(c->scratch, &cast->args, tn);
    source *src = source_from_blocks(schema_clone(sch), NULL, 0);
    int rc = analyze_expr_on(cast, src, c->q, out);
    source_free(src);
    return rc;
}

/* A FROM / TO bound: a constant of the key's type (one row). */
static int fill_bound(actx *c, schema *one, const ast *e, const type *t, column **out)
{
    expr *x;
    if (fill_compile(c, one, e, t, &x))
        return -1;
    block *b = block_new(1, 1);
    b->cols[0] = col_new_defaults(t, 1);
    column *v;
    int rc = expr_eval(x, b, &v);
    block_free(b);
    expr_free(x);
    if (rc)
        return -1;
    *out = col_materialize(v);
    return 0;
}

/* The name an output or ORDER BY expression is matched by (aliases expanded). */
static char *fill_match_name(actx *c, const ast *e)
{
    ast bare = *expand_aliases(c, c->scratch, e, 0);
    bare.alias = NULL;
    return name_of(&bare);
}

static int plan_fill(actx *c, const ast *sel, const ast_list *order_by, const schema *names)
{
    select_plan *p = c->p;
    int first = -1;
    for (int i = 0; i < order_by->n && first < 0; i++)
        if (order_by->items[i]->with_fill)
            first = i;
    if (first < 0) {
        if (sel->has_interpolate)
            return err_set(ERR_INVALID_WITH_FILL_EXPRESSION, "INTERPOLATE is used without WITH FILL in ORDER BY");
        return 0;
    }
    fill_plan *f = xcalloc(1, sizeof *f);
    p->fill = f;
    f->ncols = p->nout + p->norder;
    f->types = xcalloc((size_t)f->ncols, sizeof *f->types);
    f->src = xcalloc((size_t)f->ncols, sizeof *f->src);
    f->src_arg = xcalloc((size_t)f->ncols, sizeof *f->src_arg);
    f->interp = xcalloc((size_t)f->ncols, sizeof *f->interp);
    for (int j = 0; j < p->nout; j++)
        f->types[j] = p->out[j]->type;
    for (int i = 0; i < p->norder; i++)
        f->types[p->nout + i] = p->order[i]->type;
    f->keys = xcalloc((size_t)order_by->n, sizeof *f->keys);
    f->prefix = xcalloc((size_t)order_by->n, sizeof *f->prefix);
    bool by_prefix = settings_int(c->q->st, "use_with_fill_by_sorting_prefix") != 0;
    /* what each ORDER BY column becomes in a generated row */
    int *order_src = xcalloc((size_t)p->norder, sizeof *order_src); /* key + 1, -(prefix) - 1 or 0 */
    for (int i = 0; i < p->norder; i++) {
        const ast *o = order_by->items[i];
        if (!o->with_fill) {
            /* ClickHouse: a literal key after the fill keys that LIMIT BY also uses */
            bool limit_by_key = false;
            char *nm = name_of(o->sub);
            bool literal = expand_aliases(c, c->scratch, positional(c, &sel->select, o->sub), 0)->kind == AST_LITERAL;
            for (int j = 0; j < sel->limit_by.n && i > first && literal; j++) {
                char *ln = name_of(positional(c, &sel->select, sel->limit_by.items[j]));
                limit_by_key |= strcmp(ln, nm) == 0;
                free(ln);
            }
            if (!limit_by_key)
                free(nm);
            if (limit_by_key) {
                free(order_src);
                err_set(ERR_ILLEGAL_COLUMN, "Cannot convert column `%s` because it is non constant in source stream "
                        "but must be constant in result", nm);
                free(nm);
                return -1;
            }
            if (i < first && by_prefix) {
                f->prefix[f->nprefix++] = p->nout + i;
                order_src[i] = -1;
            }
            continue;
        }
        const type *t = type_strip_nullable(p->order[i]->type);
        const type *b = type_base(t);
        if (!type_is_number(b) && !type_is_date_or_time(b)) {
            free(order_src);
            return err_set(ERR_INVALID_WITH_FILL_EXPRESSION,
                           "Incompatible types of WITH FILL expression values with column type %s", p->order[i]->type->name);
        }
        fill_key *k = &f->keys[f->nkeys];
        k->col = p->nout + i;
        k->dir = o->desc ? -1 : 1;
        k->t = b;
        order_src[i] = ++f->nkeys;
        schema *one = schema_new(1);
        schema_set(one, 0, "__fill_value", b);
        ast *id = fill_node(c->scratch, AST_IDENT);
        id->nparts = 1;
        id->parts = ARENA_ARRAY(c->scratch, const char *, 1);
        id->parts[0] = "__fill_value";
        ast *step = o->fill_step;
        if (!step) {
            step = fill_node(c->scratch, AST_LITERAL);
            step->lit = LIT_INT;
            step->i = k->dir;
            step->text = k->dir > 0 ? "1" : "-1";
        }
        ast *plus = fill_node(c->scratch, AST_FUNC);
        plus->name = "plus";
        ast_list_push(c->scratch, &plus->args, id);
        ast_list_push(c->scratch, &plus->args, step);
        int rc = 0;
        const ast *bounds[2] = {o->fill_from, o->fill_to};
        for (int j = 0; j < 2; j++) /* CAST would wrap a negative bound */
            if (bounds[j] && type_is_integer(b) && !type_is_signed(b) &&
                ((bounds[j]->kind == AST_LITERAL && bounds[j]->lit == LIT_INT && bounds[j]->i < 0) ||
                 (bounds[j]->kind == AST_FUNC && strcmp(bounds[j]->name, "negate") == 0)))
                rc = err_set(ERR_INVALID_WITH_FILL_EXPRESSION, "WITH FILL bound values cannot be negative for unsigned type %s",
                             b->name);
        if (!rc)
            rc = fill_compile(c, one, plus, b, &k->step);
        if (!rc && o->fill_from)
            rc = fill_bound(c, one, o->fill_from, b, &k->from);
        if (!rc && o->fill_to)
            rc = fill_bound(c, one, o->fill_to, b, &k->to);
        schema_free(one);
        if (rc) {
            free(order_src);
            return -1;
        }
        if (k->from && k->to && col_compare(k->from, 0, k->to, 0, 1) * k->dir > 0) {
            free(order_src);
            return err_set(ERR_INVALID_WITH_FILL_EXPRESSION, "WITH FILL TO value cannot be %s than FROM value for sorting in %s direction",
                           k->dir > 0 ? "less" : "greater", k->dir > 0 ? "ascending" : "descending");
        }
    }
    for (int i = 0; i < p->norder; i++) {
        f->src[p->nout + i] = order_src[i] > 0 ? FILL_VALUE : order_src[i] < 0 ? FILL_PREFIX : FILL_DEFAULT;
        f->src_arg[p->nout + i] = order_src[i] > 0 ? order_src[i] - 1 : p->nout + i;
    }
    /* an output column that is an ORDER BY key takes that key's value */
    bool star = false;
    for (int i = 0; i < sel->select.n; i++)
        star |= sel->select.items[i]->kind == AST_ASTERISK;
    for (int j = 0; j < p->nout; j++) {
        char *out_name = !star ? fill_match_name(c, sel->select.items[j]) : NULL;
        for (int i = 0; i < p->norder && f->src[j] == FILL_DEFAULT; i++) {
            if (!order_src[i])
                continue;
            const ast *key = positional(c, &sel->select, order_by->items[i]->sub);
            char *key_name = fill_match_name(c, key);
            bool same = (out_name && strcmp(out_name, key_name) == 0) ||
                        (key->kind == AST_IDENT && key->nparts == 1 && strcmp(key->parts[0], names->names[j]) == 0);
            free(key_name);
            if (same) {
                f->src[j] = f->src[p->nout + i];
                f->src_arg[j] = f->src_arg[p->nout + i];
            }
        }
        free(out_name);
    }
    free(order_src);
    /* INTERPOLATE: expressions over the previous row's output columns */
    if (sel->has_interpolate) {
        schema *outs = schema_clone(names);
        int rc = 0;
        if (sel->interpolate.n == 0)
            for (int j = 0; j < p->nout; j++)
                if (f->src[j] == FILL_DEFAULT) {
                    f->src[j] = FILL_INTERP;
                    f->interp[j] = expr_col(j, p->out[j]->type);
                }
        for (int i = 0; i < sel->interpolate.n && !rc; i++) {
            const ast *e = sel->interpolate.items[i];
            int j = schema_find(names, e->alias);
            if (j < 0) {
                rc = err_set(ERR_UNKNOWN_IDENTIFIER, "Missing column '%s' as an INTERPOLATE expression target", e->alias);
                break;
            }
            if (f->src[j] != FILL_DEFAULT) {
                rc = err_set(ERR_INVALID_WITH_FILL_EXPRESSION, "Column '%s' is a WITH FILL key and cannot be interpolated",
                             e->alias);
                break;
            }
            ast plain = *e;
            plain.alias = NULL;
            ast *copy = ARENA_NEW(c->scratch, ast);
            *copy = plain;
            f->src[j] = FILL_INTERP;
            rc = fill_compile(c, outs, copy, p->out[j]->type, &f->interp[j]);
        }
        schema_free(outs);
        if (rc)
            return -1;
    }
    return 0;
}

/* top: a SELECT of the outermost query (whose totals reach the output). */
/* given: the source to read instead of sel's FROM (taken; the FROM's alias still
 * qualifies columns), or NULL. */
static int analyze_select_src(const ast *sel, query_ctx *q, bool top, source *given, select_plan **out)
{
    select_plan *p = xcalloc(1, sizeof *p);
    p->src = given;
    p->limit = UINT64_MAX;
    actx *c = xcalloc(1, sizeof *c);
    c->q = q;
    c->sel = sel;
    c->p = p;
    arena scratch;
    arena_init(&scratch);
    c->scratch = &scratch;
    int rc = -1;
    int cap = 0;
    schema *names = NULL;

    /* Clauses and modifiers parsed but not implemented: a clear error, never ignored. */
    if (unsupported_clauses(sel, q))
        goto done_early;
    /* WITH name AS (SELECT …): visible as a table in this query and its subqueries. */
    int ctes_before = q->nctes;
    for (int i = 0; i < sel->with.n; i++) {
        const ast *w = sel->with.items[i];
        if (w->kind == AST_SUBQUERY && w->alias && q->nctes < 64)
            q->ctes[q->nctes++] = w;
    }
    if (given) {
        c->table_alias = sel->from ? sel->from->alias : NULL;
    } else if (sel->from) {
        int trc = analyze_from(sel->from, sel->where, rows_needed(sel), q, &p->src);
        if (trc) {
            q->nctes = ctes_before;
            goto done;
        }
        c->table_alias = sel->from->alias;
        c->table_name = sel->from->table_name ? sel->from->table_name
                        : sel->from->table_func ? NULL : NULL;
    } else {
        p->src = system_one();
    }
    c->src = p->src->sch;
    c->nvisible = p->src->nvisible;
    c->qual = p->src->col_qual;
    c->qual2 = p->src->col_qual2;
    c->bare = p->src->col_bare;
    if (expand_select_matchers(c, &sel) || expand_select_udfs(c, &sel))
        goto done;
    if (check_positions(c, sel))
        goto done;
    c->src_map = xmalloc(sizeof(int) * (size_t)(c->src->n + 1));
    for (int i = 0; i < c->src->n; i++)
        c->src_map[i] = -1;

    /* Aliases of the enclosing queries' WITH (SELECT …) AS name:
     * visible here as ClickHouse's enable_global_with_statement makes them, unless this
     * query's own columns, ALIAS columns, WITH or select list use the name (added first:
     * every later alias wins). A scalar subquery means the same in every scope. */
    for (int i = 0; i < ctes_before && c->naliases < 512; i++) {
        const ast *w = q->ctes[i];
        bool column = schema_find(c->src, w->alias) >= 0;
        for (int k = 0; !column && c->bare && k < c->src->n; k++)
            column = c->bare[k] && strcmp(c->bare[k], w->alias) == 0;
        if (w->kind == AST_SUBQUERY && w->alias && !w->cte && !column) {
            c->alias_names[c->naliases] = w->alias;
            c->alias_asts[c->naliases++] = w;
        }
    }
    /* Aliases: the table's ALIAS columns, then WITH, then the select list (later ones win). */
    for (int i = 0; i < p->src->nalias && c->naliases < 512; i++) {
        buf b = {0};
        buf_printf(&b, "SELECT %s", p->src->alias_sql[i]);
        const char *text = arena_strdup(&scratch, buf_cstr(&b));
        buf_free(&b);
        size_t pos = 0;
        ast *st;
        if (sql_parse_statement(&scratch, text, strlen(text), &pos, 1000, &st) || !st || st->kind != AST_STMT_SELECT ||
            st->sub->kind != AST_SELECT || st->sub->select.n != 1) {
            err_prefix("ALIAS column %s: ", p->src->alias_name[i]);
            goto done;
        }
        c->alias_names[c->naliases] = p->src->alias_name[i];
        c->alias_asts[c->naliases++] = st->sub->select.items[0];
    }
    /* Aliases: WITH first, then the select list. WITH name AS (SELECT …) names a table,
     * not a value (UNKNOWN_IDENTIFIER as an expression, as in ClickHouse). */
    for (int i = 0; i < sel->with.n; i++) {
        const ast *w = sel->with.items[i];
        if (w->alias && !w->cte && c->naliases < 512) {
            c->alias_names[c->naliases] = w->alias;
            c->alias_asts[c->naliases++] = w;
        }
    }
    for (int i = 0; i < sel->select.n; i++) {
        const ast *s = sel->select.items[i];
        if (s->alias && c->naliases < 512) {
            c->alias_names[c->naliases] = s->alias;
            c->alias_asts[c->naliases++] = s;
        }
    }

    for (int i = 0; i < sel->array_joins.n; i++)
        if (compile_array_join_clause(c, sel->array_joins.items[i]))
            goto done;

    expr *pre = NULL;
    c->win_ctx = "in PREWHERE";
    if (sel->prewhere) {
        if (check_prewhere_source(sel->from, q))
            goto done;
        if (alias_has_aggregate(c, sel->prewhere, 0)) {
            err_set(ERR_ILLEGAL_AGGREGATION, "Aggregate function is found in PREWHERE in query");
            goto done;
        }
        if (compile(c, sel->prewhere, &pre))
            goto done;
        if (check_filter_type(pre->type, "PREWHERE")) {
            expr_free(pre);
            goto done;
        }
    }
    c->win_ctx = "in WHERE";
    if (sel->where) {
        if (alias_has_aggregate(c, sel->where, 0)) {
            err_set(ERR_ILLEGAL_AGGREGATION, "Aggregate function is found in WHERE in query");
            expr_free(pre);
            goto done;
        }
        if (compile(c, sel->where, &p->where) || check_filter_type(p->where->type, "WHERE")) {
            expr_free(pre);
            goto done;
        }
    }
    /* ClickHouse reads the PREWHERE columns first and the rest only for the rows it keeps;
     * here it is one more conjunct of WHERE, so that push-down to the source sees it. */
    if (pre && !p->where)
        p->where = pre;
    else if (pre && combine_filters(c, pre, &p->where))
        goto done;

    /* GROUP BY ALL: every select item that is not an aggregate. */
    ast_list group_by = sel->group_by;
    if (sel->group_by_all) {
        group_by = (ast_list){0};
        for (int i = 0; i < sel->select.n; i++)
            if (sel->select.items[i]->kind != AST_ASTERISK && !alias_has_aggregate(c, sel->select.items[i], 0))
                ast_list_push(&scratch, &group_by, sel->select.items[i]);
    }
    if (sel->group_by_mod != GB_PLAIN)
        grouping_keys(c, sel, &group_by);
    /* HAVING makes a query aggregate only when it holds an aggregate; otherwise it filters
     * rows like WHERE (SELECT 3 FROM numbers(6) HAVING true is six rows in ClickHouse) */
    bool agg = group_by.n > 0 || (sel->having && alias_has_aggregate(c, sel->having, 0)) || sel->group_by_all ||
               sel->group_by_mod != GB_PLAIN;
    for (int i = 0; i < sel->select.n && !agg; i++)
        agg = alias_has_aggregate(c, sel->select.items[i], 0);
    for (int i = 0; i < sel->order_by.n && !agg; i++)
        agg = alias_has_aggregate(c, sel->order_by.items[i]->sub, 0);
    p->aggregate = agg;
    if (sel->having && !agg) {
        expr *h;
        c->win_ctx = "in HAVING";
        if (compile(c, sel->having, &h))
            goto done;
        if (check_filter_type(h->type, "HAVING")) {
            expr_free(h);
            goto done;
        }
        if (!p->where)
            p->where = h;
        else if (combine_filters(c, h, &p->where))
            goto done;
    }

    c->win_ctx = "in GROUP BY";
    if (agg) {
        for (int i = 0; i < group_by.n; i++) {
            const ast *g = sel->group_by_all ? group_by.items[i] : positional(c, &sel->select, group_by.items[i]);
            if (c->nkeys == 256) {
                err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many GROUP BY keys");
                goto done;
            }
            expr *k;
            if (compile(c, g, &k))
                goto done;
            p->keys = xrealloc(p->keys, sizeof *p->keys * (size_t)(c->nkeys + 1));
            p->keys[c->nkeys] = k;
            c->key_names[c->nkeys] = name_of(expand_aliases(c, &scratch, g, 0));
            c->nkeys++;
            p->nkeys = c->nkeys;
        }
        if (sel->group_by_mod != GB_PLAIN && plan_grouping_sets(c, sel))
            goto done;
        c->post = true;
    }

    /* Select list. */
    c->win_ctx = NULL;
    for (int i = 0; i < sel->select.n; i++) {
        const ast *s = sel->select.items[i];
        if (s->kind == AST_ASTERISK) {
            if (agg) {
                err_set(ERR_NOT_AN_AGGREGATE, "Asterisk cannot be used with aggregation (columns are not under aggregate functions)");
                goto done;
            }
            /* t.*: the columns of table t only (in a join, those qualified by t); db.t.*:
             * those of the table read when it is db.t. */
            if (s->nparts > 2) {
                err_set(ERR_INVALID_IDENTIFIER,
                        "Expected identifier '%s.%s.%s' to contain 1 or 2 parts to be resolved as table expression",
                        s->parts[0], s->parts[1], s->parts[2]);
                goto done;
            }
            const ast *from = sel->from;
            bool matched = s->nparts == 0 ||
                           (s->nparts == 2 && !c->qual && from && from->table_name && !strcmp(from->table_name, s->parts[1]) &&
                            ((from->database && !strcmp(from->database, s->parts[0])) ||
                             (!from->database && c->q->database && !strcmp(c->q->database, s->parts[0]))));
            if (s->nparts == 2 && !matched) {
                char scope[1024];
                scope_text(c, scope, sizeof scope);
                err_set(ERR_UNKNOWN_IDENTIFIER, "Qualified matcher %s.%s.* does not find table. In scope %s.", s->parts[0],
                        s->parts[1], scope);
                goto done;
            }
            bool hit[64] = {0};
            if (s->except_cols.n > 64) {
                err_set(ERR_NOT_IMPLEMENTED, "More than 64 names in * EXCEPT are not supported");
                goto done;
            }
            for (int k = 0; k < c->nvisible; k++) {
                if (s->nparts == 1) {
                    const char *tq = s->parts[0];
                    bool mine = c->qual ? has_qualifier(c, k, tq)
                                        : (c->table_alias && strcmp(tq, c->table_alias) == 0) ||
                                              (c->table_name && strcmp(tq, c->table_name) == 0);
                    if (!mine)
                        continue;
                    matched = true;
                }
                int ex = star_excludes(s, c->bare ? c->bare[k] : c->src->names[k], hit);
                if (ex < 0)
                    goto done;
                if (ex)
                    continue;
                int shadow = -1;
                for (int j = 0; j < c->naj; j++)
                    if (c->aj_shadow[j] && strcmp(c->aj_names[j], c->src->names[k]) == 0)
                        shadow = j;
                if (shadow >= 0)
                    add_output(p, expr_col(AJ_BASE + shadow, c->aj_types[shadow]), c->src->names[k], &names, &cap);
                else
                    add_output(p, expr_col(use_source_column(c, k), c->src->types[k]), c->src->names[k], &names, &cap);
            }
            if (!matched) {
                char scope[1024];
                scope_text(c, scope, sizeof scope);
                err_set(ERR_UNKNOWN_IDENTIFIER, "Qualified matcher %s.* does not find table. In scope %s.", s->parts[0],
                        scope);
                goto done;
            }
            for (int k = 0; s->except_strict && k < s->except_cols.n; k++)
                if (s->except_cols.items[k]->kind == AST_IDENT && !hit[k]) {
                    err_set(ERR_BAD_ARGUMENTS, "Column transformer EXCEPT expects column %s to be in the table",
                            s->except_cols.items[k]->parts[0]);
                    goto done;
                }
            continue;
        }
        expr *e;
        const ast *target = s;
        if (agg) {
            /* Match keys by the alias-expanded form (aliases may name aliases). */
            target = expand_aliases(c, &scratch, s, 0);
        }
        if (compile(c, target, &e))
            goto done;
        char *nm = s->alias ? xstrdup(s->alias) : name_of(drop_redundant_qualifiers(c, &scratch, s, 0));
        add_output(p, e, nm, &names, &cap);
        free(nm);
    }
    if (p->nout == 0) {
        err_set(ERR_UNEXPECTED_AST_STRUCTURE, "Empty list of columns in SELECT query");
        goto done;
    }
    c->win_ctx = "in HAVING";
    if (sel->having && agg && compile(c, expand_aliases(c, &scratch, sel->having, 0), &p->having))
        goto done;
    c->win_ctx = NULL;

    p->distinct = sel->select_distinct;
    /* ORDER BY ALL: every select item in order (unless a column is called "all"). */
    ast_list order_by = sel->order_by;
    ast_list all_items = {0};
    if (order_by.n == 1 && order_by.items[0]->sub && order_by.items[0]->sub->kind == AST_IDENT &&
        order_by.items[0]->sub->nparts == 1 && strcasecmp(order_by.items[0]->sub->parts[0], "all") == 0 &&
        schema_find(c->src, order_by.items[0]->sub->parts[0]) < 0 && find_alias(c, order_by.items[0]->sub->parts[0]) < 0) {
        const ast *tmpl = order_by.items[0];
        for (int i = 0; i < sel->select.n; i++) {
            if (sel->select.items[i]->kind == AST_ASTERISK)
                continue;
            ast *o = ARENA_NEW(&scratch, ast);
            *o = *tmpl;
            ast *pos = ARENA_NEW(&scratch, ast);
            pos->kind = AST_LITERAL;
            pos->lit = LIT_UINT;
            pos->u = (uint64_t)i + 1;
            o->sub = pos;
            ast_list_push(&scratch, &all_items, o);
        }
        if (all_items.n == 0) /* SELECT * ORDER BY ALL: the source's visible columns */
            for (int i = 0; i < c->nvisible; i++) {
                int ex = 0;
                for (int k = 0; k < sel->select.n && !ex; k++)
                    ex = star_excludes(sel->select.items[k], c->src->names[i], NULL);
                if (ex < 0)
                    goto done;
                if (ex)
                    continue;
                ast *o = ARENA_NEW(&scratch, ast);
                *o = *tmpl;
                ast *id = ARENA_NEW(&scratch, ast);
                id->kind = AST_IDENT;
                id->nparts = 1;
                id->parts = ARENA_ARRAY(&scratch, const char *, 1);
                id->parts[0] = c->src->names[i];
                o->sub = id;
                ast_list_push(&scratch, &all_items, o);
            }
        order_by = all_items;
    }
    p->norder = order_by.n;
    p->order = xcalloc((size_t)p->norder + 1, sizeof *p->order);
    p->order_desc = xcalloc((size_t)p->norder + 1, sizeof *p->order_desc);
    p->order_nulls = xcalloc((size_t)p->norder + 1, sizeof *p->order_nulls);
    for (int i = 0; i < p->norder; i++) {
        const ast *o = order_by.items[i];
        const ast *key = positional(c, &sel->select, o->sub);
        if (agg)
            key = expand_aliases(c, &scratch, key, 0);
        if (compile(c, key, &p->order[i])) {
            p->norder = i;
            goto done;
        }
        if (type_base(p->order[i]->type)->id == T_AGGSTATE && !p->order[i]->type->simple_agg) {
            p->norder = i + 1;
            err_set(ERR_ILLEGAL_COLUMN,
                    "Data type %s is not allowed in ORDER BY keys, because its values are not comparable",
                    p->order[i]->type->name);
            goto done;
        }
        p->order_desc[i] = o->desc;
        /* ClickHouse: NULLs and NaNs last by default for ASC, first for DESC; the
         * direction flips with DESC, so store the comparison sign before DESC applies. */
        int nulls_last = o->nulls == 0 ? 1 : o->nulls == -1 ? 1 : 0;
        int dir = nulls_last ? 1 : -1;
        p->order_nulls[i] = o->desc ? -dir : dir;
    }

    if (plan_fill(c, sel, &order_by, names))
        goto done;
    if (sel->limit && const_u64(c, sel->limit, "LIMIT", &p->limit))
        goto done;
    if (sel->offset && const_u64(c, sel->offset, "OFFSET", &p->offset))
        goto done;
    if (sel->limit_by.n) {
        if (const_u64(c, sel->limit_by_limit, "LIMIT BY", &p->limit_by_limit))
            goto done;
        if (sel->limit_by_offset && const_u64(c, sel->limit_by_offset, "LIMIT BY offset", &p->limit_by_offset))
            goto done;
        /* LIMIT BY expressions run over the output block: resolve them by output name. */
        p->nlimit_by = sel->limit_by.n;
        p->limit_by = xcalloc((size_t)p->nlimit_by, sizeof *p->limit_by);
        for (int i = 0; i < p->nlimit_by; i++) {
            const ast *k = positional(c, &sel->select, sel->limit_by.items[i]);
            char *nm = k->alias ? xstrdup(k->alias) : name_of(k);
            int idx = schema_find(names, nm);
            free(nm);
            if (idx >= 0) {
                p->limit_by[i] = expr_col(idx, names->types[idx]);
                continue;
            }
            /* an expression of the output columns (the block LIMIT BY sees) */
            source *outs = source_from_blocks(schema_clone(names), NULL, 0);
            int brc = analyze_expr_on(k, outs, q, &p->limit_by[i]);
            source_free(outs);
            if (brc) {
                p->nlimit_by = i;
                err_clear();
                err_set(ERR_NOT_IMPLEMENTED, "LIMIT BY expressions must be expressions of the select list's columns");
                goto done;
            }
        }
    }
    if (sel->with_totals) {
        if (!top) { /* ClickHouse passes a subquery's totals on to the outer query */
            err_set(ERR_NOT_IMPLEMENTED, "WITH TOTALS in a subquery is not supported yet");
            goto done;
        }
        if (!agg) {
            err_set(ERR_NOT_IMPLEMENTED, "WITH TOTALS, ROLLUP, CUBE or GROUPING SETS are not supported without aggregation");
            goto done;
        }
        const char *mode = settings_str(q->st, "totals_mode");
        if (strcmp(mode, "before_having") && strcmp(mode, "after_having_inclusive") &&
            strcmp(mode, "after_having_exclusive") && strcmp(mode, "after_having_auto")) {
            err_set(ERR_UNKNOWN_TOTALS_MODE,
                    "Unexpected value of TotalsMode: '%s'. Must be one of ['after_having_auto', 'after_having_exclusive', "
                    "'after_having_inclusive', 'before_having']",
                    mode);
            goto done;
        }
        p->with_totals = true;
        p->totals_before_having = strcmp(mode, "before_having") == 0;
        if (sel->group_by_mod == GB_SETS || (sel->group_by_mod != GB_PLAIN && sel->having)) {
            err_set(ERR_NOT_IMPLEMENTED, sel->group_by_mod == GB_SETS
                                             ? "WITH TOTALS and GROUPING SETS are not supported together"
                                             : "WITH TOTALS and WITH ROLLUP or CUBE are not supported together in presence of HAVING");
            goto done;
        }
    }
    if (p->nsets) {
        if (p->windows) {
            err_set(ERR_NOT_IMPLEMENTED, "Window functions with ROLLUP, CUBE or GROUPING SETS are not supported yet");
            goto done;
        }
        for (int i = 0; i < p->nout; i++)
            remap_grouping_cols(p->out[i], p->nkeys + p->naggs);
        for (int i = 0; i < p->norder; i++)
            remap_grouping_cols(p->order[i], p->nkeys + p->naggs);
        remap_grouping_cols(p->having, p->nkeys + p->naggs);
    }
    if (p->windows && p->with_totals) {
        err_set(ERR_NOT_IMPLEMENTED, "WITH TOTALS together with window functions is not supported yet");
        goto done;
    }
    p->out_schema = names;
    names = NULL;
    p->count_only = agg && p->nkeys == 0 && p->naggs == 1 && !p->where && !p->having && p->aggs[0]->nargs == 0 &&
                    strcasecmp(p->aggs[0]->name, "count") == 0 && !p->array_join;
    if (p->array_join)
        aj_finish(c); /* rows multiply before WHERE: nothing is pushed to the source */
    if (p->windows) {
        /* the window step extends the post block [keys..., aggregates...], or the source
         * block with the ARRAY JOIN elements after its columns */
        p->windows->base = agg ? p->nkeys + p->naggs : p->array_join ? p->array_join->nneeded : p->nsrc_cols;
        for (int i = 0; i < p->nout; i++)
            remap_window_cols(p->out[i], p->windows->base);
        for (int i = 0; i < p->norder; i++)
            remap_window_cols(p->order[i], p->windows->base);
    }
    if (!p->array_join)
        push_filters(c);
    rc = 0;
done:
    q->nctes = ctes_before;
done_early:
    for (int i = 0; i < c->nin; i++)
        if (c->in_vals[i])
            col_free(c->in_vals[i]);
    for (int i = 0; i < c->nkeys; i++)
        free(c->key_names[i]);
    for (int i = 0; i < c->naggs; i++)
        free(c->agg_names[i]);
    for (int i = 0; i < c->nwins; i++)
        free(c->win_names[i]);
    for (int i = 0; i < c->nwin_specs; i++)
        free(c->win_spec_keys[i]);
    for (int i = 0; i < c->naj; i++) {
        free(c->aj_keys[i]);
        free(c->aj_names[i]);
    }
    free(c->src_map);
    free(c);
    arena_free(&scratch);
    schema_free(names);
    if (rc) {
        select_plan_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

static int collect_selects(const ast *q, const ast **out, int *n)
{
    if (q->kind == AST_SELECT) {
        if (*n >= 256)
            return err_set(ERR_TOO_DEEP_AST, "Too many UNION ALL parts");
        out[(*n)++] = q;
        return 0;
    }
    if (q->kind == AST_UNION) {
        for (int i = 0; i < q->args.n; i++)
            if (collect_selects(q->args.items[i], out, n))
                return -1;
        return 0;
    }
    if (q->kind == AST_STMT_SELECT || q->kind == AST_SUBQUERY)
        return collect_selects(q->sub, out, n);
    return err_set(ERR_UNEXPECTED_AST_STRUCTURE, "Expected a SELECT query");
}

int analyze_select_over(const ast *sel, source *src, query_ctx *q, bool top, select_plan **out)
{
    return analyze_select_src(sel, q, top, src, out);
}

int analyze_query(const ast *query, query_ctx *q, query_plan **out)
{
    return analyze_query_at(query, q, true, out);
}

/* The settings limit and offset cut the result of each SELECT of the outermost query
 * (after its own LIMIT/OFFSET), as ClickHouse applies them; subqueries keep theirs. */
static void apply_limit_settings(select_plan *p, query_ctx *q)
{
    uint64_t off = (uint64_t)settings_int(q->st, "offset"), lim = (uint64_t)settings_int(q->st, "limit");
    if (off) {
        if (p->limit != UINT64_MAX)
            p->limit = p->limit > off ? p->limit - off : 0;
        p->offset += off;
    }
    if (lim && lim < p->limit)
        p->limit = lim;
}

static int analyze_query_at(const ast *query, query_ctx *q, bool top, query_plan **out)
{
    const ast *u = query;
    while (u->kind == AST_STMT_SELECT || u->kind == AST_SUBQUERY)
        u = u->sub;
    if (set_ops_needed(u))
        return set_ops_analyze(u, q, top, analyze_query_at, out);
    const ast *sels[256];
    int n = 0;
    if (collect_selects(query, sels, &n))
        return -1;
    query_plan *qp = xcalloc(1, sizeof *qp);
    qp->parts = xcalloc((size_t)n, sizeof *qp->parts);
    for (int i = 0; i < n; i++) {
        int src = analyze_split_distributed(sels[i], q, top, &qp->parts[i]);
        if (src == 1)
            src = analyze_select_src(sels[i], q, top, NULL, &qp->parts[i]);
        if (src) {
            query_plan_free(qp);
            return -1;
        }
        qp->nparts++;
        if (top)
            apply_limit_settings(qp->parts[i], q);
        if (i > 0 && qp->parts[i]->nout != qp->parts[0]->nout) {
            /* ClickHouse lists each side's column names */
            buf l = {0}, r = {0};
            for (int k = 0; k < qp->parts[0]->out_schema->n; k++)
                buf_printf(&l, "%s%s", k ? ", " : "", qp->parts[0]->out_schema->names[k]);
            for (int k = 0; k < qp->parts[i]->out_schema->n; k++)
                buf_printf(&r, "%s%s", k ? ", " : "", qp->parts[i]->out_schema->names[k]);
            err_set(ERR_UNION_ALL_RESULT_STRUCTURES_MISMATCH,
                    "Different number of columns in UNION_ALL elements: %.*s and %.*s", (int)l.len,
                    l.p ? (const char *)l.p : "", (int)r.len, r.p ? (const char *)r.p : "");
            buf_free(&l);
            buf_free(&r);
            query_plan_free(qp);
            return -1;
        }
    }
    /* UNION ALL: each column takes the supertype of the parts' types (query_plan_run
     * converts the parts' blocks), as ClickHouse. */
    qp->out_schema = schema_clone(qp->parts[0]->out_schema);
    const type **ts = xcalloc((size_t)n, sizeof *ts);
    for (int k = 0; k < qp->out_schema->n; k++) {
        bool same = true;
        for (int i = 0; i < n; i++) {
            ts[i] = qp->parts[i]->out_schema->types[k];
            same &= ts[i] == ts[0];
        }
        const type *st = same ? ts[0] : type_supertype(n, ts);
        if (!st) {
            free(ts);
            query_plan_free(qp);
            return -1;
        }
        if (!same) {
            char *name = xstrdup(qp->out_schema->names[k]); /* schema_set frees the old one */
            schema_set(qp->out_schema, k, name, st);
            free(name);
        }
    }
    free(ts);
    *out = qp;
    return 0;
}

void query_plan_free(query_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nparts; i++)
        select_plan_free(p->parts[i]);
    free(p->parts);
    for (int i = 0; i < p->nsubs; i++)
        query_plan_free(p->subs[i]);
    free(p->subs);
    schema_free(p->out_schema);
    free(p);
}

/* A UNION ALL part's blocks converted to the union's column types. */
typedef struct union_cast_sink {
    block_sink base;
    block_sink *inner;
    const schema *from, *to;
    const char *zone;
} union_cast_sink;

static int union_cast(union_cast_sink *u, block *b)
{
    for (int k = 0; k < b->ncols && k < u->to->n; k++) {
        if (u->from->types[k] == u->to->types[k])
            continue;
        column *c = type_cast_super(b->cols[k], u->from->types[k], u->to->types[k], u->zone);
        if (!c) {
            block_free(b);
            return -1;
        }
        col_free(b->cols[k]);
        b->cols[k] = c;
    }
    return 0;
}

static int union_cast_write(block_sink *s, block *b)
{
    union_cast_sink *u = (union_cast_sink *)s;
    return union_cast(u, b) ? -1 : u->inner->write(u->inner, b);
}

static int union_cast_totals(block_sink *s, block *b)
{
    union_cast_sink *u = (union_cast_sink *)s;
    if (!u->inner->totals) {
        block_free(b);
        return 0;
    }
    return union_cast(u, b) ? -1 : u->inner->totals(u->inner, b);
}

int query_plan_run_as(query_plan *p, query_ctx *q, const schema *to, block_sink *sink)
{
    bool same = true;
    for (int k = 0; k < to->n && k < p->out_schema->n; k++)
        same &= p->out_schema->types[k] == to->types[k];
    union_cast_sink u = {.base = {.write = union_cast_write, .totals = sink->totals ? union_cast_totals : NULL},
                         .inner = sink, .from = p->out_schema, .to = to, .zone = q->env.timezone};
    return query_plan_run(p, q, same ? sink : &u.base);
}

int query_plan_run(query_plan *p, query_ctx *q, block_sink *sink)
{
    if (p->nsubs)
        return set_ops_run(p, q, sink);
    for (int i = 0; i < p->nparts; i++) {
        const schema *from = p->parts[i]->out_schema;
        bool same = true;
        for (int k = 0; k < from->n && k < p->out_schema->n; k++)
            same &= from->types[k] == p->out_schema->types[k];
        union_cast_sink u = {.base = {.write = union_cast_write, .totals = sink->totals ? union_cast_totals : NULL},
                             .inner = sink, .from = from, .to = p->out_schema, .zone = q->env.timezone};
        if (select_run(p->parts[i], q, same ? sink : &u.base))
            return -1;
    }
    return 0;
}

typedef struct collect_sink {
    block_sink base;
    block **blocks;
    int n;
} collect_sink;

static int collect_write(block_sink *s, block *b)
{
    collect_sink *c = (collect_sink *)s;
    c->blocks = xrealloc(c->blocks, sizeof *c->blocks * (size_t)(c->n + 1));
    c->blocks[c->n++] = b;
    return 0;
}

int run_query_to_blocks(const ast *query, query_ctx *q, schema **sch, block ***blocks, int *nblocks)
{
    query_plan *p;
    if (analyze_query_at(query, q, false, &p))
        return -1;
    collect_sink cs = {.base = {.write = collect_write}};
    int rc = query_plan_run(p, q, &cs.base);
    if (rc) {
        for (int i = 0; i < cs.n; i++)
            block_free(cs.blocks[i]);
        free(cs.blocks);
        query_plan_free(p);
        return -1;
    }
    *sch = schema_clone(p->out_schema);
    *blocks = cs.blocks;
    *nblocks = cs.n;
    query_plan_free(p);
    return 0;
}
