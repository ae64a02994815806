/* Set operations between SELECTs (set_ops.h). */
#include "sql/set_ops.h"

#include "base/err.h"
#include "base/mem.h"
#include "exec/agg_hash.h"
#include "exec/settings.h"
#include "func/supertype.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool set_ops_needed(const ast *query)
{
    if (!query || query->kind != AST_UNION)
        return false;
    for (int i = 0; i < query->args.n; i++)
        if ((i && query->set_ops[i] != (SETOP_UNION | SETOP_ALL)) || set_ops_needed(query->args.items[i]))
            return true;
    return false;
}

/* ---- planning ---- */

/* ClickHouse's name of an operation in its errors: UNION_ALL, INTERSECT_DISTINCT, … */
static const char *op_name(int kind, bool distinct)
{
    static const char *const names[3][2] = {
        {"UNION_ALL", "UNION_DISTINCT"}, {"EXCEPT_ALL", "EXCEPT_DISTINCT"}, {"INTERSECT_ALL", "INTERSECT_DISTINCT"}};
    return names[kind][distinct];
}

/* A node over subs (taken, freed on error): the first sub's names, the common types. */
static query_plan *node_new(int kind, bool distinct, query_plan **subs, int n)
{
    for (int i = 1; i < n; i++) {
        if (subs[i]->out_schema->n == subs[0]->out_schema->n)
            continue;
        buf l = {0}, r = {0};
        for (int k = 0; k < subs[0]->out_schema->n; k++)
            buf_printf(&l, "%s%s", k ? ", " : "", subs[0]->out_schema->names[k]);
        for (int k = 0; k < subs[i]->out_schema->n; k++)
            buf_printf(&r, "%s%s", k ? ", " : "", subs[i]->out_schema->names[k]);
        err_set(kind == SETOP_UNION ? ERR_UNION_ALL_RESULT_STRUCTURES_MISMATCH
                                    : ERR_INTERSECT_OR_EXCEPT_RESULT_STRUCTURES_MISMATCH,
                "Different number of columns in %s elements: %.*s and %.*s", op_name(kind, distinct), (int)l.len,
                l.p ? (const char *)l.p : "", (int)r.len, r.p ? (const char *)r.p : "");
        buf_free(&l);
        buf_free(&r);
        for (int k = 0; k < n; k++)
            query_plan_free(subs[k]);
        return NULL;
    }
    schema *sch = schema_clone(subs[0]->out_schema);
    const type **ts = xcalloc((size_t)n, sizeof *ts);
    for (int k = 0; k < sch->n; k++) {
        for (int i = 0; i < n; i++)
            ts[i] = subs[i]->out_schema->types[k];
        const type *st = type_supertype(n, ts);
        if (!st) {
            free(ts);
            schema_free(sch);
            for (int i = 0; i < n; i++)
                query_plan_free(subs[i]);
            return NULL;
        }
        if (st != sch->types[k]) {
            char *name = xstrdup(sch->names[k]); /* schema_set frees the old one */
            schema_set(sch, k, name, st);
            free(name);
        }
    }
    free(ts);
    query_plan *p = xcalloc(1, sizeof *p);
    p->out_schema = sch;
    p->set_op = kind;
    p->set_distinct = distinct;
    p->nsubs = n;
    p->subs = xmalloc(sizeof *p->subs * (size_t)n);
    memcpy(p->subs, subs, sizeof *subs * (size_t)n);
    return p;
}

/* ALL or DISTINCT for an operator: as written, else the setting's (empty: an error). */
static int resolve_mode(query_ctx *q, int op, bool *distinct)
{
    if (op & (SETOP_ALL | SETOP_DISTINCT)) {
        *distinct = (op & SETOP_DISTINCT) != 0;
        return 0;
    }
    static const char *const setting[] = {"union_default_mode", "except_default_mode", "intersect_default_mode"};
    static const char *const what[] = {"SelectWithUnion", "EXCEPT", "INTERSECT"};
    int kind = op & SETOP_KIND_MASK;
    const char *mode = settings_str(q->st, setting[kind]);
    if (!mode || !*mode)
        return err_set(ERR_EXPECTED_ALL_OR_DISTINCT, "Expected ALL or DISTINCT in %s query, because setting (%s) is empty",
                       what[kind], setting[kind]);
    *distinct = strcasecmp(mode, "DISTINCT") == 0;
    return 0;
}

/* A UNION list: the parts up to the last DISTINCT one DISTINCT union, then UNION ALL.
 * Takes subs (n of them, distinct[i] the mode between subs[i - 1] and subs[i]). */
static query_plan *union_list(query_plan **subs, const bool *distinct, int n)
{
    if (n == 1)
        return subs[0];
    int last = 0;
    for (int i = 1; i < n; i++)
        if (distinct[i])
            last = i;
    if (!last)
        return node_new(SETOP_UNION, false, subs, n);
    query_plan *d = node_new(SETOP_UNION, true, subs, last + 1);
    if (!d) {
        for (int i = last + 1; i < n; i++)
            query_plan_free(subs[i]);
        return NULL;
    }
    if (last == n - 1)
        return d;
    subs[last] = d;
    return node_new(SETOP_UNION, false, subs + last, n - last);
}

int set_ops_analyze(const ast *u, query_ctx *q, bool top, set_ops_analyze_fn leaf, query_plan **out)
{
    int n = u->args.n;
    query_plan **kids = xcalloc((size_t)n, sizeof *kids); /* the current UNION list */
    bool *modes = xcalloc((size_t)n, sizeof *modes);
    int nkids = 0, rc = -1;
    bool kid0_except = false; /* kids[0] is an EXCEPT made here (not a parenthesised one) */
    for (int i = 0; i < n; i++) {
        query_plan *p;
        int op = u->set_ops[i], kind = op & SETOP_KIND_MASK;
        bool distinct = false;
        if ((i && resolve_mode(q, op, &distinct)) || leaf(u->args.items[i], q, top, &p))
            goto done;
        if (i == 0 || kind == SETOP_UNION) {
            modes[nkids] = distinct;
            kids[nkids++] = p;
        } else if (kind == SETOP_EXCEPT) {
            /* everything so far is the left side */
            query_plan *left = union_list(kids, modes, nkids);
            nkids = 0;
            if (!left) {
                query_plan_free(p);
                goto done;
            }
            query_plan *pair[2] = {left, p};
            if (!(kids[0] = node_new(SETOP_EXCEPT, distinct, pair, 2)))
                goto done;
            nkids = 1;
        } else {
            /* INTERSECT takes the last SELECT, inside a preceding EXCEPT's right side */
            query_plan *except_left = NULL, *last = kids[nkids - 1];
            bool in_except = nkids == 1 && kid0_except, except_distinct = last->set_distinct;
            if (in_except) {
                except_left = last->subs[0];
                kids[0] = last->subs[1];
                last->nsubs = 0;
                query_plan_free(last);
            }
            query_plan *pair[2] = {kids[--nkids], p};
            query_plan *x = node_new(SETOP_INTERSECT, distinct, pair, 2);
            if (x && in_except) {
                query_plan *pair2[2] = {except_left, x};
                except_left = NULL;
                x = node_new(SETOP_EXCEPT, except_distinct, pair2, 2);
            }
            if (!x) {
                query_plan_free(except_left);
                goto done;
            }
            kids[nkids++] = x;
            continue;
        }
        kid0_except = kind == SETOP_EXCEPT && i > 0;
    }
    *out = union_list(kids, modes, nkids);
    nkids = 0;
    rc = *out ? 0 : -1;
done:
    for (int i = 0; i < nkids; i++)
        query_plan_free(kids[i]);
    free(kids);
    free(modes);
    return rc;
}

/* ---- running ---- */

/* Rows keyed by their serialized values; the state is a count (or a mark). */
typedef struct row_table {
    agg_table t;
    buf key;
} row_table;

static uint64_t *row_state(row_table *r, block *b, size_t row, bool *inserted)
{
    r->key.len = 0;
    agg_key_serialize(&r->key, b->cols, b->ncols, row);
    agg_slot *s = agg_table_find_or_insert(&r->t, (const char *)r->key.p, r->key.len,
                                           agg_key_hash((const char *)r->key.p, r->key.len), sizeof(uint64_t),
                                           _Alignof(uint64_t), inserted);
    uint64_t *st = (uint64_t *)s->states;
    if (*inserted)
        *st = 0;
    return st;
}

static void materialize(block *b)
{
    for (int c = 0; c < b->ncols; c++)
        b->cols[c] = col_materialize(b->cols[c]);
}

/* Counts the rows written to it (the right side of INTERSECT / EXCEPT). */
typedef struct count_sink {
    block_sink base;
    row_table *rows;
} count_sink;

static int count_write(block_sink *s, block *b)
{
    count_sink *c = (count_sink *)s;
    materialize(b);
    bool inserted;
    for (size_t i = 0; i < b->rows; i++)
        (*row_state(c->rows, b, i, &inserted))++;
    block_free(b);
    return 0;
}

/* Keeps the rows an operation keeps and writes them on. */
typedef struct filter_sink {
    block_sink base;
    block_sink *inner;
    row_table *rows;
    int op;        /* SETOP_UNION (only distinct), SETOP_INTERSECT, SETOP_EXCEPT */
    bool distinct;
} filter_sink;

/* A mark for a DISTINCT row already written (larger than any count). */
#define ROW_WRITTEN UINT64_MAX

static bool keep_row(const filter_sink *f, uint64_t *st)
{
    if (f->op == SETOP_UNION) { /* UNION DISTINCT: the first time only */
        bool keep = *st == 0;
        *st = ROW_WRITTEN;
        return keep;
    }
    if (f->distinct) {
        bool keep = f->op == SETOP_INTERSECT ? *st > 0 && *st != ROW_WRITTEN : *st == 0;
        if (keep)
            *st = ROW_WRITTEN;
        return keep;
    }
    /* ALL: each right row matches one left row */
    bool matched = *st > 0;
    if (matched)
        (*st)--;
    return f->op == SETOP_INTERSECT ? matched : !matched;
}

static int filter_write(block_sink *s, block *b)
{
    filter_sink *f = (filter_sink *)s;
    materialize(b);
    uint8_t *keep = xmalloc(b->rows ? b->rows : 1);
    size_t kept = 0;
    bool inserted;
    for (size_t i = 0; i < b->rows; i++) {
        keep[i] = keep_row(f, row_state(f->rows, b, i, &inserted));
        kept += keep[i];
    }
    if (kept < b->rows) {
        block *o = block_new(b->ncols, kept);
        for (int c = 0; c < b->ncols; c++)
            o->cols[c] = col_filter(b->cols[c], keep, kept);
        block_free(b);
        b = o;
    }
    free(keep);
    if (!kept) {
        block_free(b);
        return 0;
    }
    return f->inner->write(f->inner, b);
}

int set_ops_run(query_plan *p, query_ctx *q, block_sink *sink)
{
    row_table rows = {0};
    agg_table_init(&rows.t);
    filter_sink f = {.base = {.write = filter_write}, .inner = sink, .rows = &rows, .op = p->set_op,
                     .distinct = p->set_distinct};
    int rc = 0;
    if (p->set_op == SETOP_UNION) {
        for (int i = 0; i < p->nsubs && !rc; i++)
            rc = query_plan_run_as(p->subs[i], q, p->out_schema, p->set_distinct ? &f.base : sink);
    } else {
        count_sink c = {.base = {.write = count_write}, .rows = &rows};
        rc = query_plan_run_as(p->subs[1], q, p->out_schema, &c.base);
        if (!rc)
            rc = query_plan_run_as(p->subs[0], q, p->out_schema, &f.base);
    }
    agg_table_free(&rows.t);
    buf_free(&rows.key);
    return rc;
}
