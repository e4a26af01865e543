/*
 * unit.h - the tiny in-tree unit test harness. One file per module
 * (tests/unit/test_<module>.c), each a main() calling TEST functions.
 *
 *   static void test_parse_int(void) { CHECK(x == 1); CHECK_STR(a, "b"); }
 *   int main(void) { RUN(test_parse_int); return unit_report(); }
 *
 * A failed CHECK prints file:line and the expression and counts a failure;
 * the program exits 1 if any check failed.
 */
#ifndef SQE_UNIT_H
#define SQE_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_checks, unit_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        unit_checks++;                                                                             \
        if (!(cond)) {                                                                             \
            unit_failures++;                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

#define CHECK_STR(got, want)                                                                       \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        unit_checks++;                                                                             \
        if (!g_ || !w_ || strcmp(g_, w_) != 0) {                                                   \
            unit_failures++;                                                                       \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s\n  got:  %s\n  want: %s\n", __FILE__,     \
                    __LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");                       \
        }                                                                                          \
    } while (0)

/* Checks that `msg` contains `part`. */
#define CHECK_CONTAINS(msg, part)                                                                  \
    do {                                                                                           \
        const char *m_ = (msg), *p_ = (part);                                                      \
        unit_checks++;                                                                             \
        if (!m_ || !strstr(m_, p_)) {                                                              \
            unit_failures++;                                                                       \
            fprintf(stderr, "%s:%d: CHECK_CONTAINS failed\n  text: %s\n  part: %s\n", __FILE__,    \
                    __LINE__, m_ ? m_ : "(null)", p_);                                             \
        }                                                                                          \
    } while (0)

#define RUN(fn)                                                                                    \
    do {                                                                                           \
        fn();                                                                                      \
    } while (0)

static inline int unit_report(void) {
    fprintf(stderr, "%d checks, %d failures\n", unit_checks, unit_failures);
    return unit_failures ? 1 : 0;
}

#endif
