/* base/lazylib: libraries loaded on first use — symbols resolve, a missing library or
 * symbol is a clear error that repeats, and the optional libraries are not linked. */
#include "base/err.h"
#include "base/lazylib.h"
#include "codec/snappy_lib.h"
#include "io/crypto.h"
#include "check.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef const char *(*version_fn)(void);

static version_fn zlib_version;
static int after_calls;
static void count_after(void) { after_calls++; }

static const lazy_sym zsyms[] = {{"zlibVersion", (void **)&zlib_version}, {NULL, NULL}};
static lazylib zlib = {.soname = "libz.so.1", .needed_for = "a test", .syms = zsyms, .after_load = count_after,
                       .lock = PTHREAD_MUTEX_INITIALIZER};

static void *missing_fn;
static const lazy_sym msyms[] = {{"no_such_function_in_zlib", &missing_fn}, {NULL, NULL}};
static lazylib missing_sym = LAZYLIB_INIT("libz.so.1", "a test of missing symbols", msyms);
static lazylib missing_lib = LAZYLIB_INIT("libshale-does-not-exist.so.7", "a test of missing libraries", msyms);

int main(void)
{
    CHECK(lazylib_load(&zlib) == 0);
    CHECK(zlib_version && zlib_version()[0] >= '1');
    CHECK(lazylib_load(&zlib) == 0);
    CHECK(after_calls == 1);

    CHECK(lazylib_load(&missing_lib) == -1);
    CHECK(err_code() == ERR_CANNOT_DLOPEN);
    CHECK(strstr(err_msg(), "libshale-does-not-exist.so.7") && strstr(err_msg(), "a test of missing libraries"));
    err_clear();
    CHECK(lazylib_load(&missing_lib) == -1); /* remembered, same message */
    CHECK(strstr(err_msg(), "libshale-does-not-exist.so.7") != NULL);
    err_clear();

    CHECK(lazylib_load(&missing_sym) == -1);
    CHECK(strstr(err_msg(), "no_such_function_in_zlib") != NULL);
    err_clear();

    /* The optional libraries are not loaded until used: shale's start-up stays cheap. */
    CHECK(dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD) == NULL);
    CHECK(dlopen("libsnappy.so.1", RTLD_NOW | RTLD_NOLOAD) == NULL);
    CHECK(dlopen("libcrypto.so.3", RTLD_NOW | RTLD_NOLOAD) == NULL);

    /* ... and work once they are. */
    const snappy_fns *sn = snappy_lib();
    CHECK(sn != NULL);
    if (sn) {
        char in[64], packed[128], out[64];
        memset(in, 'x', sizeof in);
        size_t plen = sizeof packed, olen = sizeof out;
        CHECK(sn->compress(in, sizeof in, packed, &plen) == SNAPPY_OK);
        CHECK(sn->uncompress(packed, plen, out, &olen) == SNAPPY_OK && olen == sizeof in && !memcmp(in, out, olen));
    }
    CHECK(crypto_load() == 0);
    unsigned char md[16];
    crypto_md5("", 0, md);
    char b64[32];
    crypto_base64(md, 16, b64);
    CHECK_STR(b64, "1B2M2Y8AsgTpgAmY7PhCfg=="); /* MD5 of the empty string */
    return check_done("lazylib");
}
