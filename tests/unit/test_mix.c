/* base/mix.h: fmix64 is MurmurHash3's finaliser bit for bit, as ClickHouse's hashes need.
 * The expected values are ClickHouse's: intHash64(bitXor(x, 0x4CF2D2BAAE6DA887)) = fmix64(x). */
#include "base/mix.h"
#include "check.h"

int main(void)
{
    static const struct { uint64_t x, want; } cases[] = {
        {0, 0},
        {1, 12994781566227106604ULL},
        {42, 9297814886316923340ULL},
        {UINT64_MAX, 7256831767414464289ULL},
        {0x4CF2D2BAAE6DA887ULL, 4761183170873013810ULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(fmix64(cases[i].x) == cases[i].want);
    /* mix64 is free to differ from fmix64, but must stay a bijection-quality mixer: distinct
     * small inputs give distinct outputs that differ in many bits */
    for (uint64_t x = 0; x < 64; x++)
        CHECK(__builtin_popcountll(mix64(x) ^ mix64(x + 1)) >= 10);
    return check_done("mix");
}
