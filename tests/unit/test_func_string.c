#include "check.h"
#include "func_util.h"

/* f(s) or f(s, t) on strings; extra integer args after. */
static const char *s1(const char *fn, const char *s)
{
    column *a[1] = {scol(1, &s)};
    column *r = call(fn, 1, a, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(1, a);
    return v;
}
static const char *s2(const char *fn, const char *s, const char *t)
{
    column *a[2] = {scol(1, &s), constcol(scol(1, &t), 1)};
    column *r = call(fn, 2, a, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(2, a);
    return v;
}
static const char *sub(const char *s, long long off, long long len, int nargs)
{
    column *a[3] = {scol(1, &s), icol("Int64", 1, &off), icol("Int64", 1, &len)};
    column *r = call("substring", nargs, a, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(3, a);
    return v;
}

int main(void)
{
    /* Values from chdb */
    CHECK_STR(sub("abcdef", -5, 3, 3), "bcd");
    CHECK_STR(sub("abc", -5, 3, 3), "a");
    CHECK_STR(sub("abcdef", 2, -1, 3), "bcde");
    CHECK_STR(sub("abc", 0, 2, 3), "");
    CHECK_STR(sub("abc", 5, 0, 2), "");
    CHECK_STR(sub("abcdef", -2, 0, 2), "ef");
    CHECK_STR(s2("position", "abcabc", "c"), "3");
    CHECK_STR(s2("position", "abc", ""), "1");
    CHECK_STR(s2("like", "abc", "a_c"), "1");
    CHECK_STR(s2("like", "a%b", "a\\%b"), "1");
    CHECK_STR(s2("like", "axb", "a\\%b"), "0");
    CHECK_STR(s2("ilike", "ABC", "a%"), "1");
    CHECK_STR(s2("like", "hello world", "%lo w%"), "1");
    CHECK_STR(s2("like", "hello world", "%world"), "1");
    CHECK_STR(s2("like", "hello world", "%hello"), "0");
    CHECK_STR(s2("notLike", "hello", "h%o"), "0");
    CHECK_STR(s2("like", "жaж", "_a_"), "1");
    CHECK_STR(s1("trim", "  a  "), "a");
    CHECK_STR(s1("ltrim", "  a "), "a ");
    CHECK_STR(s1("reverse", "abc"), "cba");
    CHECK_STR(s1("lengthUTF8", "жж"), "2");
    CHECK_STR(s1("length", "жж"), "4");
    CHECK_STR(s1("upperUTF8", "жa"), "ЖA");
    CHECK_STR(s1("UPPER", "abc"), "ABC");
    CHECK_STR(s1("empty", ""), "1");
    CHECK_STR(s1("notEmpty", ""), "0");
    CHECK_STR(s2("startsWith", "abc", "ab"), "1");
    CHECK_STR(s2("endsWith", "abc", "ab"), "0");
    CHECK_STR(s2("concat", "ab", "cd"), "abcd");
    {
        const char *s = "ab";
        long long three = 3;
        column *a[2] = {scol(1, &s), icol("UInt8", 1, &three)};
        column *r = call("repeat", 2, a, 1, NULL);
        CHECK_STR(val(r, 0), "ababab");
        col_free(r);
        free_args(2, a);
    }
    return check_done("func_string");
}
