/*
 * avx512: 16-bit words summed with plain AVX-512BW adds and shifts, no carries to track
 * (whole-lane and high-word accumulators, low words recovered exactly: x86_lanes.h), for
 * AVX-512 CPUs with or without VNNI. The loop is in x86_avx512_sum.h, written once for the sum
 * and the copy; tails are byte-masked loads and stores, which never touch masked-out bytes.
 * Its IPv4 header batch (x86_avx512_ipv4_batch.h) sums 16 headers per step.
 */
#define CSUM_KERNEL_ISA avx512
#include "kernel.h"

#include <immintrin.h>

CSUM_TARGET_BEGIN
#include "x86_adc.h" /* X86_ROW_ENTRY */
#include "x86_avx512_sum.h"
#include "x86_avx512_ipv4_batch.h"

/* From 768 bytes, a buffer at an even address off a 64-byte boundary is summed from that
 * boundary (avx512_sum_from_boundary): on Zen 4, 1.6 times as fast from 1 KiB at offsets 2 and
 * 14, but 320-640 B measured 5-34 % slower with the head's extra vector. A copy to such an
 * address is stored from dst's boundary (avx512_copy_from_boundary_wanted; docs/METHOD.md,
 * "Buffers off a vector boundary"). */
#define AVX512_ALIGN_MIN 768

__attribute__((noinline)) static csum_wsum csum_partial_avx512_from_boundary(const unsigned char *p,
                                                                            size_t len, csum_wsum sum)
{
    return avx512_sum_from_boundary(NULL, p, len, sum, CSUM_STORE_NONE);
}

__attribute__((noinline)) static csum_wsum csum_partial_copy_avx512_from_boundary(
    unsigned char *dst, const unsigned char *src, size_t len, csum_wsum sum)
{
    return avx512_sum_from_boundary(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

X86_ROW_ENTRY static csum_wsum csum_partial_avx512(const void *buf, size_t len, csum_wsum sum)
{
    if (len >= AVX512_ALIGN_MIN && ((uintptr_t)buf & 63) && !((uintptr_t)buf & 1))
        return csum_partial_avx512_from_boundary(buf, len, sum);
    return avx512_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx512(void *dst, const void *src, size_t len, csum_wsum sum)
{
    if (avx512_copy_from_boundary_wanted(dst, src, len))
        return csum_partial_copy_avx512_from_boundary(dst, src, len, sum);
    return avx512_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}
CSUM_TARGET_END

const struct csum_kernel csum_kernel_avx512 = {
    CSUM_KERNEL_NAME("avx512"),
    .sum.partial = csum_partial_avx512,
    .sum.description = "AVX-512BW: whole-lane and high-word 32-bit accumulators, low words "
                       "recovered exactly (3 simple ops/64 B); masked-load tail",
    .copy.copy = csum_partial_copy_avx512,
    .copy.description = "AVX-512BW: the avx512 sum storing each vector it loads; masked-load "
                        "and masked-store tail",
    .ipv4_batch = avx512_ipv4_batch,
};
