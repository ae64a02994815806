/* Numbers with ClickHouse's size suffixes, as settings take them ('10Mi', '5G'):
 * K, M, G, T, P, E are powers of 1000, Ki, Mi, Gi, Ti, Pi, Ei powers of 1024.
 * Pure function, thread-safe; no error is recorded (the caller words it). */
#ifndef SHALE_BASE_UNITS_H
#define SHALE_BASE_UNITS_H

#include <stdint.h>

/* 0 and *out on success; -1 if s is not digits with an optional suffix, or overflows. */
int parse_u64_size_suffix(const char *s, uint64_t *out);

#endif
