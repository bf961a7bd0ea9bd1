/*
 * avx2-nt copy: the avx2 copy with streaming stores (vmovntdq ymm) from the first 64-byte
 * boundary of dst on, then sfence (x86_copy_stream.h). For copies far larger than the cache
 * on CPUs without AVX-512.
 */
#include "x86_avx2_sum.h"
#include "x86_copy_stream.h"

static csum_wsum csum_partial_copy_avx2_nt(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return x86_copy_stream(avx2_sum, dst, src, len, sum);
}

const struct csum_copy_impl_entry csum_copy_impl_avx2_nt = {
    .pub = {
        .name = "avx2-nt",
        .description = "AVX2 sum with non-temporal 32-byte stores (vmovntdq) from dst's first "
                       "line boundary, sfence; for copies larger than the cache",
        .copy = csum_partial_copy_avx2_nt,
        .requires = "avx2",
        .nontemporal = 1,
    },
    .cpu_features = CSUM_CPU_AVX2,
};
