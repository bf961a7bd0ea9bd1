/*
 * oracle_selfcheck*: compare one implementation (a csum_partial, a csum_partial_copy or an
 * IPv4 header batch) with the oracle. Used by `csum verify` and by the lab before it times
 * anything; the test suite has its own, larger sweeps. Data is aperiodic, and the bytes around
 * the region are different random bytes, so an implementation that reads (and uses) a byte
 * outside its buffer disagrees.
 */
#include "csum_oracle.h"

#include <stdlib.h>
#include <string.h>

enum pattern { PATTERN_RANDOM, PATTERN_ONES, PATTERN_ZEROS };

/* A copy's destination has this many bytes of CANARY on each side, which it must not touch. */
enum { AROUND = 64, CANARY = 0xa5 };

static const size_t big_lens[] = { 1023, 1024, 1025, 1480, 1500, 2047, 4095, 4096, 4097,
                                   9000, 32768 - 3, 65536 + 7 };

/* What a sweep checks: a csum_partial, or a csum_partial_copy. */
struct subject {
    csum_partial_fn partial;
    csum_partial_copy_fn copy;
};

static void fill_region(unsigned char *region, size_t len, enum pattern pat, uint64_t seed)
{
    if (pat == PATTERN_RANDOM)
        testdata_fill(region, len, seed);
    else
        memset(region, pat == PATTERN_ONES ? 0xff : 0x00, len);
}

static int canaries_intact(const unsigned char *p)
{
    for (size_t i = 0; i < AROUND; i++)
        if (p[i] != CANARY)
            return 0;
    return 1;
}

/* Record a comparison, and the first one that went wrong. */
static void record(struct selfcheck_result *r, int wrong, const struct selfcheck_result *what)
{
    r->checked++;
    if (wrong && r->mismatches++ == 0) {
        const size_t checked = r->checked, mismatches = r->mismatches;
        *r = *what;
        r->checked = checked;
        r->mismatches = mismatches;
    }
}

/* One call of the subject on [p, p + len); a copy goes to dst_mem, dst_align bytes past the
 * 64-byte boundary after the canaries before it. */
static void compare(const struct subject *s, const unsigned char *p, size_t len, size_t align,
                    unsigned char *dst_mem, size_t dst_align, csum_wsum initial,
                    struct selfcheck_result *r)
{
    struct selfcheck_result what = { .len = len, .align = align, .initial = initial };
    csum_wsum sum;
    if (s->copy) {
        unsigned char *dst = dst_mem + AROUND + dst_align;
        memset(dst - AROUND, CANARY, len + 2 * AROUND);
        sum = s->copy(dst, p, len, initial);
        what.dst_align = dst_align;
        if (memcmp(dst, p, len) != 0)
            what.problem = "the copy differs from the source";
        else if (!canaries_intact(dst - AROUND) || !canaries_intact(dst + len))
            what.problem = "wrote outside the destination";
    } else {
        sum = s->partial(p, len, initial);
    }
    what.want = oracle_checksum(p, len, initial);
    what.got = csum16_network_value(csum_fold(sum));
    record(r, what.got != what.want || what.problem, &what);
}

static int sweep(const struct subject *s, enum selfcheck_level level, struct selfcheck_result *out)
{
    const int thorough = level == SELFCHECK_THOROUGH;
    const size_t dense_max = thorough ? 1100 : 260; /* every length up to here */
    static const size_t quick_aligns[] = { 0, 1, 2, 3, 7, 31, 63 };
    const size_t n_aligns = thorough ? 64 : sizeof quick_aligns / sizeof quick_aligns[0];
    const csum_wsum sums[] = { 0, 0xffffffffu, 0x8000u, 1, 0xffffu };
    const size_t n_sums = thorough ? 5 : 3;
    const size_t max_len = big_lens[sizeof big_lens / sizeof big_lens[0] - 1];

    struct selfcheck_result r;
    memset(&r, 0, sizeof r);
    const size_t mem_len = (max_len + 192 + 63) & ~(size_t)63; /* aligned_alloc wants a multiple */
    unsigned char *mem = aligned_alloc(64, mem_len);
    unsigned char *dst_mem = s->copy ? aligned_alloc(64, mem_len) : NULL; /* canaries included */
    if (!mem || (s->copy && !dst_mem)) {
        free(mem);
        r.mismatches = 1; /* cannot check: report failure rather than pass */
        if (out)
            *out = r;
        return -1;
    }

    for (int pat = PATTERN_RANDOM; pat <= PATTERN_ZEROS; pat++) {
        /* Constant patterns need fewer alignments: every word is the same. */
        size_t aligns_here = pat == PATTERN_RANDOM ? n_aligns : (n_aligns < 7 ? n_aligns : 7);
        for (size_t ai = 0; ai < aligns_here; ai++) {
            size_t align = thorough ? ai : quick_aligns[ai];
            unsigned char *p = mem + 64 + align;
            testdata_fill(mem, mem_len, 0xbadc0ffeeu + ai); /* junk around the region */
            fill_region(p, max_len, pat, 1000 + align);
            /* A copy's destination: as far off a boundary as the source with the first initial
             * sum, elsewhere with the others. */
            for (size_t len = 0; len <= dense_max; len++)
                for (size_t i = 0; i < n_sums; i++)
                    compare(s, p, len, align, dst_mem, (align + 29 * i) % 64, sums[i], &r);
            for (size_t i = 0; i < sizeof big_lens / sizeof big_lens[0]; i++)
                compare(s, p, big_lens[i], align, dst_mem, (align + 29 * i) % 64,
                        sums[i % n_sums], &r);
        }
    }
    free(mem);
    free(dst_mem);
    if (out)
        *out = r;
    return r.mismatches ? -1 : 0;
}

int oracle_selfcheck(csum_partial_fn fn, enum selfcheck_level level, struct selfcheck_result *out)
{
    const struct subject s = { .partial = fn };
    return sweep(&s, level, out);
}

int oracle_selfcheck_copy(csum_partial_copy_fn fn, enum selfcheck_level level,
                          struct selfcheck_result *out)
{
    const struct subject s = { .copy = fn };
    return sweep(&s, level, out);
}

/* ---- IPv4 header batches ------------------------------------------------------------------- */

/* The first byte of a header: version 4 and ihl 5, any valid ihl, or any byte at all (a bad
 * ihl, whose checksum is 0xffff without a read past that byte). */
static unsigned char first_byte(uint64_t random, int mix)
{
    return mix == 0   ? 0x45
           : mix == 1 ? (unsigned char)(0x40 | (5 + random % 11))
                      : (unsigned char)random;
}

int oracle_selfcheck_batch(oracle_batch_fn fn, enum selfcheck_level level,
                           struct selfcheck_result *out)
{
    enum { POOL = 1 << 16, MAX_N = 1000, MIXES = 3 };
    const size_t dense_max = level == SELFCHECK_THOROUGH ? 100 : 40; /* every count up to here */
    static const size_t big_counts[] = { 255, 256, 257, MAX_N };
    unsigned char *pool = malloc(POOL);
    const void **hdrs = malloc(MAX_N * sizeof *hdrs);
    csum_sum16 *sums = malloc((MAX_N + 1) * sizeof *sums);
    struct selfcheck_result r;
    memset(&r, 0, sizeof r);
    if (!pool || !hdrs || !sums) {
        r.mismatches = 1; /* cannot check: report failure rather than pass */
    } else {
        uint64_t state = 0x1b4c4;
        for (int mix = 0; mix < MIXES; mix++)
            for (size_t c = 0; c <= dense_max + sizeof big_counts / sizeof big_counts[0]; c++) {
                const size_t n = c <= dense_max ? c : big_counts[c - dense_max - 1];
                /* Headers at random offsets of random bytes, in every third batch all 0xff
                 * after their first byte (the most carries). */
                if (c % 3 == 2)
                    memset(pool, 0xff, POOL);
                else
                    testdata_fill(pool, POOL, testdata_next(&state));
                for (size_t i = 0; i < n; i++) {
                    unsigned char *h = pool + testdata_next(&state) % (POOL - 60);
                    h[0] = first_byte(testdata_next(&state), mix);
                    hdrs[i] = h;
                }
                for (size_t i = 0; i <= n; i++)
                    sums[i] = 0x5a5a;
                fn(hdrs, n, sums);
                for (size_t i = 0; i < n; i++) {
                    const unsigned char *h = hdrs[i];
                    const unsigned ihl = h[0] & 15u;
                    struct selfcheck_result what = {
                        .len = n, .index = i, .got = csum16_network_value(sums[i]),
                        .want = ihl >= 5 ? oracle_checksum(h, ihl * 4, 0) : 0xffff,
                    };
                    record(&r, what.got != what.want, &what);
                }
                struct selfcheck_result past = { .len = n, .index = n,
                                                 .problem = "wrote past the last result" };
                record(&r, sums[n] != 0x5a5a, &past);
            }
    }
    free(pool);
    free(hdrs);
    free(sums);
    if (out)
        *out = r;
    return r.mismatches ? -1 : 0;
}
