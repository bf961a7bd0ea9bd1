/*
 * avx512-vnni-nt copy: the avx512-vnni copy with streaming stores (vmovntdq) from the first
 * 64-byte boundary of dst on, then sfence (x86_copy_stream.h). For copies far larger than the
 * cache; csum_partial_copy uses it only above csum_copy_nontemporal_threshold().
 */
#include "x86_avx512_vnni_sum.h"
#include "x86_copy_stream.h"

static csum_wsum csum_partial_copy_avx512_vnni_nt(void *dst, const void *src, size_t len,
                                                  csum_wsum sum)
{
    return x86_copy_stream(avx512_vnni_sum, dst, src, len, sum);
}

const struct csum_copy_impl_entry csum_copy_impl_avx512_vnni_nt = {
    .pub = {
        .name = "avx512-vnni-nt",
        .description = "AVX-512 VNNI sum with non-temporal 64-byte stores (vmovntdq) from dst's "
                       "first line boundary, sfence; for copies larger than the cache",
        .copy = csum_partial_copy_avx512_vnni_nt,
        .requires = "avx512f avx512bw avx512vnni bmi2",
        .nontemporal = 1,
    },
    .cpu_features = CSUM_CPU_AVX512F | CSUM_CPU_AVX512BW | CSUM_CPU_AVX512VNNI | CSUM_CPU_BMI2,
};
