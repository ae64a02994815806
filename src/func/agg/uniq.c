/* Built-in aggregate functions: uniq, uniqExact (and count(DISTINCT), which resolves to
 * uniqExact in agg.c).
 *
 * uniqExact keeps ClickHouse's HashSet (chset.h) of the same keys ClickHouse uses: the value
 * itself for numbers up to 64 bits and for Int128/UInt128/UUID (a HashCRC32 set of 16-byte
 * keys), SipHash-128 of a string, of a Decimal's or DateTime64's bytes, or of several
 * arguments' bytes; its states are ClickHouse's byte for byte (while single-level: ClickHouse
 * lays sets of more than 100000 keys out by bucket, which shale reads but does not
 * reproduce). Other argument types (arrays, Nullable inside several arguments) use shale's
 * own 128-bit key and have no state format.
 *
 * uniq follows ClickHouse's UniquesHashSet so that estimates are identical: a 64-bit key
 * per value (the integer itself, a float's bits), hashed to 32 bits with intHash64 (the
 * murmur3 finaliser, truncated); only hashes whose low skip_degree bits are zero are kept;
 * the set holds at most 2^16 elements, beyond which skip_degree grows and the set is
 * filtered; the estimate is size * 2^skip_degree plus a pseudo-random remainder
 * (intHashCRC32(size)), corrected for 32-bit collisions. Strings are keyed by CityHash64
 * v1.0.2 as in ClickHouse; several arguments (or one tuple) of numbers and strings by
 * ClickHouse's variadic CityHash chain, used as the hash directly. States are ClickHouse's
 * for those; other argument types (Nullable inside a tuple, arrays, ...) have none. */
#include "agg_impl.h"
#include "base/cityhash.h"
#include "base/siphash.h"
#include "chset.h"
#include "func/agg_state.h"

#include <math.h>
#include <xxhash.h>

/* ---- per-row keys ---- */

static inline uint64_t key64(const column *c, size_t i)
{
    switch (agg_tid(c->type)) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
        return agg_int_as_u64(c, i);
    case T_FLOAT32: {
        double d = COL_DATA(c, float)[col_idx(c, i)];
        uint64_t u;
        memcpy(&u, &d, 8);
        return u;
    }
    case T_FLOAT64: {
        uint64_t u;
        memcpy(&u, COL_DATA(c, double) + col_idx(c, i), 8);
        return u;
    }
    case T_STRING:
    case T_FIXEDSTRING: {
        size_t n;
        const char *s = col_str(c, i, &n);
        return cityhash64_v102(s, n); /* ClickHouse's key for uniq of strings */
    }
    case T_UINT128:
    case T_INT128: { /* and UUID: ClickHouse's DefaultHash64, intHash64 of the halves' xor */
        uint64_t h[2];
        memcpy(h, c->data.p + col_idx(c, i) * 16, 16);
        return ch_int_hash64(h[0] ^ h[1]);
    }
    default: return col_hash_row(c, i);
    }
}

static inline uint128_t key128(const column *c, size_t i)
{
    size_t j = col_idx(c, i);
    switch (agg_tid(c->type)) {
    case T_UINT128:
    case T_INT128: {
        uint128_t v;
        memcpy(&v, c->data.p + j * 16, 16);
        return v;
    }
    case T_STRING:
    case T_FIXEDSTRING: {
        size_t n;
        const char *s = col_str(c, i, &n);
        XXH128_hash_t h = XXH3_128bits(s, n);
        return ((uint128_t)h.high64 << 64) | h.low64;
    }
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
    case T_FLOAT32: case T_FLOAT64:
        return key64(c, i);
    default: {
        uint64_t h = col_hash_row(c, i);
        return ((uint128_t)(h * 0x9e3779b97f4a7c15ULL) << 64) | h;
    }
    }
}

/* Several arguments: one key from all of them. */
static inline uint128_t keyn(const agg_call *a, column *const *args, size_t i)
{
    if (a->nargs == 1)
        return key128(args[0], i);
    uint128_t ks[16];
    int n = a->nargs < 16 ? a->nargs : 16;
    for (int k = 0; k < n; k++)
        ks[k] = key128(args[k], i);
    XXH128_hash_t h = XXH3_128bits(ks, sizeof(uint128_t) * (size_t)n);
    return ((uint128_t)h.high64 << 64) | h.low64;
}

/* ---- uniqExact: ClickHouse's HashSet of the values or of their SipHash-128 ---- */

/* How a row becomes a key. UX_NATIVE: one argument of a native number type, the value's
 * bits (ClickHouse's HashCRC32 set of the type); UX_SIP: the SipHash-128 of a string's
 * bytes (one String / FixedString argument) or of the arguments' updateHashWithValue bytes
 * (several arguments or a tuple, one Decimal or DateTime64); UX_WIDE: Int128, UInt128, UUID
 * by their 16 bytes; UX_OTHER: types whose ClickHouse key shale does not compute (arrays,
 * maps...): shale's own 128-bit key, no state format. */
enum { UX_NATIVE, UX_SIP1, UX_SIPN, UX_OTHER, UX_WIDE };

typedef struct ux_data {
    int mode, kw;
} ux_data;

/* 16-byte types ClickHouse's uniqExact keys by their own bits in a HashCRC32 set (UX_WIDE). */
static bool ux_wide(const type *t)
{
    t = type_base(t);
    return t->id == T_INT128 || t->id == T_UINT128 || t->id == T_UUID;
}

/* Types ClickHouse's uniqExact keys by their own bits: numbers up to 64 bits and the types
 * stored as one (Date, DateTime, Enum, Bool), not Decimal or DateTime64. */
static bool ux_native(const type *t)
{
    t = type_base(t);
    if (type_is_decimal(t) || t->id == T_DATETIME64)
        return false;
    switch (agg_tid(t)) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
    case T_FLOAT32: case T_FLOAT64: return true;
    default: return false;
    }
}

/* One value's bytes as ClickHouse's IColumn::updateHashWithValue feeds SipHash, written at
 * dst + *len (dst NULL: only counted); false for types not covered. */
static bool hash_bytes(uint8_t *dst, size_t *len, const column *c, size_t i)
{
    const type *t = type_base(c->type);
    if (c->type->id == T_NULLABLE)
        return false;
    const void *p;
    size_t n;
    switch (t->id) {
    case T_STRING: {
        p = col_str(c, i, &n);
        uint64_t sz = n + 1; /* the size counts the terminating NUL, which is hashed too */
        if (dst) {
            memcpy(dst + *len, &sz, 8);
            memcpy(dst + *len + 8, p, n);
            dst[*len + 8 + n] = 0;
        }
        *len += n + 9;
        return true;
    }
    case T_FIXEDSTRING:
        p = col_str(c, i, &n);
        break;
    case T_TUPLE: /* the fields of a constant tuple hold its one row */
        for (int f = 0; f < c->nfields; f++)
            if (!hash_bytes(dst, len, c->fields[f], col_idx(c, i)))
                return false;
        return true;
    default:
        /* numbers, and the values ColumnDecimal / 128-bit columns hash as their raw bytes */
        if (!ux_native(t) && !type_is_decimal(t) && t->id != T_DATETIME64 && !ux_wide(t))
            return false;
        n = type_phys(t)->width;
        p = c->data.p + col_idx(c, i) * n;
        break;
    }
    if (dst)
        memcpy(dst + *len, p, n);
    *len += n;
    return true;
}

static inline uint128_t sip_key(const void *p, size_t n)
{
    uint8_t h[16];
    uint128_t k;
    siphash24_128(p, n, h);
    memcpy(&k, h, 16);
    return k;
}

static inline uint128_t ux_key(const agg_call *a, column *const *args, size_t i)
{
    const ux_data *d = a->data;
    switch (d->mode) {
    case UX_NATIVE:
    case UX_WIDE: {
        const column *c = args[0];
        uint128_t k = 0;
        memcpy(&k, c->data.p + col_idx(c, i) * (size_t)d->kw, (size_t)d->kw);
        return k;
    }
    case UX_SIP1: {
        size_t n;
        const char *s = col_str(args[0], i, &n);
        return sip_key(s, n);
    }
    case UX_SIPN: {
        uint8_t tmp[128] = {0}, *p = tmp;
        size_t n = 0;
        for (int k = 0; k < a->nargs; k++)
            hash_bytes(NULL, &n, args[k], i);
        if (n > sizeof tmp)
            p = mem_alloc(n);
        n = 0;
        for (int k = 0; k < a->nargs; k++)
            hash_bytes(p, &n, args[k], i);
        uint128_t r = sip_key(p, n);
        if (p != tmp)
            mem_free(p);
        return r;
    }
    default:
        return keyn(a, args, i);
    }
}

static void ux_init(const agg_call *a, void *st)
{
    const ux_data *d = a->data;
    bool own = d->mode == UX_NATIVE || d->mode == UX_WIDE; /* keyed by the values themselves */
    chset_init(st, d->kw, d->mode == UX_WIDE ? CHS_CRC32_128 : own ? CHS_CRC32 : CHS_TRIVIAL128, own ? 4 : 3);
}
static inline void ux_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    chset_insert(st, ux_key(a, args, i));
}
AGG_ROW_OPS(ux, ux_row)
static void ux_destroy(const agg_call *a, void *st) { chset_free(st); }
static void ux_merge(const agg_call *a, void *dst, void *src)
{
    chset_merge(dst, src);
    chset_free(src);
}
static int ux_finalize(const agg_call *a, void *st, column *out)
{
    uint64_t v = ((const chset *)st)->size;
    col_push_fixed(out, &v);
    return 0;
}
static void ux_serialize(const agg_call *a, const void *st, buf *out) { chset_write(st, out); }
static int ux_deserialize(const agg_call *a, void *st, agg_rd *in) { return chset_read(st, in); }

static void ux_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_write_serialized(a, st, out, ux_serialize);
}
static void ux_spill_read(const agg_call *a, void *st, const char **p)
{
    agg_spill_read_serialized(a, st, p, ux_deserialize);
}

static int uniq_check(agg_call *a)
{
    if (a->nargs < 1)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments for aggregate function %s",
                       a->def->name);
    if (agg_no_params(a) < 0)
        return -1;
    a->ret = type_simple(T_UINT64);
    return 0;
}

static int ux_resolve(agg_call *a)
{
    if (uniq_check(a) < 0)
        return -1;
    ux_data *d = xcalloc(1, sizeof *d);
    a->data = d;
    d->mode = UX_OTHER;
    d->kw = 16;
    const type *t0 = type_base(a->arg_types[0]);
    bool plain = a->nargs > 1 || t0->id == T_TUPLE;
    if (a->nargs == 1 && ux_native(t0)) {
        d->mode = UX_NATIVE;
        d->kw = (int)type_simple(agg_tid(t0))->width;
    } else if (a->nargs == 1 && ux_wide(t0)) {
        d->mode = UX_WIDE;
    } else if (a->nargs == 1 && (t0->id == T_STRING || t0->id == T_FIXEDSTRING)) {
        d->mode = UX_SIP1;
    } else if (plain || type_is_decimal(t0) || t0->id == T_DATETIME64) {
        /* every argument (or tuple field) must be one hash_bytes covers */
        d->mode = UX_SIPN;
        for (int k = 0; k < a->nargs; k++) {
            column *c = col_new(a->arg_types[k]);
            col_push_default(c);
            size_t n = 0;
            if (!hash_bytes(NULL, &n, c, 0))
                d->mode = UX_OTHER;
            col_free(c);
        }
    }
    a->state_size = sizeof(chset);
    a->state_align = _Alignof(chset);
    a->ops = (agg_ops){.init = ux_init, .merge = ux_merge, .finalize = ux_finalize, .destroy = ux_destroy,
                       .spill_write = ux_spill_write, .spill_read = ux_spill_read};
    if (d->mode != UX_OTHER) {
        a->ops.serialize = ux_serialize;
        a->ops.deserialize = ux_deserialize;
    }
    AGG_SET_ADD_OPS(a, ux);
    return 0;
}

/* ---- uniq: ClickHouse's UniquesHashSet ---- */

#define UH_MAX_SIZE_DEGREE 17
#define UH_MAX_SIZE (1u << (UH_MAX_SIZE_DEGREE - 1))
#define UH_BITS_FOR_SKIP (32 - UH_MAX_SIZE_DEGREE)
#define UH_INITIAL_DEGREE 4

typedef struct uset {
    uint32_t *cells;    /* 0 = empty; the hash 0 is kept as has_zero */
    uint32_t m_size;
    uint8_t size_degree;
    uint8_t skip_degree;
    bool has_zero;
} uset;

static inline uint32_t int_hash64(uint64_t x) { return (uint32_t)ch_int_hash64(x); }

static inline bool us_good(const uset *s, uint32_t h) { return (h & ((1u << s->skip_degree) - 1)) == 0; }
static inline size_t us_buf_size(const uset *s) { return (size_t)1 << s->size_degree; }

/* Places h in the first free cell of its chain (no duplicate check). */
static void us_reinsert(uset *s, uint32_t h)
{
    size_t m = us_buf_size(s) - 1, p = (h >> UH_BITS_FOR_SKIP) & m;
    while (s->cells[p])
        p = (p + 1) & m;
    s->cells[p] = h;
}

static inline size_t us_home(const uset *s, uint32_t h) { return (h >> UH_BITS_FOR_SKIP) & (us_buf_size(s) - 1); }

/* Doubles the table in place, moving cells exactly as ClickHouse's UniquesHashSet::resize
 * does, so that the cell order (which the serialized state lists) is the same: a chain
 * that wrapped around the old end is finished past the old size. */
static void us_resize(uset *s)
{
    size_t old = us_buf_size(s);
    s->cells = mem_realloc(s->cells, sizeof(uint32_t) * old * 2);
    memset(s->cells + old, 0, sizeof(uint32_t) * old);
    s->size_degree++;
    size_t m = us_buf_size(s) - 1;
    for (size_t i = 0; i < old || s->cells[i]; i++) {
        uint32_t x = s->cells[i];
        if (!x)
            continue;
        size_t p = us_home(s, x);
        if (p == i)
            continue;
        while (s->cells[p] && s->cells[p] != x)
            p = (p + 1) & m;
        if (s->cells[p] == x)
            continue;
        s->cells[p] = x;
        s->cells[i] = 0;
    }
}

/* Drops the hashes that the raised skip_degree no longer keeps and moves the others up
 * their chains, as ClickHouse's UniquesHashSet::rehash. */
static void us_rehash(uset *s)
{
    size_t n = us_buf_size(s);
    for (size_t i = 0; i < n; i++) {
        uint32_t x = s->cells[i];
        if (!x)
            continue;
        if (!us_good(s, x)) {
            s->cells[i] = 0;
            s->m_size--;
        } else if (i != us_home(s, x)) {
            s->cells[i] = 0;
            us_reinsert(s, x);
        }
    }
    for (size_t i = 0; i < n && s->cells[i]; i++)
        if (i != us_home(s, s->cells[i])) {
            uint32_t x = s->cells[i];
            s->cells[i] = 0;
            us_reinsert(s, x);
        }
}

static void us_shrink_if_need(uset *s)
{
    if (s->m_size > (1u << (s->size_degree - 1))) {
        if (s->m_size > UH_MAX_SIZE) {
            while (s->m_size > UH_MAX_SIZE && s->skip_degree < UH_BITS_FOR_SKIP) {
                s->skip_degree++;
                us_rehash(s);
            }
        } else {
            us_resize(s);
        }
    }
}

static void us_insert_hash(uset *s, uint32_t h)
{
    if (!us_good(s, h))
        return;
    if (!h) {
        if (!s->has_zero) {
            s->has_zero = true;
            s->m_size++;
            us_shrink_if_need(s);
        }
        return;
    }
    size_t m = us_buf_size(s) - 1, p = (h >> UH_BITS_FOR_SKIP) & m;
    while (s->cells[p]) {
        if (s->cells[p] == h)
            return;
        p = (p + 1) & m;
    }
    s->cells[p] = h;
    s->m_size++;
    us_shrink_if_need(s);
}

static uset *us_get(void *st)
{
    uset *s = *(uset **)st;
    if (!s) {
        s = mem_calloc(sizeof *s);
        s->size_degree = UH_INITIAL_DEGREE;
        s->cells = mem_calloc(sizeof(uint32_t) << UH_INITIAL_DEGREE);
        *(uset **)st = s;
    }
    return s;
}

static uint64_t us_estimate(const uset *s)
{
    if (!s)
        return 0;
    if (s->skip_degree == 0)
        return s->m_size;
    uint64_t res = (uint64_t)s->m_size << s->skip_degree;
    res += ch_int_hash_crc32(s->m_size) & ((1ull << s->skip_degree) - 1);
    double p32 = 4294967296.0;
    return (uint64_t)llround(p32 * (log(p32) - log(p32 - (double)res)));
}

static void uq_init(const agg_call *a, void *st) { *(uset **)st = NULL; }
/* How uniq keys a row. UQ_ONE: one number or string argument, key64 hashed by intHash64
 * (ClickHouse's UniquesHashSet<DefaultHash>; also (U)Int128 and UUID); UQ_VAR: several arguments or one tuple whose
 * values are contiguous bytes (numbers, strings), ClickHouse's variadic CityHash chain used
 * as the hash itself (TrivialHash); UQ_OTHER: shale's own key, no state format. */
enum { UQ_ONE, UQ_VAR, UQ_OTHER };

/* A value's bytes as ClickHouse's IColumn::getDataAt gives them; false when not contiguous. */
bool agg_uniq_data_at(const column *c, size_t i, const void **p, size_t *n)
{
    const type *t = type_base(c->type);
    if (c->type->id == T_NULLABLE)
        return false;
    if (t->id == T_STRING || t->id == T_FIXEDSTRING) {
        *p = col_str(c, i, n);
        return true;
    }
    switch (agg_tid(t)) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINT128:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_INT128:
    case T_FLOAT32: case T_FLOAT64:
        *n = t->width;
        *p = c->data.p + col_idx(c, i) * t->width;
        return true;
    default: return false;
    }
}

/* UniqVariadicHash<false, ...>: CityHash64 of the first value, then each next value's
 * CityHash64 combined with the running hash by Hash128to64. */
uint64_t agg_uniq_var_hash(column *const *cols, int n, size_t i)
{
    uint64_t h = 0;
    for (int k = 0; k < n; k++) {
        const void *p = NULL;
        size_t len = 0;
        agg_uniq_data_at(cols[k], i, &p, &len);
        uint64_t v = cityhash64_v102(p, len);
        h = k ? cityhash_128to64(v, h) : v;
    }
    return h;
}

static inline void uq_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    int mode = *(const int *)a->data;
    uint64_t k;
    if (mode == UQ_VAR) {
        const column *c = args[0];
        if (a->nargs == 1)
            k = agg_uniq_var_hash(c->fields, c->nfields, col_idx(c, i));
        else
            k = agg_uniq_var_hash(args, a->nargs, i);
        us_insert_hash(us_get(st), (uint32_t)k);
        return;
    }
    if (a->nargs == 1) {
        k = key64(args[0], i);
    } else {
        uint128_t x = keyn(a, args, i);
        k = (uint64_t)x ^ (uint64_t)(x >> 64);
    }
    us_insert_hash(us_get(st), int_hash64(k));
}
AGG_ROW_OPS(uq, uq_row)

static void uq_destroy(const agg_call *a, void *st)
{
    uset *s = *(uset **)st;
    if (s) {
        mem_free(s->cells);
        mem_free(s);
    }
    *(uset **)st = NULL;
}
static void uq_merge(const agg_call *a, void *dst, void *src)
{
    uset *s = *(uset **)src;
    if (!s)
        return;
    uset *d = us_get(dst);
    if (s->skip_degree > d->skip_degree) {
        d->skip_degree = s->skip_degree;
        us_rehash(d);
    }
    if (s->has_zero)
        us_insert_hash(d, 0);
    for (size_t i = 0; i < us_buf_size(s); i++)
        if (s->cells[i])
            us_insert_hash(d, s->cells[i]);
    uq_destroy(a, src);
}
static int uq_finalize(const agg_call *a, void *st, column *out)
{
    uint64_t v = us_estimate(*(uset **)st);
    col_push_fixed(out, &v);
    return 0;
}

/* ClickHouse's UniquesHashSet::write: skip_degree, VarUInt size, a 0 hash when present,
 * then the cells in table order. */
static void uq_serialize(const agg_call *a, const void *st, buf *out)
{
    const uset *s = *(uset *const *)st;
    buf_putc(out, (char)(s ? s->skip_degree : 0));
    agg_put_varuint(out, s ? s->m_size : 0);
    if (!s)
        return;
    uint32_t zero = 0;
    if (s->has_zero)
        buf_append(out, &zero, 4);
    for (size_t i = 0; i < us_buf_size(s); i++)
        if (s->cells[i])
            buf_append(out, &s->cells[i], 4);
}

/* UniquesHashSet::read: a table sized for the count, the hashes placed in order. */
static int uq_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    uint8_t skip;
    uint64_t n;
    if (agg_rd_bytes(in, &skip, 1) < 0 || agg_rd_varuint(in, &n) < 0)
        return -1;
    if (skip > UH_BITS_FOR_SKIP)
        return err_set(ERR_INCORRECT_DATA, "Cannot read UniquesHashSet: skip degree is %u, which exceeds the "
                       "maximum value of %d", skip, UH_BITS_FOR_SKIP);
    if (n > UH_MAX_SIZE)
        return err_set(ERR_INCORRECT_DATA, "Cannot read UniquesHashSet: too large size_degree.");
    if (n * 4 > (uint64_t)(in->end - in->p))
        return agg_rd_short(in, (size_t)n * 4);
    uq_destroy(a, st);
    uset *s = us_get(st);
    int deg = UH_INITIAL_DEGREE;
    if (n > 1) {
        int l = 0;
        while ((2ull << l) <= n - 1)
            l++; /* floor(log2(n - 1)) */
        deg = l + 2 > deg ? l + 2 : deg;
    }
    if (deg != s->size_degree) {
        mem_free(s->cells);
        s->size_degree = (uint8_t)deg;
        s->cells = mem_calloc(sizeof(uint32_t) * us_buf_size(s));
    }
    s->skip_degree = skip;
    s->m_size = (uint32_t)n;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t h;
        memcpy(&h, in->p, 4);
        in->p += 4;
        if (h == 0 && s->has_zero) /* written once at most: a second would break the count */
            return err_set(ERR_INCORRECT_DATA, "Cannot read UniquesHashSet: the hash 0 is listed twice");
        if (h == 0)
            s->has_zero = true;
        else
            us_reinsert(s, h);
    }
    return 0;
}

/* The key mode of a uniq call (see UQ_ONE). */
static int uq_mode(const agg_call *a)
{
    const type *t0 = type_base(a->arg_types[0]);
    if (a->nargs == 1 && t0->id != T_TUPLE) {
        if (a->arg_types[0]->id == T_NULLABLE)
            return UQ_OTHER;
        switch (agg_tid(t0)) {
        case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
        case T_INT8: case T_INT16: case T_INT32: case T_INT64:
        case T_FLOAT32: case T_FLOAT64: case T_STRING: case T_FIXEDSTRING: case T_UINT128: case T_INT128:
            return type_is_decimal(t0) || t0->id == T_DATETIME64 ? UQ_OTHER : UQ_ONE;
        default: return UQ_OTHER;
        }
    }
    /* several arguments, or the fields of one tuple: all must be contiguous values */
    int n = a->nargs == 1 ? t0->nfields : a->nargs;
    for (int k = 0; k < n; k++) {
        const type *t = a->nargs == 1 ? t0->fields[k] : a->arg_types[k];
        if (a->nargs == 1 && a->arg_types[0]->id == T_NULLABLE)
            return UQ_OTHER;
        column *c = col_new(t);
        col_push_default(c);
        const void *p;
        size_t len;
        bool ok = agg_uniq_data_at(c, 0, &p, &len);
        col_free(c);
        if (!ok)
            return UQ_OTHER;
    }
    return n ? UQ_VAR : UQ_OTHER;
}

static int uq_resolve(agg_call *a)
{
    if (uniq_check(a) < 0)
        return -1;
    int *mode = xcalloc(1, sizeof *mode);
    *mode = uq_mode(a);
    a->data = mode;
    a->state_size = sizeof(uset *);
    a->state_align = _Alignof(uset *);
    a->ops = (agg_ops){.init = uq_init, .merge = uq_merge, .finalize = uq_finalize, .destroy = uq_destroy};
    if (*mode != UQ_OTHER) {
        a->ops.serialize = uq_serialize;
        a->ops.deserialize = uq_deserialize;
    }
    AGG_SET_ADD_OPS(a, uq);
    return 0;
}

static const agg_def defs[] = {
    {"uniqExact", AGG_NULLS_KEEP_TYPE, ux_resolve, "Exact number of distinct values"},
    {"uniq", AGG_NULLS_KEEP_TYPE, uq_resolve, "Approximate number of distinct values (adaptive sampling)"},
};

void agg_register_uniq(void)
{
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
