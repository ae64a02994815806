/* sumMap, minMap, maxMap, sumMapWithOverflow: values summed (or min/max) per key.
 *
 * Two call forms, as in ClickHouse:
 *
 * 1. Arrays: f(keys, values1[, values2...]) or f((keys, values1, ...)) (one tuple of
 *    arrays, which is the function's own result type, so that SimpleAggregateFunction
 *    columns can feed it its output). ClickHouse keeps a std::map<Field, Array>: the
 *    keys sorted, each value as a Field, i.e. promoted to 64 bits (UInt8..UInt64 ->
 *    UInt64, Int8..Int64 -> Int64, Float32 -> Float64, Decimal kept, wrapping in its own
 *    width). The result is Tuple(Array(K), Array(V')...) with V' the promoted type for
 *    sumMap and V itself for the others (so sumMapWithOverflow and minMap/maxMap cut the
 *    64-bit Field to V's width). sumMap and sumMapWithOverflow drop, when finalizing, the
 *    keys whose values are all NULL or V's default (a Nullable V's default is NULL, so
 *    zero sums of Nullable values stay). A NULL value leaves the slot as it was.
 *    The state (version 1): VarUInt count, then per key in key order the key and each
 *    value in the promoted type's binary form (Decimal32/64 as Decimal128; types that
 *    cannot be promoted, dates for minMap, in their own), Nullable ones with a flag byte.
 *    Here the keys are a column in first-seen order with an index array kept sorted
 *    (binary search with the key type's order, which is Field's for the supported keys:
 *    numbers, dates, enums, strings, NULL first), and each value a 16-byte slot.
 *
 * 2. Map: f(m) with m a Map(K, V) is ClickHouse's -Map combinator over sum / min / max
 *    (sumMapWithOverflow takes no Map): one nested state per key, result Map(K, nested
 *    result) with the keys sorted. ClickHouse keeps the nested states in a std::unordered_map, so its
 *    serialized order is libc++'s list order, reproduced here (ulist) for keys whose
 *    std::hash is known (integers, strings); other keys have results but no state.
 *
 * States own their memory (mem_*), released by destroy. */
#include "agg_impl.h"
#include "base/cityhash.h"
#include "func/agg_state.h"

#include <stdatomic.h>
#include <stdlib.h>

void agg_register_map(void);

enum { FN_SUM, FN_SUM_OVF, FN_MIN, FN_MAX };
/* How a value is held: as ClickHouse's Field of its type. */
enum { VK_U64, VK_I64, VK_F64, VK_U128, VK_I128, VK_DEC };

enum { MP_MAX_VALS = 16 };

typedef struct mp_vt {
    uint8_t kind;
    uint8_t ser;      /* bytes per value in the state (promoted or own width) */
    uint8_t width;    /* bytes per value of the argument (Decimal: its wrap width) */
    bool nullable;
    bool f32_out;     /* the result is Float32 */
} mp_vt;

typedef struct mp_data {
    int fn;
    bool tuple_arg;
    int nvals;
    _Atomic int bad;  /* a row's key and value arrays had different sizes */
    mp_vt vt[MP_MAX_VALS];
} mp_data;

typedef struct mp_val {
    uint128_t v;      /* U64/I64: the 64-bit Field in the low half; F64: the double's bits */
    bool null;
} mp_val;

/* Keys in first-seen order, order[] their rows sorted by key. */
typedef struct mp_keys {
    column *keys;
    uint32_t *order;
    size_t n, cap;
} mp_keys;

typedef struct mp_state {
    mp_keys k;
    mp_val *vals;     /* nvals per key row */
} mp_state;

/* ---- the sorted key set (both forms) ---- */

/* Finds src[j] among the keys: true with its row in *row, or false with the position in
 * order where it belongs in *row. */
static bool keys_find(const mp_keys *k, const column *src, size_t j, size_t *row)
{
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = col_compare(k->keys, k->order[mid], src, j, -1);
        if (c == 0) {
            *row = k->order[mid];
            return true;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *row = lo;
    return false;
}

/* Adds src[j] at sorted position pos; returns its row. Grows *cap (callers grow their
 * per-row arrays to it). */
static size_t keys_add(mp_keys *k, const column *src, size_t j, size_t pos)
{
    if (!k->keys)
        k->keys = col_new(src->type);
    if (k->n == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 8;
        k->order = mem_realloc(k->order, k->cap * sizeof *k->order);
    }
    size_t row = k->keys->len;
    col_push_from(k->keys, src, j);
    memmove(k->order + pos + 1, k->order + pos, (k->n - pos) * sizeof *k->order);
    k->order[pos] = (uint32_t)row;
    k->n++;
    return row;
}

/* The row of src[j] among the keys, added when new (*added: the caller then makes room in
 * its per-row arrays up to k->cap). */
static size_t keys_slot(mp_keys *k, const column *src, size_t j, bool *added)
{
    size_t row = 0;
    *added = !(k->keys && keys_find(k, src, j, &row));
    return *added ? keys_add(k, src, j, row) : row;
}

static void keys_free(mp_keys *k)
{
    col_free(k->keys);
    mem_free(k->order);
    memset(k, 0, sizeof *k);
}

/* ---- values ---- */

static mp_val val_read(const mp_vt *vt, const column *c, size_t j)
{
    mp_val r = {0};
    if (vt->nullable) {
        if (c->nulls.p[j]) {
            r.null = true;
            return r;
        }
        c = c->inner;
    }
    switch (vt->kind) {
    case VK_U64:
    case VK_I64: r.v = agg_int_as_u64(c, j); break;
    case VK_F64: {
        double x = col_get_f64(c, j);
        memcpy(&r.v, &x, 8);
        break;
    }
    case VK_U128:
    case VK_I128: memcpy(&r.v, c->data.p + j * 16, 16); break;
    default: { /* Decimal: sign-extended */
        const uint8_t *p = c->data.p + j * vt->width;
        if (vt->width == 4) {
            int32_t x;
            memcpy(&x, p, 4);
            r.v = (uint128_t)(int128_t)x;
        } else if (vt->width == 8) {
            int64_t x;
            memcpy(&x, p, 8);
            r.v = (uint128_t)(int128_t)x;
        } else {
            memcpy(&r.v, p, 16);
        }
    }
    }
    return r;
}

static double val_f64(const mp_val *v)
{
    double d;
    memcpy(&d, &v->v, 8);
    return d;
}

static bool val_less(const mp_vt *vt, const mp_val *x, const mp_val *y)
{
    switch (vt->kind) {
    case VK_U64: return (uint64_t)x->v < (uint64_t)y->v;
    case VK_I64: return (int64_t)(uint64_t)x->v < (int64_t)(uint64_t)y->v;
    case VK_F64: return val_f64(x) < val_f64(y);
    case VK_U128: return x->v < y->v;
    default: return (int128_t)x->v < (int128_t)y->v;
    }
}

/* FieldVisitorSum / Min / Max applied to dst with src, NULLs skipped. */
static void val_combine(int fn, const mp_vt *vt, mp_val *dst, const mp_val *src)
{
    if (src->null)
        return;
    if (dst->null) {
        *dst = *src;
        return;
    }
    switch (fn) {
    case FN_MIN:
        if (val_less(vt, src, dst))
            dst->v = src->v;
        return;
    case FN_MAX:
        if (val_less(vt, dst, src))
            dst->v = src->v;
        return;
    default:
        if (vt->kind == VK_F64) {
            double d = val_f64(dst) + val_f64(src);
            memcpy(&dst->v, &d, 8);
        } else if (vt->kind == VK_U64 || vt->kind == VK_I64) {
            dst->v = (uint64_t)dst->v + (uint64_t)src->v;
        } else {
            dst->v += src->v;
        }
    }
}

/* A Decimal32/64 Field wraps in its own width; the value sign-extended from it. */
static uint128_t dec_wrap(const mp_vt *vt, uint128_t v)
{
    if (vt->width == 4)
        return (uint128_t)(int128_t)(int32_t)(uint32_t)v;
    if (vt->width == 8)
        return (uint128_t)(int128_t)(int64_t)(uint64_t)v;
    return v;
}

static bool val_is_default(const mp_vt *vt, const mp_val *v)
{
    if (v->null || vt->nullable) /* a Nullable type's default is NULL */
        return v->null;
    if (vt->kind == VK_F64)
        return val_f64(v) == 0;
    if (vt->kind == VK_DEC)
        return dec_wrap(vt, v->v) == 0;
    if (vt->kind == VK_U64 || vt->kind == VK_I64)
        return (uint64_t)v->v == 0;
    return v->v == 0;
}

static void val_push(const mp_vt *vt, const mp_val *v, column *out)
{
    uint128_t x = v->null ? 0 : v->v;
    if (vt->kind == VK_DEC)
        x = dec_wrap(vt, x);
    if (vt->f32_out) {
        float f = v->null ? 0 : (float)val_f64(v);
        col_push_fixed(out, &f);
        return;
    }
    col_push_fixed(out, &x); /* little-endian: the low out bytes */
}

static void val_write(const mp_vt *vt, const mp_val *v, buf *out)
{
    if (vt->nullable) {
        buf_putc(out, v->null ? 1 : 0);
        if (v->null)
            return;
    }
    uint128_t x = v->v;
    if (vt->kind == VK_DEC)
        x = dec_wrap(vt, x);
    buf_append(out, &x, vt->ser);
}

static int val_load(const mp_vt *vt, mp_val *v, agg_rd *in)
{
    memset(v, 0, sizeof *v);
    if (vt->nullable) {
        uint8_t f;
        if (agg_rd_bytes(in, &f, 1) < 0)
            return -1;
        if (f > 1)
            return err_set(ERR_INCORRECT_DATA, "Malformed Nullable flag %u in a -Map aggregate state", f);
        if (f) {
            v->null = true;
            return 0;
        }
    }
    uint8_t raw[16] = {0};
    if (agg_rd_bytes(in, raw, vt->ser) < 0)
        return -1;
    if (vt->kind == VK_I64 && vt->ser < 8) { /* own width (Enum, Date32): sign-extend */
        int64_t x = vt->ser == 1 ? (int8_t)raw[0] : vt->ser == 2 ? (int16_t)(raw[0] | raw[1] << 8)
                                                                 : (int32_t)((uint32_t)raw[0] | (uint32_t)raw[1] << 8 |
                                                                             (uint32_t)raw[2] << 16 | (uint32_t)raw[3] << 24);
        v->v = (uint64_t)x;
        return 0;
    }
    memcpy(&v->v, raw, 16);
    if (vt->kind == VK_DEC)
        v->v = dec_wrap(vt, v->v);
    return 0;
}

/* ---- the array form ---- */

static void mp_init(const agg_call *a, void *st) { memset(st, 0, sizeof(mp_state)); }

static void mp_destroy(const agg_call *a, void *st)
{
    mp_state *s = st;
    keys_free(&s->k);
    mem_free(s->vals);
    memset(s, 0, sizeof *s);
}

/* The row of key src[j], added with NULL values when new. */
static size_t mp_slot(const mp_data *d, mp_state *s, const column *src, size_t j)
{
    bool added;
    size_t cap = s->k.cap, row = keys_slot(&s->k, src, j, &added);
    if (!added)
        return row;
    if (s->k.cap != cap)
        s->vals = mem_realloc(s->vals, s->k.cap * (size_t)d->nvals * sizeof *s->vals);
    for (int c = 0; c < d->nvals; c++)
        s->vals[row * (size_t)d->nvals + (size_t)c] = (mp_val){.null = true};
    return row;
}

/* The argument columns: the arrays themselves or the fields of the one tuple. */
static column *const *mp_cols(const agg_call *a, column *const *args, size_t *i)
{
    const mp_data *d = a->data;
    if (!d->tuple_arg)
        return args;
    *i = col_idx(args[0], *i);
    return args[0]->fields;
}

static inline void mp_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    mp_data *d = a->data;
    mp_state *s = st;
    column *const *cols = mp_cols(a, args, &i);
    const column *kc = cols[0];
    size_t kr = col_idx(kc, i);
    const uint64_t *ko = col_offs(kc);
    size_t kn = ko[kr + 1] - ko[kr];
    for (int c = 0; c < d->nvals; c++) {
        const column *vc = cols[c + 1];
        size_t vr = col_idx(vc, i);
        const uint64_t *vo = col_offs(vc);
        if (vo[vr + 1] - vo[vr] != kn) {
            atomic_store(&d->bad, 1);
            return;
        }
    }
    for (int c = 0; c < d->nvals; c++) {
        const column *vc = cols[c + 1];
        uint64_t vb = col_offs(vc)[col_idx(vc, i)];
        for (size_t e = 0; e < kn; e++) {
            size_t row = mp_slot(d, s, kc->inner, ko[kr] + e);
            mp_val v = val_read(&d->vt[c], vc->inner, vb + e);
            val_combine(d->fn, &d->vt[c], &s->vals[row * (size_t)d->nvals + (size_t)c], &v);
        }
    }
}
AGG_ROW_OPS(mp, mp_row)

static void mp_merge(const agg_call *a, void *dst, void *src)
{
    const mp_data *d = a->data;
    mp_state *t = dst, *s = src;
    for (size_t k = 0; k < s->k.n; k++) {
        size_t sr = s->k.order[k];
        size_t row = mp_slot(d, t, s->k.keys, sr);
        for (int c = 0; c < d->nvals; c++)
            val_combine(d->fn, &d->vt[c], &t->vals[row * (size_t)d->nvals + (size_t)c],
                        &s->vals[sr * (size_t)d->nvals + (size_t)c]);
    }
    mp_destroy(a, src);
}

static int mp_finalize(const agg_call *a, void *st, column *out)
{
    mp_data *d = a->data;
    mp_state *s = st;
    if (atomic_load(&d->bad))
        return err_set(ERR_BAD_ARGUMENTS, "Sizes of keys and values arrays do not match");
    bool compact = d->fn == FN_SUM || d->fn == FN_SUM_OVF;
    for (size_t k = 0; k < s->k.n; k++) {
        size_t row = s->k.order[k];
        const mp_val *v = &s->vals[row * (size_t)d->nvals];
        if (compact) {
            bool drop = true;
            for (int c = 0; c < d->nvals && drop; c++)
                drop = val_is_default(&d->vt[c], &v[c]);
            if (drop)
                continue;
        }
        col_push_from(out->fields[0]->inner, s->k.keys, row);
        for (int c = 0; c < d->nvals; c++)
            val_push(&d->vt[c], &v[c], out->fields[c + 1]->inner);
    }
    for (int c = 0; c <= d->nvals; c++)
        col_array_commit(out->fields[c]);
    out->len++;
    return 0;
}

static void mp_serialize(const agg_call *a, const void *st, buf *out)
{
    const mp_data *d = a->data;
    const mp_state *s = st;
    agg_put_varuint(out, s->k.n);
    for (size_t k = 0; k < s->k.n; k++) {
        size_t row = s->k.order[k];
        agg_put_value(out, s->k.keys, row);
        for (int c = 0; c < d->nvals; c++)
            val_write(&d->vt[c], &s->vals[row * (size_t)d->nvals + (size_t)c], out);
    }
}

static int mp_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    const mp_data *d = a->data;
    mp_state *s = st;
    uint64_t n;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > (uint64_t)(in->end - in->p))
        return agg_rd_short(in, (size_t)n);
    const type *kt = a->ret->fields[0]->inner;
    column *key = col_new(kt);
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        col_free(key);
        key = col_new(kt);
        if (agg_get_value(in, key) < 0) {
            rc = -1;
            break;
        }
        size_t row = mp_slot(d, s, key, 0);
        for (int c = 0; c < d->nvals && rc == 0; c++) /* a repeated key keeps the last values */
            rc = val_load(&d->vt[c], &s->vals[row * (size_t)d->nvals + (size_t)c], in);
    }
    col_free(key);
    return rc;
}

/* External GROUP BY spills the array form's state as its serialization, which keeps
 * every value (promoted) and NULL. */
static void mp_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_write_serialized(a, st, out, mp_serialize);
}
static void mp_spill_read(const agg_call *a, void *st, const char **p)
{
    agg_spill_read_serialized(a, st, p, mp_deserialize);
}

/* ---- the Map form: one nested state per key ---- */

/* The node list of libc++'s std::unordered_map (max_load_factor 1), which ClickHouse's
 * -Map combinator serializes in iteration order: each new key goes to the front of its
 * bucket, or of the whole list when its bucket is empty; past one key per bucket the
 * table grows to the next prime of at least twice its size and relinks the list as
 * libc++'s __do_rehash does. Nodes are key rows; UL_HEAD is the list's sentinel. */
enum { UL_NONE = -1, UL_HEAD = -2 };

typedef struct ulist {
    uint64_t *hash;   /* per key row: std::hash of the key */
    int32_t *next;    /* per key row */
    int32_t first;
    int32_t *bucket;  /* per bucket: the node before its first node */
    size_t nb, size;
} ulist;

static size_t ul_constrain(uint64_t h, size_t bc)
{
    return !(bc & (bc - 1)) ? (size_t)(h & (bc - 1)) : (size_t)(h < bc ? h : h % bc);
}

static int32_t *ul_nextp(ulist *u, int32_t p) { return p == UL_HEAD ? &u->first : &u->next[p]; }

static size_t ul_next_prime(size_t n)
{
    for (;; n++) {
        bool prime = n >= 2;
        for (size_t d = 2; d * d <= n && prime; d++)
            prime = n % d != 0;
        if (prime)
            return n;
    }
}

static void ul_rehash(ulist *u, size_t nbc)
{
    mem_free(u->bucket);
    u->bucket = mem_alloc(nbc * sizeof *u->bucket);
    for (size_t b = 0; b < nbc; b++)
        u->bucket[b] = UL_NONE;
    u->nb = nbc;
    int32_t cp = u->first;
    if (cp == UL_NONE)
        return;
    size_t ph = ul_constrain(u->hash[cp], nbc);
    u->bucket[ph] = UL_HEAD;
    int32_t pp = cp;
    for (cp = u->next[cp]; cp != UL_NONE; cp = u->next[pp]) {
        size_t ch = ul_constrain(u->hash[cp], nbc);
        if (ch == ph) {
            pp = cp;
        } else if (u->bucket[ch] == UL_NONE) {
            u->bucket[ch] = pp;
            pp = cp;
            ph = ch;
        } else { /* splice cp to the front of its bucket */
            u->next[pp] = u->next[cp];
            int32_t *bn = ul_nextp(u, u->bucket[ch]);
            u->next[cp] = *bn;
            *bn = cp;
        }
    }
}

/* Links key row x, whose hash is set, as emplace does for a new key. */
static void ul_insert(ulist *u, int32_t x)
{
    size_t bc = u->nb;
    if ((float)(u->size + 1) > (float)bc || bc == 0) {
        size_t n = 2 * bc + !(bc > 2 && !(bc & (bc - 1)));
        if (n < u->size + 1)
            n = u->size + 1;
        n = n == 1 ? 2 : (n & (n - 1)) ? ul_next_prime(n) : n;
        if (n > bc)
            ul_rehash(u, n);
        bc = u->nb;
    }
    size_t ch = ul_constrain(u->hash[x], bc);
    if (u->bucket[ch] == UL_NONE) {
        u->next[x] = u->first;
        u->first = x;
        u->bucket[ch] = UL_HEAD;
        if (u->next[x] != UL_NONE)
            u->bucket[ul_constrain(u->hash[u->next[x]], bc)] = x;
    } else {
        int32_t *np = ul_nextp(u, u->bucket[ch]);
        u->next[x] = *np;
        *np = x;
    }
    u->size++;
}

typedef struct mc_state {
    mp_keys k;
    char **sts;       /* per key row */
    ulist ul;         /* ClickHouse's iteration order (states only) */
} mc_state;

/* Key types whose std::hash is reproduced: integers up to 64 bits (sign-extended when
 * signed, as libc++'s hash<int> is the value itself), strings (CityHash64 v1.1). */
static bool mc_has_state(const type *k)
{
    switch (type_base(k)->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_INT8: case T_INT16: case T_INT32: case T_INT64:
    case T_BOOL: case T_DATE: case T_DATETIME: case T_ENUM8: case T_ENUM16: case T_IPV4: case T_STRING:
    case T_FIXEDSTRING:
        return true;
    default: return false;
    }
}

static uint64_t mc_hash(const column *c, size_t i)
{
    type_id t = type_base(c->type)->id;
    if (t == T_STRING || t == T_FIXEDSTRING) {
        size_t n;
        const char *p = col_str(c, i, &n);
        return cityhash64_libcxx(p, n);
    }
    if (t == T_IPV4)
        return COL_DATA(c, uint32_t)[col_idx(c, i)];
    return agg_int_as_u64(c, i);
}

static void mc_init(const agg_call *a, void *st)
{
    memset(st, 0, sizeof(mc_state));
    ((mc_state *)st)->ul.first = UL_NONE;
}

static void mc_destroy(const agg_call *a, void *st)
{
    mc_state *s = st;
    for (size_t r = 0; r < s->k.n; r++)
        agg_state_free(a->nested, s->sts[r]);
    mem_free(s->sts);
    mem_free(s->ul.hash);
    mem_free(s->ul.next);
    mem_free(s->ul.bucket);
    keys_free(&s->k);
    mc_init(a, st);
}

static char *mc_slot(const agg_call *a, mc_state *s, const column *src, size_t j)
{
    bool added;
    size_t cap = s->k.cap, row = keys_slot(&s->k, src, j, &added);
    if (!added)
        return s->sts[row];
    if (s->k.cap != cap) {
        s->sts = mem_realloc(s->sts, s->k.cap * sizeof *s->sts);
        s->ul.hash = mem_realloc(s->ul.hash, s->k.cap * sizeof *s->ul.hash);
        s->ul.next = mem_realloc(s->ul.next, s->k.cap * sizeof *s->ul.next);
    }
    s->sts[row] = agg_state_new(a->nested);
    if (a->ops.serialize) {
        s->ul.hash[row] = mc_hash(s->k.keys, row);
        ul_insert(&s->ul, (int32_t)row);
    }
    return s->sts[row];
}

/* Adds the elements of the selected rows (m may be NULL) to the nested states of their
 * keys, in one call of the nested function: row i's state is sts[0] when single, else
 * sts[i] + off. */
static void mc_add(const agg_call *a, char *const *sts, size_t off, bool single, column *const *args, size_t rows,
                   const uint8_t *m)
{
    const column *mcol = args[0];
    column *mat = NULL;
    if (mcol->is_const && rows) {
        uint32_t *zero = mem_calloc(rows * sizeof *zero);
        mat = col_gather(mcol, zero, rows);
        mem_free(zero);
        mcol = mat;
    }
    const uint64_t *o = col_offs(mcol);
    size_t total = rows ? (size_t)o[rows] : 0;
    if (total) {
        const column *kv = mcol->inner;
        char **ps = mem_alloc(total * sizeof *ps);
        uint8_t *em = mem_calloc(total);
        for (size_t i = 0; i < rows; i++) {
            if (m && !m[i])
                continue;
            mc_state *s = (mc_state *)(single ? sts[0] : sts[i] + off);
            for (uint64_t e = o[i]; e < o[i + 1]; e++) {
                ps[e] = mc_slot(a, s, kv->fields[0], (size_t)e);
                em[e] = 1;
            }
        }
        column *vals = kv->fields[1];
        a->nested->ops.add_rows_mask(a->nested, ps, 0, &vals, total, em);
        mem_free(ps);
        mem_free(em);
    }
    col_free(mat);
}

static void mc_add_all(const agg_call *a, void *st, column *const *args, size_t rows)
{
    char *sts[1] = {st};
    mc_add(a, sts, 0, true, args, rows, NULL);
}
static void mc_add_rows(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows)
{
    mc_add(a, sts, off, false, args, rows, NULL);
}
static void mc_add_all_mask(const agg_call *a, void *st, column *const *args, size_t rows, const uint8_t *m)
{
    char *sts[1] = {st};
    mc_add(a, sts, 0, true, args, rows, m);
}
static void mc_add_rows_mask(const agg_call *a, char *const *sts, size_t off, column *const *args, size_t rows,
                             const uint8_t *m)
{
    mc_add(a, sts, off, false, args, rows, m);
}

/* New keys join dst in src's iteration order (libc++'s when states are kept). */
static void mc_merge(const agg_call *a, void *dst, void *src)
{
    mc_state *t = dst, *s = src;
    if (a->ops.serialize) {
        for (int32_t r = s->ul.first; r != UL_NONE; r = s->ul.next[r])
            a->nested->ops.merge(a->nested, mc_slot(a, t, s->k.keys, (size_t)r), s->sts[r]);
    } else {
        for (size_t k = 0; k < s->k.n; k++) {
            size_t sr = s->k.order[k];
            a->nested->ops.merge(a->nested, mc_slot(a, t, s->k.keys, sr), s->sts[sr]);
        }
    }
    mc_destroy(a, src);
}

/* The -Map combinator's state: VarUInt count, then in iteration order each key (integers
 * raw, strings as VarUInt length and bytes) and its nested state. */
static void mc_serialize(const agg_call *a, const void *st, buf *out)
{
    const mc_state *s = st;
    agg_put_varuint(out, s->k.n);
    for (int32_t r = s->ul.first; r != UL_NONE; r = s->ul.next[r]) {
        type_id t = type_base(s->k.keys->type)->id;
        if (t == T_FIXEDSTRING) {
            size_t n;
            const char *p = col_str(s->k.keys, (size_t)r, &n);
            agg_put_varuint(out, n);
            buf_append(out, p, n);
        } else {
            agg_put_value(out, s->k.keys, (size_t)r);
        }
        a->nested->ops.serialize(a->nested, s->sts[r], out);
    }
}

static int mc_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    mc_state *s = st;
    uint64_t n;
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > (uint64_t)(in->end - in->p))
        return agg_rd_short(in, (size_t)n);
    const type *kt = a->ret->inner->fields[0];
    const type *pt = type_phys(kt);
    column *key = NULL;
    int rc = 0;
    for (uint64_t i = 0; i < n && rc == 0; i++) {
        col_free(key);
        key = col_new(kt);
        if (pt->id == T_FIXEDSTRING) { /* written as a String */
            uint64_t len = 0;
            if (agg_rd_varuint(in, &len) < 0)
                rc = -1;
            else if (len != pt->width)
                rc = err_set(ERR_INCORRECT_DATA, "A -Map state holds a key of %llu bytes for %s",
                             (unsigned long long)len, pt->name);
            else if (len > (uint64_t)(in->end - in->p))
                rc = agg_rd_short(in, (size_t)len);
            if (rc == 0) {
                col_push_str(key, (const char *)in->p, (size_t)len);
                in->p += len;
            }
        } else {
            rc = agg_get_value(in, key);
        }
        if (rc == 0) {
            size_t row;
            if (s->k.keys && keys_find(&s->k, key, 0, &row))
                rc = err_set(ERR_INCORRECT_DATA, "A -Map state lists a key twice");
            else
                rc = a->nested->ops.deserialize(a->nested, mc_slot(a, s, key, 0), in);
        }
    }
    col_free(key);
    return rc;
}

static int mc_finalize(const agg_call *a, void *st, column *out)
{
    mc_state *s = st;
    column *kv = out->inner;
    for (size_t k = 0; k < s->k.n; k++) {
        size_t row = s->k.order[k];
        col_push_from(kv->fields[0], s->k.keys, row);
        if (a->nested->ops.finalize(a->nested, s->sts[row], kv->fields[1]) < 0)
            return -1;
        kv->len++;
    }
    col_array_commit(out);
    return 0;
}

/* ---- resolution ---- */

static int fn_of(const char *name)
{
    return !strcmp(name, "sumMap") ? FN_SUM : !strcmp(name, "sumMapWithOverflow") ? FN_SUM_OVF
         : !strcmp(name, "minMap") ? FN_MIN : FN_MAX;
}

/* Keys whose order here (col_compare) is ClickHouse's (Field's, or the Map form's sort). */
static bool key_ok(const type *k, bool map_form)
{
    const type *b = type_base(k); /* Nullable keys: NULL sorts first, as Field's Null */
    switch (b->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINT128:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_INT128:
    case T_BOOL: case T_DATE: case T_DATETIME: case T_ENUM8: case T_ENUM16:
    case T_STRING: case T_FIXEDSTRING: case T_IPV4:
        return true;
    case T_FLOAT32: case T_FLOAT64: case T_DATE32: case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128:
        return !map_form;
    default:
        return false;
    }
}

/* Fills vt for values of type v; -1 with ClickHouse's error for types it refuses, or
 * NOT_IMPLEMENTED for those it accepts but shale does not hold yet. */
static int value_type(const agg_call *a, int fn, const type *v, mp_vt *vt, const type **res)
{
    const type *b = type_base(v);
    memset(vt, 0, sizeof *vt);
    vt->nullable = type_is_nullable(v);
    vt->width = (uint8_t)b->width;
    bool sum = fn == FN_SUM || fn == FN_SUM_OVF;
    bool promoted = true;
    switch (b->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_BOOL:
        vt->kind = VK_U64;
        *res = type_simple(T_UINT64);
        break;
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
        vt->kind = VK_I64;
        *res = type_simple(T_INT64);
        break;
    case T_FLOAT32: case T_FLOAT64:
        vt->kind = VK_F64;
        *res = type_simple(T_FLOAT64);
        break;
    case T_UINT128: vt->kind = VK_U128; *res = b; break;
    case T_INT128: vt->kind = VK_I128; *res = b; break;
    case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128:
        vt->kind = VK_DEC;
        *res = b;
        vt->ser = 16;
        break;
    case T_DATE: case T_DATETIME:
    case T_DATE32: case T_ENUM8: case T_ENUM16:
        if (sum)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Values for -Map cannot be summed, passed type %s", v->name);
        vt->kind = b->id == T_DATE || b->id == T_DATETIME ? VK_U64 : VK_I64;
        promoted = false;
        break;
    default:
        if (sum && (b->id == T_STRING || b->id == T_FIXEDSTRING || type_is_date_or_time(b) || b->id == T_UUID ||
                    b->id == T_ARRAY || b->id == T_TUPLE || b->id == T_MAP || type_is_ip(b)))
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Values for -Map cannot be summed, passed type %s", v->name);
        return err_set(ERR_NOT_IMPLEMENTED, "%s over values of type %s is not supported yet", a->def->name, v->name);
    }
    if (!vt->ser)
        vt->ser = promoted ? (vt->kind == VK_U128 || vt->kind == VK_I128 ? 16 : 8) : (uint8_t)b->width;
    if (fn != FN_SUM || !promoted)
        *res = b;
    vt->f32_out = (*res)->id == T_FLOAT32;
    return 0;
}

static int map_form_resolve(agg_call *a, int fn, const type *mt)
{
    if (fn == FN_SUM_OVF)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "When function %s gets one argument it must be a tuple",
                       a->def->name);
    const type *kt = mt->inner->fields[0], *vt = mt->inner->fields[1];
    if (!key_ok(kt, true))
        return type_base(kt)->id == T_FLOAT32 || type_base(kt)->id == T_FLOAT64 || type_base(kt)->id == T_DATE32 ||
                       type_is_decimal(type_base(kt))
                   ? err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Map key type %s is not is not supported by combinator Map",
                             kt->name)
                   : err_set(ERR_NOT_IMPLEMENTED, "%s over a Map with keys of type %s is not supported yet",
                             a->def->name, kt->name);
    agg_call *nested;
    if (agg_resolve(fn == FN_SUM ? "sum" : fn == FN_MIN ? "min" : "max", 1, &vt, 0, NULL, &nested) < 0)
        return -1;
    const type *ret = type_map(kt, nested->ret);
    if (!ret) {
        agg_call_free(nested);
        return -1;
    }
    a->nested = nested;
    a->ret = ret;
    a->state_size = sizeof(mc_state);
    a->state_align = _Alignof(mc_state);
    a->ops = (agg_ops){.init = mc_init,
                       .add_all = mc_add_all,
                       .add_rows = mc_add_rows,
                       .add_all_mask = mc_add_all_mask,
                       .add_rows_mask = mc_add_rows_mask,
                       .merge = mc_merge,
                       .finalize = mc_finalize,
                       .destroy = mc_destroy};
    if (mc_has_state(kt) && nested->ops.serialize) {
        a->ops.serialize = mc_serialize;
        a->ops.deserialize = mc_deserialize;
    }
    return 0;
}

static int mp_resolve(agg_call *a)
{
    if (agg_no_params(a) < 0)
        return -1;
    int fn = fn_of(a->def->name);
    const type *const *args = a->arg_types;
    int n = a->nargs;
    bool tuple_arg = false;
    if (n == 1) {
        const type *t = type_base(args[0]);
        if (t->id == T_MAP)
            return map_form_resolve(a, fn, t);
        if (t->id != T_TUPLE)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "When function %s gets one argument it must be a tuple",
                           a->def->name);
        args = t->fields;
        n = t->nfields;
        tuple_arg = true;
    }
    if (n < 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires at least two arguments "
                       "of Array type or one argument of tuple of two arrays", a->def->name);
    if (n - 1 > MP_MAX_VALS)
        return err_set(ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Too many arguments for aggregate function %s",
                       a->def->name);
    if (type_phys(args[0])->id != T_ARRAY)
        return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function %s must be an array, not %s",
                       a->def->name, args[0]->name);
    for (int i = 1; i < n; i++)
        if (type_phys(args[i])->id != T_ARRAY)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT, "Argument #%d for function %s must be an array.", i,
                           a->def->name);
    const type *kt = type_phys(args[0])->inner;
    mp_data *d = xcalloc(1, sizeof *d);
    a->data = d; /* freed with the call */
    d->fn = fn;
    d->tuple_arg = tuple_arg;
    d->nvals = n - 1;
    const type *fields[MP_MAX_VALS + 1];
    fields[0] = type_array(kt);
    for (int i = 1; i < n; i++) {
        const type *r = NULL;
        if (value_type(a, fn, type_phys(args[i])->inner, &d->vt[i - 1], &r) < 0)
            return -1;
        fields[i] = type_array(r);
    }
    if (!key_ok(kt, false))
        return err_set(ERR_NOT_IMPLEMENTED, "%s with keys of type %s is not supported yet", a->def->name, kt->name);
    a->ret = type_tuple(n, fields, NULL);
    a->state_size = sizeof(mp_state);
    a->state_align = _Alignof(mp_state);
    a->ops = (agg_ops){.init = mp_init,
                       .merge = mp_merge,
                       .finalize = mp_finalize,
                       .destroy = mp_destroy,
                       .serialize = mp_serialize,
                       .deserialize = mp_deserialize,
                       .spill_write = mp_spill_write,
                       .spill_read = mp_spill_read};
    AGG_SET_ADD_OPS(a, mp);
    return 0;
}

void agg_register_map(void)
{
    static const agg_def defs[] = {
        {"sumMap", 0, mp_resolve, "Sums of the values per key: (sorted keys, sums), or a Map"},
        {"sumMapWithOverflow", 0, mp_resolve, "sumMap with sums in the values' type, wrapping on overflow"},
        {"minMap", 0, mp_resolve, "Minimum of the values per key"},
        {"maxMap", 0, mp_resolve, "Maximum of the values per key"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
