/* snappy_lib: libsnappy's C API, loaded on first use (base/lazylib.h): libsnappy drags in
 * the C++ runtime, whose loading would cost every start of shale ~2 ms although only
 * SNAPPY-compressed Parquet pages need it.
 *
 * snappy_lib() returns the functions (with the prototypes of <snappy-c.h>), loading the
 * library on the first call; NULL with err_set (ERR_CANNOT_DLOPEN) when it cannot be
 * loaded. Thread-safe; the table is static and lives forever. */
#ifndef SHALE_CODEC_SNAPPY_LIB_H
#define SHALE_CODEC_SNAPPY_LIB_H

#include <snappy-c.h>

typedef struct snappy_fns {
    __typeof__(snappy_uncompressed_length) *uncompressed_length;
    __typeof__(snappy_uncompress) *uncompress;
    __typeof__(snappy_max_compressed_length) *max_compressed_length;
    __typeof__(snappy_compress) *compress;
} snappy_fns;

const snappy_fns *snappy_lib(void);

#endif
