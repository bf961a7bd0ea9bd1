/*
 * avx512 copy: the avx512 summing loop (x86_avx512_sum.h) storing each 64-byte vector it
 * loads, for AVX-512 CPUs without VNNI; the tail is a masked load and a masked store.
 */
#include "x86_avx512_sum.h"

static csum_wsum csum_partial_copy_avx512(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return avx512_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

const struct csum_copy_impl_entry csum_copy_impl_avx512 = {
    .pub = {
        .name = "avx512",
        .description = "AVX-512BW: the avx512 sum (whole-lane and high-word accumulators) "
                       "storing each vector it loads; masked-load and masked-store tail",
        .copy = csum_partial_copy_avx512,
        .requires = "avx512f avx512bw bmi2",
        .nontemporal = 0,
    },
    .cpu_features = CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_BMI2,
};
