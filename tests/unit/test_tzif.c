/* TZif parser robustness: every truncation and many corruptions of a real zone file must
 * be rejected or parsed without crashing. Includes datetime.c to reach the static parser. */
#include "check.h"
#include "../../src/column/datetime.c"

static void free_zone(struct tz_info *z)
{
    free(z->trans);
    free(z->offs);
    memset(z, 0, sizeof *z);
}

int main(void)
{
    FILE *f = fopen("/usr/share/zoneinfo/Europe/Berlin", "rb");
    CHECK(f != NULL);
    if (!f)
        return check_done("tzif");
    static uint8_t data[1 << 16];
    size_t n = fread(data, 1, sizeof data, f);
    fclose(f);
    struct tz_info z;
    memset(&z, 0, sizeof z);
    CHECK(tzif_parse(data, n, &z) == 0);
    CHECK(z.has_rule && z.rule.has_dst && z.rule.std_off == 3600 && z.rule.dst_off == 7200);
    free_zone(&z);
    int accepted = 0;
    for (size_t k = 0; k < n; k++) { /* truncations */
        if (tzif_parse(data, k, &z) == 0)
            accepted++;
        free_zone(&z);
    }
    CHECK(accepted == 0);
    uint32_t x = 1;
    static uint8_t copy[1 << 16];
    for (int it = 0; it < 3000; it++) { /* byte corruptions: must not crash */
        memcpy(copy, data, n);
        for (int j = 0; j < 4; j++) {
            x = x * 1103515245 + 12345;
            copy[(x >> 8) % n] = (uint8_t)(x >> 24);
        }
        if (tzif_parse(copy, n, &z) == 0 && z.n_trans > 0)
            (void)tz_offset_at(&z, 1600000000);
        free_zone(&z);
    }
    /* POSIX rules */
    tz_rule r;
    const char *s1 = "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0";
    CHECK(parse_rule(s1, s1 + strlen(s1), &r) && r.std_off == 37800 && r.dst_off == 39600);
    const char *s2 = "EST5EDT,M3.2.0,M11.1.0";
    CHECK(parse_rule(s2, s2 + strlen(s2), &r) && r.std_off == -18000 && r.dst_off == -14400);
    const char *s3 = "<-03>3";
    CHECK(parse_rule(s3, s3 + strlen(s3), &r) && !r.has_dst && r.std_off == -10800);
    const char *s4 = "EST5EDT,M13.2.0,M11.1.0";
    CHECK(!parse_rule(s4, s4 + strlen(s4), &r));
    const char *s5 = "IST-2IDT,M3.4.4/26,M10.5.0"; /* Israel: hour 26 (v3 extension) */
    CHECK(parse_rule(s5, s5 + strlen(s5), &r) && r.start.time == 26 * 3600);
    return check_done("tzif");
}
