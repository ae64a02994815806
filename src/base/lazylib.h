/* lazylib: shared libraries that only some statements need, loaded on first use.
 *
 * Why: `shale local` is started once per query by scripts and benchmarks, and the dynamic
 * loader's work grows with every library linked at start-up. libcurl alone (with the TLS,
 * Kerberos, LDAP and IDN libraries it pulls in) costs ~12 ms per start here, libcrypto
 * ~3 ms, libsnappy's C++ runtime ~2 ms, libedit ~2 ms — more than a whole small query.
 * So these are not linked: a module that needs one declares a table of the functions it
 * calls and loads it with dlopen the first time a statement uses it (s3(), url(), SNAPPY
 * pages, the interactive prompt). The headers still come from the -dev packages, so the
 * function pointers have the real prototypes.
 *
 * Usage:
 *     static struct { __typeof__(curl_easy_init) *easy_init; ... } fn;
 *     static const lazy_sym syms[] = {{"curl_easy_init", (void **)&fn.easy_init}, ..., {0}};
 *     static lazylib lib = LAZYLIB_INIT("libcurl.so.4", "s3() and url()", syms);
 *     if (lazylib_load(&lib)) return -1;   // then call fn.easy_init()
 *
 * Thread-safety: lazylib_load may be called from any thread; the library is loaded and
 * its symbols resolved once (the first caller does it under a lock, later callers see the
 * published result). Errors: -1 with err_set (ERR_CANNOT_DLOPEN) naming the library, what
 * needs it, and dlerror()'s reason; a failure is remembered and reported again. Libraries
 * are never unloaded. */
#ifndef SHALE_BASE_LAZYLIB_H
#define SHALE_BASE_LAZYLIB_H

#include <pthread.h>
#include <stdatomic.h>

typedef struct lazy_sym {
    const char *name;
    void **slot;                 /* receives the symbol's address */
} lazy_sym;

typedef struct lazylib {
    const char *soname;          /* e.g. "libcurl.so.4" */
    const char *needed_for;      /* for the error message: "s3() and url()" */
    const lazy_sym *syms;        /* terminated by {NULL, NULL} */
    void (*after_load)(void);    /* optional: runs once after the symbols resolve */
    pthread_mutex_t lock;
    _Atomic int state;           /* 0 not tried, 1 loaded, -1 failed */
    char error[256];
} lazylib;

#define LAZYLIB_INIT(so, why, table) {.soname = (so), .needed_for = (why), .syms = (table), \
                                      .lock = PTHREAD_MUTEX_INITIALIZER}

int lazylib_load(lazylib *l);

#endif
