#include "base/units.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int parse_u64_size_suffix(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    static const char units[] = "KMGTPE";
    const char *u = *end ? strchr(units, *end) : NULL;
    if (*end && !u)
        return -1;
    if (u) {
        bool binary = end[1] == 'i';
        if (end[1 + binary])
            return -1;
        unsigned long long base = binary ? 1024 : 1000;
        for (long k = 0; k <= u - units; k++) {
            if (v > UINT64_MAX / base)
                return -1;
            v *= base;
        }
    }
    *out = v;
    return 0;
}
