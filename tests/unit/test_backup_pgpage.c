/* Page-LSN delta logic: which pages ship, and applying a delta payload. */
#include "check.h"
#include "backup/backup.h"
#include "backup/pgpage.h"
#include "base/err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void set_lsn(uint8_t *page, uint64_t lsn)
{
    uint32_t hi = (uint32_t)(lsn >> 32), lo = (uint32_t)lsn;
    memcpy(page, &hi, 4);
    memcpy(page + 4, &lo, 4);
}

static uint8_t out_pages[BK_PAGES_PER_BLOCK][BK_PAGE_SIZE];
static int seen[BK_PAGES_PER_BLOCK];

static int put(void *ctx, unsigned page, const uint8_t *data)
{
    (void)ctx;
    memcpy(out_pages[page], data, BK_PAGE_SIZE);
    seen[page]++;
    return 0;
}

int main(void)
{
    CHECK(bk_pg_is_relation("base/5/16384"));
    CHECK(bk_pg_is_relation("base/5/16384.1"));
    CHECK(bk_pg_is_relation("global/1262"));
    CHECK(bk_pg_is_relation("pg_tblspc/16390/PG_15_202209061/5/16391"));
    CHECK(!bk_pg_is_relation("base/5/16384_fsm"));
    CHECK(!bk_pg_is_relation("base/5/16384_vm"));
    CHECK(!bk_pg_is_relation("base/5/t3_16384"));
    CHECK(!bk_pg_is_relation("global/pg_control"));
    CHECK(!bk_pg_is_relation("pg_xact/0000"));
    CHECK(!bk_pg_is_relation("base/5/sub/16384"));
    CHECK(!bk_pg_is_relation("base/5/16384."));
    CHECK(!bk_pg_is_relation("pg_tblspc/16390/other/5/16391"));
    CHECK(!bk_pg_is_relation("16384"));

    size_t npages = 16;
    uint8_t *data = calloc(npages, BK_PAGE_SIZE);
    for (size_t i = 0; i < npages; i++) {
        memset(data + i * BK_PAGE_SIZE + 24, (int)i + 1, BK_PAGE_SIZE - 24);
        set_lsn(data + i * BK_PAGE_SIZE, 0x100000000ull + 1000 * (i + 1));
    }
    uint64_t threshold = 0x100000000ull + 5000; /* pages 0..4 are at or below it */
    CHECK(bk_pg_page_lsn(data + 5 * BK_PAGE_SIZE) == 0x100000000ull + 6000);
    set_lsn(data + 2 * BK_PAGE_SIZE, 0);      /* never logged: ships */
    uint8_t *payload = malloc(BK_DELTA_BITMAP + npages * BK_PAGE_SIZE);
    /* the parent had 14 pages: 14 and 15 are new and ship whatever their LSN */
    set_lsn(data + 15 * BK_PAGE_SIZE, 1);
    size_t n = bk_pg_delta_encode(data, npages * BK_PAGE_SIZE, 0, 14, threshold, payload);
    /* shipped: 2 (zero LSN), 5..13 (newer), 14, 15 (beyond the parent) = 12 pages */
    CHECK(n == BK_DELTA_BITMAP + 12 * BK_PAGE_SIZE);
    CHECK(payload[0] == 0xE4); /* bits 2, 5, 6, 7 */
    CHECK(payload[1] == 0xFF);
    CHECK(bk_pg_delta_apply(payload, n, put, NULL) == 0);
    for (size_t i = 0; i < npages; i++) {
        bool ship = i == 2 || i >= 5;
        CHECK(seen[i] == (ship ? 1 : 0));
        if (ship)
            CHECK(memcmp(out_pages[i], data + i * BK_PAGE_SIZE, BK_PAGE_SIZE) == 0);
    }
    /* a block of a later part of the file: page numbers count from first_page */
    n = bk_pg_delta_encode(data, 4 * BK_PAGE_SIZE, 1000, 2000, threshold, payload);
    CHECK(n == BK_DELTA_BITMAP + BK_PAGE_SIZE); /* only the zero-LSN page 2 */
    /* nothing changed: no payload */
    set_lsn(data + 2 * BK_PAGE_SIZE, 5);
    CHECK(bk_pg_delta_encode(data, 5 * BK_PAGE_SIZE, 0, 5, threshold, payload) == 0);
    /* a payload whose length disagrees with its bitmap is corrupt */
    n = bk_pg_delta_encode(data, npages * BK_PAGE_SIZE, 0, 14, threshold, payload);
    CHECK(bk_pg_delta_apply(payload, n - 1, put, NULL) == -1);
    CHECK(err_code() == ERR_CORRUPTED_DATA);
    CHECK(bk_pg_delta_apply(payload, 3, put, NULL) == -1);
    free(data);
    free(payload);
    return check_done("backup_pgpage");
}
