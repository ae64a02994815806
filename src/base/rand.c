#include "base/rand.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static _Thread_local uint64_t state[4];
static _Thread_local bool seeded;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void seed(void)
{
    if (getrandom(state, sizeof state, 0) != (ssize_t)sizeof state) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
        x ^= (uint64_t)getpid() << 40 ^ (uint64_t)(uintptr_t)&seeded;
        for (int i = 0; i < 4; i++)
            state[i] = splitmix64(&x);
    }
    if (!(state[0] | state[1] | state[2] | state[3])) /* the one state xoshiro cannot leave */
        state[0] = 1;
    seeded = true;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rand_u64(void)
{
    if (!seeded)
        seed();
    uint64_t r = rotl(state[1] * 5, 7) * 9, t = state[1] << 17;
    state[2] ^= state[0];
    state[3] ^= state[1];
    state[1] ^= state[2];
    state[0] ^= state[3];
    state[2] ^= t;
    state[3] = rotl(state[3], 45);
    return r;
}

void rand_uuid_text(char out[37])
{
    uint8_t r[16];
    uint64_t a = rand_u64(), b = rand_u64();
    memcpy(r, &a, 8);
    memcpy(r + 8, &b, 8);
    r[6] = (uint8_t)((r[6] & 0x0f) | 0x40);
    r[8] = (uint8_t)((r[8] & 0x3f) | 0x80);
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", r[0], r[1], r[2], r[3],
             r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
}
