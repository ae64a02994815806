/* Loading of optional shared libraries on first use (see lazylib.h). */
#include "base/lazylib.h"

#include "base/err.h"

#include <dlfcn.h>
#include <stdio.h>

static int fail_loaded(lazylib *l)
{
    return err_set(ERR_CANNOT_DLOPEN, "Cannot load %s, which %s needs: %s", l->soname, l->needed_for, l->error);
}

int lazylib_load(lazylib *l)
{
    int st = atomic_load_explicit(&l->state, memory_order_acquire);
    if (st == 1)
        return 0;
    if (st == -1)
        return fail_loaded(l);
    pthread_mutex_lock(&l->lock);
    st = atomic_load_explicit(&l->state, memory_order_relaxed);
    if (st == 0) {
        /* RTLD_LOCAL: the library's symbols stay out of the global namespace, so nothing
         * else can bind to them by accident. */
        void *h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *why = dlerror();
            snprintf(l->error, sizeof l->error, "%s", why ? why : "dlopen failed");
            st = -1;
        } else {
            st = 1;
            for (const lazy_sym *s = l->syms; s->name; s++) {
                dlerror();
                void *p = dlsym(h, s->name);
                if (!p) {
                    const char *why = dlerror();
                    snprintf(l->error, sizeof l->error, "symbol %s not found (%s)", s->name, why ? why : "no address");
                    st = -1;
                    break;
                }
                *s->slot = p;
            }
            if (st == 1 && l->after_load)
                l->after_load();
        }
        atomic_store_explicit(&l->state, st, memory_order_release);
    }
    pthread_mutex_unlock(&l->lock);
    return st == 1 ? 0 : fail_loaded(l);
}
