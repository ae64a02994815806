/* ClickHouse's HyperLogLogCounter (uniq_combined.h). */
#include "uniq_combined.h"

#include "base/err.h"
#include "base/mem.h"
#include "func/agg_state.h"

#include <math.h>
#include <string.h>

static inline size_t buckets(const uc_hll_cfg *c) { return (size_t)1 << c->k; }
static inline int max_rank(const uc_hll_cfg *c) { return c->hbits - c->k + 1; }
static inline int rank_width(const uc_hll_cfg *c) { return c->hbits == 32 ? 5 : 6; }
static inline size_t zeros_width(const uc_hll_cfg *c) { return buckets(c) >= (1u << 16) ? 4 : 2; }
static inline size_t packed_bytes(const uc_hll_cfg *c) { return (buckets(c) * (size_t)rank_width(c) + 7) / 8; }
static inline size_t denom_bytes(const uc_hll_cfg *c) { return 4 * (size_t)(max_rank(c) + 1); }

uc_hll *uc_hll_new(const uc_hll_cfg *c)
{
    uc_hll *h = mem_calloc(sizeof *h);
    h->rank = mem_calloc(buckets(c));
    h->rank_count[0] = (uint32_t)buckets(c);
    h->zeros = (uint32_t)buckets(c);
    return h;
}

void uc_hll_free(uc_hll *h)
{
    if (h)
        mem_free(h->rank);
    mem_free(h);
}

/* HyperLogLogCounter::update: a bucket only ever raises its rank. */
static inline void update(const uc_hll_cfg *c, uc_hll *h, size_t bucket, int rank)
{
    int cur = h->rank[bucket];
    if (rank <= cur)
        return;
    if (cur == 0)
        h->zeros--;
    h->rank_count[cur]--;
    h->rank_count[rank]++;
    h->rank[bucket] = (uint8_t)rank;
}

void uc_hll_insert(const uc_hll_cfg *c, uc_hll *h, uint64_t hash)
{
    if (c->hbits == 32)
        hash = (uint32_t)hash;
    size_t bucket = (size_t)(hash & (buckets(c) - 1));
    uint64_t tail = hash >> c->k;
    int rank = tail ? __builtin_ctzll(tail) + 1 : max_rank(c);
    update(c, h, bucket, rank);
}

void uc_hll_merge(const uc_hll_cfg *c, uc_hll *dst, const uc_hll *src)
{
    for (size_t b = 0; b < buckets(c); b++)
        update(c, dst, b, src->rank[b]);
}

/* HyperLogLogBiasEstimator::getBias: the bias at raw, interpolated between the table's
 * neighbouring estimates (lower_bound on the raw estimates). */
static double bias_at(double raw)
{
    size_t lo = 0, hi = UC_BIAS_N;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (uc_bias_raw[mid] < raw)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == UC_BIAS_N)
        return uc_bias_val[UC_BIAS_N - 1];
    if (uc_bias_raw[lo] == raw)
        return uc_bias_val[lo];
    if (lo == 0)
        return uc_bias_val[0];
    double e1 = uc_bias_raw[lo - 1], e2 = uc_bias_raw[lo];
    double b1 = uc_bias_val[lo - 1], b2 = uc_bias_val[lo];
    double slope = (b2 - b1) / (e2 - e1);
    return b1 + slope * (raw - e1);
}

/* LinearCounting: m * ln(m / zeros) while some bucket is empty. */
static double linear(const uc_hll_cfg *c, const uc_hll *h, double est)
{
    if (h->zeros == 0)
        return est;
    double m = (double)buckets(c);
    return m * (log(m) - log((double)h->zeros));
}

/* The denominator: sum of count[r] / 2^r, folded from the highest rank down in long double
 * (x87 extended precision), as ClickHouse does. */
static double denominator(const uc_hll_cfg *c, const uc_hll *h)
{
    int n = max_rank(c) + 1;
    long double v = h->rank_count[n - 1];
    for (int i = n - 2; i >= 0; i--) {
        v /= 2.0L;
        v += h->rank_count[i];
    }
    return (double)v;
}

uint64_t uc_hll_size(const uc_hll_cfg *c, const uc_hll *h)
{
    double m = (double)buckets(c);
    double alpha = 0.7213 / (1 + 1.079 / m);
    double raw = alpha * m * m / denominator(c, h);
    double est = raw;
    if (raw <= 4294967296.0 / 30.0) {
        if (!c->bias) {
            if (raw <= 2.5 * m)
                est = linear(c, h, raw);
        } else {
            est = raw <= 5 * m ? raw - bias_at(raw) : raw;
            double lin = linear(c, h, est);
            if (lin < 177700)
                est = lin;
        }
    }
    est += 0.5;
    return est >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)est; /* est >= 0 for a consistent counter */
}

size_t uc_hll_bytes(const uc_hll_cfg *c)
{
    size_t off = packed_bytes(c) + denom_bytes(c), zw = zeros_width(c);
    off = (off + zw - 1) / zw * zw;
    return off + zw;
}

void uc_hll_write(const uc_hll_cfg *c, const uc_hll *h, buf *out)
{
    size_t total = uc_hll_bytes(c);
    uint8_t *p = mem_calloc(total);
    int w = rank_width(c);
    for (size_t b = 0; b < buckets(c); b++) {
        size_t bit = b * (size_t)w;
        uint32_t v = (uint32_t)h->rank[b] << (bit % 8);
        p[bit / 8] |= (uint8_t)v;
        if ((bit % 8) + (size_t)w > 8)
            p[bit / 8 + 1] |= (uint8_t)(v >> 8);
    }
    memcpy(p + packed_bytes(c), h->rank_count, denom_bytes(c));
    size_t zw = zeros_width(c);
    if (zw == 2) {
        uint16_t z = (uint16_t)h->zeros;
        memcpy(p + total - 2, &z, 2);
    } else {
        memcpy(p + total - 4, &h->zeros, 4);
    }
    buf_append(out, p, total);
    mem_free(p);
}

int uc_hll_read(const uc_hll_cfg *c, uc_hll *h, agg_rd *in)
{
    size_t total = uc_hll_bytes(c);
    if ((size_t)(in->end - in->p) < total)
        return agg_rd_short(in, total);
    const uint8_t *p = in->p;
    int w = rank_width(c);
    for (size_t b = 0; b < buckets(c); b++) {
        size_t bit = b * (size_t)w;
        uint32_t v = p[bit / 8];
        if ((bit % 8) + (size_t)w > 8)
            v |= (uint32_t)p[bit / 8 + 1] << 8;
        int r = (int)((v >> (bit % 8)) & ((1u << w) - 1));
        if (r > max_rank(c)) /* ClickHouse would index past its per-rank counts */
            return err_set(ERR_INCORRECT_DATA, "Cannot read HyperLogLog state: bucket %zu has rank %d, above the "
                           "maximum %d", b, r, max_rank(c));
        h->rank[b] = (uint8_t)r;
    }
    memcpy(h->rank_count, p + packed_bytes(c), denom_bytes(c));
    if (zeros_width(c) == 2) {
        uint16_t z;
        memcpy(&z, p + total - 2, 2);
        h->zeros = z;
    } else {
        memcpy(&h->zeros, p + total - 4, 4);
    }
    in->p += total;
    /* ClickHouse takes the stored counts as they are; shale checks them against the ranks
     * (ClickHouse's own states always agree) so that a corrupt state is an error, not a
     * meaningless or negative estimate. */
    uint32_t count[66] = {0};
    for (size_t b = 0; b < buckets(c); b++)
        count[h->rank[b]]++;
    bool ok = h->zeros == count[0];
    for (int r = 0; r <= max_rank(c); r++)
        ok &= h->rank_count[r] == count[r];
    if (!ok)
        return err_set(ERR_INCORRECT_DATA, "Cannot read HyperLogLog state: its counts do not match its buckets");
    return 0;
}
