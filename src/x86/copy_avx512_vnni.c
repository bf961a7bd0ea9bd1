/*
 * avx512-vnni copy: the avx512-vnni summing loop (x86_avx512_vnni_sum.h) storing each 64-byte
 * vector it loads; the tail is a masked load and a masked store of the same bytes.
 */
#include "x86_avx512_vnni_sum.h"

static csum_wsum csum_partial_copy_avx512_vnni(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return avx512_vnni_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

const struct csum_copy_impl_entry csum_copy_impl_avx512_vnni = {
    .pub = {
        .name = "avx512-vnni",
        .description = "AVX-512 VNNI: the avx512-vnni sum (vpdpwssd) storing each vector it "
                       "loads; masked-load and masked-store tail",
        .copy = csum_partial_copy_avx512_vnni,
        .requires = "avx512f avx512bw avx512vnni bmi2",
        .nontemporal = 0,
    },
    .cpu_features = CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_AVX512VNNI | CSUM_CPU_BMI2,
};
