/* Hash joins (join.h).
 *
 * In memory (join_algorithm 'hash' and the others but 'grace_hash'): both sides are read
 * into memory; the right side's keys go into a hash table (serialized
 * keys → a chain of row numbers in insertion order); every left row probes it. The result
 * is a block of the left columns followed by the right columns (USING keys once), built by
 * gathering rows, and becomes an in-memory source that the SELECT reads like a table.
 * Rows without a partner get default values, or with join_use_nulls = 1 NULL, the other
 * side's columns becoming Nullable (LowCardinality(Nullable) for LowCardinality; Array and
 * Map columns keep defaults, as in ClickHouse).
 * Supported: INNER, LEFT, RIGHT, FULL (ALL and ANY), LEFT and RIGHT SEMI / ANTI, CROSS; ON with
 * equalities joined by AND, or USING. NULL keys never match. join_algorithm = 'grace_hash'
 * partitions both sides to temporary files first (join_grace.c) and joins bucket by
 * bucket with the same pieces; 'partial_merge' and 'prefer_partial_merge' alone are not
 * implemented. */
#include "base/err.h"
#include "base/mem.h"
#include "exec/agg_hash.h"
#include "func/supertype.h"
#include "exec/spill.h"
#include "sql/analyze.h"
#include "sql/join.h"
#include "sql/join_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void rv_push(rowvec *r, uint32_t x)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->v = xrealloc(r->v, sizeof *r->v * r->cap);
    }
    r->v[r->n++] = x;
}

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

void join_keep_rows(block *b, const uint8_t *keep, size_t kept)
{
    for (int c = 0; c < b->ncols; c++) {
        column *f = col_filter(b->cols[c], keep, kept);
        col_free(b->cols[c]);
        b->cols[c] = f;
    }
    b->rows = kept;
}

int join_compile_residual(join_spec *s, const source *layout, query_ctx *q)
{
    for (int t = 0; t < s->nresidual; t++)
        if (analyze_expr_on(s->residual[t], layout, q, &s->residual_ex[t]))
            return -1;
    return 0;
}

int join_filter_residual(const join_spec *s, block *b)
{
    for (int t = 0; t < s->nresidual; t++) {
        column *m;
        if (expr_eval(s->residual_ex[t], b, &m))
            return -1;
        m = col_materialize(m);
        const column *v = type_phys(m->type)->id == T_NULLABLE ? m->inner : m;
        uint8_t *keep = xmalloc(b->rows + 1);
        size_t kept = 0;
        for (size_t i = 0; i < b->rows; i++) {
            keep[i] = col_get_i64(v, i) != 0 && !col_is_null(m, i);
            kept += keep[i];
        }
        join_keep_rows(b, keep, kept);
        free(keep);
        col_free(m);
    }
    return 0;
}

int join_eval_keys(const join_spec *s, bool right, const block *b, const char *zone, column **out)
{
    expr *const *ex = right ? s->rk : s->lk;
    for (int k = 0; k < s->nkeys; k++) {
        column *c;
        if (expr_eval(ex[k], b, &c))
            return -1;
        c = col_materialize(c);
        if (c->type != s->common[k]) {
            column *cast = type_cast_super(c, c->type, s->common[k], zone);
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

/* The type make_nullable gives a column of type t. */
static const type *nullable_type(const type *t)
{
    bool unsupported;
    const type *nt = nullable_form(t, &unsupported);
    return nt ? nt : t;
}

static int find_col(const source *s, const char *name)
{
    for (int i = 0; i < s->sch->n; i++)
        if (strcmp(s->sch->names[i], name) == 0 || (s->col_bare && strcmp(s->col_bare[i], name) == 0))
            return i;
    return -1;
}


/* The result's layout: left's columns, then right's without USING keys (a right column
 * whose name the result already has is called <right qualifier>.<name>). */
static void build_layout(join_spec *s, const source *left, const source *right)
{
    int nl = left->sch->n, nr = right->sch->n, nout = nl;
    bool *skip = xcalloc((size_t)nr + 1, sizeof *skip);
    for (int u = 0; u < s->nusing; u++)
        skip[s->using_right[u]] = true;
    for (int c = 0; c < nr; c++)
        nout += !skip[c];
    schema *sch = schema_new(nout);
    s->qual = xcalloc((size_t)nout + 1, sizeof *s->qual);
    s->bare = xcalloc((size_t)nout + 1, sizeof *s->bare);
    s->qual2 = xcalloc((size_t)nout + 1, sizeof *s->qual2);
    int o = 0;
    for (int c = 0; c < nl; c++, o++) {
        const type *t = left->sch->types[c];
        /* join_use_nulls: a USING key is NULL-able only in a FULL join (where it never is
         * NULL: the right side's key fills it), elsewhere it keeps its type. */
        bool key = false;
        for (int u = 0; u < s->nusing; u++)
            key |= s->using_left[u] == c;
        if (s->null_left && (!key || s->is_full))
            t = nullable_type(t);
        schema_set(sch, o, left->sch->names[c], t);
        s->qual[o] = left->col_qual && left->col_qual[c] ? xstrdup(left->col_qual[c]) : NULL;
        s->qual2[o] = left->col_qual2 && left->col_qual2[c] ? xstrdup(left->col_qual2[c]) : NULL;
        s->bare[o] = xstrdup(left->col_bare ? left->col_bare[c] : left->sch->names[c]);
    }
    const char *rq = right->col_qual && nr ? right->col_qual[0] : NULL;
    for (int u = 0; u < s->nusing && rq; u++) { /* the key is the right table's column too */
        int lc = s->using_left[u];
        if (lc >= 0 && !s->qual2[lc])
            s->qual2[lc] = xstrdup(rq);
    }
    for (int c = 0; c < nr; c++) {
        if (skip[c])
            continue;
        const char *name = right->sch->names[c];
        char tmp[1024];
        if (schema_find(sch, name) >= 0 && rq) {
            snprintf(tmp, sizeof tmp, "%s.%s", rq, name);
            name = tmp;
        }
        schema_set(sch, o, name, s->null_right ? nullable_type(right->sch->types[c]) : right->sch->types[c]);
        s->qual[o] = rq ? xstrdup(rq) : NULL;
        s->bare[o] = xstrdup(right->col_bare ? right->col_bare[c] : right->sch->names[c]);
        o++;
    }
    free(skip);
    s->out = sch;
}

void join_layout_names(const join_spec *s, source *src)
{
    int n = s->out->n;
    src->col_qual = xcalloc((size_t)n + 1, sizeof *src->col_qual);
    src->col_qual2 = xcalloc((size_t)n + 1, sizeof *src->col_qual2);
    src->col_bare = xcalloc((size_t)n + 1, sizeof *src->col_bare);
    for (int c = 0; c < n; c++) {
        src->col_qual[c] = s->qual[c] ? xstrdup(s->qual[c]) : NULL;
        src->col_qual2[c] = s->qual2[c] ? xstrdup(s->qual2[c]) : NULL;
        src->col_bare[c] = xstrdup(s->bare[c]);
    }
}

source *join_layout_source(const join_spec *s, block **blocks, int n)
{
    source *src = source_from_blocks(schema_clone(s->out), blocks, n);
    join_layout_names(s, src);
    return src;
}

void join_spec_free(join_spec *s)
{
    for (int k = 0; k < JOIN_MAX_KEYS; k++) {
        expr_free(s->lk[k]);
        expr_free(s->rk[k]);
        expr_free(s->residual_ex[k]);
    }
    for (int c = 0; s->out && c < s->out->n; c++) {
        free(s->qual[c]);
        free(s->qual2[c]);
        free(s->bare[c]);
    }
    free(s->qual);
    free(s->qual2);
    free(s->bare);
    schema_free(s->out);
    schema_free(s->lsch);
    schema_free(s->rsch);
    memset(s, 0, sizeof *s);
}

/* The keys of USING: columns of both sides by name. */
static int using_keys(join_spec *s, const source *left, const source *right, const ast *j)
{
    for (int i = 0; i < j->using_cols.n && i < JOIN_MAX_KEYS; i++) {
        const ast *u = j->using_cols.items[i];
        const char *name = u->kind == AST_IDENT ? u->parts[u->nparts - 1] : NULL;
        for (int k = 0; name && k < i; k++) {
            const ast *p = j->using_cols.items[k];
            if (p->kind == AST_IDENT && !strcmp(p->parts[p->nparts - 1], name))
                return err_set(ERR_BAD_ARGUMENTS, "Identifier '%s' appears more than once in USING clause", name);
        }
        int a = name ? find_col(left, name) : -1, b = name ? find_col(right, name) : -1;
        if (a < 0 || b < 0)
            return err_set(ERR_UNKNOWN_IDENTIFIER, "Column `%s` in USING is not present in both tables",
                           name ? name : "?");
        /* A RIGHT or FULL join takes the key from the right side where the left has
         * none: both must have one type (ClickHouse converts them to a common one). */
        if ((s->is_right || s->is_full) && strcmp(left->sch->types[a]->name, right->sch->types[b]->name) != 0)
            return err_set(ERR_NOT_IMPLEMENTED,
                           "RIGHT or FULL JOIN USING a key of different types (%s and %s) is not supported yet",
                           left->sch->types[a]->name, right->sch->types[b]->name);
        s->lk[s->nkeys] = expr_col(a, left->sch->types[a]);
        s->rk[s->nkeys] = expr_col(b, right->sch->types[b]);
        s->using_right[s->nusing++] = b;
        s->nkeys++;
    }
    return 0;
}

/* The keys of ON: equalities between an expression of each side; other terms are residual. */
static int on_keys(join_spec *s, const source *left, const source *right, const ast *j, query_ctx *q)
{
    const ast *terms[JOIN_MAX_KEYS];
    int nt = 0;
    if (collect_terms(j->on, terms, &nt))
        return -1;
    for (int i = 0; i < nt; i++) {
        const ast *t = terms[i];
        int k = s->nkeys;
        if (t->kind == AST_FUNC && strcmp(t->name, "equals") == 0 && t->args.n == 2) {
            const ast *a = t->args.items[0], *b = t->args.items[1];
            if (analyze_expr_on(a, left, q, &s->lk[k]) == 0 && analyze_expr_on(b, right, q, &s->rk[k]) == 0) {
                s->nkeys++;
                continue;
            }
            expr_free(s->lk[k]);
            expr_free(s->rk[k]);
            s->lk[k] = s->rk[k] = NULL;
            if (analyze_expr_on(b, left, q, &s->lk[k]) == 0 && analyze_expr_on(a, right, q, &s->rk[k]) == 0) {
                s->nkeys++;
                continue;
            }
            expr_free(s->lk[k]);
            expr_free(s->rk[k]);
            s->lk[k] = s->rk[k] = NULL;
        }
        /* Not a key equality: checked on the joined rows (INNER joins only). */
        s->residual[s->nresidual++] = t;
    }
    err_clear();
    if (s->nresidual && (s->is_left || s->is_right || s->is_full || s->semi || s->anti))
        return err_set(ERR_INVALID_JOIN_ON_EXPRESSION,
                       "JOIN ON of an outer, SEMI or ANTI join supports only equalities between the two tables joined by AND");
    if (s->nkeys == 0)
        s->is_cross = true;
    return 0;
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
static void keys_from_where(join_spec *s, const ast *where, const source *left, const source *right, query_ctx *q)
{
    const ast *terms[64];
    int nt = 0;
    if (collect_terms(where, terms, &nt)) {
        err_clear();
        return;
    }
    for (int i = 0; i < nt && s->nkeys < JOIN_MAX_KEYS; i++) {
        const ast *t = terms[i];
        if (t->kind != AST_FUNC || strcmp(t->name, "equals") != 0 || t->args.n != 2)
            continue;
        for (int swap = 0; swap < 2; swap++) {
            const ast *a = t->args.items[swap], *b = t->args.items[1 - swap];
            expr *x = NULL, *y = NULL;
            if (analyze_expr_on(a, left, q, &x) == 0 && analyze_expr_on(b, right, q, &y) == 0 &&
                where_key_ok(x->type, y->type)) {
                s->lk[s->nkeys] = x;
                s->rk[s->nkeys++] = y;
                break;
            }
            expr_free(x);
            expr_free(y);
        }
    }
    err_clear();
}

int join_spec_init(join_spec *s, const source *left, const source *right, const ast *j, const ast *where, query_ctx *q)
{
    memset(s, 0, sizeof *s);
    const char *kind = j->join_kind ? j->join_kind : "INNER";
    const char *strict = j->join_strictness ? j->join_strictness : "ALL";
    s->is_left = strcasecmp(kind, "LEFT") == 0;
    s->is_right = strcasecmp(kind, "RIGHT") == 0;
    s->is_full = strcasecmp(kind, "FULL") == 0;
    s->is_cross = strcasecmp(kind, "CROSS") == 0;
    s->any = strcasecmp(strict, "ANY") == 0;
    s->semi = strcasecmp(strict, "SEMI") == 0;
    s->anti = strcasecmp(strict, "ANTI") == 0;
    s->take_last = settings_bool(q->st, "join_any_take_last_row");
    if (strcasecmp(kind, "PASTE") == 0)
        return err_set(ERR_NOT_IMPLEMENTED, "PASTE JOIN is not supported");
    if (strcasecmp(strict, "ASOF") == 0)
        return err_set(ERR_NOT_IMPLEMENTED, "ASOF JOIN is not supported yet");
    if (s->any && s->is_full)
        return err_set(ERR_NOT_IMPLEMENTED, "ANY FULL JOINs are not implemented");
    if (s->any && s->is_right && !strcmp(settings_str(q->st, "join_algorithm"), "partial_merge"))
        return err_set(ERR_NOT_IMPLEMENTED, "Can't execute any of specified algorithms for specified strictness/kind "
                                            "and right storage type");
    if ((s->semi || s->anti) && !s->is_left && !s->is_right)
        return err_set(ERR_NOT_IMPLEMENTED, "Only LEFT and RIGHT SEMI and ANTI joins are supported");
    bool use_nulls = settings_bool(q->st, "join_use_nulls") && (s->is_left || s->is_right || s->is_full);
    if (use_nulls && (s->semi || s->anti))
        return err_set(ERR_NOT_IMPLEMENTED, "join_use_nulls = 1 with SEMI or ANTI JOIN is not supported yet");
    s->null_left = use_nulls && (s->is_right || s->is_full);
    s->null_right = use_nulls && (s->is_left || s->is_full);
    if ((s->null_left && check_nullable_forms(left)) || (s->null_right && check_nullable_forms(right)))
        return -1;
    if (!s->is_cross && (j->using_cols.n ? using_keys(s, left, right, j) : j->on ? on_keys(s, left, right, j, q) : 0)) {
        join_spec_free(s);
        return -1;
    }
    if (s->is_cross && where && !j->using_cols.n) {
        keys_from_where(s, where, left, right, q);
        s->is_cross = s->nkeys == 0;
    }
    for (int u = 0; u < s->nusing; u++)
        s->using_left[u] = find_col(left, right->sch->names[s->using_right[u]]);
    for (int k = 0; k < s->nkeys; k++) {
        const type *ts[2] = {s->lk[k]->type, s->rk[k]->type};
        s->common[k] = ts[0] == ts[1] ? ts[0] : type_supertype(2, ts);
        if (!s->common[k]) {
            join_spec_free(s);
            return -1;
        }
    }
    s->lsch = schema_clone(left->sch);
    s->rsch = schema_clone(right->sch);
    build_layout(s, left, right);
    return 0;
}

uint64_t join_key_hash(column *const *keys, int nkeys, size_t row, buf *key)
{
    if (any_null(keys, nkeys, row))
        return 0;
    key->len = 0;
    agg_key_serialize(key, keys, nkeys, row);
    return agg_key_hash((const char *)key->p, key->len);
}

int join_table_build(const join_spec *s, const block *R, query_ctx *q, join_table *t)
{
    memset(t, 0, sizeof *t);
    t->R = R;
    agg_table_init(&t->ht);
    if (R->rows >= NO_ROW)
        return err_set(ERR_TOO_MANY_ROWS_OR_BYTES,
                       "The right side of the JOIN has too many rows for the in-memory hash join "
                       "(join_algorithm = 'grace_hash' joins it bucket by bucket)");
    if (join_eval_keys(s, true, R, q->env.timezone, t->rkeys))
        return -1;
    /* Chain rows of equal keys in insertion order (head, tail in the state). */
    t->next = xmalloc(sizeof *t->next * (R->rows + 1));
    buf key = {0};
    for (size_t r = 0; r < R->rows; r++) {
        t->next[r] = NO_ROW;
        if (any_null(t->rkeys, s->nkeys, r))
            continue;
        key.len = 0;
        agg_key_serialize(&key, t->rkeys, s->nkeys, r);
        bool inserted;
        agg_slot *sl = agg_table_find_or_insert(&t->ht, (const char *)key.p, key.len,
                                                agg_key_hash((const char *)key.p, key.len), 8, 4, &inserted);
        uint32_t *ends = (uint32_t *)(void *)sl->states;
        if (inserted) {
            ends[0] = ends[1] = (uint32_t)r;
        } else {
            t->next[ends[1]] = (uint32_t)r;
            ends[1] = (uint32_t)r;
        }
    }
    buf_free(&key);
    t->matched = xcalloc(R->rows + 1, 1);
    return 0;
}

int join_table_probe(const join_spec *s, join_table *t, const block *L, query_ctx *q, rowvec *li, rowvec *ri)
{
    if (L->rows >= NO_ROW)
        return err_set(ERR_TOO_MANY_ROWS_OR_BYTES, "The left side of the JOIN has too many rows for the in-memory hash join");
    column *lkeys[JOIN_MAX_KEYS] = {0};
    if (join_eval_keys(s, false, L, q->env.timezone, lkeys)) {
        for (int k = 0; k < s->nkeys; k++)
            col_free(lkeys[k]);
        return -1;
    }
    buf key = {0};
    for (size_t l = 0; l < L->rows; l++) {
        uint32_t first = NO_ROW;
        if (!any_null(lkeys, s->nkeys, l) && t->ht.cap) {
            key.len = 0;
            agg_key_serialize(&key, lkeys, s->nkeys, l);
            uint64_t h = agg_key_hash((const char *)key.p, key.len);
            size_t mask = t->ht.cap - 1;
            for (size_t i = h & mask; t->ht.slots[i].states; i = (i + 1) & mask) {
                agg_slot *sl = &t->ht.slots[i];
                if (sl->hash == h && sl->key_len == key.len && memcmp(agg_slot_key(sl), key.p, key.len) == 0) {
                    /* the last row instead where one row per key is taken */
                    bool last = s->take_last && (s->semi || (s->any && !s->is_right));
                    first = ((uint32_t *)(void *)sl->states)[last];
                    break;
                }
            }
        }
        if ((s->semi || s->anti) && s->is_right) {
            /* RIGHT SEMI: each right row once, with the first left row that reaches it;
             * RIGHT ANTI: the right rows no left row reaches (join_table_unmatched). */
            for (uint32_t r = first; r != NO_ROW; r = t->next[r])
                if (!t->matched[r]) {
                    t->matched[r] = 1;
                    if (s->semi) {
                        rv_push(li, (uint32_t)l);
                        rv_push(ri, r);
                    }
                }
            continue;
        }
        if (s->semi || s->anti) {
            if ((first != NO_ROW) == s->semi) {
                rv_push(li, (uint32_t)l);
                rv_push(ri, first);
            }
            continue;
        }
        if (first == NO_ROW) {
            if (s->is_left || s->is_full) {
                rv_push(li, (uint32_t)l);
                rv_push(ri, NO_ROW);
            }
            continue;
        }
        /* ANY, as ClickHouse: LEFT joins each left row with the key's first right row;
         * INNER is one-to-one (the key's first right row, with the first left row that
         * reaches it); RIGHT joins each right row with the first left row that reaches its
         * key — that row takes the whole chain, so a marked head means nothing is left. */
        if (s->any && !s->is_left && t->matched[first])
            continue;
        for (uint32_t r = first; r != NO_ROW; r = t->next[r]) {
            rv_push(li, (uint32_t)l);
            rv_push(ri, r);
            t->matched[r] = 1;
            if (s->any && !s->is_right)
                break;
        }
    }
    buf_free(&key);
    for (int k = 0; k < s->nkeys; k++)
        col_free(lkeys[k]);
    return 0;
}

void join_table_unmatched(const join_spec *s, const join_table *t, rowvec *li, rowvec *ri)
{
    if ((!s->is_right && !s->is_full) || (s->is_right && s->semi))
        return;
    for (size_t r = 0; r < t->R->rows; r++)
        if (!t->matched[r]) {
            rv_push(li, NO_ROW);
            rv_push(ri, (uint32_t)r);
        }
}

void join_table_free(join_table *t)
{
    for (int k = 0; k < JOIN_MAX_KEYS; k++)
        col_free(t->rkeys[k]);
    agg_table_free(&t->ht);
    free(t->next);
    free(t->matched);
    memset(t, 0, sizeof *t);
}

block *join_gather(const join_spec *s, const block *L, const block *R, rowvec *li, rowvec *ri)
{
    int nl = s->lsch->n, nr = s->rsch->n, nout = s->out->n;
    bool *skip = xcalloc((size_t)nr + 1, sizeof *skip);
    for (int u = 0; u < s->nusing; u++)
        skip[s->using_right[u]] = true;
    block *b = block_new(nout, li->n);
    for (size_t i = 0; i < li->n; i++) {
        if (li->v[i] == NO_ROW)
            li->v[i] = (uint32_t)L->rows;
        if (ri->v[i] == NO_ROW)
            ri->v[i] = (uint32_t)R->rows;
    }
    int o = 0;
    for (int c = 0; c < nl; c++, o++) {
        column *src = with_default_row(L->cols[c]);
        b->cols[o] = col_gather(src, li->v, li->n);
        col_free(src);
    }
    /* A USING key of a RIGHT/FULL join comes from the right side where the left is missing. */
    for (int u = 0; u < s->nusing && (s->is_right || s->is_full); u++) {
        int lc = s->using_left[u];
        if (lc < 0)
            continue;
        column *rsrc = with_default_row(R->cols[s->using_right[u]]);
        column *rv = col_gather(rsrc, ri->v, li->n);
        col_free(rsrc);
        column *merged = col_new(b->cols[lc]->type);
        for (size_t i = 0; i < li->n; i++)
            col_push_from(merged, li->v[i] == L->rows ? rv : b->cols[lc], i);
        col_free(rv);
        col_free(b->cols[lc]);
        b->cols[lc] = merged;
    }
    /* join_use_nulls: the left side's columns (a USING key only in a FULL join, where it
     * is never NULL: the right side's key fills it). */
    for (int c = 0; c < nl && s->null_left; c++) {
        bool key = false;
        for (int u = 0; u < s->nusing; u++)
            key |= s->using_left[u] == c;
        if (key && !s->is_full)
            continue;
        make_nullable(&b->cols[c], key ? NULL : li->v, (uint32_t)L->rows);
    }
    for (int c = 0; c < nr; c++) {
        if (skip[c])
            continue;
        column *src = with_default_row(R->cols[c]);
        b->cols[o] = col_gather(src, ri->v, li->n);
        col_free(src);
        if (s->null_right)
            make_nullable(&b->cols[o], ri->v, (uint32_t)R->rows);
        o++;
    }
    free(skip);
    return b;
}

/* join_algorithm: 1 = grace hash, 0 = in memory; -1 with NOT_IMPLEMENTED for
 * 'partial_merge' (ClickHouse prefers hash, then partial merge, to grace hash when several
 * are listed). */
static int choose_algorithm(query_ctx *q)
{
    const char *v = settings_str(q->st, "join_algorithm");
    bool grace = false, hash = false, merge = false;
    char name[64];
    for (const char *p = v; p && *p;) {
        size_t n = strcspn(p, ",");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        if (!strcmp(name, "grace_hash"))
            grace = true;
        else if (!strcmp(name, "partial_merge") || !strcmp(name, "prefer_partial_merge"))
            merge = true;
        else if (strcmp(name, "direct") != 0) /* direct needs a key-value table: never applies */
            hash = true;
        p += n + (p[n] == ',');
    }
    if (hash)
        return 0;
    if (merge)
        return err_set(ERR_NOT_IMPLEMENTED,
                       "join_algorithm 'partial_merge' is not supported yet (use 'grace_hash' for a JOIN larger than memory)");
    return grace ? 1 : 0;
}

/* source_read_until's stop: the right side read so far costs more than *(uint64_t *)threshold
 * bytes in the hash table. */
static bool right_too_big(const block *sofar, void *threshold)
{
    return join_cost(sofar) > *(const uint64_t *)threshold;
}

/* max_rows_in_join / max_bytes_in_join over the right side of an in-memory join (its
 * cost in the hash table, join_cost)
 * (join_overflow_mode 'throw', the only mode shale has). */
static int check_join_limits(const block *R, query_ctx *q)
{
    int64_t rows = settings_int(q->st, "max_rows_in_join"), bytes = settings_int(q->st, "max_bytes_in_join");
    if (rows > 0 && R->rows > (uint64_t)rows)
        return err_set(ERR_SET_SIZE_LIMIT_EXCEEDED, "Limit for JOIN exceeded, max rows: %lld, current rows: %zu",
                       (long long)rows, R->rows);
    size_t have = bytes > 0 ? join_cost(R) : 0;
    if (bytes > 0 && have > (uint64_t)bytes)
        return err_set(ERR_SET_SIZE_LIMIT_EXCEEDED, "Limit for JOIN exceeded, max bytes: %lld, current bytes: %zu",
                       (long long)bytes, have);
    return 0;
}

/* Which columns of the join's layout are virtual (_path, _part, …) or otherwise left out
 * of SELECT * on their side: a side's columns from its nvisible on. */
static bool *hidden_columns(const join_spec *s, const source *left, const source *right, int *nhidden)
{
    bool *hidden = xcalloc((size_t)s->out->n + 1, sizeof *hidden);
    int o = 0;
    *nhidden = 0;
    for (int c = 0; c < left->sch->n; c++, o++)
        *nhidden += hidden[o] = c >= left->nvisible;
    for (int c = 0; c < right->sch->n; c++) {
        bool key = false;
        for (int u = 0; u < s->nusing; u++)
            key |= s->using_right[u] == c;
        if (!key)
            *nhidden += hidden[o++] = c >= right->nvisible;
    }
    return hidden;
}

/* The join's result with its hidden columns moved behind the others, so that SELECT *
 * leaves them out while qualified names still reach them. Takes src. */
static source *hide_columns(source *src, const bool *hidden, int nhidden)
{
    int n = src->sch->n, k = 0;
    int *perm = xmalloc(sizeof(int) * (size_t)(n + 1));
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < n; c++)
            if (hidden[c] == (pass == 1))
                perm[k++] = c;
    char **qual = src->col_qual, **qual2 = src->col_qual2, **bare = src->col_bare;
    src->col_qual = src->col_qual2 = src->col_bare = NULL;
    source *o = source_reorder(src, perm, n - nhidden);
    if (qual || qual2 || bare) {
        o->col_qual = xcalloc((size_t)n + 1, sizeof *o->col_qual);
        o->col_qual2 = xcalloc((size_t)n + 1, sizeof *o->col_qual2);
        o->col_bare = xcalloc((size_t)n + 1, sizeof *o->col_bare);
        for (int c = 0; c < n; c++) {
            o->col_qual[c] = qual ? qual[perm[c]] : NULL;
            o->col_qual2[c] = qual2 ? qual2[perm[c]] : NULL;
            o->col_bare[c] = bare ? bare[perm[c]] : xstrdup(o->sch->names[c]);
        }
    }
    free(qual);
    free(qual2);
    free(bare);
    free(perm);
    return o;
}

static int join_sources_all(source *left, source *right, const ast *j, const ast *where, query_ctx *q,
                            source **out);

/* join_any_take_last_row picks a key's last right row; but ClickHouse's planner may swap
 * the sides of the join (query_plan_join_swap_table = 'auto': a right side estimated
 * larger than the left), when "last" means the last left row instead — by estimates shale
 * cannot reproduce. So with a right side larger than the left, unless the swap is off, the
 * setting is NOT_IMPLEMENTED rather than a different answer. A Join table is never swapped. */
static int join_take_last_unsure(const join_spec *s, const block *L, const block *R, query_ctx *q)
{
    /* (L, R NULL: a grace hash join, whose sides' sizes are not known here) */
    if (!s->take_last || !(s->semi || (s->any && !s->is_right)) || q->join_right_table || (R && R->rows <= L->rows))
        return 0;
    const char *swap = settings_str(q->st, "query_plan_join_swap_table");
    if (swap && (!strcmp(swap, "0") || !strcasecmp(swap, "false")))
        return 0;
    return err_set(ERR_NOT_IMPLEMENTED, "join_any_take_last_row = 1 with a right side larger than the left, whose "
                                        "sides ClickHouse may swap, is not supported (query_plan_join_swap_table = 0 "
                                        "makes it supported)");
}

int join_sources(source *left, source *right, const ast *j, const ast *where, query_ctx *q, source **out)
{
    join_spec s;
    if (join_spec_init(&s, left, right, j, where, q))
        return -1;
    int nhidden;
    bool *hidden = hidden_columns(&s, left, right, &nhidden);
    join_spec_free(&s);
    int rc = join_sources_all(left, right, j, where, q, out);
    if (!rc && nhidden)
        *out = hide_columns(*out, hidden, nhidden);
    free(hidden);
    return rc;
}

/* The join with every column of both sides in its layout (join_sources hides some). */
static int join_sources_all(source *left, source *right, const ast *j, const ast *where, query_ctx *q,
                            source **out)
{
    join_spec s;
    if (join_spec_init(&s, left, right, j, where, q))
        return -1;
    if (q->join_right_table && join_engine_check_keys(&s, right, q->join_right_table)) {
        join_spec_free(&s);
        return -1;
    }
    int algo = s.is_cross ? 0 : choose_algorithm(q);
    if (algo < 0) {
        join_spec_free(&s);
        return -1;
    }
    if (algo == 1 && join_take_last_unsure(&s, NULL, NULL, q)) {
        join_spec_free(&s);
        return -1;
    }
    if (algo == 1)
        return join_grace(&s, left, right, NULL, q, out);

    int rc = -1;
    block *L = NULL, *R = NULL;
    rowvec li = {0}, ri = {0};
    join_table t = {0};
    /* An in-memory join becomes a grace hash join when its right side passes
     * max_bytes_before_external_join (or its ratio of the memory left), as in ClickHouse. */
    uint64_t threshold = 0;
    source_pause resume = {0};
    if (!s.is_cross &&
        spill_threshold(q, "max_bytes_before_external_join", "max_bytes_ratio_before_external_join", &threshold))
        goto out;
    if (source_read_until(right, q, threshold ? right_too_big : NULL, &threshold, &R, &resume))
        goto out;
    if (!R && join_take_last_unsure(&s, NULL, NULL, q)) {
        block_free(resume.pre);
        if (resume.it)
            right->close(resume.it);
        goto out;
    }
    if (!R)
        return join_grace(&s, left, right, &resume, q, out);
    if (!s.is_cross && check_join_limits(R, q))
        goto out;
    if (source_read_all(left, q, &L))
        goto out;
    if (!s.is_cross && join_take_last_unsure(&s, L, R, q))
        goto out;
    if (L->rows >= NO_ROW || R->rows >= NO_ROW) {
        err_set(ERR_TOO_MANY_ROWS_OR_BYTES, "A side of the JOIN has too many rows for the in-memory hash join");
        goto out;
    }
    if (s.is_cross) {
        for (uint32_t a = 0; a < L->rows; a++)
            for (uint32_t b = 0; b < R->rows; b++) {
                rv_push(&li, a);
                rv_push(&ri, b);
            }
    } else {
        if (join_table_build(&s, R, q, &t) || join_table_probe(&s, &t, L, q, &li, &ri))
            goto out;
        join_table_unmatched(&s, &t, &li, &ri);
    }
    {
        block **bs = xcalloc(1, sizeof *bs);
        bs[0] = join_gather(&s, L, R, &li, &ri);
        source *res = join_layout_source(&s, bs, 1);
        if (join_compile_residual(&s, res, q) || join_filter_residual(&s, bs[0])) {
            source_free(res);
            goto out;
        }
        *out = res;
        rc = 0;
    }
out:
    join_table_free(&t);
    join_spec_free(&s);
    block_free(L);
    block_free(R);
    free(li.v);
    free(ri.v);
    return rc;
}
