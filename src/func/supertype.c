#include "func/supertype.h"
#include "func/scalar/conv_wide.h"
#include "column/datetime.h"
#include "func/scalar/num.h"

#include "base/err.h"

#include <stdio.h>
#include <string.h>

static void list_types(char *out, size_t cap, int n, const type *const *t)
{
    size_t pos = 0;
    out[0] = 0;
    for (int i = 0; i < n && pos < cap; i++)
        pos += (size_t)snprintf(out + pos, cap - pos, "%s%s", i ? ", " : "", t[i]->name);
}

static const type *no_common(int n, const type *const *t, const char *why)
{
    char list[1024];
    list_types(list, sizeof list, n, t);
    err_set(ERR_NO_COMMON_TYPE, "There is no supertype for types %s %s", list, why);
    return NULL;
}

static int int_digits(const type *t)
{
    switch (t->id) {
    case T_UINT8: case T_INT8: case T_BOOL: return 3;
    case T_UINT16: case T_INT16: return 5;
    case T_UINT32: case T_INT32: return 10;
    case T_UINT64: return 20;
    case T_INT64: return 19;
    case T_INT256: case T_UINT256: return 77; /* no Decimal holds them all */
    default: return 39;
    }
}

static bool is_date(const type *t) { return t->id >= T_DATE && t->id <= T_DATETIME64; }

const type *type_supertype(int n, const type *const *types)
{
    const type *in[64];
    if (n > 64)
        n = 64;
    int m = 0;
    bool nullable = false, lowcard = true;
    for (int i = 0; i < n; i++) {
        const type *t = types[i];
        if (t->id != T_LOWCARDINALITY)
            lowcard = false;
        t = type_phys(t);
        if (t->id == T_NULLABLE) {
            nullable = true;
            t = type_phys(t->inner);
        }
        if (t->id == T_NOTHING)
            continue;
        in[m++] = t;
    }
    const type *r = NULL;
    if (m == 0) {
        r = type_simple(T_NOTHING);
    } else {
        bool same = true;
        for (int i = 1; i < m; i++)
            if (in[i] != in[0])
                same = false;
        if (same) {
            r = in[0];
        } else {
            int nstr = 0, nnum = 0, nfloat = 0, ndate = 0, ndec = 0, narr = 0, ntup = 0, nmap = 0;
            for (int i = 0; i < m; i++) {
                const type *t = in[i];
                if (type_is_string(t)) nstr++;
                else if (num_is_float(t)) nfloat++, nnum++;
                else if (num_is_int(t) || t->id == T_INT256 || t->id == T_UINT256) nnum++;
                else if (type_is_decimal(t) || t->id == T_DECIMAL256) ndec++;
                else if (is_date(t)) ndate++;
                else if (t->id == T_ARRAY) narr++;
                else if (t->id == T_TUPLE) ntup++;
                else if (t->id == T_MAP) nmap++;
            }
            if (nstr) {
                if (nstr != m)
                    return no_common(n, types, "because some of them are String/FixedString/Enum and some of them are not");
                r = type_simple(T_STRING);
            } else if (narr) {
                if (narr != m)
                    return no_common(n, types, "because some of them are Array and some of them are not");
                const type *inner[64];
                for (int i = 0; i < m; i++)
                    inner[i] = in[i]->inner;
                const type *e = type_supertype(m, inner);
                if (!e)
                    return NULL;
                r = type_array(e);
            } else if (nmap) {
                if (nmap != m)
                    return no_common(n, types, "because some of them are Maps and some of them are not");
                const type *kv[2][64];
                for (int i = 0; i < m; i++)
                    kv[0][i] = in[i]->inner->fields[0], kv[1][i] = in[i]->inner->fields[1];
                const type *k = type_supertype(m, kv[0]), *v = k ? type_supertype(m, kv[1]) : NULL;
                if (!k || !v || !(r = type_map(k, v)))
                    return NULL;
            } else if (ntup) {
                if (ntup != m)
                    return no_common(n, types, "because some of them are Tuple and some of them are not");
                int nf = in[0]->nfields;
                for (int i = 1; i < m; i++)
                    if (in[i]->nfields != nf)
                        return no_common(n, types, "because Tuples have different sizes");
                const type *f[64], *col[64];
                for (int k = 0; k < nf && k < 64; k++) {
                    for (int i = 0; i < m; i++)
                        col[i] = in[i]->fields[k];
                    f[k] = type_supertype(m, col);
                    if (!f[k])
                        return NULL;
                }
                r = type_tuple(nf, f, NULL);
            } else if (ndate) {
                if (ndate != m)
                    return no_common(n, types, "because some of them are Date/Date32/DateTime/DateTime64 and some of them are not");
                /* As ClickHouse: Date32 with DateTime, or any DateTime64, gives DateTime64 of
                 * the largest scale in the zone of the first DateTime64 of that scale (none
                 * without one); else the first DateTime as it is (its zone); else a day type. */
                bool date32 = false, dt = false;
                const type *dt64 = NULL, *first_dt = NULL;
                for (int i = 0; i < m; i++) {
                    date32 |= in[i]->id == T_DATE32;
                    if (in[i]->id == T_DATETIME && !first_dt) first_dt = in[i];
                    dt |= in[i]->id == T_DATETIME;
                    if (in[i]->id == T_DATETIME64 && (!dt64 || in[i]->scale > dt64->scale)) dt64 = in[i];
                }
                r = dt64 ? dt64 : (date32 && dt) ? type_datetime64(0, NULL) : first_dt ? first_dt
                                  : type_simple(date32 ? T_DATE32 : T_DATE);
            } else if (ndec) {
                if (ndec + nnum != m)
                    return no_common(n, types, "because some of them are Decimal and some of them are not");
                if (nfloat)
                    r = type_simple(T_FLOAT64);
                else {
                    int digits = 0, scale = 0;
                    for (int i = 0; i < m; i++) {
                        bool dec = type_is_decimal(in[i]) || in[i]->id == T_DECIMAL256;
                        int d = dec ? in[i]->precision - in[i]->scale : int_digits(in[i]);
                        int s = dec ? in[i]->scale : 0;
                        if (d > digits) digits = d;
                        if (s > scale) scale = s;
                    }
                    if (digits + scale > 76)
                        return no_common(n, types, "because the resulting Decimal would be too wide");
                    r = type_decimal(digits + scale, scale);
                }
            } else if (nnum == m) {
                unsigned max_s = 0, max_u = 0, max_f = 0;
                for (int i = 0; i < m; i++) {
                    unsigned bits = num_size(in[i]) * 8;
                    if (num_is_float(in[i])) { if (bits > max_f) max_f = bits; }
                    else if (num_is_uint(in[i]) || in[i]->id == T_UINT256) { if (bits > max_u) max_u = bits; }
                    else if (bits > max_s) max_s = bits;
                }
                if (max_f) {
                    unsigned maxi = max_s > max_u ? max_s : max_u;
                    if (maxi <= 16 && max_f == 32)
                        r = type_simple(T_FLOAT32);
                    else if (maxi <= 32)
                        r = type_simple(T_FLOAT64);
                    else
                        return no_common(n, types, "because some of them are integers and some are floating point, but there is no floating point type, that can exactly represent all required integers");
                } else if (max_s) {
                    unsigned need = max_s;
                    if (max_u >= need)
                        need = max_u * 2;
                    if (need > 256 || (need > 64 && max_u == 64 && max_s < 256))
                        return no_common(n, types, "because some of them are signed integers and some are unsigned integers, but there is no signed integer type, that can exactly represent all required unsigned integer values");
                    r = need == 256 ? type_simple(T_INT256) : num_int_type(true, need / 8);
                } else {
                    r = max_u == 256 ? type_simple(T_UINT256) : num_int_type(false, max_u / 8);
                }
            } else {
                return no_common(n, types, "because they are not compatible");
            }
        }
    }
    if (nullable && type_can_be_nullable(r))
        r = type_nullable(r);
    if (lowcard && n > 0 && (type_is_string(r) || type_is_number(type_strip_nullable(r))))
        r = type_lowcard(r);
    return r;
}

/* ---- conversion to a supertype ---- */

static column *cast_rows(const column *c, const type *from, const type *to, size_t n, const char *zone, bool pad);

/* zone: the session time zone, for a Date becoming a time without a zone of its own. */
static column *cast_fixed(const column *c, const type *from, const type *to, size_t n, const char *zone)
{
    from = type_phys(from);
    to = type_phys(to);
    if (type_is_wide(from) || type_is_wide(to)) {
        column *part = c->len == n ? col_ref((column *)c) : col_slice(c, 0, n), *r;
        int rc = conv_wide(part, to, NULL, NULL, false, &r);
        col_free(part);
        return rc < 0 ? NULL : r;
    }
    if (num_is_float(to)) {
        double *v = mem_alloc((n ? n : 1) * 8);
        num_load_f64(from, c->data.p, n, v);
        if (type_is_decimal(from)) {
            double d = (double)type_decimal_scale_multiplier(from);
            for (size_t i = 0; i < n; i++) v[i] /= d;
        }
        column *r = num_store_f64(to, v, n);
        mem_free(v);
        return r;
    }
    int128_t *v = mem_alloc((n ? n : 1) * 16);
    num_load_i128(from, c->data.p, n, v);
    int128_t mul = 1;
    if (type_is_decimal(to))
        mul = type_decimal_scale_multiplier(to) / (type_is_decimal(from) ? type_decimal_scale_multiplier(from) : 1);
    else if ((from->id == T_DATE || from->id == T_DATE32) && (to->id == T_DATETIME || to->id == T_DATETIME64)) {
        /* A day becomes its midnight in the target's time zone (as ClickHouse's
         * toDateTime(date, tz)), not UTC's. */
        const tz_info *tz = tz_get(to->tz ? to->tz : zone);
        if (!tz) {
            mem_free(v);
            return NULL;
        }
        for (size_t i = 0; i < n; i++)
            v[i] = tz_local_to_utc(tz, (int64_t)v[i] * 86400);
    }
    if (to->id == T_DATETIME64) {
        int128_t m = 1;
        for (int i = 0; i < to->scale; i++) m *= 10;
        if (from->id == T_DATETIME64)
            for (int i = 0; i < from->scale; i++) m /= 10;
        mul *= m;
    }
    if (mul != 1)
        for (size_t i = 0; i < n; i++) v[i] *= mul;
    column *r = num_store_i128(to, v, n);
    mem_free(v);
    return r;
}

static column *cast_rows(const column *c, const type *from, const type *to, size_t n, const char *zone, bool pad)
{
    const type *pf = type_phys(from), *pt = type_phys(to);
    if (pf == pt) {
        column *r = col_slice(c, 0, n);
        r->type = to;
        return r;
    }
    if (pf->id == T_NOTHING && pt->id != T_NULLABLE) /* e.g. the elements of [] or map() */
        return col_new_defaults(to, n);
    if (pt->id == T_NULLABLE) {
        column *w = col_new(to);
        col_free(w->inner);
        w->inner = NULL;
        if (pf->id == T_NULLABLE) {
            if (type_phys(pf->inner)->id == T_NOTHING) {
                col_free(w);
                return col_new_defaults(to, n);
            }
            w->inner = cast_rows(c->inner, pf->inner, pt->inner, n, zone, pad);
            if (!w->inner) { w->inner = NULL; col_free(w); return NULL; }
            buf_append(&w->nulls, c->nulls.p, n);
        } else if (pf->id == T_NOTHING) {
            col_free(w);
            return col_new_defaults(to, n);
        } else {
            w->inner = cast_rows(c, from, pt->inner, n, zone, pad);
            if (!w->inner) { col_free(w); return NULL; }
            buf_resize_zero(&w->nulls, n);
        }
        w->len = n;
        return w;
    }
    if (pt->id == T_STRING && pf->id == T_FIXEDSTRING) {
        column *r = col_new(to);
        col_reserve(r, n);
        for (size_t i = 0; i < n; i++) {
            size_t len;
            const char *s = col_str(c, i, &len);
            while (!pad && len && s[len - 1] == '\0')
                len--;
            col_push_str(r, s, len);
        }
        return r;
    }
    if ((pt->id == T_ARRAY && pf->id == T_ARRAY) || (pt->id == T_MAP && pf->id == T_MAP)) {
        column *r = col_new(to);
        col_free(r->inner);
        r->inner = NULL;
        const uint64_t *o = col_offs(c);
        /* the padding is kept at the top level only: elements are CAST (ClickHouse) */
        r->inner = cast_rows(c->inner, pf->inner, pt->inner, (size_t)o[n], zone, false);
        if (!r->inner) { col_free(r); return NULL; }
        buf_append(&r->offs, o + 1, n * sizeof(uint64_t));
        r->len = n;
        return r;
    }
    if (pt->id == T_TUPLE && pf->id == T_TUPLE && pt->nfields == pf->nfields) {
        column *r = col_new(to);
        for (int k = 0; k < pt->nfields; k++) {
            col_free(r->fields[k]);
            r->fields[k] = NULL;
            r->fields[k] = cast_rows(c->fields[k], pf->fields[k], pt->fields[k], n, zone, false);
            if (!r->fields[k]) { col_free(r); return NULL; }
        }
        r->len = n;
        return r;
    }
    if (pf->width && pt->width && pf->id != T_FIXEDSTRING && pt->id != T_FIXEDSTRING) {
        column *r = cast_fixed(c, pf, pt, n, zone);
        if (!r)
            return NULL;
        r->type = to;
        return r;
    }
    err_set(ERR_CANNOT_CONVERT_TYPE, "Cannot convert type %s to %s", from->name, to->name);
    return NULL;
}

static column *cast_super(const column *c, const type *from, const type *to, const char *zone, bool pad)
{
    if (c->is_const) {
        column *one = cast_rows(c, from, to, 1, zone, pad);
        return one ? col_new_const(one, c->len) : NULL;
    }
    return cast_rows(c, from, to, c->len, zone, pad);
}

const type *type_supertype_consts(int n, const type *const *types, column *const *consts)
{
    const type *st = type_supertype(n, types);
    if (st || !consts || n > 64)
        return st;
    const type *alt[64];
    bool is_signed = false, changed = false;
    for (int i = 0; i < n; i++) {
        const type *b = type_base(types[i]);
        alt[i] = types[i];
        if (type_is_integer(b) && type_is_signed(b)) {
            is_signed = true;
        } else if (b->id == T_UINT64 && consts[i] && consts[i]->len > 0) {
            const column *v = consts[i];
            bool null = type_is_nullable(v->type) && col_is_null(v, 0);
            const column *inner = type_is_nullable(v->type) ? v->inner : v;
            if (null || col_get_u64(inner, col_idx(inner, 0)) <= INT64_MAX) {
                const type *i64 = type_simple(T_INT64);
                alt[i] = type_is_nullable(types[i]) ? type_nullable(i64) : i64;
                changed = true;
            }
        }
    }
    if (!is_signed || !changed)
        return NULL;
    buf msg = {0}; /* the error of the types as written, should the retry fail too */
    buf_printf(&msg, "%s", err_msg());
    int code = err_code();
    err_clear();
    st = type_supertype(n, alt);
    if (!st) {
        err_clear();
        err_set(code, "%s", buf_cstr(&msg));
    }
    buf_free(&msg);
    return st;
}

column *type_cast_super(const column *c, const type *from, const type *to, const char *zone)
{
    return cast_super(c, from, to, zone, false);
}

column *type_cast_super_padded(const column *c, const type *from, const type *to, const char *zone)
{
    return cast_super(c, from, to, zone, true);
}
