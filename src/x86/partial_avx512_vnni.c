/*
 * avx512-vnni: 16-bit words summed with a dot-product instruction (sign-flipped words dotted
 * with ones by vpdpwssd, bias added back). The loop is in x86_avx512_vnni_sum.h, shared with
 * the AVX-512 VNNI copy+checksum rows.
 */
#include "x86_avx512_vnni_sum.h"

static csum_wsum csum_partial_avx512_vnni(const void *buf, size_t len, csum_wsum sum)
{
    return avx512_vnni_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

const struct csum_impl_entry csum_impl_avx512_vnni = {
    .pub = {
        .name = "avx512-vnni",
        .description = "AVX-512 VNNI: sign-flipped words dotted with ones (vpdpwssd), "
                       "bias added back; masked-load tail",
        .partial = csum_partial_avx512_vnni,
        .requires = "avx512f avx512bw avx512vnni bmi2",
    },
    .cpu_features = CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_AVX512VNNI | CSUM_CPU_BMI2,
};
