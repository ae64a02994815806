/* Hash joins.
 *
 * Both sides are read into memory; the right side's keys go into a hash table (serialized
 * keys → a chain of row numbers in insertion order); every left row probes it. The result
 * is a block of the left columns followed by the right columns (USING keys once), built by
 * gathering rows, and becomes an in-memory source that the SELECT reads like a table.
 * Rows without a partner get default values, or with join_use_nulls = 1 NULL, the other
 * side's columns becoming Nullable (LowCardinality(Nullable) for LowCardinality; Array and
 * Map columns keep defaults, as in ClickHouse).
 * Supported: INNER, LEFT, RIGHT, FULL (ALL and ANY), LEFT SEMI / ANTI, CROSS; ON with
 * equalities joined by AND, or USING. NULL keys never match. */
#include "base/err.h"
#include "base/mem.h"
#include "exec/agg_hash.h"
#include "func/supertype.h"
#include "sql/analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct rowvec {
    uint32_t *v;
    size_t n, cap;
} rowvec;

static void rv_push(rowvec *r, uint32_t x)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->v = xrealloc(r->v, sizeof *r->v * r->cap);
    }
    r->v[r->n++] = x;
}

#define NO_ROW UINT32_MAX

/* Splits ON into its AND-ed terms. */
static int collect_terms(const ast *on, const ast **terms, int *n)
{
    if (on->kind == AST_FUNC && strcmp(on->name, "and") == 0) {
        for (int i = 0; i < on->args.n; i++)
            if (collect_terms(on->args.items[i], terms, n))
                return -1;
        return 0;
    }
    if (*n >= 64)
        return err_set(ERR_INVALID_JOIN_ON_EXPRESSION, "Too many conditions in JOIN ON");
    terms[(*n)++] = on;
    return 0;
}

/* Keeps the rows of b where every residual ON term holds. */
static int filter_residual(source *res, const ast **terms, int n, query_ctx *q)
{
    block *b = source_memory_block(res, 0);
    for (int t = 0; t < n; t++) {
        expr *e;
        if (analyze_expr_on(terms[t], res, q, &e))
            return -1;
        column *m;
        int rc = expr_eval(e, b, &m);
        expr_free(e);
        if (rc)
            return -1;
        m = col_materialize(m);
        const column *v = type_phys(m->type)->id == T_NULLABLE ? m->inner : m;
        uint8_t *keep = xmalloc(b->rows + 1);
        size_t kept = 0;
        for (size_t i = 0; i < b->rows; i++) {
            keep[i] = col_get_i64(v, i) != 0 && !col_is_null(m, i);
            kept += keep[i];
        }
        for (int c = 0; c < b->ncols; c++) {
            column *f = col_filter(b->cols[c], keep, kept);
            col_free(b->cols[c]);
            b->cols[c] = f;
        }
        b->rows = kept;
        free(keep);
        col_free(m);
    }
    return 0;
}

/* Evaluates key expressions over a whole side and casts them to common types. */
static int eval_keys(expr **ex, int n, const block *b, const type *const *to, const char *zone, column **out)
{
    for (int k = 0; k < n; k++) {
        column *c;
        if (expr_eval(ex[k], b, &c))
            return -1;
        c = col_materialize(c);
        if (c->type != to[k]) {
            column *cast = type_cast_super(c, c->type, to[k], zone);
            col_free(c);
            if (!cast)
                return -1;
            c = cast;
        }
        out[k] = c;
    }
    return 0;
}

static bool any_null(column *const *keys, int n, size_t row)
{
    for (int k = 0; k < n; k++)
        if (col_is_null(keys[k], row))
            return true;
    return false;
}

/* The column with one default row appended, so index `len` means "no partner". */
static column *with_default_row(const column *c)
{
    column *d = col_clone(c);
    col_push_default(d);
    return d;
}

/* join_use_nulls: the Nullable form of t; NULL for types that keep their defaults (Array,
 * Map) and for Tuple (Nullable(Tuple) is not supported yet: *unsupported). */
static const type *nullable_form(const type *t, bool *unsupported)
{
    *unsupported = false;
    if (type_is_nullable(t))
        return t;
    if (t->id == T_LOWCARDINALITY)
        return type_is_nullable(t->inner) ? t : type_lowcard(type_nullable(t->inner));
    if (t->id == T_TUPLE) {
        *unsupported = true;
        return NULL;
    }
    return type_can_be_nullable(t) ? type_nullable(t) : NULL;
}

static int check_nullable_forms(const source *s)
{
    for (int c = 0; c < s->sch->n; c++) {
        bool unsupported;
        nullable_form(s->sch->types[c], &unsupported);
        if (unsupported)
            return err_set(ERR_NOT_IMPLEMENTED, "join_use_nulls = 1 with a column of type %s is not supported yet",
                           s->sch->types[c]->name);
    }
    return 0;
}

/* Replaces *c (the gathered column of one side) by its Nullable form, NULL in the rows whose
 * index is `missing` (rows == NULL: no NULL row). The type was checked by
 * check_nullable_forms. */
static void make_nullable(column **c, const uint32_t *rows, uint32_t missing)
{
    bool unsupported;
    const type *nt = nullable_form((*c)->type, &unsupported);
    if (!nt || nt == (*c)->type)
        return;
    column *src = *c, *d = col_new(nt);
    size_t n = src->len;
    for (size_t i = 0; i < n; i++) {
        if (rows && rows[i] == missing) {
            col_push_null(d);
        } else {
            col_push_from(d->inner, src, i);
            col_nullable_commit(d, false);
        }
    }
    col_free(src);
    *c = d;
}

static int find_col(const source *s, const char *name)
{
    for (int i = 0; i < s->sch->n; i++)
        if (strcmp(s->sch->names[i], name) == 0 || (s->col_bare && strcmp(s->col_bare[i], name) == 0))
            return i;
    return -1;
}

/* A key of a CROSS join taken from WHERE must compare as `=` does: both integers, or one
 * type whose equal values have equal bytes (no floating point: NaN never equals itself
 * and -0 equals 0; no containers, which may hold them). */
static bool where_key_ok(const type *a, const type *b)
{
    a = type_base(a);
    b = type_base(b);
    if (type_is_integer(a) && type_is_integer(b)) {
        const type *ts[2] = {a, b};
        if (type_supertype(2, ts)) /* Int32 and UInt64 have none: the WHERE compares them */
            return true;
        err_clear();
        return false;
    }
    return !strcmp(a->name, b->name) && (type_is_string(a) || type_is_date_or_time(a) || type_is_ip(a) || a->id == T_UUID);
}

/* cross_to_inner_join_rewrite: the WHERE's AND-ed equalities between an expression of the
 * left side and one of the right become the keys of the CROSS join (ClickHouse rewrites it
 * to an INNER join); WHERE still filters the joined rows. */
static void keys_from_where(const ast *where, const source *left, const source *right, query_ctx *q, expr **lk,
                            expr **rk, int *nkeys)
{
    const ast *terms[64];
    int nt = 0;
    if (collect_terms(where, terms, &nt)) {
        err_clear();
        return;
    }
    for (int i = 0; i < nt && *nkeys < 64; i++) {
        const ast *t = terms[i];
        if (t->kind != AST_FUNC || strcmp(t->name, "equals") != 0 || t->args.n != 2)
            continue;
        for (int swap = 0; swap < 2; swap++) {
            const ast *a = t->args.items[swap], *b = t->args.items[1 - swap];
            expr *x = NULL, *y = NULL;
            if (analyze_expr_on(a, left, q, &x) == 0 && analyze_expr_on(b, right, q, &y) == 0 &&
                where_key_ok(x->type, y->type)) {
                lk[*nkeys] = x;
                rk[(*nkeys)++] = y;
                break;
            }
            expr_free(x);
            expr_free(y);
        }
    }
    err_clear();
}

int join_sources(source *left, source *right, const ast *j, const ast *where, query_ctx *q, source **out)
{
    const char *kind = j->join_kind ? j->join_kind : "INNER";
    const char *strict = j->join_strictness ? j->join_strictness : "ALL";
    bool is_left = strcasecmp(kind, "LEFT") == 0, is_right = strcasecmp(kind, "RIGHT") == 0,
         is_full = strcasecmp(kind, "FULL") == 0, is_cross = strcasecmp(kind, "CROSS") == 0;
    bool any = strcasecmp(strict, "ANY") == 0, semi = strcasecmp(strict, "SEMI") == 0,
         anti = strcasecmp(strict, "ANTI") == 0;
    if (strcasecmp(strict, "ASOF") == 0)
        return err_set(ERR_NOT_IMPLEMENTED, "ASOF JOIN is not supported yet");
    if (any && is_full)
        return err_set(ERR_NOT_IMPLEMENTED, "ANY FULL JOINs are not implemented");
    if (any && is_right && !strcmp(settings_str(q->st, "join_algorithm"), "partial_merge"))
        return err_set(ERR_NOT_IMPLEMENTED, "Can't execute any of specified algorithms for specified strictness/kind "
                                            "and right storage type");
    if ((semi || anti) && !is_left)
        return err_set(ERR_NOT_IMPLEMENTED, "Only LEFT SEMI and LEFT ANTI joins are supported");
    bool use_nulls = settings_bool(q->st, "join_use_nulls") && (is_left || is_right || is_full);
    if (use_nulls && (semi || anti))
        return err_set(ERR_NOT_IMPLEMENTED, "join_use_nulls = 1 with SEMI or ANTI JOIN is not supported yet");
    bool null_left = use_nulls && (is_right || is_full), null_right = use_nulls && (is_left || is_full);
    if ((null_left && check_nullable_forms(left)) || (null_right && check_nullable_forms(right)))
        return -1;

    int nkeys = 0, nresidual = 0;
    const ast *residual[64];
    expr *lk[64] = {0}, *rk[64] = {0};
    int using_right[64];
    int nusing = 0;
    int rc = -1;
    block *L = NULL, *R = NULL;
    column *lkeys[64] = {0}, *rkeys[64] = {0};
    rowvec li = {0}, ri = {0};
    uint32_t *next = NULL;
    uint8_t *right_matched = NULL;
    agg_table ht;
    agg_table_init(&ht);

    if (!is_cross) {
        if (j->using_cols.n) {
            for (int i = 0; i < j->using_cols.n && i < 64; i++) {
                const ast *u = j->using_cols.items[i];
                const char *name = u->kind == AST_IDENT ? u->parts[u->nparts - 1] : NULL;
                for (int k = 0; name && k < i; k++) {
                    const ast *p = j->using_cols.items[k];
                    if (p->kind == AST_IDENT && !strcmp(p->parts[p->nparts - 1], name)) {
                        err_set(ERR_BAD_ARGUMENTS, "Identifier '%s' appears more than once in USING clause", name);
                        goto out;
                    }
                }
                int a = name ? find_col(left, name) : -1, b = name ? find_col(right, name) : -1;
                if (a < 0 || b < 0) {
                    err_set(ERR_UNKNOWN_IDENTIFIER, "Column `%s` in USING is not present in both tables",
                            name ? name : "?");
                    goto out;
                }
                /* A RIGHT or FULL join takes the key from the right side where the left has
                 * none: both must have one type (ClickHouse converts them to a common one). */
                if ((is_right || is_full) && strcmp(left->sch->types[a]->name, right->sch->types[b]->name) != 0) {
                    err_set(ERR_NOT_IMPLEMENTED,
                            "RIGHT or FULL JOIN USING a key of different types (%s and %s) is not supported yet",
                            left->sch->types[a]->name, right->sch->types[b]->name);
                    goto out;
                }
                lk[nkeys] = expr_col(a, left->sch->types[a]);
                rk[nkeys] = expr_col(b, right->sch->types[b]);
                using_right[nusing++] = b;
                nkeys++;
            }
        } else if (j->on) {
            const ast *terms[64];
            int nt = 0;
            if (collect_terms(j->on, terms, &nt))
                goto out;
            for (int i = 0; i < nt; i++) {
                const ast *t = terms[i];
                if (t->kind == AST_FUNC && strcmp(t->name, "equals") == 0 && t->args.n == 2) {
                    const ast *a = t->args.items[0], *b = t->args.items[1];
                    if (analyze_expr_on(a, left, q, &lk[nkeys]) == 0 && analyze_expr_on(b, right, q, &rk[nkeys]) == 0) {
                        nkeys++;
                        continue;
                    }
                    expr_free(lk[nkeys]);
                    expr_free(rk[nkeys]);
                    lk[nkeys] = rk[nkeys] = NULL;
                    if (analyze_expr_on(b, left, q, &lk[nkeys]) == 0 && analyze_expr_on(a, right, q, &rk[nkeys]) == 0) {
                        nkeys++;
                        continue;
                    }
                    expr_free(lk[nkeys]);
                    expr_free(rk[nkeys]);
                    lk[nkeys] = rk[nkeys] = NULL;
                }
                /* Not a key equality: checked on the joined rows (INNER joins only). */
                residual[nresidual++] = t;
            }
            err_clear();
            if (nresidual && (is_left || is_right || is_full || semi || anti)) {
                err_set(ERR_INVALID_JOIN_ON_EXPRESSION,
                        "JOIN ON of an outer, SEMI or ANTI join supports only equalities between the two tables joined by AND");
                goto out;
            }
            if (nkeys == 0)
                is_cross = true;
        }
    }

    if (is_cross && where && !j->using_cols.n) {
        keys_from_where(where, left, right, q, lk, rk, &nkeys);
        is_cross = nkeys == 0;
    }
    if (source_read_all(left, q, &L) || source_read_all(right, q, &R))
        goto out;
    if (L->rows >= NO_ROW || R->rows >= NO_ROW) {
        err_set(ERR_TOO_MANY_ROWS_OR_BYTES, "A side of the JOIN has too many rows for the in-memory hash join");
        goto out;
    }

    if (is_cross) {
        for (uint32_t a = 0; a < L->rows; a++)
            for (uint32_t b = 0; b < R->rows; b++) {
                rv_push(&li, a);
                rv_push(&ri, b);
            }
    } else {
        const type *common[64];
        for (int k = 0; k < nkeys; k++) {
            const type *ts[2] = {lk[k]->type, rk[k]->type};
            common[k] = ts[0] == ts[1] ? ts[0] : type_supertype(2, ts);
            if (!common[k])
                goto out;
        }
        if (eval_keys(lk, nkeys, L, common, q->env.timezone, lkeys) ||
            eval_keys(rk, nkeys, R, common, q->env.timezone, rkeys))
            goto out;
        /* Build: chain rows of equal keys in insertion order (head, tail in the state). */
        next = xmalloc(sizeof *next * (R->rows + 1));
        buf key = {0};
        for (size_t r = 0; r < R->rows; r++) {
            next[r] = NO_ROW;
            if (any_null(rkeys, nkeys, r))
                continue;
            key.len = 0;
            agg_key_serialize(&key, rkeys, nkeys, r);
            bool inserted;
            agg_slot *s = agg_table_find_or_insert(&ht, (const char *)key.p, key.len,
                                                   agg_key_hash((const char *)key.p, key.len), 8, 4, &inserted);
            uint32_t *ends = (uint32_t *)(void *)s->states;
            if (inserted) {
                ends[0] = ends[1] = (uint32_t)r;
            } else {
                next[ends[1]] = (uint32_t)r;
                ends[1] = (uint32_t)r;
            }
        }
        right_matched = xcalloc(R->rows + 1, 1);
        /* Probe. */
        for (size_t l = 0; l < L->rows; l++) {
            uint32_t first = NO_ROW;
            if (!any_null(lkeys, nkeys, l)) {
                key.len = 0;
                agg_key_serialize(&key, lkeys, nkeys, l);
                uint64_t h = agg_key_hash((const char *)key.p, key.len);
                size_t mask = ht.cap - 1;
                for (size_t i = h & mask; ht.slots[i].states; i = (i + 1) & mask) {
                    agg_slot *s = &ht.slots[i];
                    if (s->hash == h && s->key_len == key.len && memcmp(agg_slot_key(s), key.p, key.len) == 0) {
                        first = ((uint32_t *)(void *)s->states)[0];
                        break;
                    }
                }
            }
            if (semi || anti) {
                if ((first != NO_ROW) == semi) {
                    rv_push(&li, (uint32_t)l);
                    rv_push(&ri, first);
                }
                continue;
            }
            if (first == NO_ROW) {
                if (is_left || is_full) {
                    rv_push(&li, (uint32_t)l);
                    rv_push(&ri, NO_ROW);
                }
                continue;
            }
            /* ANY INNER and ANY RIGHT join a key once, as ClickHouse: the first left row of a
             * key takes its first right row (INNER) or all of them (RIGHT); later left rows of
             * that key are dropped. ANY LEFT takes the first right row for every left row. */
            if (any && (is_right || !is_left) && right_matched[first])
                continue;
            for (uint32_t r = first; r != NO_ROW; r = next[r]) {
                rv_push(&li, (uint32_t)l);
                rv_push(&ri, r);
                right_matched[r] = 1;
                if (any && !is_right)
                    break;
            }
        }
        buf_free(&key);
        if (is_right || is_full)
            for (size_t r = 0; r < R->rows; r++)
                if (!right_matched[r]) {
                    rv_push(&li, NO_ROW);
                    rv_push(&ri, (uint32_t)r);
                }
        if (is_right && !is_full) {
            /* RIGHT: keep only rows that have a right partner. */
            size_t w = 0;
            for (size_t i = 0; i < li.n; i++)
                if (ri.v[i] != NO_ROW) {
                    li.v[w] = li.v[i];
                    ri.v[w] = ri.v[i];
                    w++;
                }
            li.n = ri.n = w;
        }
    }

    /* Output columns: left's, then right's without USING keys (and, for SEMI/ANTI, all). */
    {
        int nl = left->sch->n, nr = right->sch->n, nout = nl;
        bool *skip = xcalloc((size_t)nr + 1, sizeof *skip);
        for (int u = 0; u < nusing; u++)
            skip[using_right[u]] = true;
        for (int c = 0; c < nr; c++)
            nout += !skip[c];
        schema *sch = schema_new(nout);
        char **qual = xcalloc((size_t)nout + 1, sizeof *qual), **bare = xcalloc((size_t)nout + 1, sizeof *bare);
        char **qual2 = xcalloc((size_t)nout + 1, sizeof *qual2);
        block *b = block_new(nout, li.n);
        for (size_t i = 0; i < li.n; i++) {
            if (li.v[i] == NO_ROW)
                li.v[i] = (uint32_t)L->rows;
            if (ri.v[i] == NO_ROW)
                ri.v[i] = (uint32_t)R->rows;
        }
        int o = 0;
        for (int c = 0; c < nl; c++, o++) {
            column *src = with_default_row(L->cols[c]);
            b->cols[o] = col_gather(src, li.v, li.n);
            col_free(src);
            schema_set(sch, o, left->sch->names[c], left->sch->types[c]);
            qual[o] = left->col_qual && left->col_qual[c] ? xstrdup(left->col_qual[c]) : NULL;
            qual2[o] = left->col_qual2 && left->col_qual2[c] ? xstrdup(left->col_qual2[c]) : NULL;
            bare[o] = xstrdup(left->col_bare ? left->col_bare[c] : left->sch->names[c]);
        }
        /* A USING key of a RIGHT/FULL join comes from the right side where the left is missing. */
        for (int u = 0; u < nusing && (is_right || is_full); u++) {
            int lc = find_col(left, right->sch->names[using_right[u]]);
            if (lc < 0)
                continue;
            column *rsrc = with_default_row(R->cols[using_right[u]]);
            column *rv = col_gather(rsrc, ri.v, li.n);
            col_free(rsrc);
            column *merged = col_new(b->cols[lc]->type);
            for (size_t i = 0; i < li.n; i++)
                col_push_from(merged, li.v[i] == L->rows ? rv : b->cols[lc], i);
            col_free(rv);
            col_free(b->cols[lc]);
            b->cols[lc] = merged;
        }
        /* join_use_nulls: the left side's columns (a USING key only in a FULL join, where
         * it is never NULL: the right side's key fills it). */
        for (int c = 0; c < nl && null_left; c++) {
            bool key = false;
            for (int u = 0; u < nusing; u++)
                key |= find_col(left, right->sch->names[using_right[u]]) == c;
            if (key && !is_full)
                continue;
            make_nullable(&b->cols[c], key ? NULL : li.v, (uint32_t)L->rows);
            schema_set(sch, c, left->sch->names[c], b->cols[c]->type);
        }
        const char *rq = right->col_qual && nr ? right->col_qual[0] : NULL;
        for (int u = 0; u < nusing && rq; u++) { /* the key is the right table's column too */
            int lc = find_col(left, right->sch->names[using_right[u]]);
            if (lc >= 0 && !qual2[lc])
                qual2[lc] = xstrdup(rq);
        }
        for (int c = 0; c < nr; c++) {
            if (skip[c])
                continue;
            column *src = with_default_row(R->cols[c]);
            b->cols[o] = col_gather(src, ri.v, li.n);
            col_free(src);
            if (null_right)
                make_nullable(&b->cols[o], ri.v, (uint32_t)R->rows);
            const char *name = right->sch->names[c];
            char tmp[1024];
            if (schema_find(sch, name) >= 0 && rq) {
                snprintf(tmp, sizeof tmp, "%s.%s", rq, name);
                name = tmp;
            }
            schema_set(sch, o, name, b->cols[o]->type);
            qual[o] = rq ? xstrdup(rq) : NULL;
            bare[o] = xstrdup(right->col_bare ? right->col_bare[c] : right->sch->names[c]);
            o++;
        }
        free(skip);
        block **bs = xcalloc(1, sizeof *bs);
        bs[0] = b;
        source *res = source_from_blocks(sch, bs, 1);
        res->col_qual = qual;
        res->col_qual2 = qual2;
        res->col_bare = bare;
        if (nresidual && filter_residual(res, residual, nresidual, q)) {
            source_free(res);
            goto out;
        }
        *out = res;
        rc = 0;
    }
out:
    for (int k = 0; k < 64; k++) {
        expr_free(lk[k]);
        expr_free(rk[k]);
        col_free(lkeys[k]);
        col_free(rkeys[k]);
    }
    block_free(L);
    block_free(R);
    free(li.v);
    free(ri.v);
    free(next);
    free(right_matched);
    agg_table_free(&ht);
    return rc;
}
