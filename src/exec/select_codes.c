/* SELECT over dictionary-coded columns (see select_codes.h). */
#include "exec/select_codes.h"

#include "base/err.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

typedef struct coded_col {
    int col;                  /* block column */
    const expr **conj;        /* WHERE conjuncts that read this column alone */
    int nconj;
} coded_col;

struct codes_plan {
    int nblock;               /* columns of a source block (plan->nsrc_cols) */
    coded_col *cols;
    int ncols;
    const expr **rest;        /* the other conjuncts, evaluated per row */
    int nrest;
    int key_col;              /* block column of a coded GROUP BY key, or -1 */
    bool *flags;              /* per source schema column */
};

/* ---- planning ---- */

static void collect_conjuncts(const expr *e, const expr ***out, int *n)
{
    if (e->kind == EX_FUNC && e->call && strcmp(e->call->def->name, "and") == 0) {
        for (int i = 0; i < e->nargs; i++)
            collect_conjuncts(e->args[i], out, n);
        return;
    }
    *out = xrealloc(*out, sizeof **out * (size_t)(*n + 1));
    (*out)[(*n)++] = e;
}

/* Marks the columns read by exprs other than the WHERE and a bare single GROUP BY key. */
static void mark_other_uses(const select_plan *p, uint8_t *used)
{
    for (int k = 0; k < p->nkeys; k++)
        if (!(p->nkeys == 1 && p->keys[0]->kind == EX_COL))
            expr_columns(p->keys[k], used);
    for (int a = 0; a < p->naggs; a++)
        for (int j = 0; j < p->agg_nargs[a]; j++)
            expr_columns(p->agg_args[a][j], used);
    if (!p->aggregate) { /* output and ORDER BY read the source block directly */
        for (int i = 0; i < p->nout; i++)
            expr_columns(p->out[i], used);
        for (int i = 0; i < p->norder; i++)
            expr_columns(p->order[i], used);
    }
}

codes_plan *codes_plan_new(const select_plan *p)
{
    /* window columns index past the source's; ARRAY JOIN multiplies rows */
    if (!p->src->accept_codes || p->nsrc_cols == 0 || p->windows || p->array_join)
        return NULL;
    int nb = p->nsrc_cols;
    uint8_t *other = xcalloc((size_t)nb, 1);
    mark_other_uses(p, other);
    const expr **conj = NULL;
    int nconj = 0;
    if (p->where)
        collect_conjuncts(p->where, &conj, &nconj);
    /* per conjunct: the one column it reads, or -1 (several, none, non-deterministic) */
    int *only = xmalloc(sizeof *only * (size_t)(nconj + 1));
    uint8_t *used = xmalloc((size_t)nb);
    for (int i = 0; i < nconj; i++) {
        memset(used, 0, (size_t)nb);
        /* a non-deterministic conjunct's value per dictionary entry would not stand for
         * its value per row */
        bool det = expr_columns(conj[i], used);
        int cnt = 0, which = -1;
        for (int c = 0; c < nb; c++)
            if (used[c]) {
                cnt++;
                which = c;
            }
        only[i] = det && cnt == 1 ? which : -1;
        if (only[i] < 0)
            for (int c = 0; c < nb; c++)
                other[c] |= used[c];
    }
    int key = p->aggregate && p->nkeys == 1 && p->keys[0]->kind == EX_COL ? p->keys[0]->col : -1;
    codes_plan *c = xcalloc(1, sizeof *c);
    c->nblock = nb;
    c->key_col = -1;
    for (int col = 0; col < nb; col++) {
        const type *t = p->src->sch->types[p->src_cols[col]];
        if (other[col] || t->id != T_STRING)
            continue;
        int mine = 0;
        for (int i = 0; i < nconj; i++)
            mine += only[i] == col;
        if (mine == 0 && col != key)
            continue;
        c->cols = xrealloc(c->cols, sizeof *c->cols * (size_t)(c->ncols + 1));
        coded_col *cc = &c->cols[c->ncols++];
        cc->col = col;
        cc->nconj = 0;
        cc->conj = xmalloc(sizeof *cc->conj * (size_t)(mine + 1));
        for (int i = 0; i < nconj; i++)
            if (only[i] == col) {
                cc->conj[cc->nconj++] = conj[i];
                only[i] = -2; /* taken */
            }
        if (col == key)
            c->key_col = col;
    }
    for (int i = 0; i < nconj; i++)
        if (only[i] != -2) {
            c->rest = xrealloc(c->rest, sizeof *c->rest * (size_t)(c->nrest + 1));
            c->rest[c->nrest++] = conj[i];
        }
    free(conj);
    free(only);
    free(used);
    free(other);
    if (c->ncols == 0) {
        codes_plan_free(c);
        return NULL;
    }
    c->flags = xcalloc((size_t)p->src->sch->n + 1, sizeof *c->flags);
    for (int i = 0; i < c->ncols; i++)
        c->flags[p->src_cols[c->cols[i].col]] = true;
    return c;
}

void codes_plan_free(codes_plan *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->ncols; i++)
        free(c->cols[i].conj);
    free(c->cols);
    free(c->rest);
    free(c->flags);
    free(c);
}

const bool *codes_plan_flags(const codes_plan *c) { return c->flags; }
int codes_plan_key_col(const codes_plan *c) { return c->key_col; }

/* ---- evaluation ---- */

typedef struct dict_mask {
    column *dict;             /* the dictionary the mask was made for (a reference) */
    uint8_t *mask;            /* per entry: passes the column's conjuncts */
} dict_mask;

struct codes_cache {
    dict_mask *m;             /* per coded column */
    int n;
    uint8_t *tmp;
    size_t tmp_cap;
};

codes_cache *codes_cache_new(const codes_plan *c)
{
    codes_cache *k = xcalloc(1, sizeof *k);
    k->m = xcalloc((size_t)c->ncols + 1, sizeof *k->m);
    k->n = c->ncols;
    return k;
}

void codes_cache_free(codes_cache *k)
{
    if (!k)
        return;
    for (int i = 0; i < k->n; i++) {
        col_free(k->m[i].dict);
        free(k->m[i].mask);
    }
    free(k->m);
    free(k->tmp);
    free(k);
}

static uint8_t *scratch(codes_cache *k, size_t n)
{
    if (n + 1 > k->tmp_cap) {
        free(k->tmp);
        k->tmp_cap = n + 1;
        k->tmp = xmalloc(k->tmp_cap);
    }
    return k->tmp;
}

/* keep &= the conjuncts over block b (rows of b). */
static int and_conjuncts(const expr *const *conj, int n, const block *b, uint8_t *keep, codes_cache *k)
{
    for (int i = 0; i < n; i++) {
        column *m;
        if (expr_eval(conj[i], b, &m))
            return -1;
        m = col_materialize(m);
        uint8_t *t = scratch(k, b->rows);
        expr_truth_mask(m, t);
        col_free(m);
        for (size_t r = 0; r < b->rows; r++)
            keep[r] &= t[r];
    }
    return 0;
}

/* The mask over dictionary entries for coded column cc, made once per dictionary. The
 * conjuncts run over a block whose only column is the dictionary, at the coded column's
 * position (they read no other column). */
static const uint8_t *dict_mask_for(const codes_plan *c, const coded_col *cc, dict_mask *dm, column *dict,
                                    codes_cache *k)
{
    if (dm->dict == dict)
        return dm->mask;
    col_free(dm->dict);
    free(dm->mask);
    dm->dict = NULL;
    dm->mask = xmalloc(dict->len + 1);
    memset(dm->mask, 1, dict->len + 1);
    block *db = block_new(c->nblock, dict->len);
    db->cols[cc->col] = col_ref(dict);
    int rc = and_conjuncts(cc->conj, cc->nconj, db, dm->mask, k);
    block_free(db);
    if (rc) {
        free(dm->mask);
        dm->mask = NULL;
        return NULL;
    }
    dm->dict = col_ref(dict);
    return dm->mask;
}

long codes_where(const codes_plan *c, codes_cache *k, const block *b, uint8_t *keep)
{
    size_t rows = b->rows;
    memset(keep, 1, rows);
    for (int i = 0; i < c->ncols; i++) {
        const coded_col *cc = &c->cols[i];
        if (cc->nconj == 0)
            continue;
        const column *col = b->cols[cc->col];
        if (!col->dict) { /* arrived as values: the conjuncts run per row */
            if (and_conjuncts(cc->conj, cc->nconj, b, keep, k))
                return -1;
            continue;
        }
        const uint8_t *dm = dict_mask_for(c, cc, &k->m[i], col->dict, k);
        if (!dm)
            return -1;
        const uint32_t *code = col_codes(col);
        for (size_t r = 0; r < rows; r++)
            keep[r] &= dm[code[r]];
    }
    if (c->nrest && and_conjuncts(c->rest, c->nrest, b, keep, k))
        return -1;
    size_t kept = 0;
    for (size_t r = 0; r < rows; r++)
        kept += keep[r];
    return (long)kept;
}
