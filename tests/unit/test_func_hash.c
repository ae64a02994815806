#include "check.h"
#include "func_util.h"

static const char *hs(const char *fn, int n, const char *const *s)
{
    column *a[4];
    for (int i = 0; i < n; i++)
        a[i] = scol(1, &s[i]);
    column *r = call(fn, n, a, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(n, a);
    return v;
}
static const char *hi(const char *fn, const char *tn, long long x)
{
    column *a[1] = {icol(tn, 1, &x)};
    column *r = call(fn, 1, a, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(1, a);
    return v;
}


static const char *hrep(const char *s, int times)
{
    size_t l = strlen(s);
    char *b = malloc(l * (size_t)times + 1);
    for (int i = 0; i < times; i++)
        memcpy(b + l * (size_t)i, s, l);
    b[l * (size_t)times] = 0;
    const char *v = hs("cityHash64", 1, (const char *[]){b});
    free(b);
    return v;
}
static const char *htyped(const char *fn, column *x, column *y)
{
    column *a[2] = {x, y};
    int n = y ? 2 : 1;
    column *r = call(fn, n, a, 1, NULL);
    const char *v = r ? val(r, 0) : err_msg();
    col_free(r);
    free_args(n, a);
    return v;
}

int main(void)
{
    /* All values from chdb */
    CHECK_STR(hs("xxHash64", 1, (const char *[]){""}), "17241709254077376921");
    CHECK_STR(hs("xxHash64", 1, (const char *[]){"abc"}), "4952883123889572249");
    CHECK_STR(hs("xxHash64", 1, (const char *[]){"a"}), "15154266338359012955");
    CHECK_STR(hs("xxHash64", 2, (const char *[]){"a", "b"}), "14756808377901732262");
    CHECK_STR(hi("xxHash64", "UInt8", 1), "9962287286179718960");
    CHECK_STR(hi("xxHash64", "Int32", -1), "9185342943168159635");
    CHECK_STR(hs("sipHash64", 1, (const char *[]){""}), "2202906307356721367");
    CHECK_STR(hs("sipHash64", 1, (const char *[]){"a"}), "10863254463029944905");
    CHECK_STR(hs("sipHash64", 1, (const char *[]){"abc"}), "4596069200710135518");
    CHECK_STR(hs("sipHash64", 2, (const char *[]){"a", "b"}), "1193743241355087095");
    CHECK_STR(hi("sipHash64", "UInt8", 1), "7385293435322750976");
    CHECK_STR(hi("intHash64", "UInt8", 0), "4761183170873013810");
    CHECK_STR(hi("intHash64", "UInt16", 12345), "16722121143744093920");
    CHECK_STR(hi("cityHash64", "UInt8", 1), "10577349846663553072");
    /* cityHash64 v1.0.2 on strings of each length class */
    CHECK_STR(hs("cityHash64", 1, (const char *[]){""}), "11160318154034397263");
    CHECK_STR(hs("cityHash64", 1, (const char *[]){"a"}), "2603192927274642682");
    CHECK_STR(hs("cityHash64", 1, (const char *[]){"abc"}), "4220206313085259313");
    CHECK_STR(hrep("x", 100), "8273723555210364035");
    CHECK_STR(hrep("abcdefg", 1000), "7952900727833532814");
    CHECK_STR(hs("cityHash64", 2, (const char *[]){"a", "b"}), "7468329322676821011");
    CHECK_STR(hi("cityHash64", "Int8", -1), "8055013221972926055");
    CHECK_STR(hi("cityHash64", "Int128", 1), "201160255169616649");
    CHECK_STR(hi("cityHash64", "Date", 18262), "6817702824740635125");
    {
        double d = 1.5;
        column *f = fcol("Float64", 1, &d);
        CHECK_STR(htyped("cityHash64", f, NULL), "7287324520655339053");
        f = fcol("Float32", 1, &d);
        CHECK_STR(htyped("cityHash64", f, NULL), "17641193269776743632");
        long long x = 150;
        CHECK_STR(htyped("cityHash64", icol("Decimal(9, 2)", 1, &x), NULL), "8235273209324577223");
        x = 7;
        const char *sx[] = {"x"};
        CHECK_STR(htyped("cityHash64", icol("UInt32", 1, &x), scol(1, sx)), "5565920668248592449");
        column *fs = col_new(type_fixedstring(3));
        col_push_str(fs, "ab", 2);
        CHECK_STR(htyped("cityHash64", fs, NULL), "2474032565810969706");
    }
    return check_done("func_hash");
}
