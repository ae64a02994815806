/* Dictionary-coded columns: the Parquet reader hands out codes into the column chunk's
 * dictionary for the columns a caller accepts coded (when the chunk is dictionary-encoded,
 * the column required and read as String), values otherwise; and the column helpers that
 * accept coded columns (materialize, slice, filter) agree with the values. */
#include "check.h"

#include "base/err.h"
#include "base/mem.h"
#include "format/parquet/reader.h"

#include <string.h>

static const char *FILE_ = "tests/data/parquet/ch_dict.parquet"; /* tag: dictionary, name: PLAIN, ntag: Nullable */

/* Reads every row of column `col` (as String or Nullable(String)) with or without codes;
 * returns the values as one ordinary column and counts the blocks that came coded. */
static column *read_col(parquet_file *pf, const char *col, const type *t, bool coded, int *coded_blocks)
{
    schema *s = schema_new(1);
    schema_set(s, 0, col, t);
    fmt_settings st;
    fmt_settings_default(&st);
    rd_bin *r;
    *coded_blocks = 0;
    if (parquet_reader_open(pf, s, &st, NULL, &r)) {
        schema_free(s);
        return NULL;
    }
    bool flag = coded;
    r->keep_codes(r, &flag);
    column *all = col_new(t);
    for (;;) {
        block *b;
        if (r->next(r, &b)) {
            col_free(all);
            all = NULL;
            break;
        }
        if (!b)
            break;
        column *c = b->cols[0];
        if (c->dict) {
            (*coded_blocks)++;
            CHECK(c->type == c->dict->type);
            for (size_t i = 0; i < c->len; i++)
                CHECK(col_codes(c)[i] < c->dict->len);
        }
        column *v = col_materialize(col_ref(c));
        col_push_range(all, v, 0, v->len);
        col_free(v);
        block_free(b);
    }
    r->free(r);
    schema_free(s);
    return all;
}

static bool same_values(const column *a, const column *b)
{
    if (!a || !b || a->len != b->len)
        return false;
    for (size_t i = 0; i < a->len; i++)
        if (col_compare(a, i, b, i, 1) != 0)
            return false;
    return true;
}

static void test_reader(void)
{
    parquet_file *pf;
    CHECK(parquet_file_open(FILE_, &pf) == 0);
    if (!pf)
        return;
    const type *str = type_simple(T_STRING);
    int coded, plain;
    column *a = read_col(pf, "tag", str, true, &coded);
    column *b = read_col(pf, "tag", str, false, &plain);
    CHECK(coded > 0 && plain == 0);          /* dictionary chunks come coded only when asked */
    CHECK(a && a->len == 12000);
    CHECK(same_values(a, b));
    col_free(a);
    col_free(b);
    /* PLAIN chunks and Nullable columns come as values even when codes are accepted */
    a = read_col(pf, "name", str, true, &coded);
    CHECK(a && a->len == 12000 && coded == 0);
    col_free(a);
    a = read_col(pf, "ntag", type_nullable(str), true, &coded);
    CHECK(a && a->len == 12000 && coded == 0);
    col_free(a);
    /* read as another type: converted values, no codes */
    a = read_col(pf, "tag", type_lowcard(str), true, &coded);
    CHECK(a && coded == 0);
    col_free(a);
    parquet_file_free(pf);

    /* arrow-rs: each chunk of s starts with dictionary pages and falls back to PLAIN pages
     * part-way; the codes decoded before the switch become values (uncode). */
    CHECK(parquet_file_open("tests/data/parquet/ar_dict_fallback.parquet", &pf) == 0);
    if (!pf)
        return;
    a = read_col(pf, "s", str, true, &coded);
    b = read_col(pf, "s", str, false, &plain);
    CHECK(a && a->len == 12000 && plain == 0);
    CHECK(same_values(a, b));
    col_free(a);
    col_free(b);
    parquet_file_free(pf);
}

static void test_column_helpers(void)
{
    column *dict = col_new(type_simple(T_STRING));
    const char *words[] = {"", "apple", "banana split with a long name", "c"};
    for (int i = 0; i < 4; i++)
        col_push_str(dict, words[i], strlen(words[i]));
    const uint32_t codes[] = {2, 0, 1, 1, 3, 2, 0};
    size_t n = sizeof codes / sizeof codes[0];
    column *c = col_new_coded(dict, n);
    memcpy(buf_grow(&c->data, sizeof codes), codes, sizeof codes);
    c->len = n;

    column *s = col_slice(c, 2, 3);
    CHECK(s->dict == c->dict && s->len == 3 && col_codes(s)[0] == 1 && col_codes(s)[2] == 3);
    uint8_t keep[] = {1, 0, 0, 1, 1, 0, 1};
    column *f = col_filter(c, keep, 4);
    CHECK(f->dict == c->dict && f->len == 4);
    column *fv = col_materialize(f);
    CHECK(fv->dict == NULL && fv->len == 4);
    size_t len;
    const char *p = col_str(fv, 0, &len);
    CHECK(len == strlen(words[2]) && memcmp(p, words[2], len) == 0);
    p = col_str(fv, 3, &len);
    CHECK(len == 0);
    p = col_str(fv, 1, &len);
    CHECK(len == 5 && memcmp(p, "apple", 5) == 0);
    column *m = col_materialize(col_ref(c));
    CHECK(m->len == n);
    for (size_t i = 0; i < n; i++) {
        p = col_str(m, i, &len);
        CHECK(len == strlen(words[codes[i]]) && memcmp(p, words[codes[i]], len) == 0);
    }
    CHECK(col_bytes(c) >= n * sizeof(uint32_t));
    col_free(m);
    col_free(fv);
    col_free(s);
    col_free(c);
}

int main(void)
{
    test_reader();
    test_column_helpers();
    return check_done("parquet_codes");
}
