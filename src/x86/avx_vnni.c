/*
 * avx-vnni: for CPUs with AVX-VNNI but no AVX-512 (Intel Alder Lake and later client cores,
 * Sierra Forest). The avx512-vnni algorithm on 32-byte vectors, two vector ops per 32 bytes
 * instead of avx2's three; tails are avx2's in-bounds pieces (x86_avx_vnni_sum.h, written once
 * for the sum and both copies). The streaming copy stores with vmovntdq from dst's first 64-byte
 * boundary on, then sfence (x86_copy_stream.h). The IPv4 header batch is the avx2 row's.
 */
#define CSUM_KERNEL_ISA avx_vnni
#include "kernel.h"

#include <immintrin.h>

CSUM_TARGET_BEGIN
#include "x86_avx_vnni_sum.h"
#include "x86_copy_stream.h"

X86_ROW_ENTRY static csum_wsum csum_partial_avx_vnni(const void *buf, size_t len, csum_wsum sum)
{
    return avx_vnni_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx_vnni(void *dst, const void *src, size_t len,
                                                          csum_wsum sum)
{
    return avx_vnni_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx_vnni_nt(void *dst, const void *src, size_t len,
                                                             csum_wsum sum)
{
    return x86_copy_stream(avx_vnni_sum, dst, src, len, sum);
}
CSUM_TARGET_END

const struct csum_kernel csum_kernel_avx_vnni = {
    CSUM_KERNEL_NAME("avx-vnni"),
    .sum.partial = csum_partial_avx_vnni,
    .sum.description = "AVX-VNNI (no AVX-512): sign-flipped words dotted with ones (vpdpwssd ymm), "
                       "2 ops/32 B, bias added back; overlapping in-bounds tail vector",
    .copy.copy = csum_partial_copy_avx_vnni,
    .copy.description = "AVX-VNNI: the avx-vnni sum storing each vector it loads; in-bounds tail",
    .copy_nt.copy = csum_partial_copy_avx_vnni_nt,
    .copy_nt.description = "AVX-VNNI sum with non-temporal 32-byte stores (vmovntdq) from dst's "
                           "first line boundary, sfence; for copies larger than the cache",
};
