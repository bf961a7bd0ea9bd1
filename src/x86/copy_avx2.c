/*
 * avx2 copy: the avx2 summing loop (x86_avx2_sum.h) storing each 32-byte vector it loads; the
 * tail is moved with vpmaskmovd (load and store) plus up to three single bytes.
 */
#include "x86_avx2_sum.h"

static csum_wsum csum_partial_copy_avx2(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return avx2_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

const struct csum_copy_impl_entry csum_copy_impl_avx2 = {
    .pub = {
        .name = "avx2",
        .description = "AVX2: the avx2 sum storing each vector it loads; vpmaskmovd load/store "
                       "and byte tail",
        .copy = csum_partial_copy_avx2,
        .requires = "avx2",
        .nontemporal = 0,
    },
    .cpu_features = CSUM_CPU_AVX2,
};
