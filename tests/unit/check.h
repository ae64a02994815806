/* A minimal assertion harness for unit tests: CHECK(cond) records a failure with the
 * location and continues; CHECK_STR compares strings; check_done() prints a summary line
 * and returns the process exit code. */
#ifndef SHALE_TEST_CHECK_H
#define SHALE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures, check_total;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        check_total++;                                                               \
        if (!(cond)) {                                                               \
            check_failures++;                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        check_total++;                                                                             \
        if (!g_ || strcmp(g_, w_) != 0) {                                                          \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
        }                                                                                          \
    } while (0)

static inline int check_done(const char *suite)
{
    printf("%s: %d passed, %d failed\n", suite, check_total - check_failures, check_failures);
    return check_failures ? 1 : 0;
}

#endif
