/*
 * avx512: 16-bit words summed with plain AVX-512BW adds and shifts, no carries to track
 * (whole-lane and high-word accumulators, low words recovered exactly). The loop is in
 * x86_avx512_sum.h, shared with the AVX-512 copy+checksum row.
 */
#include "x86_avx512_sum.h"

static csum_wsum csum_partial_avx512(const void *buf, size_t len, csum_wsum sum)
{
    return avx512_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

const struct csum_impl_entry csum_impl_avx512 = {
    .pub = {
        .name = "avx512",
        .description = "AVX-512BW: whole-lane and high-word 32-bit accumulators, low words "
                       "recovered exactly (3 simple ops/64 B); masked-load tail",
        .partial = csum_partial_avx512,
        .requires = "avx512f avx512bw bmi2",
    },
    .cpu_features = CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_BMI2,
};
