/*
 * avx2: the avx512 row's algorithm on 256-bit vectors, for CPUs without AVX-512 (whole-lane
 * and high-word accumulators). The loop is in x86_avx2_sum.h, shared with the AVX2
 * copy+checksum rows.
 */
#include "x86_avx2_sum.h"

static csum_wsum csum_partial_avx2(const void *buf, size_t len, csum_wsum sum)
{
    return avx2_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

const struct csum_impl_entry csum_impl_avx2 = {
    .pub = {
        .name = "avx2",
        .description = "AVX2: whole-lane and high-word 32-bit accumulators (as avx512, 32 B "
                       "vectors); vpmaskmovd + byte tail",
        .partial = csum_partial_avx2,
        .requires = "avx2",
    },
    .cpu_features = CSUM_CPU_AVX2,
};
