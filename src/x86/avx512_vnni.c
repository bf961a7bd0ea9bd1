/*
 * avx512-vnni: 16-bit words summed with a dot-product instruction (sign-flipped words dotted
 * with ones by vpdpwssd, bias added back). The loop is in x86_avx512_vnni_sum.h, written once
 * for the sum and both copies; the streaming copy stores with vmovntdq from dst's first 64-byte
 * boundary on, then sfence (x86_copy_stream.h). Tails are byte-masked loads and stores.
 */
#define CSUM_KERNEL_ISA avx512_vnni
#include "kernel.h"

#include <immintrin.h>

CSUM_TARGET_BEGIN
#include "x86_avx512_vnni_sum.h"
#include "x86_copy_stream.h"

/* From 2 KiB on, a buffer at an even address off a 64-byte boundary is summed from that boundary
 * (avx512_vnni_sum_from_boundary): the head's extra vector costs about as much as the split loads
 * of 1.5 KiB, so shorter buffers keep the unaligned loop. A copy to such an address is stored
 * from dst's boundary (avx512_copy_from_boundary_wanted). Zen 4; docs/METHOD.md, "Buffers off a
 * vector boundary". */
#define AVX512_VNNI_ALIGN_MIN 2048

__attribute__((noinline)) static csum_wsum csum_partial_avx512_vnni_from_boundary(
    const unsigned char *p, size_t len, csum_wsum sum)
{
    return avx512_vnni_sum_from_boundary(NULL, p, len, sum, CSUM_STORE_NONE);
}

__attribute__((noinline)) static csum_wsum csum_partial_copy_avx512_vnni_from_boundary(
    unsigned char *dst, const unsigned char *src, size_t len, csum_wsum sum)
{
    return avx512_vnni_sum_from_boundary(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

X86_ROW_ENTRY static csum_wsum csum_partial_avx512_vnni(const void *buf, size_t len, csum_wsum sum)
{
    if (len >= AVX512_VNNI_ALIGN_MIN && ((uintptr_t)buf & 63) && !((uintptr_t)buf & 1))
        return csum_partial_avx512_vnni_from_boundary(buf, len, sum);
    return avx512_vnni_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx512_vnni(void *dst, const void *src, size_t len,
                                               csum_wsum sum)
{
    if (avx512_copy_from_boundary_wanted(dst, src, len))
        return csum_partial_copy_avx512_vnni_from_boundary(dst, src, len, sum);
    return avx512_vnni_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx512_vnni_nt(void *dst, const void *src, size_t len,
                                                  csum_wsum sum)
{
    return x86_copy_stream(avx512_vnni_sum, dst, src, len, sum);
}
CSUM_TARGET_END

const struct csum_kernel csum_kernel_avx512_vnni = {
    CSUM_KERNEL_NAME("avx512-vnni"),
    .sum.partial = csum_partial_avx512_vnni,
    .sum.description = "AVX-512 VNNI: sign-flipped words dotted with ones (vpdpwssd), bias "
                       "added back; masked-load tail",
    .copy.copy = csum_partial_copy_avx512_vnni,
    .copy.description = "AVX-512 VNNI: the avx512-vnni sum storing each vector it loads; "
                        "masked-load and masked-store tail",
    .copy_nt.copy = csum_partial_copy_avx512_vnni_nt,
    .copy_nt.description = "AVX-512 VNNI sum with non-temporal 64-byte stores (vmovntdq) from "
                           "dst's first line boundary, sfence; for copies larger than the cache",
};
