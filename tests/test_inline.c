/*
 * The constant-length inline paths of csum_partial() (include/csum.h): every constant length
 * at every alignment 0..63 with several initial sums, a constant zero sum included, against
 * the oracle; and proof that those calls really were inlined.
 *
 * The proof: csum-test is linked with -Wl,--wrap=csum_partial, so every call from the test
 * code that reaches the exported function goes through __wrap_csum_partial below and is
 * counted. A constant-length call must leave the count alone; the same call with the length
 * hidden from the compiler must add one. This file is always compiled with -O2 (see
 * CMakeLists.txt): __builtin_constant_p, and so the inline path, needs the optimizer.
 */
#include "test.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

csum_wsum __real_csum_partial(const void *buf, size_t len, csum_wsum sum);
csum_wsum __wrap_csum_partial(const void *buf, size_t len, csum_wsum sum);

/* Atomic: the selection tests' children call csum_partial from many threads at once. */
static _Atomic unsigned long exported_calls;

csum_wsum __wrap_csum_partial(const void *buf, size_t len, csum_wsum sum)
{
    atomic_fetch_add_explicit(&exported_calls, 1, memory_order_relaxed);
    return __real_csum_partial(buf, len, sum);
}

/* One pair of call sites per constant: the length must be a literal at the call. */
#define INLINE_CASE(n)                                                          \
    static csum_wsum inline_##n(const unsigned char *p, csum_wsum sum)         \
    {                                                                          \
        return csum_partial(p, n, sum);                                        \
    }                                                                          \
    static csum_wsum inline_zero_##n(const unsigned char *p)                   \
    {                                                                          \
        return csum_partial(p, n, 0);                                          \
    }
INLINE_CASE(2)
INLINE_CASE(4)
INLINE_CASE(8)
INLINE_CASE(12)
INLINE_CASE(14)
INLINE_CASE(16)
INLINE_CASE(20)
INLINE_CASE(40)
#undef INLINE_CASE

static const struct {
    size_t len;
    csum_wsum (*with_sum)(const unsigned char *, csum_wsum);
    csum_wsum (*zero_sum)(const unsigned char *);
} cases[] = {
#define ROW(n) { n, inline_##n, inline_zero_##n }
    ROW(2), ROW(4), ROW(8), ROW(12), ROW(14), ROW(16), ROW(20), ROW(40),
#undef ROW
};

static const csum_wsum sums[] = { 1, 0xffff, 0x10000, 0xfffffffeu, 0xffffffffu };

void test_inline_constant(struct test_ctx *t)
{
    enum { ROUNDS = 3 }; /* different data each round */
    unsigned char *buf = alloc_aligned(64 + 64);
    unsigned long calls_before = exported_calls;
    uint64_t rng = 0x1d1e;

    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int round = 0; round < ROUNDS; round++)
            for (size_t align = 0; align < 64; align++) {
                const size_t len = cases[c].len;
                unsigned char *p = buf + align;
                testdata_fill(buf, 128, 0x1000 * (c + 1) + 64 * (size_t)round + align);
                if (round == 1)
                    memset(p, 0xff, len); /* every word 0xffff: the carries are all there */
                check_value(t, cases[c].zero_sum(p), oracle_checksum(p, len, 0), len, align, 0,
                            "inline, constant zero sum");
                for (size_t s = 0; s <= sizeof sums / sizeof sums[0]; s++) {
                    csum_wsum init = s < sizeof sums / sizeof sums[0]
                                         ? sums[s] : (csum_wsum)testdata_next(&rng);
                    check_value(t, cases[c].with_sum(p, init), oracle_checksum(p, len, init), len,
                                align, init, "inline");
                }
            }
    CHECK(t, exported_calls == calls_before,
          "constant-length csum_partial reached the exported function %lu times: not inlined",
          exported_calls - calls_before);

    /* The controls: the count does move when the call is not inlined. */
    volatile size_t hidden_len = 40;
    testdata_fill(buf, 64, 77);
    check_value(t, csum_partial(buf, hidden_len, 5), oracle_checksum(buf, 40, 5), 40, 0, 5,
                "run-time length");
    CHECK(t, exported_calls == calls_before + 1,
          "a run-time length did not call the exported csum_partial (count %lu)",
          exported_calls - calls_before);
    check_value(t, csum_partial(buf, 41, 5), oracle_checksum(buf, 41, 5), 41, 0, 5,
                "constant length without an inline path");
    CHECK(t, exported_calls == calls_before + 2,
          "a constant length outside the inline set did not call the exported csum_partial");
    free(buf);
}
