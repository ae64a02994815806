/* PostgreSQL page-level deltas (see pgpage.h). */
#include "backup/pgpage.h"

#include "backup/backup.h"
#include "base/err.h"

#include <string.h>

static bool digits(const char *s, size_t n)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* "R" or "R.N" with R and N digits */
static bool relfile_name(const char *s)
{
    const char *dot = strchr(s, '.');
    if (!dot)
        return digits(s, strlen(s));
    return digits(s, (size_t)(dot - s)) && digits(dot + 1, strlen(dot + 1));
}

bool bk_pg_is_relation(const char *p)
{
    const char *name = strrchr(p, '/');
    if (!name || !relfile_name(name + 1))
        return false;
    if (strncmp(p, "global/", 7) == 0)
        return name == p + 6;
    if (strncmp(p, "base/", 5) == 0) {
        const char *db = p + 5, *sl = strchr(db, '/');
        return sl == name && digits(db, (size_t)(sl - db));
    }
    if (strncmp(p, "pg_tblspc/", 10) == 0) {
        /* pg_tblspc/T/PG_xx_yyy/D/R */
        const char *t = p + 10, *s1 = strchr(t, '/');
        if (!s1 || !digits(t, (size_t)(s1 - t)) || strncmp(s1 + 1, "PG_", 3))
            return false;
        const char *s2 = strchr(s1 + 1, '/');
        if (!s2)
            return false;
        const char *s3 = strchr(s2 + 1, '/');
        return s3 == name && digits(s2 + 1, (size_t)(s3 - s2 - 1));
    }
    return false;
}

uint64_t bk_pg_page_lsn(const uint8_t *page)
{
    uint32_t hi, lo;
    memcpy(&hi, page, 4);
    memcpy(&lo, page + 4, 4);
    return (uint64_t)hi << 32 | lo;
}

size_t bk_pg_delta_encode(const uint8_t *data, size_t len, uint64_t first_page, uint64_t parent_pages,
                          uint64_t threshold, uint8_t *out)
{
    memset(out, 0, BK_DELTA_BITMAP);
    size_t n = BK_DELTA_BITMAP;
    size_t pages = len / BK_PAGE_SIZE;
    for (size_t i = 0; i < pages && i < BK_PAGES_PER_BLOCK; i++) {
        const uint8_t *pg = data + i * BK_PAGE_SIZE;
        uint64_t lsn = bk_pg_page_lsn(pg);
        if (first_page + i >= parent_pages || lsn == 0 || lsn > threshold) {
            out[i / 8] |= (uint8_t)(1u << (i % 8));
            memcpy(out + n, pg, BK_PAGE_SIZE);
            n += BK_PAGE_SIZE;
        }
    }
    return n == BK_DELTA_BITMAP ? 0 : n;
}

int bk_pg_delta_apply(const uint8_t *payload, size_t len, int (*put)(void *ctx, unsigned page, const uint8_t *data),
                      void *ctx)
{
    if (len < BK_DELTA_BITMAP)
        return err_set(ERR_CORRUPTED_DATA, "delta block of %zu bytes is shorter than its bitmap", len);
    size_t count = 0;
    for (unsigned i = 0; i < BK_PAGES_PER_BLOCK; i++)
        count += (payload[i / 8] >> (i % 8)) & 1;
    if (len != BK_DELTA_BITMAP + count * BK_PAGE_SIZE)
        return err_set(ERR_CORRUPTED_DATA, "delta block of %zu bytes does not match its bitmap of %zu pages", len, count);
    const uint8_t *pg = payload + BK_DELTA_BITMAP;
    for (unsigned i = 0; i < BK_PAGES_PER_BLOCK; i++) {
        if (!((payload[i / 8] >> (i % 8)) & 1))
            continue;
        if (put(ctx, i, pg))
            return -1;
        pg += BK_PAGE_SIZE;
    }
    return 0;
}
