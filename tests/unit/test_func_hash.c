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
    return check_done("func_hash");
}
