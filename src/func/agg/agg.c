/* Aggregate function registry, combinators (-If, -Distinct, -OrNull, -OrDefault) and the
 * Nullable wrapper.
 *
 * A resolved call is a chain of agg_call layers: the outermost layer is what the caller
 * runs; each combinator layer keeps its own bookkeeping at the end of its state and puts
 * the nested layer's state at offset 0, so layers nest without pointer chasing. */
#include "agg_impl.h"
#include "func/agg_state.h"

#include <pthread.h>
#include <stdlib.h>
#include <strings.h>

/* ---- registry ---- */

typedef struct alias_ent {
    const char *alias;
    const char *name;
    bool ci; /* the alias is case-insensitive (BIT_AND, bit_and) */
} alias_ent;

static const agg_def **defs;
static int ndefs, capdefs;
static alias_ent *aliases;
static int naliases, capaliases;
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

void agg_register(const agg_def *def)
{
    if (ndefs == capdefs) {
        capdefs = capdefs ? capdefs * 2 : 32;
        defs = xrealloc(defs, sizeof *defs * (size_t)capdefs);
    }
    defs[ndefs++] = def;
}

static void add_alias(const char *alias, const char *name, bool ci)
{
    if (naliases == capaliases) {
        capaliases = capaliases ? capaliases * 2 : 16;
        aliases = xrealloc(aliases, sizeof *aliases * (size_t)capaliases);
    }
    aliases[naliases++] = (alias_ent){alias, name, ci};
}

void agg_register_alias(const char *alias, const char *name) { add_alias(alias, name, false); }
void agg_register_alias_ci(const char *alias, const char *name) { add_alias(alias, name, true); }

static void reg_all(void)
{
    agg_register_basic();
    agg_register_uniq();
    agg_register_quantile();
    void agg_register_uniq_combined(void);
    agg_register_uniq_combined();
    void agg_register_uniq_hll12(void);
    agg_register_uniq_hll12();
    void agg_register_quantile_tdigest(void);
    agg_register_quantile_tdigest();
    void agg_register_stats(void);
    agg_register_stats();
    void agg_register_collect(void);
    agg_register_collect();
    void agg_register_topk(void);
    agg_register_topk();
    void agg_register_bitwise(void);
    agg_register_bitwise();
    void agg_register_map(void);
    agg_register_map();
}

void agg_registry_init(void) { pthread_once(&reg_once, reg_all); }

static const agg_def *lookup_n(const char *name, size_t n)
{
    for (int i = 0; i < ndefs; i++) {
        const agg_def *d = defs[i];
        if (strlen(d->name) != n)
            continue;
        if ((d->flags & AGG_CASE_INSENSITIVE) ? strncasecmp(d->name, name, n) == 0 : strncmp(d->name, name, n) == 0)
            return d;
    }
    for (int i = 0; i < naliases; i++)
        if (strlen(aliases[i].alias) == n &&
            (aliases[i].ci ? strncasecmp(aliases[i].alias, name, n) : strncmp(aliases[i].alias, name, n)) == 0)
            return lookup_n(aliases[i].name, strlen(aliases[i].name));
    return NULL;
}

const agg_def *agg_lookup(const char *name)
{
    agg_registry_init();
    return lookup_n(name, strlen(name));
}

int agg_count(void)
{
    agg_registry_init();
    return ndefs;
}

const agg_def *agg_at(int i)
{
    agg_registry_init();
    return i >= 0 && i < ndefs ? defs[i] : NULL;
}

int agg_alias_count(void)
{
    agg_registry_init();
    return naliases;
}

const char *agg_alias_at(int i, const char **name, bool *case_insensitive)
{
    agg_registry_init();
    if (i < 0 || i >= naliases)
        return NULL;
    *name = aliases[i].name;
    *case_insensitive = aliases[i].ci;
    return aliases[i].alias;
}

/* ---- combinator parsing ---- */

enum { CMB_NONE, CMB_IF, CMB_DISTINCT, CMB_ORNULL, CMB_ORDEFAULT, CMB_STATE, CMB_MERGE };
static const struct {
    const char *suffix;
    int kind;
} combinators[] = {
    {"If", CMB_IF},       {"Distinct", CMB_DISTINCT}, {"OrNull", CMB_ORNULL},
    {"OrDefault", CMB_ORDEFAULT}, {"State", CMB_STATE}, {"Merge", CMB_MERGE},
};

/* Finds the outermost combinator of name[0..n): the longest suffix match whose rest is
 * itself a valid (possibly combined) function name. Returns its kind and the rest's length,
 * CMB_NONE when name[0..n) is a plain function, or -1 when nothing matches. */
static int parse_name(const char *name, size_t n, size_t *rest)
{
    if (lookup_n(name, n)) {
        *rest = n;
        return CMB_NONE;
    }
    for (size_t k = 0; k < sizeof combinators / sizeof combinators[0]; k++) {
        size_t sl = strlen(combinators[k].suffix);
        if (n > sl && memcmp(name + n - sl, combinators[k].suffix, sl) == 0) {
            size_t r;
            if (parse_name(name, n - sl, &r) >= 0) {
                *rest = n - sl;
                return combinators[k].kind;
            }
        }
    }
    return -1;
}

bool agg_exists(const char *name)
{
    agg_registry_init();
    size_t r;
    return parse_name(name, strlen(name), &r) >= 0;
}

/* ---- calls ---- */

static agg_call *call_new(const agg_def *def, const char *name, int nargs, const type *const *types, int nparams,
                          const double *params)
{
    agg_call *a = xcalloc(1, sizeof *a);
    a->def = def;
    a->name = xstrdup(name);
    a->nargs = nargs;
    a->arg_types = xcalloc((size_t)(nargs ? nargs : 1), sizeof *a->arg_types);
    for (int i = 0; i < nargs; i++)
        a->arg_types[i] = types[i];
    a->nparams = nparams;
    a->params = xcalloc((size_t)(nparams ? nparams : 1), sizeof(double));
    for (int i = 0; i < nparams; i++)
        a->params[i] = params[i];
    a->state_align = 1;
    return a;
}

void agg_call_free(agg_call *a)
{
    if (!a)
        return;
    agg_call_free((agg_call *)a->nested);
    free((void *)a->name);
    free(a->arg_types);
    free(a->params);
    free(a->data);
    free(a);
}

static size_t align_up(size_t n, size_t al) { return (n + al - 1) / al * al; }

void *agg_state_new(const agg_call *a)
{
    size_t al = a->state_align < 16 ? 16 : a->state_align;
    /* mem_alloc returns malloc-aligned (16) memory; states need no more than that. */
    (void)al;
    void *p = mem_calloc(a->state_size ? a->state_size : 1);
    a->ops.init(a, p);
    return p;
}

void agg_state_free(const agg_call *a, void *state)
{
    if (a->ops.destroy)
        a->ops.destroy(a, state);
    mem_free(state);
}

/* Scratch mask for one block: on the stack for small blocks, else on the heap. */
typedef struct mask_buf {
    uint8_t small[1024];
    uint8_t *p;
} mask_buf;

static uint8_t *mask_get(mask_buf *b, size_t rows)
{
    b->p = rows <= sizeof b->small ? b->small : mem_alloc(rows);
    return b->p;
}

static void mask_put(mask_buf *b)
{
    if (b->p != b->small)
        mem_free(b->p);
}

/* Marks "some row was added" for wrappers that keep a flag after the nested state. */
static inline void set_flags_rows(char *const *sts, size_t off, size_t rows, const uint8_t *m)
{
    for (size_t i = 0; i < rows; i++)
        if (!m || m[i])
            sts[i][off] = 1;
}

/* ---- -If ---- */

/* Writes the condition (last argument) ANDed with m into out; returns out. */
static const uint8_t *if_mask(const agg_call *a, column *const *args, size_t rows, const uint8_t *m, uint8_t *out)
{
    const column *c = args[a->nargs - 1];
    const uint8_t *cv = c->data.p;
    if (c->is_const) {
        uint8_t v = rows ? (cv[0] != 0) : 0;
        for (size_t i = 0; i < rows; i++)
            out[i] = v & (m ? m[i] != 0 : 1);
    } else if (m) {
        for (size_t i = 0; i < rows; i++)
            out[i] = (cv[i] != 0) & (m[i] != 0);
    } else {
        return cv;
    }
    return out;
}

static void if_init(const agg_call *a, void *st) { a->nested->ops.init(a->nested, st); }
static void if_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    mask_buf mb;
    uint8_t *tmp = mask_get(&mb, rows);
    a->nested->ops.add_all_mask(a->nested, st, args, rows, if_mask(a, args, rows, m, tmp));
    mask_put(&mb);
}
static void if_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    if_add_all_mask(a, st, args, rows, NULL);
}
static void if_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                             const uint8_t *m)
{
    mask_buf mb;
    uint8_t *tmp = mask_get(&mb, rows);
    a->nested->ops.add_rows_mask(a->nested, sts, off, args, rows, if_mask(a, args, rows, m, tmp));
    mask_put(&mb);
}
static void if_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    if_add_rows_mask(a, sts, off, args, rows, NULL);
}
static void pass_merge(const agg_call *a, void *d, void *s) { a->nested->ops.merge(a->nested, d, s); }
static int pass_finalize(const agg_call *a, void *st, column *out) { return a->nested->ops.finalize(a->nested, st, out); }
static void pass_destroy(const agg_call *a, void *st)
{
    if (a->nested->ops.destroy)
        a->nested->ops.destroy(a->nested, st);
}
static void pass_serialize(const agg_call *a, const void *st, buf *out) { a->nested->ops.serialize(a->nested, st, out); }
static int pass_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    return a->nested->ops.deserialize(a->nested, st, in);
}

bool agg_wraps_state(const agg_call *a)
{
    return a->nested && a->ops.destroy == pass_destroy;
}

/* ---- -OrNull / -OrDefault / Nullable wrapper: a "seen" flag after the nested state ----
 *
 * The Nullable wrapper additionally skips rows where a Nullable argument is NULL (or, for
 * an -If chain, where the condition is false or NULL), handing the nested chain argument
 * columns that are shallow views of the Nullable columns' inner data. */

typedef struct flag_data {
    size_t flag_off;
    bool strip;         /* Nullable wrapper: skip NULL rows, pass inner columns */
    bool keep_type;     /* result not Nullable: no flag needed (count, uniq, groupArray) */
    bool or_default;    /* -OrDefault: default value instead of NULL */
    bool has_if;        /* the chain's outermost combinator is -If: its condition gates the flag */
    bool no_flag_bytes; /* Nullable wrapper of count / groupArray: the state has no flag byte */
} flag_data;

static void flag_init(const agg_call *a, void *st)
{
    const flag_data *fd = a->data;
    a->nested->ops.init(a->nested, st);
    ((char *)st)[fd->flag_off] = 0;
}

/* Builds the views and the selection mask of a Nullable wrapper; returns the mask or NULL
 * when every row is selected. views/ptrs must have nargs entries. */
static const uint8_t *strip_args(const agg_call *a, column *const *args, size_t rows, const uint8_t *m,
                                 column *views, column **ptrs, uint8_t *tmp)
{
    const flag_data *fd = a->data;
    bool any_mask = false;
    if (m) {
        memcpy(tmp, m, rows);
        any_mask = true;
    }
    for (int k = 0; k < a->nargs; k++) {
        const column *c = args[k];
        if (type_is_nullable(c->type) && c->inner) {
            views[k] = *c->inner;
            views[k].is_const = c->is_const;
            views[k].len = c->len;
            ptrs[k] = &views[k];
            if (!any_mask) {
                memset(tmp, 1, rows);
                any_mask = true;
            }
            if (c->is_const) {
                if (rows && c->nulls.p && c->nulls.p[0])
                    memset(tmp, 0, rows);
            } else if (c->nulls.p) {
                const uint8_t *nm = c->nulls.p;
                for (size_t i = 0; i < rows; i++)
                    tmp[i] &= (uint8_t)!nm[i];
            }
        } else {
            ptrs[k] = (column *)c;
        }
    }
    if (fd->has_if) {
        const column *c = ptrs[a->nargs - 1];
        if (!any_mask) {
            memset(tmp, 1, rows);
            any_mask = true;
        }
        const uint8_t *cv = c->data.p;
        for (size_t i = 0; i < rows; i++)
            tmp[i] &= (uint8_t)(cv[col_idx(c, i)] != 0);
    }
    return any_mask ? tmp : NULL;
}

#define MAX_STACK_ARGS 16

static void flag_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    const flag_data *fd = a->data;
    mask_buf mb;
    uint8_t *tmp = mask_get(&mb, rows);
    column views[MAX_STACK_ARGS], *ptrs[MAX_STACK_ARGS];
    column *const *use = args;
    const uint8_t *mm = m;
    if (fd->strip) {
        mm = strip_args(a, args, rows, m, views, ptrs, tmp);
        use = ptrs;
    } else if (fd->has_if) {
        mm = if_mask(a, args, rows, m, tmp);
    }
    size_t sel = mm ? agg_mask_count(mm, rows) : rows;
    if (sel) {
        ((char *)st)[fd->flag_off] = 1;
        if (mm)
            a->nested->ops.add_all_mask(a->nested, st, use, rows, mm);
        else
            a->nested->ops.add_all(a->nested, st, use, rows);
    }
    mask_put(&mb);
}
static void flag_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    flag_add_all_mask(a, st, args, rows, NULL);
}
static void flag_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                               const uint8_t *m)
{
    const flag_data *fd = a->data;
    mask_buf mb;
    uint8_t *tmp = mask_get(&mb, rows);
    column views[MAX_STACK_ARGS], *ptrs[MAX_STACK_ARGS];
    column *const *use = args;
    const uint8_t *mm = m;
    if (fd->strip) {
        mm = strip_args(a, args, rows, m, views, ptrs, tmp);
        use = ptrs;
    } else if (fd->has_if) {
        mm = if_mask(a, args, rows, m, tmp);
    }
    set_flags_rows(sts, off + fd->flag_off, rows, mm);
    if (mm)
        a->nested->ops.add_rows_mask(a->nested, sts, off, use, rows, mm);
    else
        a->nested->ops.add_rows(a->nested, sts, off, use, rows);
    mask_put(&mb);
}
static void flag_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    flag_add_rows_mask(a, sts, off, args, rows, NULL);
}
static void flag_merge(const agg_call *a, void *d, void *s)
{
    const flag_data *fd = a->data;
    a->nested->ops.merge(a->nested, d, s);
    ((char *)d)[fd->flag_off] |= ((char *)s)[fd->flag_off];
}
static int flag_finalize(const agg_call *a, void *st, column *out)
{
    const flag_data *fd = a->data;
    bool seen = ((char *)st)[fd->flag_off];
    if (fd->keep_type)
        return a->nested->ops.finalize(a->nested, st, out);
    if (!seen) {
        col_push_default(out); /* NULL for a Nullable result, 0 / '' / [] for -OrDefault */
        return 0;
    }
    /* -OrNull of a result that cannot be Nullable (topKOrNull: an array) keeps its type */
    if (fd->or_default || type_is_nullable(a->nested->ret) || !type_is_nullable(a->ret))
        return a->nested->ops.finalize(a->nested, st, out);
    int rc = a->nested->ops.finalize(a->nested, st, out->inner);
    col_nullable_commit(out, false);
    return rc;
}

/* ClickHouse's layouts: the Nullable wrapper writes the flag first and the nested state
 * only when set (AggregateFunctionNullBase); -OrNull / -OrDefault write the nested state
 * and then the flag (AggregateFunctionOrFill). */
static void flag_serialize(const agg_call *a, const void *st, buf *out)
{
    const flag_data *fd = a->data;
    uint8_t f = ((const uint8_t *)st)[fd->flag_off] != 0;
    if (!fd->strip) {
        a->nested->ops.serialize(a->nested, st, out);
        buf_putc(out, (char)f);
        return;
    }
    if (fd->no_flag_bytes) {
        a->nested->ops.serialize(a->nested, st, out);
        return;
    }
    /* AggregateFunctionNullBase::getFlag is always true when the result is not Nullable
     * (uniqExact, topKWeighted): the nested state follows even if no row was seen */
    if (fd->keep_type)
        f = 1;
    buf_putc(out, (char)f);
    if (f)
        a->nested->ops.serialize(a->nested, st, out);
}
static int flag_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const flag_data *fd = a->data;
    uint8_t f = 1;
    if (fd->strip && fd->no_flag_bytes)
        return a->nested->ops.deserialize(a->nested, st, in);
    if (!fd->strip && a->nested->ops.deserialize(a->nested, st, in) < 0)
        return -1;
    if (agg_rd_bytes(in, &f, 1) < 0)
        return -1;
    if (f > 1)
        return err_set(ERR_INCORRECT_DATA, "Malformed flag %u in the state of aggregate function %s", f, a->name);
    ((uint8_t *)st)[fd->flag_off] = f;
    if (fd->strip && f)
        return a->nested->ops.deserialize(a->nested, st, in);
    return 0;
}

static const type *nullable_or_same(const type *t) { return type_can_be_nullable(t) ? type_nullable(t) : t; }

static agg_call *wrap_flag(agg_call *nested, const char *name, flag_data fd, const agg_def *def)
{
    agg_call *a = call_new(def, name, nested->nargs, nested->arg_types, nested->nparams, nested->params);
    a->nested = nested;
    size_t al = nested->state_align ? nested->state_align : 1;
    fd.flag_off = nested->state_size;
    a->state_size = align_up(nested->state_size + 1, al);
    a->state_align = al;
    a->ops = (agg_ops){.init = flag_init,
                       .add_all = flag_add_all,
                       .add_rows = flag_add_rows,
                       .merge = flag_merge,
                       .finalize = flag_finalize,
                       .destroy = pass_destroy,
                       .add_all_mask = flag_add_all_mask,
                       .add_rows_mask = flag_add_rows_mask};
    if (nested->ops.serialize) {
        a->ops.serialize = flag_serialize;
        a->ops.deserialize = flag_deserialize;
    }
    flag_data *p = xmalloc(sizeof *p);
    *p = fd;
    a->data = p;
    if (fd.keep_type || fd.or_default)
        a->ret = nested->ret;
    else
        a->ret = nullable_or_same(nested->ret);
    return a;
}

/* ---- -Distinct ---- */

/* The distinct rows seen so far, kept as columns (one per argument), with an open-addressing
 * table of row numbers keyed by a row hash. At finalize the rows are fed to the nested
 * function in one batch. */
typedef struct dset {
    column **cols;
    uint64_t *hashes;   /* per stored row */
    uint32_t *table;    /* row + 1, 0 = empty */
    size_t cap, n;
} dset;

static void d_init(const agg_call *a, void *st) { *(dset **)st = NULL; }

static dset *d_get(const agg_call *a, void *st)
{
    dset *d = *(dset **)st;
    if (!d) {
        d = mem_calloc(sizeof *d);
        d->cols = mem_calloc(sizeof(column *) * (size_t)(a->nargs ? a->nargs : 1));
        for (int k = 0; k < a->nargs; k++)
            d->cols[k] = col_new(type_base(a->arg_types[k]));
        d->cap = 16;
        d->table = mem_calloc(sizeof(uint32_t) * d->cap);
        *(dset **)st = d;
    }
    return d;
}

static void d_rehash(dset *d)
{
    size_t cap = d->cap * 2;
    uint32_t *t = mem_calloc(sizeof(uint32_t) * cap);
    for (size_t r = 0; r < d->n; r++) {
        size_t p = d->hashes[r] & (cap - 1);
        while (t[p])
            p = (p + 1) & (cap - 1);
        t[p] = (uint32_t)(r + 1);
    }
    mem_free(d->table);
    d->table = t;
    d->cap = cap;
}

static void d_insert(const agg_call *a, dset *d, column *const *args, size_t i)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < a->nargs; k++)
        h = (h ^ col_hash_row(args[k], i)) * 0x100000001b3ULL;
    size_t p = h & (d->cap - 1);
    while (d->table[p]) {
        size_t r = d->table[p] - 1;
        if (d->hashes[r] == h) {
            bool eq = true;
            for (int k = 0; k < a->nargs && eq; k++)
                eq = col_equal_rows(d->cols[k], r, args[k], i);
            if (eq)
                return;
        }
        p = (p + 1) & (d->cap - 1);
    }
    for (int k = 0; k < a->nargs; k++)
        col_push_from(d->cols[k], args[k], i);
    if ((d->n & (d->n - 1)) == 0 || d->n == 0)
        d->hashes = mem_realloc(d->hashes, sizeof(uint64_t) * (d->n ? d->n * 2 : 1));
    d->hashes[d->n] = h;
    d->table[p] = (uint32_t)(d->n + 1);
    d->n++;
    if (d->n * 2 > d->cap)
        d_rehash(d);
}

static inline void d_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    column tmp[MAX_STACK_ARGS], *ptrs[MAX_STACK_ARGS];
    /* Arguments whose column type is Nullable/LowCardinality-typed but stripped: compare by
     * physical layout, so retype shallow views to the stored columns' types. */
    dset *d = d_get(a, st);
    for (int k = 0; k < a->nargs; k++) {
        tmp[k] = *args[k];
        tmp[k].type = d->cols[k]->type;
        ptrs[k] = &tmp[k];
    }
    d_insert(a, d, ptrs, i);
}
AGG_ROW_OPS(dist, d_row)

static void d_destroy(const agg_call *a, void *st)
{
    dset *d = *(dset **)st;
    if (!d)
        return;
    for (int k = 0; k < a->nargs; k++)
        col_free(d->cols[k]);
    mem_free(d->cols);
    mem_free(d->hashes);
    mem_free(d->table);
    mem_free(d);
    *(dset **)st = NULL;
}

static void d_merge(const agg_call *a, void *dst, void *src)
{
    dset *s = *(dset **)src;
    if (!s)
        return;
    dset *d = d_get(a, dst);
    for (size_t r = 0; r < s->n; r++)
        d_insert(a, d, s->cols, r);
    d_destroy(a, src);
}

static int d_finalize(const agg_call *a, void *st, column *out)
{
    dset *d = *(dset **)st;
    void *ns = agg_state_new(a->nested);
    if (d && d->n)
        a->nested->ops.add_all(a->nested, ns, d->cols, d->n);
    int rc = a->nested->ops.finalize(a->nested, ns, out);
    agg_state_free(a->nested, ns);
    return rc;
}

/* ---- resolution ---- */

static int resolve_chain(const char *name, size_t n, int nargs, const type *const *types, int nparams,
                         const double *params, agg_call **out);

static int resolve_base(const agg_def *def, const char *name, int nargs, const type *const *types, int nparams,
                        const double *params, agg_call **out)
{
    agg_call *a = call_new(def, name, nargs, types, nparams, params);
    if (def->resolve(a) < 0) {
        agg_call_free(a);
        return -1;
    }
    *out = a;
    return 0;
}

static int resolve_chain(const char *name, size_t n, int nargs, const type *const *types, int nparams,
                         const double *params, agg_call **out)
{
    size_t rest;
    int kind = parse_name(name, n, &rest);
    char *nm = xstrndup(name, n);
    int rc = -1;
    agg_call *inner = NULL;
    if (kind < 0) {
        rc = err_set(ERR_UNKNOWN_AGGREGATE_FUNCTION, "Unknown aggregate function %s", nm);
        goto done;
    }
    if (kind == CMB_STATE || kind == CMB_MERGE) {
        rc = err_set(ERR_NOT_IMPLEMENTED, "Aggregate function %s: -State and -Merge are supported only as the "
                     "last combinator", nm);
        goto done;
    }
    if (kind == CMB_NONE) {
        rc = resolve_base(lookup_n(name, n), nm, nargs, types, nparams, params, out);
        goto done;
    }
    if (kind == CMB_IF) {
        if (nargs < 1) {
            rc = err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                         "Incorrect number of arguments for aggregate function with If suffix");
            goto done;
        }
        type_id c = type_base(types[nargs - 1])->id;
        if (c != T_UINT8 && c != T_BOOL) {
            rc = err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                         "Illegal type %s of last argument for aggregate function with If suffix",
                         types[nargs - 1]->name);
            goto done;
        }
        if (resolve_chain(name, rest, nargs - 1, types, nparams, params, &inner) < 0)
            goto done;
        agg_call *a = call_new(inner->def, nm, nargs, types, nparams, params);
        a->nested = inner;
        a->ret = inner->ret;
        a->state_size = inner->state_size;
        a->state_align = inner->state_align;
        a->ops = (agg_ops){.init = if_init,
                           .add_all = if_add_all,
                           .add_rows = if_add_rows,
                           .merge = pass_merge,
                           .finalize = pass_finalize,
                           .destroy = pass_destroy,
                           .add_all_mask = if_add_all_mask,
                           .add_rows_mask = if_add_rows_mask};
        if (inner->ops.serialize) {
            a->ops.serialize = pass_serialize;
            a->ops.deserialize = pass_deserialize;
        }
        *out = a;
        rc = 0;
        goto done;
    }
    if (kind == CMB_DISTINCT) {
        const agg_def *bd = lookup_n(name, rest);
        if (bd && strcasecmp(bd->name, "count") == 0) {
            /* count(DISTINCT x) is uniqExact(x), as in ClickHouse. */
            const agg_def *u = lookup_n("uniqExact", 9);
            if (nargs == 0) {
                rc = err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                             "Aggregate function countDistinct requires at least one argument");
                goto done;
            }
            rc = resolve_base(u, nm, nargs, types, nparams, params, out);
            goto done;
        }
        if (resolve_chain(name, rest, nargs, types, nparams, params, &inner) < 0)
            goto done;
        if (nargs > MAX_STACK_ARGS) {
            agg_call_free(inner);
            rc = err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many arguments for aggregate function %s", nm);
            goto done;
        }
        agg_call *a = call_new(inner->def, nm, nargs, types, nparams, params);
        a->nested = inner;
        a->ret = inner->ret;
        a->state_size = sizeof(dset *);
        a->state_align = _Alignof(dset *);
        a->ops = (agg_ops){.init = d_init, .merge = d_merge, .finalize = d_finalize, .destroy = d_destroy};
        AGG_SET_ADD_OPS(a, dist);
        *out = a;
        rc = 0;
        goto done;
    }
    /* -OrNull / -OrDefault */
    if (resolve_chain(name, rest, nargs, types, nparams, params, &inner) < 0)
        goto done;
    size_t r2;
    /* sumIfOrNull: only rows passing the condition count as seen. */
    flag_data fd = {.or_default = kind == CMB_ORDEFAULT, .has_if = parse_name(name, rest, &r2) == CMB_IF};
    *out = wrap_flag(inner, nm, fd, inner->def);
    rc = 0;
done:
    free(nm);
    return rc;
}

/* Always-NULL aggregate for NULL literal arguments. */
static void nul_init(const agg_call *a, void *st) { *(char *)st = 0; }
static void nul_add_all(const agg_call *a, void *st, column *const *args, size_t rows) {}
static void nul_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows) {}
static void nul_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m) {}
static void nul_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                              const uint8_t *m)
{
}
static void nul_merge(const agg_call *a, void *d, void *s) {}
static int nul_finalize(const agg_call *a, void *st, column *out)
{
    col_push_null(out);
    return 0;
}

int agg_resolve(const char *name, int nargs, const type *const *arg_types, int nparams, const double *params,
                agg_call **out)
{
    agg_registry_init();
    *out = NULL;
    size_t n = strlen(name);
    size_t rest;
    int kind = parse_name(name, n, &rest);
    if (kind < 0)
        return err_set(ERR_UNKNOWN_AGGREGATE_FUNCTION, "Unknown aggregate function %s", name);
    if (nargs > MAX_STACK_ARGS)
        return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many arguments for aggregate function %s", name);
    if (kind == CMB_STATE) {
        /* fState(args): f resolved in full (with its Nullable wrapper), its state serialized. */
        agg_call *inner;
        char *rn = xstrndup(name, rest);
        int rc = agg_resolve(rn, nargs, arg_types, nparams, params, &inner);
        free(rn);
        if (rc < 0)
            return -1;
        size_t r2;
        const type *ret = NULL;
        if (parse_name(name, rest, &r2) == CMB_MERGE) /* -MergeState: the argument's type */
            ret = type_phys(arg_types[0]);
        /* ClickHouse names the state's argument types without LowCardinality. */
        const type *plain[MAX_STACK_ARGS + 1];
        for (int i = 0; i < nargs; i++)
            plain[i] = type_phys(arg_types[i]);
        return agg_wrap_state(inner, name, ret ? r2 : rest, nargs, plain, ret, out);
    }
    if (kind == CMB_MERGE)
        return agg_wrap_merge(name, rest, nargs, arg_types, nparams, params, out);

    /* The chain sees arguments without Nullable / LowCardinality. */
    const type *stripped[MAX_STACK_ARGS + 1];
    bool any_nullable = false, null_literal = false;
    for (int i = 0; i < nargs; i++) {
        if (type_is_nullable(arg_types[i]))
            any_nullable = true;
        stripped[i] = type_base(arg_types[i]);
        if (stripped[i]->id == T_NOTHING)
            null_literal = true;
    }
    agg_call *chain;
    /* Find the base function to learn whether its result keeps its type under NULLs. */
    size_t bn = n;
    int k = kind;
    while (k > 0) {
        size_t r;
        k = parse_name(name, bn, &r);
        if (k > 0)
            bn = r;
    }
    const agg_def *base = lookup_n(name, bn);
    bool keep = base && (base->flags & AGG_NULLS_KEEP_TYPE);
    if (base && strcasecmp(base->name, "count") == 0 && kind != CMB_NONE && bn < n &&
        strstr(name + bn, "Distinct"))
        keep = true;

    if (null_literal && (!keep || (base->flags & AGG_NULL_LITERAL_NULL))) {
        /* sum(NULL): ClickHouse answers NULL of type Nullable(Nothing). */
        agg_call *a = call_new(base, name, nargs, arg_types, nparams, params);
        a->state_size = 1;
        a->ret = type_nullable(type_simple(T_NOTHING));
        a->ops = (agg_ops){.init = nul_init,
                           .add_all = nul_add_all,
                           .add_rows = nul_add_rows,
                           .merge = nul_merge,
                           .finalize = nul_finalize,
                           .add_all_mask = nul_add_all_mask,
                           .add_rows_mask = nul_add_rows_mask};
        *out = a;
        return 0;
    }
    if (resolve_chain(name, n, nargs, stripped, nparams, params, &chain) < 0)
        return -1;
    if (!any_nullable) {
        *out = chain;
        return 0;
    }
    flag_data fd = {.strip = true, .keep_type = keep, .has_if = kind == CMB_IF,
                    .no_flag_bytes = base && (base->flags & AGG_NULL_NO_FLAG)};
    agg_call *w = wrap_flag(chain, name, fd, chain->def);
    free(w->arg_types);
    w->arg_types = xcalloc((size_t)nargs, sizeof *w->arg_types);
    for (int i = 0; i < nargs; i++)
        w->arg_types[i] = arg_types[i];
    *out = w;
    return 0;
}
