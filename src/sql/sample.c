/* SAMPLE on MergeTree tables (sql/sample.h), after ClickHouse's MergeTreeDataSelectExecutor:
 * fractions are exact (128-bit numerators and denominators), bounds truncated. */
#include "sql/sample.h"

#include "base/err.h"
#include "exec/expr.h"
#include "sql/analyze.h"
#include "storage/mergetree/old_syntax.h"

#include <string.h>

typedef unsigned __int128 u128;

typedef struct ratio {
    u128 num, den;
} ratio;

/* past this a product could overflow: such ratios are refused */
#define RATIO_LIMIT ((u128)1 << 62)

static u128 gcd(u128 a, u128 b)
{
    while (b) {
        u128 t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void reduce(ratio *r)
{
    u128 g = gcd(r->num, r->den);
    if (g > 1) {
        r->num /= g;
        r->den /= g;
    }
}

static int too_big(const char *text)
{
    return err_set(ERR_NOT_IMPLEMENTED, "SAMPLE %s: the ratio has too many digits for shale's exact arithmetic", text);
}

/* digits [. digits] [e [+|-] digits], exactly */
static int parse_number(const char *s, size_t n, const char *text, ratio *out)
{
    ratio r = {0, 1};
    size_t i = 0;
    bool digits = false;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits = true) {
        r.num = r.num * 10 + (u128)(s[i] - '0');
        if (r.num >= RATIO_LIMIT)
            return too_big(text);
    }
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits = true) {
            r.num = r.num * 10 + (u128)(s[i] - '0');
            r.den *= 10;
            if (r.num >= RATIO_LIMIT || r.den >= RATIO_LIMIT)
                return too_big(text);
        }
    reduce(&r); /* only once all digits are in: 0/10 must not become 0/1 before "001" */
    if (digits && i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool neg = i < n && s[i] == '-';
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        int e = 0;
        bool edigits = false;
        for (; i < n && s[i] >= '0' && s[i] <= '9' && e < 100; i++, edigits = true)
            e = e * 10 + (s[i] - '0');
        digits = edigits;
        for (int k = 0; k < e && digits; k++) {
            if (neg)
                r.den *= 10;
            else
                r.num *= 10;
            if (r.num >= RATIO_LIMIT || r.den >= RATIO_LIMIT)
                return too_big(text);
            reduce(&r);
        }
    }
    if (!digits || i != n)
        return err_set(ERR_SYNTAX_ERROR, "SAMPLE %s: not a number or a fraction", text);
    reduce(&r);
    *out = r;
    return 0;
}

static int parse_ratio(const char *text, ratio *out)
{
    const char *slash = strchr(text, '/');
    size_t n1 = slash ? (size_t)(slash - text) : strlen(text);
    while (n1 && text[n1 - 1] == ' ')
        n1--;
    ratio a, b = {1, 1};
    if (parse_number(text, n1, text, &a))
        return -1;
    if (slash) {
        const char *s2 = slash + 1;
        while (*s2 == ' ')
            s2++;
        if (parse_number(s2, strlen(s2), text, &b))
            return -1;
        if (b.num == 0)
            return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "SAMPLE %s: division by zero", text);
    }
    out->num = a.num * b.den;
    out->den = a.den * b.num;
    reduce(out);
    return 0;
}

/* min(1, floor(r) / rows), as ClickHouse's convertAbsoluteSampleSizeToRelative */
static ratio absolute_to_relative(ratio r, int64_t rows)
{
    if (rows <= 0)
        return (ratio){1, 1};
    ratio out = {r.num / r.den, (u128)rows};
    if (out.num >= out.den)
        return (ratio){1, 1};
    reduce(&out);
    return out;
}

/* floor(r * 2^bits); false when it cannot be computed in 128 bits */
static bool scaled_floor(ratio r, int bits, u128 *out)
{
    if (r.den >= ((u128)1 << 64))
        return false;
    u128 whole = r.num / r.den, rest = r.num % r.den;
    if (whole > ((u128)1 << 63))
        return false;
    *out = (whole << bits) + ((rest << bits) / r.den);
    return true;
}

static ast *uint_lit(arena *a, uint64_t v)
{
    ast *l = ast_new(a, AST_LITERAL, 0);
    l->lit = LIT_UINT;
    l->u = v;
    return l;
}

static ast *call2(arena *a, const char *name, ast *x, ast *y)
{
    ast *f = ast_new(a, AST_FUNC, 0);
    f->name = name;
    ast_list_push(a, &f->args, x);
    ast_list_push(a, &f->args, y);
    return f;
}

int sample_source(const table *tbl, const ast *t, query_ctx *q, source **src)
{
    const char *en = tbl->engine->name;
    size_t enl = strlen(en);
    bool mergetree = enl >= 9 && strcmp(en + enl - 9, "MergeTree") == 0;
    const ast *key = mergetree ? tbl->create->sample_by : NULL;
    mt_old_args oa;
    if (mergetree && mt_old_syntax(tbl->create, NULL)) {
        /* MergeTree(date, sample, key, granularity) */
        if (mt_old_args_split(tbl->create->engine, true, &oa) == 0)
            key = oa.sample_by;
        else
            err_clear(); /* the table opened, so its arguments split before */
    }
    int rc = 0;
    ratio size, offset = {0, 1};
    if (!key)
        rc = err_set(ERR_SAMPLING_NOT_SUPPORTED, "Illegal SAMPLE: table %s doesn't support sampling",
                     table_full_name(tbl));
    if (!rc)
        rc = parse_ratio(t->sample_size, &size);
    if (!rc && t->sample_offset)
        rc = parse_ratio(t->sample_offset, &offset);
    /* the SAMPLE BY expression and its type */
    expr *keyx = NULL;
    if (!rc)
        rc = analyze_expr_on(key, *src, q, &keyx);
    int bits = 0;
    if (!rc) {
        int id = keyx->type->id;
        bits = id == T_UINT8 ? 8 : id == T_UINT16 ? 16 : id == T_UINT32 ? 32 : id == T_UINT64 ? 64 : 0;
        if (!bits)
            rc = err_set(ERR_ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER, "Invalid sampling column type in storage parameters: "
                         "%s. Must be one unsigned integer type", keyx->type->name);
        expr_free(keyx);
    }
    if (rc) {
        source_free(*src);
        *src = NULL;
        return -1;
    }
    /* SAMPLE n (n > 1 rows) and OFFSET n: fractions of the table's rows */
    if (size.num > size.den || offset.num > offset.den) {
        int64_t rows = (*src)->count_rows ? (*src)->count_rows(*src, q) : -1;
        if (rows < 0)
            err_clear();
        if (size.num > size.den)
            size = absolute_to_relative(size, rows);
        if (offset.num > offset.den)
            offset = absolute_to_relative(offset, rows);
    }
    if (size.num == size.den) /* SAMPLE 1 is no sampling */
        size.num = 0;
    if (offset.num > 0 && size.num == 0) {
        source_free(*src);
        *src = NULL;
        return err_set(ERR_ARGUMENT_OUT_OF_BOUND, "Sampling offset is incorrect because no sampling");
    }
    /* parallel_replicas_count n > 1: this replica reads piece parallel_replica_offset of
     * the sampled range cut in n (the whole range without sampling), as ClickHouse does */
    int64_t nrep = settings_int(q->st, "parallel_replicas_count");
    int64_t rep = settings_int(q->st, "parallel_replica_offset");
    if (nrep > 1) {
        if (size.num == 0)
            size = (ratio){1, 1};
        size.den *= (u128)nrep;
        reduce(&size);
        offset = (ratio){offset.num * size.den + size.num * (u128)rep * offset.den, offset.den * size.den};
        reduce(&offset);
    }
    if (size.num == 0)
        return 0;
    ratio end = {offset.num * size.den + size.num * offset.den, offset.den * size.den};
    reduce(&end);
    u128 lower, upper;
    if (!scaled_floor(offset, bits, &lower) || !scaled_floor(end, bits, &upper)) {
        source_free(*src);
        *src = NULL;
        return err_set(ERR_NOT_IMPLEMENTED, "SAMPLE %s OFFSET %s: too large for shale's exact arithmetic",
                       t->sample_size, t->sample_offset ? t->sample_offset : "0");
    }
    bool has_lower = lower > 0, has_upper = end.num < end.den;
    bool no_data = offset.num >= offset.den || (has_upper && upper == 0) || (has_lower && has_upper && lower == upper);
    if (!no_data && !has_lower && !has_upper)
        return 0;
    arena a;
    arena_init(&a);
    ast *cond;
    if (no_data) /* nothing: a condition no row meets (the key is unsigned) */
        cond = call2(&a, "less", (ast *)key, uint_lit(&a, 0));
    else if (has_lower && has_upper)
        cond = call2(&a, "and", call2(&a, "greaterOrEquals", (ast *)key, uint_lit(&a, (uint64_t)lower)),
                     call2(&a, "less", (ast *)key, uint_lit(&a, (uint64_t)upper)));
    else if (has_lower)
        cond = call2(&a, "greaterOrEquals", (ast *)key, uint_lit(&a, (uint64_t)lower));
    else
        cond = call2(&a, "less", (ast *)key, uint_lit(&a, (uint64_t)upper));
    expr *mask;
    rc = analyze_expr_on(cond, *src, q, &mask);
    arena_free(&a);
    if (rc) {
        source_free(*src);
        *src = NULL;
        return -1;
    }
    *src = source_filter(*src, mask);
    return 0;
}
