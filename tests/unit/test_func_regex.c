/* Regex and replace functions; every expected value is from chdb (ClickHouse 26.7). */
#include "check.h"
#include "func_util.h"

/* fn(s, p[, r]) with constant pattern/replacement; returns the value as text. */
static const char *rx(const char *fn, const char *s, const char *p, const char *r, const char **tn)
{
    column *a[3];
    int n = r ? 3 : 2;
    a[0] = scol(1, &s);
    a[1] = constcol(scol(1, &p), 1);
    if (r)
        a[2] = constcol(scol(1, &r), 1);
    column *res = call(fn, n, a, 1, tn);
    static char b[4][512];
    static int k;
    char *o = b[k++ & 3];
    if (!res) {
        snprintf(o, 512, "ERR %d", err_code());
    } else if (type_base(res->type)->id == T_ARRAY) {
        column *in = res->inner;
        const uint64_t *of = col_offs(res);
        size_t pos = 0;
        pos += (size_t)snprintf(o, 512, "[");
        for (uint64_t i = of[0]; i < of[1]; i++)
            pos += (size_t)snprintf(o + pos, 512 - pos, "%s'%s'", i > of[0] ? "," : "", val(in, i));
        snprintf(o + pos, 512 - pos, "]");
    } else {
        snprintf(o, 512, "%s", val(res, 0));
    }
    col_free(res);
    free_args(n, a);
    return o;
}

int main(void)
{
    const char *tn = NULL;
    CHECK_STR(rx("match", "abc", "b", NULL, &tn), "1");
    CHECK_STR(tn, "UInt8");
    CHECK_STR(rx("match", "abc", "^b", NULL, NULL), "0");
    CHECK_STR(rx("match", "abc", "", NULL, NULL), "1");
    CHECK_STR(rx("match", "\xd0\xb0", "^.$", NULL, NULL), "1"); /* UTF-8 dot */
    CHECK_STR(rx("match", "a\nb", "a.b", NULL, NULL), "1");     /* dot matches newline */
    CHECK_STR(rx("match", "ABC", "(?i)abc", NULL, NULL), "1");
    CHECK_STR(rx("match", "a", "(", NULL, NULL), "ERR 427");
    CHECK_STR(rx("replaceRegexpAll", "hello world", "o", "0", NULL), "hell0 w0rld");
    CHECK_STR(rx("replaceRegexpOne", "hello world", "(o)", "[\\1]", NULL), "hell[o] world");
    CHECK_STR(rx("replaceRegexpAll", "abc", "", "-", NULL), "abc");
    CHECK_STR(rx("replaceRegexpAll", "abc", "b*", "-", NULL), "-a--c-");
    CHECK_STR(rx("replaceRegexpAll", "ab", "x*", "-", NULL), "-a-b-");
    CHECK_STR(rx("replaceRegexpAll", "", "x*", "-", NULL), "-");
    /* steps by bytes, even inside UTF-8 characters */
    CHECK_STR(rx("replaceRegexpAll", "\xd0\xb0\xd0\xb1", "x*", "-", NULL), "-\xd0-\xb0-\xd0-\xb1-");
    CHECK_STR(rx("replaceRegexpOne", "", "x*", "-", NULL), "-");
    CHECK_STR(rx("replaceRegexpAll", "abc", "^", "x", NULL), "xabc");
    CHECK_STR(rx("replaceRegexpAll", "abc", "$", "x", NULL), "abcx");
    CHECK_STR(rx("replaceRegexpAll", "a.b.c", "\\.", "", NULL), "abc");
    CHECK_STR(rx("replaceRegexpAll", "abc", "(b)", "\\0\\0", NULL), "abbc");
    CHECK_STR(rx("replaceRegexpAll", "abc", "b", "\\\\", NULL), "a\\c");
    CHECK_STR(rx("replaceRegexpAll", "abc", "b", "\\a", NULL), "aac");
    CHECK_STR(rx("replaceRegexpAll", "abc", "b", "\\1", NULL), "ERR 36");
    CHECK_STR(rx("replaceRegexpAll", "abc", "(", "x", NULL), "ERR 36");
    CHECK_STR(rx("extract", "abc123def", "(\\d+)", NULL, &tn), "123");
    CHECK_STR(tn, "String");
    CHECK_STR(rx("extract", "abc123", "\\d+", NULL, NULL), "123");
    CHECK_STR(rx("extract", "abc", "x", NULL, NULL), "");
    CHECK_STR(rx("extract", "abc", "(x)|b", NULL, NULL), "");
    CHECK_STR(rx("extract", "abc", "b(c)?(d)?", NULL, NULL), "c");
    CHECK_STR(rx("extractAll", "a1b22c333", "\\d+", NULL, &tn), "['1','22','333']");
    CHECK_STR(tn, "Array(String)");
    CHECK_STR(rx("extractAll", "abc123def456", "([a-z])(\\d)", NULL, NULL), "['c','f']");
    CHECK_STR(rx("extractAll", "aaa", "a*", NULL, NULL), "['aaa']");
    CHECK_STR(rx("extractAll", "xax", "a*", NULL, NULL), "[]");
    CHECK_STR(rx("extractAll", "abc", "", NULL, NULL), "[]");
    CHECK_STR(rx("replaceAll", "aaa", "a", "bb", NULL), "bbbbbb");
    CHECK_STR(rx("replace", "aaa", "a", "bb", NULL), "bbbbbb");
    CHECK_STR(rx("replaceOne", "aaa", "a", "bb", NULL), "bbaa");
    CHECK_STR(rx("replaceOne", "abcb", "b", "", NULL), "acb");
    CHECK_STR(rx("replace", "abc", "", "x", NULL), "abc");
    CHECK_STR(rx("REGEXP_REPLACE", "abc", "b", "x", NULL), "axc");

    /* non-constant patterns and replacements, row by row */
    {
        const char *s[] = {"abc", "abc", "abc"}, *p[] = {"a", "x", "^b"};
        column *a[2] = {scol(3, s), scol(3, p)};
        column *r = call("match", 2, a, 3, NULL);
        CHECK(r && !strcmp(val(r, 0), "1") && !strcmp(val(r, 1), "0") && !strcmp(val(r, 2), "0"));
        col_free(r);
        free_args(2, a);
        const char *p2[] = {"b", "c", "b"}, *r2[] = {"X", "\\0\\0", "\\0\\0"};
        column *b[3] = {scol(3, s), scol(3, p2), scol(3, r2)};
        r = call("replaceRegexpAll", 3, b, 3, NULL);
        CHECK(r && !strcmp(val(r, 0), "aXc") && !strcmp(val(r, 1), "abcc") && !strcmp(val(r, 2), "abbc"));
        col_free(r);
        free_args(3, b);
        const char *s3[] = {"abab"}, *n3[] = {"b"}, *r3[] = {"cc"};
        column *d[3] = {scol(1, s3), scol(1, n3), scol(1, r3)};
        r = call("replaceAll", 3, d, 1, NULL);
        CHECK(r && !strcmp(val(r, 0), "accacc"));
        col_free(r);
        free_args(3, d);
        /* extract needs a constant pattern */
        const char *p4[] = {"b"};
        column *e[2] = {scol(1, s), scol(1, p4)};
        CHECK(call("extract", 2, e, 1, NULL) == NULL && err_code() == ERR_ILLEGAL_COLUMN);
        free_args(2, e);
    }
    /* FixedString: match accepts it, replace* reject it */
    {
        column *fs = col_new(type_fixedstring(2));
        col_push_str(fs, "ab", 2);
        const char *p = "b";
        column *a[2] = {fs, constcol(scol(1, &p), 1)};
        column *r = call("match", 2, a, 1, NULL);
        CHECK(r && !strcmp(val(r, 0), "1"));
        col_free(r);
        const char *x = "x";
        column *b[3] = {a[0], a[1], constcol(scol(1, &x), 1)};
        CHECK(call("replaceAll", 3, b, 1, NULL) == NULL && err_code() == ERR_ILLEGAL_COLUMN);
        free_args(3, b);
    }
    return check_done("func_regex");
}
