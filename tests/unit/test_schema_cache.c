/* The schema inference cache (versions, invalidation, settings in the key) and the
 * _path/_file predicates that prune objects (read_object_may_match). */
#include "check.h"

#include "column/column.h"
#include "storage/schema_cache.h"
#include "storage/tablefunc/read_common.h"

#include <stdlib.h>

static schema *two_cols(const type *t)
{
    schema *s = schema_new(2);
    schema_set(s, 0, "a", t);
    schema_set(s, 1, "b c", type_simple(T_STRING));
    return s;
}

static void test_cache(void)
{
    schema_cache_clear();
    schema_cache_key k = {.storage = "URL", .source = "http://h/x.csv", .format = "CSV", .info = "i1", .version = "\"e1\""};
    CHECK(schema_cache_get(&k) == NULL);
    schema *s = two_cols(type_simple(T_INT64));
    schema_cache_put(&k, s);
    schema *got = schema_cache_get(&k);
    CHECK(got && got->n == 2 && got->types[0] == type_simple(T_INT64));
    CHECK(got && strcmp(got->names[1], "b c") == 0);
    schema_free(got);
    /* other settings: another entry */
    schema_cache_key k2 = k;
    k2.info = "i2";
    CHECK(schema_cache_get(&k2) == NULL);
    /* a new version: miss, and the old entry is gone */
    schema_cache_key k3 = k;
    k3.version = "\"e2\"";
    CHECK(schema_cache_get(&k3) == NULL);
    CHECK(schema_cache_get(&k) == NULL);
    /* no version: never cached */
    schema_cache_key k4 = k;
    k4.version = "";
    schema_cache_put(&k4, s);
    CHECK(schema_cache_get(&k4) == NULL);
    /* replacing an entry */
    schema_cache_put(&k, s);
    schema *s2 = two_cols(type_simple(T_FLOAT64));
    schema_cache_put(&k, s2);
    got = schema_cache_get(&k);
    CHECK(got && got->types[0] == type_simple(T_FLOAT64));
    schema_free(got);
    schema_free(s);
    schema_free(s2);
    schema_cache_clear();
    CHECK(schema_cache_get(&k) == NULL);
}

static column *strings(const type *t, const char *const *v, int n)
{
    column *c = col_new(t);
    for (int i = 0; i < n; i++)
        col_push_str(c, v[i], strlen(v[i]));
    return c;
}

static void test_prune(void)
{
    const type *lc = type_lowcard(type_simple(T_STRING));
    const char *k7[] = {"k7.csv"};
    const char *some[] = {"k1.csv", "k2.csv"};
    const char *path[] = {"bkt/d/k1.csv"};
    /* the source has 3 file columns: _path is 3, _file 4 */
    src_filter f[3] = {{.col = 4, .op = SF_EQ, .vals = strings(lc, k7, 1)},
                       {.col = 4, .op = SF_IN, .vals = strings(type_simple(T_STRING), some, 2)},
                       {.col = 3, .op = SF_NE, .vals = strings(lc, path, 1)}};
    CHECK(read_object_may_match(f, 1, 3, "bkt/d/k7.csv"));
    CHECK(!read_object_may_match(f, 1, 3, "bkt/d/k17.csv"));
    CHECK(read_object_may_match(f + 1, 1, 3, "bkt/d/k2.csv"));
    CHECK(!read_object_may_match(f + 1, 1, 3, "bkt/d/k3.csv"));
    CHECK(!read_object_may_match(f + 1, 2, 3, "bkt/d/k1.csv")); /* IN holds, != does not */
    CHECK(read_object_may_match(f + 1, 2, 3, "bkt/e/k1.csv"));
    f[1].op = SF_NOT_IN;
    CHECK(!read_object_may_match(f + 1, 1, 3, "k2.csv"));
    CHECK(read_object_may_match(f + 1, 1, 3, "k3.csv"));
    /* filters on file columns are not judged here */
    src_filter other = {.col = 0, .op = SF_EQ, .vals = f[0].vals};
    CHECK(read_object_may_match(&other, 1, 3, "zzz"));
    CHECK(read_has_path_filter(f, 3, 3) && !read_has_path_filter(&other, 1, 3));
    CHECK_STR(read_base_name("/a/b/c.csv"), "c.csv");
    for (int i = 0; i < 3; i++)
        col_free(f[i].vals);
}

int main(void)
{
    test_cache();
    test_prune();
    return check_done("schema_cache");
}
