/* MergeTree keys: the stable sort of insert blocks (packed radix path and the generic
 * comparator agree with a reference sort) and ClickHouse's partition IDs. */
#include "base/mem.h"
#include "check.h"
#include "storage/mergetree/mt.h"

#include <stdlib.h>

static column *ints(const type *t, const int64_t *v, size_t n)
{
    column *c = col_new(t);
    for (size_t i = 0; i < n; i++) {
        int64_t x = v[i];
        col_push_fixed(c, &x); /* little-endian: the low bytes are the value */
    }
    return c;
}

/* Reference: insertion sort by (keys..., row) — stable by construction. */
static int ref_cmp(column *const *k, int n, uint32_t a, uint32_t b)
{
    for (int i = 0; i < n; i++) {
        int c = col_compare(k[i], a, k[i], b, 1);
        if (c)
            return c;
    }
    return a < b ? -1 : a > b;
}

static void check_sorted(column *const *k, int n, size_t rows)
{
    uint32_t *p = mt_sort_perm(k, n, rows);
    int bad = 0;
    for (size_t r = 1; r < rows; r++)
        if (ref_cmp(k, n, p[r - 1], p[r]) >= 0)
            bad++;
    CHECK(bad == 0);
    free(p);
}

int main(void)
{
    mem_init();
    srand(7);
    enum { N = 5000 };
    int64_t a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = rand() % 5 - 2;           /* Int8 with negatives */
        b[i] = rand() % 3;               /* Date (UInt16) */
        c[i] = (int64_t)rand() * 1000 - 500000000; /* DateTime64 ticks */
    }
    column *k[3] = {ints(type_simple(T_INT8), a, N), ints(type_simple(T_DATE), b, N),
                    ints(type_datetime64(3, "UTC"), c, N)};
    check_sorted(k, 3, N);   /* packed: 1 + 2 + 8 bytes */
    check_sorted(k, 2, N);   /* many ties: stability */
    check_sorted(k + 1, 1, N);
    column *s = col_new(type_simple(T_STRING));
    for (int i = 0; i < N; i++) {
        char tmp[16];
        int l = snprintf(tmp, sizeof tmp, "k%d", rand() % 50);
        col_push_str(s, tmp, (size_t)l);
    }
    column *ks[2] = {s, k[0]};
    check_sorted(ks, 2, N);  /* generic comparator */

    /* Partition IDs as ClickHouse 26.7 computes them. */
    mt_key pk = {.n = 1};
    column *y = col_new(type_simple(T_UINT16));
    uint16_t yv = 2024;
    col_push_fixed(y, &yv);
    char *id = mt_partition_id(&pk, &y, 0);
    CHECK_STR(id, "2024");
    free(id);
    column *d = col_new(type_simple(T_DATE));
    uint16_t dv = 19756; /* 2024-02-03 */
    col_push_fixed(d, &dv);
    id = mt_partition_id(&pk, &d, 0);
    CHECK_STR(id, "20240203");
    free(id);
    column *str = col_new(type_simple(T_STRING));
    col_push_str(str, "abc", 3);
    id = mt_partition_id(&pk, &str, 0);
    CHECK_STR(id, "f815b3f19bae3563399d3c6214a8ed43");
    free(id);
    mt_key none = {.n = 0};
    id = mt_partition_id(&none, NULL, 0);
    CHECK_STR(id, "all");
    free(id);
    column *dn[2] = {d, col_new(type_simple(T_INT32))};
    int32_t neg = -5;
    col_push_fixed(dn[1], &neg);
    mt_key two = {.n = 2};
    id = mt_partition_id(&two, dn, 0);
    CHECK_STR(id, "20240203--5");
    free(id);

    char *pid;
    int64_t mn, mx;
    uint32_t lv;
    CHECK(mt_parse_part_name("202401_1_5_2", &pid, &mn, &mx, &lv) == 0 && mn == 1 && mx == 5 && lv == 2);
    CHECK_STR(pid, "202401");
    free(pid);
    CHECK(mt_parse_part_name("all_3_2_0", NULL, &mn, &mx, &lv) != 0);
    CHECK(mt_parse_part_name("tmp_insert_x", NULL, &mn, &mx, &lv) != 0);
    CHECK(mt_parse_part_name("20240203--5_1_1_0", &pid, &mn, &mx, &lv) == 0);
    CHECK_STR(pid, "20240203--5");
    free(pid);

    for (int i = 0; i < 3; i++)
        col_free(k[i]);
    col_free(s);
    col_free(y);
    col_free(d);
    col_free(str);
    col_free(dn[1]);
    return check_done("mt_keys");
}
