/* Tracked allocation: charges follow the requested sizes, and large freed blocks are kept
 * and handed out again (unless the build has AddressSanitizer, which must see every free). */
#include "base/mem.h"
#include "check.h"

#include <string.h>

#define MIB ((size_t)1 << 20)

static int64_t used(const mem_tracker *t) { return atomic_load(&t->used); }

int main(void)
{
    mem_init();
    mem_tracker t;
    mem_tracker_init(&t, 0, NULL);
    mem_tracker_attach(&t);

    /* small blocks: charged and released exactly */
    char *s = mem_alloc(100);
    CHECK(used(&t) == 100 && mem_size(s) == 100);
    s = mem_realloc(s, 300);
    CHECK(used(&t) == 300 && mem_size(s) == 300);
    mem_free(s);
    CHECK(used(&t) == 0);

    /* a large block: freed into the cache, reused by a request it holds with at most 25 % to spare */
    char *a = mem_alloc(8 * MIB);
    memset(a, 7, 8 * MIB);
    mem_free(a);
    CHECK(used(&t) == 0);
    int caching = mem_cache_bytes() >= 8 * MIB;
    char *b = mem_alloc(7 * MIB);
    CHECK(used(&t) == (int64_t)(7 * MIB) && mem_size(b) == 7 * MIB);
    if (caching) {
        CHECK(b == a);              /* the same block again, its pages already resident */
        CHECK(mem_cache_bytes() == 0);
        /* growing within the block's capacity does not move it */
        char *c = mem_realloc(b, 8 * MIB);
        CHECK(c == b && (unsigned char)c[8 * MIB - 1] == 7);
        b = c;
        CHECK(used(&t) == (int64_t)(8 * MIB));
    }
    mem_free(b);
    /* too small a request for that block: not taken from the cache */
    char *small = mem_alloc(4 * MIB - 1);
    CHECK(!caching || mem_cache_bytes() >= 8 * MIB);
    mem_free(small);
    /* a request larger than any cached block gets a new one; contents survive a move */
    char *d = mem_alloc(5 * MIB);
    memset(d, 1, 5 * MIB);
    d = mem_realloc(d, 64 * MIB);
    CHECK(d[0] == 1 && d[5 * MIB - 1] == 1);
    CHECK(used(&t) == (int64_t)(64 * MIB));
    mem_free(d);
    CHECK(used(&t) == 0);
    mem_cache_release();
    CHECK(mem_cache_bytes() == 0);
    CHECK(atomic_load(&t.peak) >= (int64_t)(64 * MIB));
    mem_tracker_attach(NULL);
    return check_done("mem");
}
