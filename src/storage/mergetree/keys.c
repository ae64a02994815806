/* Sorting, primary and partition keys: compiling their expressions against the table's
 * columns, evaluating them over blocks, the stable sort of an insert block, and
 * ClickHouse's partition IDs. */
#include "storage/mergetree/mt.h"

#include "base/err.h"
#include "base/mem.h"
#include "base/siphash.h"
#include "column/datetime.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Date and time roundings: each maps a larger value to a larger-or-equal result, so a range
 * of the column maps to a range of the key column. */
static const char *const monotonic_funcs[] = {
    "toDate", "toDate32", "toDateTime", "toYear", "toYYYYMM", "toYYYYMMDD", "toStartOfYear", "toStartOfQuarter",
    "toStartOfMonth", "toMonday", "toStartOfDay", "toStartOfHour", "toStartOfMinute", "toStartOfFiveMinutes",
    "toStartOfFifteenMinutes", "toStartOfSecond", NULL};

/* The stored column c when e is f(c) (plus constant arguments such as a time zone) with f
 * monotonic non-decreasing, else -1. */
static int monotonic_of(const ast *e, const schema *sch)
{
    if (e->kind != AST_FUNC || e->args.n < 1 || e->has_params)
        return -1;
    bool known = false;
    for (int i = 0; monotonic_funcs[i] && !known; i++)
        known = !strcmp(e->name, monotonic_funcs[i]);
    const ast *a = e->args.items[0];
    if (!known || a->kind != AST_IDENT || a->nparts != 1)
        return -1;
    for (int i = 1; i < e->args.n; i++)
        if (e->args.items[i]->kind != AST_LITERAL)
            return -1;
    return schema_find(sch, a->parts[0]);
}

int mt_key_compile(mt_table *m, const ast_list *exprs, mt_key *out, query_ctx *q)
{
    memset(out, 0, sizeof *out);
    int n = exprs ? exprs->n : 0;
    out->exprs = xcalloc((size_t)n + 1, sizeof *out->exprs);
    out->types = xcalloc((size_t)n + 1, sizeof *out->types);
    out->names = xcalloc((size_t)n + 1, sizeof *out->names);
    out->src_col = xcalloc((size_t)n + 1, sizeof *out->src_col);
    out->mono_col = xcalloc((size_t)n + 1, sizeof *out->mono_col);
    source fake = {.sch = m->t->sch, .nvisible = m->t->sch->n};
    for (int i = 0; i < n; i++) {
        const ast *e = exprs->items[i];
        if (query_compile_expr(q, e, &fake, &out->exprs[i])) {
            out->n = i;
            mt_key_free(out);
            return -1;
        }
        out->n = i + 1;
        out->types[i] = out->exprs[i]->type;
        buf nm = {0};
        ast_format_name(&nm, e);
        out->names[i] = xstrdup(buf_cstr(&nm));
        buf_free(&nm);
        out->src_col[i] = e->kind == AST_IDENT && e->nparts == 1 ? schema_find(m->t->sch, e->parts[0]) : -1;
        out->mono_col[i] = monotonic_of(e, m->t->sch);
    }
    return 0;
}

void mt_key_append_column(mt_table *m, mt_key *k, int col)
{
    size_t n = (size_t)k->n + 2;
    k->exprs = xrealloc(k->exprs, n * sizeof *k->exprs);
    k->types = xrealloc(k->types, n * sizeof *k->types);
    k->names = xrealloc(k->names, n * sizeof *k->names);
    k->src_col = xrealloc(k->src_col, n * sizeof *k->src_col);
    k->mono_col = xrealloc(k->mono_col, n * sizeof *k->mono_col);
    k->types[k->n] = m->t->sch->types[col];
    k->exprs[k->n] = expr_col(col, k->types[k->n]);
    k->names[k->n] = xstrdup(m->t->sch->names[col]);
    k->src_col[k->n] = col;
    k->mono_col[k->n] = -1;
    k->n++;
}

void mt_key_free(mt_key *k)
{
    for (int i = 0; i < k->n; i++) {
        expr_free(k->exprs[i]);
        free(k->names[i]);
    }
    free(k->exprs);
    free(k->types);
    free(k->names);
    free(k->src_col);
    free(k->mono_col);
    memset(k, 0, sizeof *k);
}

int mt_key_eval(const mt_key *k, const block *b, column **out)
{
    for (int i = 0; i < k->n; i++) {
        if (k->src_col[i] >= 0) {
            out[i] = col_ref(b->cols[k->src_col[i]]);
        } else if (expr_eval(k->exprs[i], b, &out[i])) {
            for (int j = 0; j < i; j++)
                col_free(out[j]);
            return -1;
        }
        if (out[i]->is_const)
            out[i] = col_materialize(out[i]);
    }
    return 0;
}

/* ---- sorting ---- */

/* Fast path for keys made only of integer-like columns (ints, dates, times, enums) whose
 * widths add up to at most 16 bytes — the usual MergeTree sorting key: each row's key is
 * packed into one unsigned 128-bit number that orders like the tuple (sign bits flipped,
 * first column most significant), and the (key, row) pairs are sorted by an LSD radix
 * sort over the bytes that vary. Radix sorting is stable, as the sort must be. */
typedef struct kv128 {
    uint128_t k;
    uint32_t row;
} kv128;

static bool packable(column *const *keys, int n, int *bits)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        const type *t = keys[i]->type;
        if (keys[i]->nulls.p || t->id == T_NULLABLE || t->id == T_LOWCARDINALITY || type_is_float(t) ||
            t->width == 0 || t->width > 8 || t->id == T_FIXEDSTRING || t->id == T_UUID || keys[i]->is_const)
            return false;
        total += (int)t->width * 8;
    }
    *bits = total;
    return total <= 128;
}

static void radix_sort128(kv128 *a, kv128 *tmp, size_t rows, int nbytes)
{
    for (int byte = 0; byte < nbytes; byte++) {
        size_t count[256] = {0};
        int shift = byte * 8;
        for (size_t r = 0; r < rows; r++)
            count[(uint8_t)(a[r].k >> shift)]++;
        if (count[(uint8_t)(a[0].k >> shift)] == rows)
            continue; /* this byte is the same everywhere */
        size_t pos = 0;
        for (int b = 0; b < 256; b++) {
            size_t c = count[b];
            count[b] = pos;
            pos += c;
        }
        for (size_t r = 0; r < rows; r++)
            tmp[count[(uint8_t)(a[r].k >> shift)]++] = a[r];
        memcpy(a, tmp, sizeof *a * rows);
    }
}

/* ---- sorting rows spread over several blocks ---- */

typedef struct multi_ctx {
    column **const *keys; /* per block: the key columns */
    int n;
    const uint64_t *ids;  /* (block << 32) | row */
} multi_ctx;

static int cmp_multi(const void *a, const void *b, void *arg)
{
    const multi_ctx *s = arg;
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t x = s->ids[i], y = s->ids[j];
    for (int k = 0; k < s->n; k++) {
        int c = col_compare(s->keys[x >> 32][k], (uint32_t)x, s->keys[y >> 32][k], (uint32_t)y, 1);
        if (c)
            return c;
    }
    return i < j ? -1 : i > j;
}

uint32_t *mt_sort_multi(column **const *keys, int nblocks, int n, const uint64_t *ids, size_t rows)
{
    uint32_t *perm = xmalloc(sizeof *perm * (rows + 1));
    int bits = 0;
    bool packed = n > 0 && rows > 1;
    for (int b = 0; b < nblocks && packed; b++)
        packed = packable(keys[b], n, &bits);
    if (packed) {
        kv128 *a = xmalloc(sizeof *a * (rows + 1));
        for (size_t r = 0; r < rows; r++) {
            uint64_t id = ids[r];
            column *const *k = keys[id >> 32];
            uint128_t v = 0;
            for (int i = 0; i < n; i++) {
                const type *t = k[i]->type;
                int w = (int)t->width * 8;
                bool sign = type_is_signed(t) || t->id == T_ENUM8 || t->id == T_ENUM16 || t->id == T_DATE32 ||
                            t->id == T_DATETIME64;
                uint64_t flip = sign ? 1ull << (w - 1) : 0;
                uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
                uint64_t x = sign ? (uint64_t)col_get_i64(k[i], (uint32_t)id) : col_get_u64(k[i], (uint32_t)id);
                v = (v << w) | ((x ^ flip) & mask);
            }
            a[r] = (kv128){v, (uint32_t)r};
        }
        kv128 *tmp = xmalloc(sizeof *tmp * (rows + 1));
        radix_sort128(a, tmp, rows, (bits + 7) / 8);
        free(tmp);
        for (size_t r = 0; r < rows; r++)
            perm[r] = a[r].row;
        free(a);
        return perm;
    }
    for (size_t r = 0; r < rows; r++)
        perm[r] = (uint32_t)r;
    if (n > 0 && rows > 1) {
        multi_ctx s = {keys, n, ids};
        qsort_r(perm, rows, sizeof *perm, cmp_multi, &s);
    }
    return perm;
}

uint32_t *mt_sort_perm(column *const *keys, int n, size_t rows)
{
    uint64_t *ids = xmalloc(sizeof *ids * (rows + 1));
    for (size_t r = 0; r < rows; r++)
        ids[r] = r;
    column **k = (column **)keys;
    uint32_t *perm = mt_sort_multi(&k, 1, n, ids, rows);
    free(ids);
    return perm;
}

/* ---- partition IDs ---- */

/* Is the value an integer in ClickHouse's Field sense (UInt64 / Int64 fields)? */
static bool integral(const type *t)
{
    t = type_phys(t);
    switch (t->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64:
    case T_INT8: case T_INT16: case T_INT32: case T_INT64:
    case T_BOOL: case T_DATE: case T_DATE32: case T_DATETIME: case T_ENUM8: case T_ENUM16:
        return true;
    default:
        return false;
    }
}

static bool is_unsigned_field(const type *t)
{
    switch (type_phys(t)->id) {
    case T_UINT8: case T_UINT16: case T_UINT32: case T_UINT64: case T_BOOL: case T_DATE: case T_DATETIME:
        return true;
    default:
        return false;
    }
}

char *mt_partition_id(const mt_key *k, column *const *vals, size_t row)
{
    if (k->n == 0)
        return xstrdup("all");
    bool all_int = true;
    for (int i = 0; i < k->n; i++)
        if (!integral(vals[i]->type) || col_is_null(vals[i], row))
            all_int = false;
    buf out = {0};
    if (all_int) {
        /* Human-readable: the numbers joined by '-', dates as YYYYMMDD. */
        for (int i = 0; i < k->n; i++) {
            const column *c = vals[i];
            if (i)
                buf_putc(&out, '-');
            type_id id = type_phys(c->type)->id;
            if (id == T_DATE || id == T_DATE32) {
                int64_t days = col_get_i64(c, row);
                int64_t y;
                unsigned mo, d;
                dt_civil_from_days(days, &y, &mo, &d);
                buf_printf(&out, "%04" PRId64 "%02u%02u", y, mo, d);
            } else if (is_unsigned_field(c->type)) {
                buf_printf(&out, "%" PRIu64, col_get_u64(c, row));
            } else {
                buf_printf(&out, "%" PRId64, col_get_i64(c, row));
            }
        }
    } else {
        /* A hash of the values as ClickHouse's FieldVisitorHash feeds them: a type tag,
         * then the value (strings: 8-byte length and bytes). */
        buf h = {0};
        for (int i = 0; i < k->n; i++) {
            const column *c = vals[i];
            if (col_is_null(c, row)) {
                buf_putc(&h, 0);
                continue;
            }
            const column *in = c->type->id == T_NULLABLE || type_phys(c->type)->id == T_NULLABLE ? c->inner : c;
            if (type_is_string(in->type)) {
                size_t n;
                const char *s = col_str(in, row, &n);
                uint64_t len = n;
                buf_putc(&h, 16);
                buf_append(&h, &len, 8);
                buf_append(&h, s, n);
            } else if (integral(in->type)) {
                uint64_t v = is_unsigned_field(in->type) ? col_get_u64(in, row) : (uint64_t)col_get_i64(in, row);
                buf_putc(&h, is_unsigned_field(in->type) ? 1 : 2);
                buf_append(&h, &v, 8);
            } else {
                /* Other types (UUID, decimals, arrays) hash their raw bytes with their own
                 * tag; IDs of such keys may differ from ClickHouse's (docs/mergetree.md). */
                buf_putc(&h, 99);
                mt_value_write(in, row, &h);
            }
        }
        uint8_t d[16];
        siphash24_128(h.p, h.len, d);
        buf_free(&h);
        for (int i = 0; i < 16; i++)
            buf_printf(&out, "%02x", d[i]);
    }
    char *s = xstrdup(buf_cstr(&out));
    buf_free(&out);
    return s;
}
