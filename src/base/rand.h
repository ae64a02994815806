/* Fast non-cryptographic random numbers for identifiers (query ids, backup ids).
 *
 * Each thread has its own generator (xoshiro256**) seeded once from getrandom(2), so a
 * query id costs no system call; the 256-bit seed keeps ids unique across threads,
 * processes and restarts with the odds of random UUIDs. Never use it for secrets.
 * Thread-safe (state is thread-local); no errors: without an entropy source the seed
 * mixes time, pid and thread address. */
#ifndef SHALE_BASE_RAND_H
#define SHALE_BASE_RAND_H

#include <stdint.h>

uint64_t rand_u64(void);
/* A version 4 UUID as text: 36 characters and a NUL. */
void rand_uuid_text(char out[37]);

#endif
