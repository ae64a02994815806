/* libsnappy loaded on first use (see snappy_lib.h). */
#include "codec/snappy_lib.h"

#include "base/lazylib.h"

#include <stddef.h>

static snappy_fns fns;

static const lazy_sym syms[] = {
    {"snappy_uncompressed_length", (void **)&fns.uncompressed_length},
    {"snappy_uncompress", (void **)&fns.uncompress},
    {"snappy_max_compressed_length", (void **)&fns.max_compressed_length},
    {"snappy_compress", (void **)&fns.compress},
    {NULL, NULL},
};

static lazylib lib = LAZYLIB_INIT("libsnappy.so.1", "the SNAPPY codec", syms);

const snappy_fns *snappy_lib(void) { return lazylib_load(&lib) ? NULL : &fns; }
