/* Aggregate functions: resolution, types, results, combinators, Nullable, merge.
 * Expected values come from ClickHouse (chdb). */
#include "base/err.h"
#include "check.h"
#include "func/agg.h"

#include <math.h>
#include <stdlib.h>

static const type *T(const char *s) { return type_parse_cstr(s); }

static column *u64s(uint64_t from, uint64_t n)
{
    column *c = col_new(T("UInt64"));
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = from + i;
        col_push_fixed(c, &v);
    }
    return c;
}

/* Runs name(params)(args) over the columns, split in two partial states that are merged,
 * and returns the one-row result column (NULL on error). */
static column *run(const char *name, int np, const double *params, int nargs, column **args, const char **tname)
{
    const type *ts[8] = {0};
    for (int i = 0; i < nargs; i++)
        ts[i] = args[i]->type;
    agg_call *a;
    if (agg_resolve(name, nargs, ts, np, params, &a) < 0)
        return NULL;
    size_t rows = nargs ? args[0]->len : 5;
    size_t half = rows / 2;
    void *s1 = agg_state_new(a), *s2 = agg_state_new(a);
    column *lo[8], *hi[8];
    for (int i = 0; i < nargs; i++) {
        lo[i] = col_slice(args[i], 0, half);
        hi[i] = col_slice(args[i], half, rows - half);
    }
    a->ops.add_all(a, s1, lo, half);
    /* the second half goes through add_rows (GROUP BY path) into one group */
    char **sts = malloc(sizeof(char *) * (rows - half + 1));
    for (size_t i = 0; i < rows - half; i++)
        sts[i] = s2;
    a->ops.add_rows(a, sts, 0, hi, rows - half);
    free(sts);
    a->ops.merge(a, s1, s2);
    column *out = col_new(a->ret);
    CHECK(a->ops.finalize(a, s1, out) == 0);
    *tname = a->ret->name;
    agg_state_free(a, s1);
    agg_state_free(a, s2);
    for (int i = 0; i < nargs; i++) {
        col_free(lo[i]);
        col_free(hi[i]);
    }
    agg_call_free(a);
    return out;
}

static uint64_t r_u64(column *c) { return c ? COL_DATA(c, uint64_t)[0] : 12345; }
static double r_f64(column *c) { return c ? COL_DATA(c, double)[0] : -12345; }

int main(void)
{
    const char *tn = NULL;
    column *n10 = u64s(1, 10); /* 1..10 */
    column *out;

    /* count / sum / avg / min / max */
    out = run("count", 0, NULL, 1, &n10, &tn);
    CHECK(r_u64(out) == 10);
    CHECK_STR(tn, "UInt64");
    col_free(out);
    out = run("COUNT", 0, NULL, 0, NULL, &tn);
    CHECK(r_u64(out) == 5);
    col_free(out);
    out = run("sum", 0, NULL, 1, &n10, &tn);
    CHECK(r_u64(out) == 55);
    CHECK_STR(tn, "UInt64");
    col_free(out);
    out = run("Sum", 0, NULL, 1, &n10, &tn);
    CHECK(r_u64(out) == 55);
    col_free(out);
    out = run("avg", 0, NULL, 1, &n10, &tn);
    CHECK(r_f64(out) == 5.5);
    CHECK_STR(tn, "Float64");
    col_free(out);
    out = run("min", 0, NULL, 1, &n10, &tn);
    CHECK(r_u64(out) == 1);
    col_free(out);
    out = run("max", 0, NULL, 1, &n10, &tn);
    CHECK(r_u64(out) == 10);
    col_free(out);

    /* uniqCombined / uniqHLL12 / quantileTDigest over two partial states merged (array +
     * set, set + set crossing into the HyperLogLog, HyperLogLog + HyperLogLog): ClickHouse's
     * values for the whole input (chdb, numbers(n)). */
    {
        struct {
            const char *fn;
            int np;
            double p;
            uint64_t n, want;
        } cases[] = {
            {"uniqCombined", 0, 0, 10000, 10020},   {"uniqCombined64", 0, 0, 10000, 10020},
            {"uniqHLL12", 0, 0, 10000, 9037},       {"uniqCombined", 1, 12, 10000, 9949},
            {"uniqCombined", 0, 0, 100000, 100314}, {"uniqCombined64", 0, 0, 100000, 100314},
            {"uniqHLL12", 0, 0, 100000, 101344},    {"uniqCombined", 0, 0, 20, 20},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            column *c = u64s(0, cases[i].n);
            out = run(cases[i].fn, cases[i].np, &cases[i].p, 1, &c, &tn);
            CHECK(r_u64(out) == cases[i].want);
            CHECK_STR(tn, "UInt64");
            col_free(out);
            col_free(c);
        }
        column *c = u64s(0, 1000);
        double lv = 0.9;
        out = run("quantileTDigest", 1, &lv, 1, &c, &tn);
        CHECK(out && COL_DATA(out, float)[0] == 899.5f);
        CHECK_STR(tn, "Float32");
        col_free(out);
        out = run("medianTDigest", 0, NULL, 1, &c, &tn);
        CHECK(out && COL_DATA(out, float)[0] == 499.5f);
        col_free(out);
        col_free(c);
    }

    /* result types */
    {
        struct {
            const char *fn, *arg, *ret;
        } cases[] = {
            {"sum", "Int8", "Int64"},        {"sum", "UInt16", "UInt64"},
            {"sum", "Float32", "Float64"},   {"sum", "Decimal(9, 2)", "Decimal(38, 2)"},
            {"avg", "Decimal(9, 2)", "Float64"}, {"sum", "Nullable(UInt8)", "Nullable(UInt64)"},
            {"count", "Nullable(UInt8)", "UInt64"}, {"groupArray", "Nullable(UInt8)", "Array(UInt8)"},
            {"uniq", "Nullable(UInt8)", "UInt64"},  {"uniqExact", "Nullable(UInt8)", "UInt64"},
            {"min", "Nullable(UInt8)", "Nullable(UInt8)"}, {"avg", "Nullable(UInt8)", "Nullable(Float64)"},
            {"sumDistinct", "Nullable(UInt8)", "Nullable(UInt64)"}, {"sumOrNull", "UInt64", "Nullable(UInt64)"},
            {"sumOrDefault", "UInt64", "UInt64"}, {"min", "LowCardinality(String)", "String"},
            {"groupArray", "LowCardinality(String)", "Array(String)"}, {"quantile", "Date", "Date"},
            {"median", "UInt64", "Float64"}, {"quantileExact", "UInt64", "UInt64"},
            {"sum", "Nullable(Nothing)", "Nullable(Nothing)"}, {"countDistinct", "UInt64", "UInt64"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const type *at = T(cases[i].arg);
            agg_call *a = NULL;
            CHECK(agg_resolve(cases[i].fn, 1, &at, 0, NULL, &a) == 0);
            if (a)
                CHECK_STR(a->ret->name, cases[i].ret);
            agg_call_free(a);
        }
        const type *two[2] = {T("Nullable(UInt8)"), T("UInt8")};
        agg_call *a = NULL;
        CHECK(agg_resolve("sumIf", 2, two, 0, NULL, &a) == 0);
        CHECK_STR(a->ret->name, "Nullable(UInt64)");
        agg_call_free(a);
        two[0] = T("UInt8");
        two[1] = T("Nullable(UInt8)");
        CHECK(agg_resolve("countIf", 1, &two[1], 0, NULL, &a) == 0);
        CHECK_STR(a->ret->name, "UInt64");
        agg_call_free(a);
    }

    /* errors */
    {
        const type *s = T("String");
        agg_call *a;
        CHECK(agg_resolve("sum", 1, &s, 0, NULL, &a) == -1);
        CHECK(err_code() == ERR_ILLEGAL_TYPE_OF_ARGUMENT);
        CHECK_STR(err_msg(), "Illegal type String of argument for aggregate function sum");
        const type *two[2] = {T("UInt8"), T("String")};
        CHECK(agg_resolve("sumIf", 2, two, 0, NULL, &a) == -1);
        CHECK_STR(err_msg(), "Illegal type String of last argument for aggregate function with If suffix");
        CHECK(agg_resolve("sum", 2, two, 0, NULL, &a) == -1);
        CHECK_STR(err_msg(), "Aggregate function sum requires single argument");
        CHECK(agg_resolve("foo", 1, two, 0, NULL, &a) == -1);
        CHECK(err_code() == ERR_UNKNOWN_AGGREGATE_FUNCTION);
        double lvl = 2;
        CHECK(agg_resolve("quantile", 1, two, 1, &lvl, &a) == -1);
        CHECK_STR(err_msg(), "Quantile level is out of range [0..1]");
        CHECK(agg_exists("sumIfOrNull"));
        CHECK(agg_exists("countDistinct"));
        CHECK(agg_exists("SUM"));
        CHECK(!agg_exists("sumfoo"));
        CHECK(!agg_exists("countdistinct"));
    }

    /* empty input: sum 0, avg nan, min 0, sumOrNull NULL */
    {
        column *e = col_new(T("UInt64"));
        out = run("sum", 0, NULL, 1, &e, &tn);
        CHECK(r_u64(out) == 0);
        col_free(out);
        out = run("avg", 0, NULL, 1, &e, &tn);
        CHECK(isnan(r_f64(out)));
        col_free(out);
        out = run("min", 0, NULL, 1, &e, &tn);
        CHECK(r_u64(out) == 0);
        col_free(out);
        out = run("sumOrNull", 0, NULL, 1, &e, &tn);
        CHECK(out && out->len == 1 && col_is_null(out, 0));
        col_free(out);
        out = run("sumOrDefault", 0, NULL, 1, &e, &tn);
        CHECK(r_u64(out) == 0);
        col_free(out);
        col_free(e);
    }

    /* Nullable input: 1, NULL, 3, NULL, 5 */
    {
        column *c = col_new(T("Nullable(Int32)"));
        for (int i = 1; i <= 5; i++) {
            if (i % 2 == 0) {
                col_push_null(c);
            } else {
                int32_t v = i;
                col_push_fixed(c->inner, &v);
                col_nullable_commit(c, false);
            }
        }
        out = run("sum", 0, NULL, 1, &c, &tn);
        CHECK_STR(tn, "Nullable(Int64)");
        CHECK(out && !col_is_null(out, 0) && COL_DATA(out->inner, int64_t)[0] == 9);
        col_free(out);
        out = run("count", 0, NULL, 1, &c, &tn);
        CHECK(r_u64(out) == 3);
        col_free(out);
        out = run("avg", 0, NULL, 1, &c, &tn);
        CHECK(out && COL_DATA(out->inner, double)[0] == 3.0);
        col_free(out);
        out = run("groupArray", 0, NULL, 1, &c, &tn);
        CHECK(out && col_offs(out)[1] == 3 && COL_DATA(out->inner, int32_t)[2] == 5);
        col_free(out);
        col_free(c);
        column *nn = col_new(T("Nullable(Int32)"));
        col_push_null(nn);
        col_push_null(nn);
        out = run("sum", 0, NULL, 1, &nn, &tn);
        CHECK(out && col_is_null(out, 0));
        col_free(out);
        col_free(nn);
    }

    /* -If: sumIf(x, x > 5), countIf */
    {
        column *cond = col_new(T("UInt8"));
        for (int i = 1; i <= 10; i++) {
            uint8_t v = i > 5;
            col_push_fixed(cond, &v);
        }
        column *args[2] = {n10, cond};
        out = run("sumIf", 0, NULL, 2, args, &tn);
        CHECK(r_u64(out) == 40);
        col_free(out);
        out = run("countIf", 0, NULL, 1, &cond, &tn);
        CHECK(r_u64(out) == 5);
        col_free(out);
        out = run("avgIf", 0, NULL, 2, args, &tn);
        CHECK(r_f64(out) == 8);
        col_free(out);
        out = run("minIf", 0, NULL, 2, args, &tn);
        CHECK(r_u64(out) == 6);
        col_free(out);
        out = run("sumIfOrNull", 0, NULL, 2, args, &tn);
        CHECK_STR(tn, "Nullable(UInt64)");
        CHECK(out && COL_DATA(out->inner, uint64_t)[0] == 40);
        col_free(out);
        column *zero = col_new_defaults(T("UInt8"), 10);
        args[1] = zero;
        out = run("sumIfOrNull", 0, NULL, 2, args, &tn);
        CHECK(out && col_is_null(out, 0));
        col_free(out);
        col_free(zero);
        col_free(cond);
    }

    /* -Distinct, countDistinct, uniq */
    {
        column *m = col_new(T("UInt64"));
        for (uint64_t i = 0; i < 10; i++) {
            uint64_t v = i % 3;
            col_push_fixed(m, &v);
        }
        out = run("sumDistinct", 0, NULL, 1, &m, &tn);
        CHECK(r_u64(out) == 3);
        col_free(out);
        out = run("countDistinct", 0, NULL, 1, &m, &tn);
        CHECK(r_u64(out) == 3);
        col_free(out);
        out = run("uniqExact", 0, NULL, 1, &m, &tn);
        CHECK(r_u64(out) == 3);
        col_free(out);
        col_free(m);
        column *big = u64s(0, 100000);
        out = run("uniq", 0, NULL, 1, &big, &tn);
        CHECK(r_u64(out) == 100315); /* SELECT uniq(number) FROM numbers(100000) */
        col_free(out);
        col_free(big);
        column *s = col_new(T("String"));
        const char *w[] = {"a", "b", "a", "", "c", "b"};
        for (int i = 0; i < 6; i++)
            col_push_str(s, w[i], strlen(w[i]));
        out = run("uniqExact", 0, NULL, 1, &s, &tn);
        CHECK(r_u64(out) == 4);
        col_free(out);
        out = run("uniq", 0, NULL, 1, &s, &tn);
        CHECK(r_u64(out) == 4);
        col_free(out);
        out = run("max", 0, NULL, 1, &s, &tn);
        size_t len;
        const char *p = out ? col_str(out, 0, &len) : "";
        CHECK(out && len == 1 && p[0] == 'c');
        col_free(out);
        out = run("any", 0, NULL, 1, &s, &tn);
        p = out ? col_str(out, 0, &len) : "";
        CHECK(out && len == 1 && p[0] == 'a');
        col_free(out);
        out = run("anyLast", 0, NULL, 1, &s, &tn);
        p = out ? col_str(out, 0, &len) : "";
        CHECK(out && len == 1 && p[0] == 'b');
        col_free(out);
        col_free(s);
    }

    /* argMin / argMax: x = 0..4, y = 10 - x  ->  argMin(x, y) = 4, argMax = 0 */
    {
        column *x = u64s(0, 5), *y = col_new(T("Int64"));
        for (int64_t i = 0; i < 5; i++) {
            int64_t v = 10 - i;
            col_push_fixed(y, &v);
        }
        column *args[2] = {x, y};
        out = run("argMin", 0, NULL, 2, args, &tn);
        CHECK(r_u64(out) == 4);
        col_free(out);
        out = run("argMax", 0, NULL, 2, args, &tn);
        CHECK(r_u64(out) == 0);
        col_free(out);
        col_free(x);
        col_free(y);
    }

    /* groupArray(N) */
    {
        double lim = 3;
        out = run("groupArray", 1, &lim, 1, &n10, &tn);
        CHECK(out && col_offs(out)[1] == 3);
        col_free(out);
    }

    /* quantiles: quantileExact(0.5) of 1..4 = 3, median = 2.5, quantile(0.3) of 0..9 */
    {
        column *q = u64s(1, 4);
        double half = 0.5;
        out = run("quantileExact", 1, &half, 1, &q, &tn);
        CHECK(r_u64(out) == 3);
        col_free(out);
        out = run("median", 0, NULL, 1, &q, &tn);
        CHECK(r_f64(out) == 2.5);
        col_free(out);
        col_free(q);
        column *z = u64s(0, 10);
        double l3 = 0.3;
        out = run("quantile", 1, &l3, 1, &z, &tn);
        CHECK(r_f64(out) == 2.6999999999999997);
        col_free(out);
        col_free(z);
    }

    /* Float sum in ClickHouse's order: sum(number * 0.1) FROM numbers(1000003), one block */
    {
        column *f = col_new(T("Float64"));
        for (uint64_t i = 0; i < 1000003; i++) {
            double v = (double)i * 0.1;
            col_push_fixed(f, &v);
        }
        const type *ft = f->type;
        agg_call *a;
        CHECK(agg_resolve("sum", 1, &ft, 0, NULL, &a) == 0);
        void *st = agg_state_new(a);
        a->ops.add_all(a, st, &f, f->len);
        column *o = col_new(a->ret);
        a->ops.finalize(a, st, o);
        uint64_t bits;
        memcpy(&bits, o->data.p, 8);
        CHECK(bits == 4766858438898653594ULL);
        col_free(o);
        agg_state_free(a, st);
        agg_call_free(a);
        col_free(f);
    }

    col_free(n10);
    return check_done("test_agg");
}
