/*
 * oracle_selfcheck: compare one csum_partial implementation with the oracle. Used by
 * `csum verify` and by the lab before it times anything; the test suite has its own, larger
 * sweeps. Data is aperiodic, and the bytes around the region are different random bytes, so
 * an implementation that reads (and uses) a byte outside its buffer disagrees.
 */
#include "csum_oracle.h"

#include <stdlib.h>
#include <string.h>

enum pattern { PATTERN_RANDOM, PATTERN_ONES, PATTERN_ZEROS };

static const size_t big_lens[] = { 1023, 1024, 1025, 1480, 1500, 2047, 4095, 4096, 4097,
                                   9000, 32768 - 3, 65536 + 7 };

static void fill_region(unsigned char *region, size_t len, enum pattern pat, uint64_t seed)
{
    if (pat == PATTERN_RANDOM)
        testdata_fill(region, len, seed);
    else
        memset(region, pat == PATTERN_ONES ? 0xff : 0x00, len);
}

static void compare(csum_partial_fn fn, const unsigned char *p, size_t len, size_t align,
                    csum_wsum initial, struct selfcheck_result *r)
{
    uint16_t want = oracle_checksum(p, len, initial);
    uint16_t got = csum16_network_value(csum_fold(fn(p, len, initial)));
    r->checked++;
    if (got != want && r->mismatches++ == 0) {
        r->len = len;
        r->align = align;
        r->initial = initial;
        r->got = got;
        r->want = want;
    }
}

int oracle_selfcheck(csum_partial_fn fn, enum selfcheck_level level, struct selfcheck_result *out)
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
    if (!mem) {
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
            for (size_t len = 0; len <= dense_max; len++)
                for (size_t s = 0; s < n_sums; s++)
                    compare(fn, p, len, align, sums[s], &r);
            for (size_t i = 0; i < sizeof big_lens / sizeof big_lens[0]; i++)
                compare(fn, p, big_lens[i], align, sums[i % n_sums], &r);
        }
    }
    free(mem);
    if (out)
        *out = r;
    return r.mismatches ? -1 : 0;
}
