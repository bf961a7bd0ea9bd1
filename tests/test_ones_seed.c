/*
 * Al Viro's property (Viro/Laight 2020, docs/SOURCES.md): a sum seeded with 0xffffffff never
 * comes out as 0, whatever the data, so a caller can keep 0 as an error value (Linux's
 * csum_and_copy_*_user() do). Ones'-complement addition of a nonzero value never gives +0; an implementation that adds with a plain carry
 * drop, or folds a zero total to 0 by a shortcut, breaks it. Checked for every csum_partial
 * row and every copy row on all-zero data (where the seed is the whole sum), all-0xff data
 * (a total that is a multiple of 0xffff) and random data, at several alignments.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

enum { SEED_MAX_LEN = 4160, N_KINDS = 3 };

static void fill_kind(unsigned char *p, size_t len, int kind)
{
    if (kind == 2)
        testdata_fill(p, len, 0x0eed5);
    else
        memset(p, kind ? 0xff : 0x00, len);
}

static uint16_t *seed_want; /* [kind][len], the same bytes at every alignment */

void test_ones_seed(struct test_ctx *t)
{
    static const char *const kinds[N_KINDS] = { "all zero", "all 0xff", "random" };
    static const size_t aligns[] = { 0, 1, 3, 63 };
    const size_t max_len = t->quick ? 600 : SEED_MAX_LEN;
    unsigned char *src = alloc_aligned(SEED_MAX_LEN + 64), *dst = alloc_aligned(SEED_MAX_LEN + 64);
    if (!seed_want) {
        seed_want = malloc(N_KINDS * (SEED_MAX_LEN + 1) * sizeof *seed_want);
        for (int k = 0; k < N_KINDS; k++) {
            fill_kind(src, SEED_MAX_LEN, k);
            for (size_t len = 0; len <= SEED_MAX_LEN; len++)
                seed_want[k * (SEED_MAX_LEN + 1) + len] = oracle_checksum(src, len, 0xffffffffu);
        }
    }
    for (int k = 0; k < N_KINDS; k++)
        for (size_t ai = 0; ai < sizeof aligns / sizeof *aligns; ai++) {
            unsigned char *p = src + aligns[ai];
            fill_kind(p, max_len, k);
            for (size_t len = 0; len <= max_len; len++) {
                csum_wsum r = t->impl ? t->impl->partial(p, len, 0xffffffffu)
                                      : t->copy_impl->copy(dst + aligns[ai], p, len, 0xffffffffu);
                CHECK(t, r != 0, "%s: %s, len %zu align %zu, seed 0xffffffff: result 0",
                      t->impl ? t->impl->name : t->copy_impl->name, kinds[k], len, aligns[ai]);
                check_value(t, r, seed_want[k * (SEED_MAX_LEN + 1) + len], len, aligns[ai],
                            0xffffffffu, kinds[k]);
            }
        }
    free(src);
    free(dst);
}
