/* Shared by the output tests: weak stand-ins for datetime.h (implemented elsewhere; the
 * real ones win at link time when present) and small column builders. */
#include "base/buf.h"
#include "column/block.h"
#include "column/datetime.h"
#include "column/text.h"
#include "format/format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((weak)) const tz_info *tz_get(const char *name) { return (const tz_info *)"UTC"; }
__attribute__((weak)) void dt_civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}
__attribute__((weak)) size_t dt_format_date(int64_t days, char *out)
{
    int64_t y;
    unsigned m, d;
    dt_civil_from_days(days, &y, &m, &d);
    char t[32];
    snprintf(t, sizeof t, "%04d-%02u-%02u", (int)y, m, d);
    memcpy(out, t, 10);
    return 10;
}
__attribute__((weak)) size_t dt_format_datetime(int64_t s, const tz_info *tz, char *out)
{
    int64_t days = s >= 0 ? s / 86400 : (s - 86399) / 86400, r = s - days * 86400;
    dt_format_date(days, out);
    char t[32];
    snprintf(t, sizeof t, " %02d:%02d:%02d", (int)(r / 3600), (int)(r / 60 % 60), (int)(r % 60));
    memcpy(out + 10, t, 9);
    return 19;
}
__attribute__((weak)) size_t dt_format_datetime64(int64_t ticks, int scale, const tz_info *tz, char *out)
{
    int64_t m = 1;
    for (int i = 0; i < scale; i++)
        m *= 10;
    size_t n = dt_format_datetime(ticks / m, tz, out);
    if (scale) {
        char t[32];
        snprintf(t, sizeof t, ".%0*lld", scale, (long long)(ticks % m));
        memcpy(out + n, t, (size_t)scale + 1);
        n += (size_t)scale + 1;
    }
    return n;
}

/* Columns and blocks built by the tests are registered here and freed at exit, so that
 * LeakSanitizer reports only leaks of the code under test. */
static column *test_owned_cols[4096];
static int test_owned_ncols;
static block *test_owned_blocks[256];
static int test_owned_nblocks;
static schema *test_owned_schemas[64];
static int test_owned_nschemas;

static void test_owned_free(void)
{
    for (int i = 0; i < test_owned_ncols; i++)
        col_free(test_owned_cols[i]);
    for (int i = 0; i < test_owned_nblocks; i++)
        block_free(test_owned_blocks[i]);
    for (int i = 0; i < test_owned_nschemas; i++)
        schema_free(test_owned_schemas[i]);
}

__attribute__((unused)) static column *test_own(column *c)
{
    if (test_owned_ncols == 0 && test_owned_nblocks == 0 && test_owned_nschemas == 0)
        atexit(test_owned_free);
    test_owned_cols[test_owned_ncols++] = c;
    return c;
}

__attribute__((unused)) static void test_own_block(block *b)
{
    if (test_owned_ncols == 0 && test_owned_nblocks == 0 && test_owned_nschemas == 0)
        atexit(test_owned_free);
    test_owned_blocks[test_owned_nblocks++] = b;
}

__attribute__((unused)) static void test_own_schema(schema *s)
{
    if (test_owned_ncols == 0 && test_owned_nblocks == 0 && test_owned_nschemas == 0)
        atexit(test_owned_free);
    test_owned_schemas[test_owned_nschemas++] = s;
}

__attribute__((unused)) static column *col_strs(const char *tname, int n, const char *const *v)
{
    column *c = col_new(type_parse_cstr(tname));
    for (int i = 0; i < n; i++) {
        if (!v[i])
            col_push_null(c);
        else if (type_is_nullable(c->type)) {
            col_push_str(c->inner, v[i], strlen(v[i]));
            col_nullable_commit(c, false);
        } else
            col_push_str(c, v[i], strlen(v[i]));
    }
    return c;
}

__attribute__((unused)) static column *col_fixed(const char *tname, int n, const void *vals)
{
    column *c = col_new(type_parse_cstr(tname));
    size_t w = type_phys(c->type)->width;
    for (int i = 0; i < n; i++)
        col_push_fixed(c, (const char *)vals + (size_t)i * w);
    return c;
}
