/* topK(N[, load_factor])(x) and topKWeighted(N[, load_factor])(x, w): ClickHouse's
 * Filtered Space-Saving as it is since 25.12 (ClickHouse PR 90091), counter for counter, so
 * that results and serialized states are ClickHouse's.
 *
 * The algorithm: capacity C = N * load_factor (default 3). A value already counted adds
 * its weight; a new value is appended while fewer than C counters are kept, else appended
 * with count = alpha + w and error = alpha, alpha being its slot of the alpha map
 * (6 * C slots rounded up to a power of 2, indexed by the value's hash). The list grows
 * unsorted to max(64, 2 * C) counters, then is cut to C with an nth_element, the counters
 * cut adding count - error to their alpha slots (capped at 2^32 - 1). Counters order by
 * count - error, then count (descending). Merge: when a side is full (>= C counters) its
 * largest alpha is added to the counters missing from the other side; alpha maps add up.
 * A state lists the C best counters (partial sort of a copy); topK(N) the N best.
 *
 * The selections and sorts are ClickHouse's own (miniselect's Floyd-Rivest select, libc++'s
 * introsort), so equal counters come out in ClickHouse's order too, as long as they went
 * through the same steps (one thread; ClickHouse's parallel GROUP BY merges partial states
 * in an order of its own).
 *
 * Keys are held as the bytes ClickHouse keys the counters by: numbers (and Date, DateTime,
 * Enum, Bool, IPv4) raw, hashed with HashCRC32; String, FixedString, Decimal, UUID, IPv6,
 * DateTime64 their bytes, arrays of fixed-width values their elements' bytes, other
 * arrays, tuples and maps their arena serialization; these hashed with StringRefHash and
 * written as strings.
 *
 * States own their memory (mem_*), released by destroy; no shared state. */
#include "agg_impl.h"
#include "chset.h"
#include "func/agg_state.h"

#include <math.h>
#include <stdlib.h>

void agg_register_topk(void);

#define TK_MAX_ALPHA UINT64_C(0xFFFFFFFF)

/* TK_ARRAY: an array of fixed-width values, keyed by their bytes one after the other. */
typedef enum { TK_NUM, TK_STR, TK_PLAIN, TK_ARRAY, TK_ARENA } tk_kind;

typedef struct tk_ctr {
    uint64_t count, error;
    uint64_t off;  /* key bytes at keys.p + off */
    uint32_t len;
    uint32_t hash; /* ClickHouse's hash of the key (32 bits: both hashes are CRC-based) */
} tk_ctr;

typedef struct tk_state {
    tk_ctr *list;      /* counters, unsorted (ClickHouse's counter_list) */
    size_t n, alloc;
    buf keys;          /* key bytes of the counters (and of cut ones until the next compaction) */
    uint64_t *alpha;   /* NULL until the first value (ClickHouse resizes on the first add) */
    size_t nalpha;
    uint32_t *map;     /* open addressing, list index + 1, keyed by hash; first of equal keys */
    size_t map_cap;
    buf tmp;           /* the key being added */
} tk_state;

typedef struct tk_info {
    tk_kind kind;
    int width;      /* TK_NUM: bytes of a value */
    bool weighted;
} tk_info;

static const tk_info *tk_inf(const agg_call *a) { return a->data; }

static size_t tk_capacity(const agg_call *a)
{
    double lf = a->nparams > 1 ? a->params[1] : 3;
    return (size_t)a->params[0] * (size_t)lf;
}

static size_t tk_alpha_size(size_t cap)
{
    uint64_t x = (uint64_t)cap * 6;
    return (size_t)1 << (64 - __builtin_clzll(x));
}

static size_t tk_target(size_t cap) { return cap * 2 > 64 ? cap * 2 : 64; }

/* (Only empty keys were stored while keys.p is NULL.) */
static inline const uint8_t *tk_key(const tk_state *s, const tk_ctr *c)
{
    return s->keys.p ? (const uint8_t *)s->keys.p + c->off : (const uint8_t *)"";
}

/* Counter::operator>: count - error, then count. */
static inline bool tk_gt(const tk_ctr *x, const tk_ctr *y)
{
    uint64_t dx = x->count - x->error, dy = y->count - y->error;
    return dx > dy || (dx == dy && x->count > y->count);
}

static inline void tk_swap(tk_ctr *x, tk_ctr *y)
{
    tk_ctr t = *x;
    *x = *y;
    *y = t;
}

/* ---- ClickHouse's orders: miniselect's floyd_rivest_select_loop ---- */

static void tk_fr_select(tk_ctr *v, ptrdiff_t left, ptrdiff_t right, ptrdiff_t k)
{
    while (right > left) {
        if (right - left > 600) {
            ptrdiff_t n = right - left + 1, i = k - left + 1;
            double z = log((double)n), s = 0.5 * exp(2 * z / 3);
            double sd = 0.5 * sqrt(z * s * ((double)n - s) / (double)n);
            if (i < n / 2)
                sd *= -1.0;
            ptrdiff_t nl = (ptrdiff_t)((double)k - (double)i * s / (double)n + sd);
            ptrdiff_t nr = (ptrdiff_t)((double)k + (double)(n - i) * s / (double)n + sd);
            tk_fr_select(v, nl > left ? nl : left, nr < right ? nr : right, k);
        }
        ptrdiff_t i = left, j = right;
        tk_swap(&v[left], &v[k]);
        bool to_swap = tk_gt(&v[left], &v[right]);
        if (to_swap)
            tk_swap(&v[left], &v[right]);
        /* the pivot is referred to by position, as the original's reference is */
        ptrdiff_t t = to_swap ? left : right;
        while (i < j) {
            tk_swap(&v[i], &v[j]);
            i++;
            j--;
            while (tk_gt(&v[i], &v[t]))
                i++;
            while (tk_gt(&v[t], &v[j]))
                j--;
        }
        if (to_swap) {
            tk_swap(&v[left], &v[j]);
        } else {
            j++;
            tk_swap(&v[right], &v[j]);
        }
        if (j <= k)
            left = j + 1;
        if (k <= j)
            right = j - 1;
    }
}

/* ---- libc++'s std::sort (introsort, the non-bitset partition), with tk_gt as "less" ---- */

static void tk_sort3(tk_ctr *x, tk_ctr *y, tk_ctr *z)
{
    if (!tk_gt(y, x)) {
        if (!tk_gt(z, y))
            return;
        tk_swap(y, z);
        if (tk_gt(y, x))
            tk_swap(x, y);
        return;
    }
    if (tk_gt(z, y)) {
        tk_swap(x, z);
        return;
    }
    tk_swap(x, y);
    if (tk_gt(z, y))
        tk_swap(y, z);
}

/* Moves the last of x[0..n) down past the greater ones before it (libc++'s __sort4 and
 * __sort5 after their first __sort3 / __sort4). */
static void tk_sink(tk_ctr *const *x, int n)
{
    for (int i = n - 1; i > 0 && tk_gt(x[i], x[i - 1]); i--)
        tk_swap(x[i - 1], x[i]);
}

static void tk_sort4(tk_ctr *x1, tk_ctr *x2, tk_ctr *x3, tk_ctr *x4)
{
    tk_sort3(x1, x2, x3);
    tk_sink((tk_ctr *const[]){x1, x2, x3, x4}, 4);
}

static void tk_sort5(tk_ctr *x1, tk_ctr *x2, tk_ctr *x3, tk_ctr *x4, tk_ctr *x5)
{
    tk_sort4(x1, x2, x3, x4);
    tk_sink((tk_ctr *const[]){x1, x2, x3, x4, x5}, 5);
}

/* Insertion sort; unguarded relies on an element not greater than all at first[-1]. */
static void tk_insertion(tk_ctr *first, tk_ctr *last, bool guarded)
{
    if (first == last)
        return;
    for (tk_ctr *i = first + 1; i != last; ++i) {
        tk_ctr *j = i - 1;
        if (tk_gt(i, j)) {
            tk_ctr t = *i, *k = j;
            j = i;
            do {
                *j = *k;
                j = k;
            } while ((!guarded || j != first) && tk_gt(&t, --k));
            *j = t;
        }
    }
}

static bool tk_insertion_incomplete(tk_ctr *first, tk_ctr *last)
{
    switch (last - first) {
    case 0: case 1: return true;
    case 2:
        if (tk_gt(last - 1, first))
            tk_swap(first, last - 1);
        return true;
    case 3: tk_sort3(first, first + 1, last - 1); return true;
    case 4: tk_sort4(first, first + 1, first + 2, last - 1); return true;
    case 5: tk_sort5(first, first + 1, first + 2, first + 3, last - 1); return true;
    }
    tk_ctr *j = first + 2;
    tk_sort3(first, first + 1, j);
    unsigned count = 0;
    for (tk_ctr *i = j + 1; i != last; ++i) {
        if (tk_gt(i, j)) {
            tk_ctr t = *i, *k = j;
            j = i;
            do {
                *j = *k;
                j = k;
            } while (j != first && tk_gt(&t, --k));
            *j = t;
            if (++count == 8)
                return ++i == last;
        }
        j = i;
    }
    return true;
}

/* __partition_with_equals_on_right: the pivot is *first; returns its final place. */
static tk_ctr *tk_part_right(tk_ctr *first, tk_ctr *last, bool *already)
{
    tk_ctr *begin = first, pivot = *first;
    do
        ++first;
    while (tk_gt(first, &pivot));
    if (begin == first - 1) {
        while (first < last && !tk_gt(--last, &pivot))
            ;
    } else {
        do
            --last;
        while (!tk_gt(last, &pivot));
    }
    *already = first >= last;
    while (first < last) {
        tk_swap(first, last);
        do
            ++first;
        while (tk_gt(first, &pivot));
        do
            --last;
        while (!tk_gt(last, &pivot));
    }
    tk_ctr *pp = first - 1;
    if (begin != pp)
        *begin = *pp;
    *pp = pivot;
    return pp;
}

/* __partition_with_equals_on_left: returns the first element after the equal ones. */
static tk_ctr *tk_part_left(tk_ctr *first, tk_ctr *last)
{
    tk_ctr *begin = first, pivot = *first;
    if (tk_gt(&pivot, last - 1)) {
        do
            ++first;
        while (!tk_gt(&pivot, first));
    } else {
        while (++first < last && !tk_gt(&pivot, first))
            ;
    }
    if (first < last) {
        do
            --last;
        while (tk_gt(&pivot, last));
    }
    while (first < last) {
        tk_swap(first, last);
        do
            ++first;
        while (!tk_gt(&pivot, first));
        do
            --last;
        while (tk_gt(&pivot, last));
    }
    tk_ctr *pp = first - 1;
    if (begin != pp)
        *begin = *pp;
    *pp = pivot;
    return first;
}

/* Heap sort, introsort's fallback past its depth limit (libc++'s __partial_sort(first,
 * last, last): make_heap then sort_heap with Floyd's sift-down). As in libc++, "less" is
 * tk_gt, so the heap's top is the counter that sorts last. */
static void tk_sift_down(tk_ctr *v, ptrdiff_t len, ptrdiff_t start)
{
    ptrdiff_t child = start;
    if (len < 2 || (len - 2) / 2 < child)
        return;
    child = 2 * child + 1;
    if (child + 1 < len && tk_gt(&v[child], &v[child + 1]))
        ++child;
    if (tk_gt(&v[child], &v[start]))
        return;
    tk_ctr top = v[start];
    do {
        v[start] = v[child];
        start = child;
        if ((len - 2) / 2 < child)
            break;
        child = 2 * child + 1;
        if (child + 1 < len && tk_gt(&v[child], &v[child + 1]))
            ++child;
    } while (!tk_gt(&v[child], &top));
    v[start] = top;
}

static void tk_heap_sort(tk_ctr *v, ptrdiff_t len)
{
    for (ptrdiff_t s = (len - 2) / 2; s >= 0 && len > 1; --s)
        tk_sift_down(v, len, s);
    for (ptrdiff_t n = len; n > 1; --n) {
        /* __pop_heap with Floyd's hole: sink the hole to a leaf, then sift the last up */
        tk_ctr top = v[0];
        ptrdiff_t hole = 0;
        for (;;) {
            ptrdiff_t c = 2 * hole + 1;
            if (c >= n)
                break;
            if (c + 1 < n && tk_gt(&v[c], &v[c + 1]))
                ++c;
            v[hole] = v[c];
            hole = c;
            if (hole > (n - 2) / 2)
                break;
        }
        if (hole == n - 1) {
            v[hole] = top;
        } else {
            v[hole] = v[n - 1];
            v[n - 1] = top;
            ptrdiff_t h = hole;
            tk_ctr x = v[h];
            while (h > 0) {
                ptrdiff_t p = (h - 1) / 2;
                if (!tk_gt(&v[p], &x))
                    break;
                v[h] = v[p];
                h = p;
            }
            v[h] = x;
        }
    }
}

static void tk_introsort(tk_ctr *first, tk_ctr *last, ptrdiff_t depth, bool leftmost)
{
    for (;;) {
        ptrdiff_t len = last - first;
        switch (len) {
        case 0: case 1: return;
        case 2:
            if (tk_gt(last - 1, first))
                tk_swap(first, last - 1);
            return;
        case 3: tk_sort3(first, first + 1, last - 1); return;
        case 4: tk_sort4(first, first + 1, first + 2, last - 1); return;
        case 5: tk_sort5(first, first + 1, first + 2, first + 3, last - 1); return;
        }
        if (len < 24) {
            tk_insertion(first, last, leftmost);
            return;
        }
        if (depth == 0) {
            tk_heap_sort(first, len);
            return;
        }
        --depth;
        ptrdiff_t half = len / 2;
        if (len > 128) {
            tk_sort3(first, first + half, last - 1);
            tk_sort3(first + 1, first + (half - 1), last - 2);
            tk_sort3(first + 2, first + (half + 1), last - 3);
            tk_sort3(first + (half - 1), first + half, first + (half + 1));
            tk_swap(first, first + half);
        } else {
            tk_sort3(first + half, first, last - 1);
        }
        if (!leftmost && !tk_gt(first - 1, first)) {
            first = tk_part_left(first, last);
            continue;
        }
        bool already;
        tk_ctr *i = tk_part_right(first, last, &already);
        if (already) {
            bool fs = tk_insertion_incomplete(first, i);
            if (tk_insertion_incomplete(i + 1, last)) {
                if (fs)
                    return;
                last = i;
                continue;
            }
            if (fs) {
                first = ++i;
                continue;
            }
        }
        tk_introsort(first, i, depth, leftmost);
        leftmost = false;
        first = ++i;
    }
}

static void tk_sort(tk_ctr *v, size_t n)
{
    if (n)
        tk_introsort(v, v + n, 2 * (63 - __builtin_clzll(n)), true);
}

/* ClickHouse's ::partial_sort (floyd_rivest_partial_sort): the best mid first, sorted. */
static void tk_partial_sort(tk_ctr *v, size_t n, size_t mid)
{
    if (!n || !mid)
        return;
    tk_fr_select(v, 0, (ptrdiff_t)n - 1, (ptrdiff_t)mid - 1);
    tk_sort(v, mid);
}

/* ---- the counter map ---- */

static int64_t tk_find(const tk_state *s, const void *k, size_t len, uint32_t h)
{
    if (!s->map_cap)
        return -1;
    size_t m = s->map_cap - 1;
    for (size_t p = h & m;; p = (p + 1) & m) {
        uint32_t e = s->map[p];
        if (!e)
            return -1;
        const tk_ctr *c = &s->list[e - 1];
        if (c->hash == h && c->len == len && memcmp(tk_key(s, c), k, len) == 0)
            return e - 1;
    }
}

static void tk_map_add(tk_state *s, size_t idx)
{
    if ((s->n + 1) * 2 > s->map_cap) {
        size_t c = s->map_cap ? s->map_cap : 64;
        while ((s->n + 1) * 2 > c)
            c *= 2;
        mem_free(s->map);
        s->map = mem_calloc(c * sizeof *s->map);
        s->map_cap = c;
        for (size_t i = 0; i < s->n; i++)
            if (i != idx)
                tk_map_add(s, i);
    }
    const tk_ctr *c = &s->list[idx];
    if (tk_find(s, tk_key(s, c), c->len, c->hash) >= 0)
        return; /* insertIfNotPresent: a repeated key (read from a state) stays unmapped */
    size_t m = s->map_cap - 1, p = c->hash & m;
    while (s->map[p])
        p = (p + 1) & m;
    s->map[p] = (uint32_t)idx + 1;
}

static void tk_map_rebuild(tk_state *s)
{
    if (s->map_cap)
        memset(s->map, 0, s->map_cap * sizeof *s->map);
    for (size_t i = 0; i < s->n; i++)
        tk_map_add(s, i);
}

/* ---- the algorithm ---- */

static void tk_resize(tk_state *s, size_t cap)
{
    s->nalpha = tk_alpha_size(cap);
    s->alpha = mem_calloc(s->nalpha * sizeof *s->alpha);
}

static tk_ctr *tk_append(tk_state *s, const void *k, size_t len, uint32_t h, uint64_t cnt, uint64_t err)
{
    if (s->n == s->alloc) {
        s->alloc = s->alloc ? s->alloc * 2 : 16;
        s->list = mem_realloc(s->list, s->alloc * sizeof *s->list);
    }
    tk_ctr *c = &s->list[s->n++];
    *c = (tk_ctr){.count = cnt, .error = err, .off = s->keys.len, .len = (uint32_t)len, .hash = h};
    buf_append(&s->keys, k, len);
    return c;
}

/* Drops the key bytes of counters no longer listed. */
static void tk_compact(tk_state *s)
{
    buf nk = {0};
    for (size_t i = 0; i < s->n; i++) {
        tk_ctr *c = &s->list[i];
        uint64_t off = nk.len;
        buf_append(&nk, tk_key(s, c), c->len);
        c->off = off;
    }
    buf_free(&s->keys);
    s->keys = nk;
}

static void tk_truncate(tk_state *s, size_t cap, bool rebuild)
{
    if (s->n >= tk_target(cap)) {
        tk_fr_select(s->list, 0, (ptrdiff_t)s->n - 1, (ptrdiff_t)cap);
        size_t mask = s->nalpha - 1;
        for (size_t i = cap; i < s->n; i++) {
            const tk_ctr *c = &s->list[i];
            uint64_t *al = &s->alpha[c->hash & mask];
            uint64_t v = *al + c->count - c->error;
            *al = v < TK_MAX_ALPHA ? v : TK_MAX_ALPHA;
        }
        s->n = cap;
        tk_compact(s);
        rebuild = true;
    }
    if (rebuild)
        tk_map_rebuild(s);
}

static void tk_insert(tk_state *s, size_t cap, const void *k, size_t len, uint32_t h, uint64_t inc)
{
    if (!s->alpha)
        tk_resize(s, cap);
    int64_t idx = tk_find(s, k, len, h);
    if (idx >= 0) {
        s->list[idx].count += inc;
        return;
    }
    uint64_t al = s->n < cap ? 0 : s->alpha[h & (s->nalpha - 1)];
    tk_append(s, k, len, h, al + inc, al);
    tk_map_add(s, s->n - 1);
    tk_truncate(s, cap, false);
}

/* The key bytes of row i and their hash. */
static const void *tk_row_key(const agg_call *a, tk_state *s, const column *c, size_t i, size_t *len, uint32_t *h)
{
    const tk_info *in = tk_inf(a);
    i = col_idx(c, i);
    const void *p;
    switch (in->kind) {
    case TK_NUM: {
        p = c->data.p + i * (size_t)in->width;
        *len = (size_t)in->width;
        uint64_t lo = 0, hi = 0;
        memcpy(&lo, p, in->width < 8 ? (size_t)in->width : 8);
        if (in->width > 8)
            memcpy(&hi, (const char *)p + 8, 8);
        uint32_t x = ch_int_hash_crc32(lo);
        *h = in->width > 8 ? ch_crc32c_u64(x, hi) : x; /* HashCRC32 of wide ints: word by word */
        return p;
    }
    case TK_STR: p = col_str(c, i, len); break;
    case TK_PLAIN:
        s->tmp.len = 0;
        agg_put_value(&s->tmp, c, i);
        p = s->tmp.p;
        *len = s->tmp.len;
        break;
    case TK_ARRAY: {
        const uint64_t *o = col_offs(c);
        s->tmp.len = 0;
        for (uint64_t j = o[i]; j < o[i + 1]; j++)
            agg_put_value(&s->tmp, c->inner, (size_t)j);
        p = s->tmp.p;
        *len = s->tmp.len;
        break;
    }
    default:
        s->tmp.len = 0;
        agg_put_arena(&s->tmp, c, i);
        p = s->tmp.p;
        *len = s->tmp.len;
        break;
    }
    if (!p)
        p = ""; /* an empty array's bytes */
    *h = ch_string_ref_hash(p, *len);
    return p;
}

static uint32_t tk_hash_bytes(const agg_call *a, const void *p, size_t len)
{
    const tk_info *in = tk_inf(a);
    if (in->kind != TK_NUM)
        return ch_string_ref_hash(p, len);
    uint64_t lo = 0, hi = 0;
    memcpy(&lo, p, len < 8 ? len : 8);
    if (len > 8)
        memcpy(&hi, (const char *)p + 8, 8);
    uint32_t x = ch_int_hash_crc32(lo);
    return len > 8 ? ch_crc32c_u64(x, hi) : x;
}

static inline void tk_row(const agg_call *a, void *st, column *const *args, size_t i)
{
    tk_state *s = st;
    size_t len;
    uint32_t h;
    const void *k = tk_row_key(a, s, args[0], i, &len, &h);
    uint64_t w = 1;
    if (tk_inf(a)->weighted) {
        /* IColumn::getUInt: the value's low 64 bits (negative numbers wrap) */
        const column *wc = args[1];
        size_t wi = col_idx(wc, i), ww = type_phys(wc->type)->width;
        w = 0;
        uint64_t v = 0;
        memcpy(&v, wc->data.p + wi * ww, ww < 8 ? ww : 8);
        if (ww < 8 && type_is_signed(type_phys(wc->type)) && (v >> (ww * 8 - 1)) & 1)
            v |= ~UINT64_C(0) << (ww * 8);
        w = v;
    }
    tk_insert(s, tk_capacity(a), k, len, h, w);
}
AGG_ROW_OPS(tk, tk_row)

static void tk_init(const agg_call *a, void *st) { memset(st, 0, sizeof(tk_state)); }

static void tk_destroy(const agg_call *a, void *st)
{
    tk_state *s = st;
    mem_free(s->list);
    mem_free(s->alpha);
    mem_free(s->map);
    buf_free(&s->keys);
    buf_free(&s->tmp);
    memset(s, 0, sizeof *s);
}

static uint64_t tk_max_alpha(const tk_state *s)
{
    uint64_t m = 0;
    for (size_t i = 0; i < s->nalpha; i++)
        m = s->alpha[i] > m ? s->alpha[i] : m;
    return m;
}

/* SpaceSaving::merge (d absorbs s). */
static void tk_merge(const agg_call *a, void *dst, void *src)
{
    tk_state *d = dst, *s = src;
    size_t cap = tk_capacity(a);
    if (!s->n) {
        tk_destroy(a, src);
        return;
    }
    if (!d->n) {
        /* operator=: the source's counters and alpha map */
        tk_destroy(a, dst);
        *d = *s;
        memset(s, 0, sizeof *s);
        tk_truncate(d, cap, true);
        return;
    }
    uint64_t m1 = d->n >= cap ? tk_max_alpha(d) : 0;
    uint64_t m2 = s->n >= cap ? tk_max_alpha(s) : 0;
    if (m2)
        for (size_t i = 0; i < d->n; i++) {
            d->list[i].count += m2;
            d->list[i].error += m2;
        }
    for (size_t j = 0; j < s->n; j++) {
        const tk_ctr *c = &s->list[j];
        int64_t idx = tk_find(d, tk_key(s, c), c->len, c->hash);
        if (idx >= 0) {
            d->list[idx].count += c->count - m2;
            d->list[idx].error += c->error - m2;
        } else {
            tk_append(d, tk_key(s, c), c->len, c->hash, c->count + m1, c->error + m1);
        }
    }
    if (d->nalpha == s->nalpha)
        for (size_t i = 0; i < d->nalpha; i++) {
            uint64_t v = d->alpha[i] + s->alpha[i];
            d->alpha[i] = v < TK_MAX_ALPHA ? v : TK_MAX_ALPHA;
        }
    tk_truncate(d, cap, true);
    tk_destroy(a, src);
}

/* A sorted copy of the best k counters (the caller frees it). */
static tk_ctr *tk_best(const tk_state *s, size_t k, size_t *n)
{
    *n = s->n < k ? s->n : k;
    if (!s->n)
        return NULL;
    tk_ctr *v = mem_alloc(s->n * sizeof *v);
    memcpy(v, s->list, s->n * sizeof *v);
    tk_partial_sort(v, s->n, *n);
    return v;
}

static int tk_finalize(const agg_call *a, void *st, column *out)
{
    tk_state *s = st;
    size_t n;
    tk_ctr *v = tk_best(s, (size_t)a->params[0], &n);
    column *dst = out->inner;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const uint8_t *k = tk_key(s, &v[i]);
        agg_rd rd = {k, k + v[i].len, 0};
        switch (tk_inf(a)->kind) {
        case TK_STR: col_push_str(dst, (const char *)k, v[i].len); break;
        case TK_ARENA: rc = agg_get_arena(&rd, dst); break;
        case TK_ARRAY:
            while (rc == 0 && rd.p < rd.end)
                rc = agg_get_value(&rd, dst->inner);
            if (rc == 0)
                col_array_commit(dst);
            break;
        default: rc = agg_get_value(&rd, dst); break;
        }
        if (rc == 0 && rd.p != rd.end && tk_inf(a)->kind != TK_STR)
            rc = err_set(ERR_INCORRECT_DATA, "topK state holds a value of %u bytes, which is not one of its type",
                         v[i].len);
    }
    mem_free(v);
    if (rc < 0)
        return -1;
    col_array_commit(out);
    return 0;
}

/* SpaceSaving::write: VarUInt counters, each key (raw numbers, else a VarUInt length and
 * the bytes), VarUInt count, VarUInt error, best first; VarUInt alpha map size, the alphas. */
static void tk_serialize(const agg_call *a, const void *st, buf *out)
{
    const tk_state *s = st;
    size_t n;
    tk_ctr *v = tk_best(s, tk_capacity(a), &n);
    agg_put_varuint(out, n);
    for (size_t i = 0; i < n; i++) {
        if (tk_inf(a)->kind != TK_NUM)
            agg_put_varuint(out, v[i].len);
        buf_append(out, tk_key(s, &v[i]), v[i].len);
        agg_put_varuint(out, v[i].count);
        agg_put_varuint(out, v[i].error);
    }
    mem_free(v);
    agg_put_varuint(out, s->nalpha);
    for (size_t i = 0; i < s->nalpha; i++)
        agg_put_varuint(out, s->alpha[i]);
}

/* SpaceSaving::read: at most capacity counters, appended in the order written; then the
 * alpha map, of at least this capacity's size (any size is skipped after 0 counters). */
static int tk_deserialize(const agg_call *a, void *st, agg_rd *in)
{
    tk_state *s = st;
    size_t cap = tk_capacity(a);
    uint64_t n, na, x;
    tk_destroy(a, st);
    if (agg_rd_varuint(in, &n) < 0)
        return -1;
    if (n > cap)
        return err_set(ERR_TOO_LARGE_ARRAY_SIZE, "Found too large when reading counters (Passed: %llu. Maximum: %zu)",
                       (unsigned long long)n, cap);
    if (n)
        tk_resize(s, cap);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len = (uint64_t)tk_inf(a)->width, cnt, err;
        if (tk_inf(a)->kind != TK_NUM && agg_rd_varuint(in, &len) < 0)
            return -1;
        if (len > (uint64_t)(in->end - in->p))
            return agg_rd_short(in, (size_t)len);
        if (len > UINT32_MAX)
            return err_set(ERR_TOO_LARGE_STRING_SIZE, "Too large string size in topK state");
        const uint8_t *k = in->p;
        in->p += len;
        if (agg_rd_varuint(in, &cnt) < 0 || agg_rd_varuint(in, &err) < 0)
            return -1;
        tk_append(s, k, (size_t)len, tk_hash_bytes(a, k, (size_t)len), cnt, err);
    }
    if (agg_rd_varuint(in, &na) < 0)
        return -1;
    if (n && na < s->nalpha)
        return err_set(ERR_SIZES_OF_ARRAYS_DONT_MATCH, "Found incorrect alpha vector size (Passed: %llu. Expected: %zu)",
                       (unsigned long long)na, s->nalpha);
    /* a larger map (as older versions' states may have) is read past and left all zero,
     * as ClickHouse 26.7 does */
    for (uint64_t i = 0; i < na; i++)
        if (agg_rd_varuint(in, n && na == s->nalpha ? &s->alpha[i] : &x) < 0)
            return -1;
    if (n)
        tk_truncate(s, cap, true);
    return 0;
}

static void tk_spill_write(const agg_call *a, const void *st, buf *out)
{
    agg_spill_write_serialized(a, st, out, tk_serialize);
}

static void tk_spill_read(const agg_call *a, void *st, const char **p)
{
    agg_spill_read_serialized(a, st, p, tk_deserialize);
}

/* ClickHouse's choice of implementation: AggregateFunctionTopK<T> for numbers (and Date,
 * Date32, DateTime, Enum, Bool, IPv4), the generic one keyed by bytes otherwise. */
static tk_kind tk_kind_of(const type *t, int *width)
{
    switch (t->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_UINT128:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64: case T_INT128:
    case T_FLOAT32: case T_FLOAT64: case T_BOOL: case T_DATE: case T_DATE32: case T_DATETIME:
    case T_ENUM8: case T_ENUM16: case T_IPV4:
        *width = (int)type_phys(t)->width;
        return TK_NUM;
    case T_STRING: return TK_STR;
    case T_FIXEDSTRING: case T_DECIMAL32: case T_DECIMAL64: case T_DECIMAL128: case T_DATETIME64:
    case T_UUID: case T_IPV6:
        return TK_PLAIN;
    case T_ARRAY: {
        /* isValueUnambiguouslyRepresentedInContiguousMemoryRegion: arrays of fixed-width values */
        int w;
        tk_kind k = t->inner->id == T_STRING ? TK_STR : tk_kind_of(t->inner, &w);
        return k == TK_NUM || k == TK_PLAIN ? TK_ARRAY : TK_ARENA;
    }
    default: return TK_ARENA;
    }
}

static int tk_resolve(agg_call *a)
{
    bool weighted = strcmp(a->def->name, "topKWeighted") == 0;
    if (a->nargs != (weighted ? 2 : 1))
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires %s", a->def->name,
                       weighted ? "two arguments" : "single argument");
    if (a->nparams > 2)
        return err_set(ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function %s requires two parameters or less",
                       a->def->name);
    /* topK(x) = topK(10)(x); params always has room for one. nparams stays 0: the state's
     * type is AggregateFunction(topK, T), as ClickHouse names it. */
    if (a->nparams == 0)
        a->params[0] = 10;
    if (a->nparams > 1 && a->params[1] < 1)
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND,
                       "Too small parameter 'load_factor' for aggregate function '%s' (got %g, minimum is 1)",
                       a->def->name, a->params[1]);
    for (int p = 0; p < a->nparams; p++)
        if (a->params[p] < 1 || a->params[p] != floor(a->params[p]) || a->params[p] > 0xFFFFFF)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Parameter %d is illegal for aggregate function '%s'", p,
                           a->def->name);
    if (weighted) {
        const type *w = type_base(a->arg_types[1]);
        if (!type_is_integer(w) && w->id != T_BOOL)
            return err_set(ERR_ILLEGAL_TYPE_OF_ARGUMENT,
                           "The second argument for aggregate function 'topKWeighted' must have integer type");
    }
    tk_info *in = calloc(1, sizeof *in);
    if (!in)
        return err_set(ERR_MEMORY_LIMIT_EXCEEDED, "out of memory");
    const type *t = type_base(a->arg_types[0]);
    in->kind = tk_kind_of(t, &in->width);
    in->weighted = weighted;
    a->data = in;
    a->ret = type_array(t);
    a->state_size = sizeof(tk_state);
    a->state_align = _Alignof(tk_state);
    a->ops = (agg_ops){.init = tk_init,
                       .merge = tk_merge,
                       .finalize = tk_finalize,
                       .destroy = tk_destroy,
                       .serialize = tk_serialize,
                       .deserialize = tk_deserialize,
                       .spill_write = tk_spill_write,
                       .spill_read = tk_spill_read};
    AGG_SET_ADD_OPS(a, tk);
    return 0;
}

void agg_register_topk(void)
{
    static const agg_def defs[] = {
        {"topK", AGG_NULLS_KEEP_TYPE | AGG_NULL_NO_FLAG | AGG_NULL_LITERAL_NULL, tk_resolve, "The (approximately) most frequent values"},
        /* with Nullable arguments its state starts with a flag byte, always 1 (unlike topK's) */
        {"topKWeighted", AGG_NULLS_KEEP_TYPE | AGG_NULL_LITERAL_NULL, tk_resolve,
         "The (approximately) most frequent values, each row counting its weight"},
    };
    for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++)
        agg_register(&defs[i]);
}
