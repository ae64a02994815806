/* The pacing controller (--max-latency-ms) and the readers' waits. */
#include "check.h"
#include "backup/engine.h"

#include <time.h>

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
    bk_pace p;
    bk_pace_init(&p, 4);
    /* above the bound: readers go down one at a time, then the rate halves from 256 MiB/s */
    CHECK(bk_pace_adjust(&p, 4, 50, 10) == -1 && p.readers == 3);
    CHECK(bk_pace_adjust(&p, 4, 50, 10) == -1 && p.readers == 2);
    CHECK(bk_pace_adjust(&p, 4, 50, 10) == -1 && p.readers == 1 && p.rate == 0);
    CHECK(bk_pace_adjust(&p, 4, 50, 10) == -1 && p.rate == 256ull << 20);
    CHECK(bk_pace_adjust(&p, 4, 50, 10) == -1 && p.rate == 128ull << 20);
    for (int i = 0; i < 20; i++)
        bk_pace_adjust(&p, 4, 50, 10);
    CHECK(p.rate == 4ull << 20 && p.readers == 1); /* the floor: the backup always progresses */
    CHECK(bk_pace_adjust(&p, 4, 50, 10) == 0);
    /* between half the bound and the bound: kept */
    CHECK(bk_pace_adjust(&p, 4, 7, 10) == 0 && p.rate == 4ull << 20);
    /* below half the bound: the rate comes back first, then the readers */
    for (int i = 0; i < 8; i++)
        CHECK(bk_pace_adjust(&p, 4, 1, 10) == 1);
    CHECK(p.rate == 0 && p.readers == 1);
    CHECK(bk_pace_adjust(&p, 4, 1, 10) == 1 && p.readers == 2);
    CHECK(bk_pace_adjust(&p, 4, 1, 10) == 1 && bk_pace_adjust(&p, 4, 1, 10) == 1 && p.readers == 4);
    CHECK(bk_pace_adjust(&p, 4, 1, 10) == 0);

    /* the rate is enforced: 4 MiB at 16 MiB/s takes about 0.25 s */
    p.rate = 16ull << 20;
    double t0 = mono();
    for (int i = 0; i < 4; i++)
        bk_pace_wait(&p, 0, 1u << 20);
    double t = mono() - t0;
    CHECK(t > 0.15 && t < 1.0);
    /* reader 0 is never parked even when only one reader is allowed */
    p.rate = 0;
    p.readers = 1;
    t0 = mono();
    bk_pace_wait(&p, 0, 1u << 20);
    CHECK(mono() - t0 < 0.1);
    return check_done("backup_pace");
}
