/*
 * avx2: for CPUs without AVX-512. Whole-lane and high-half 64-bit accumulators, three vector
 * ops per 32 bytes (x86_avx2_sum.h, written once for the sum and both copies; the bound it
 * runs at is derived in docs/METHOD.md). The streaming copy stores with vmovntdq from dst's
 * first 64-byte boundary on, then sfence (x86_copy_stream.h). Tails use in-bounds loads only.
 */
#define CSUM_KERNEL_ISA avx2
#include "kernel.h"

#include <immintrin.h>

CSUM_TARGET_BEGIN
#include "x86_avx2_sum.h"
#include "x86_copy_stream.h"
#include "x86_avx2_ipv4_batch.h"

/* From 4 KiB on, buffers are summed (copies stored) from their first 32-byte boundary, at odd
 * addresses too (avx2_sum_from_boundary). Its 16-bit canonical result costs every call about 2
 * ticks, aligned ones too: at 4 KiB 3-5 % of an aligned call against 16 % won at offset 2 (30 %
 * at 33); at 2 KiB 7-8 % lost against 7-9 % won. A copy to offset 14 gains little at 4 KiB and
 * 18-20 % at 5-6 KiB, where an aligned one loses 1-2 % (Zen 4, AVX-512 hidden; docs/METHOD.md,
 * "Buffers off a vector boundary"). */
#define AVX2_ALIGN_MIN 4096

__attribute__((noinline)) static csum_wsum csum_partial_avx2_from_boundary(const unsigned char *p,
                                                                          size_t len, csum_wsum sum)
{
    return avx2_sum_from_boundary(NULL, p, len, sum, CSUM_STORE_NONE);
}

__attribute__((noinline)) static csum_wsum csum_partial_copy_avx2_from_boundary(
    unsigned char *dst, const unsigned char *src, size_t len, csum_wsum sum)
{
    return avx2_sum_from_boundary(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

X86_ROW_ENTRY static csum_wsum csum_partial_avx2(const void *buf, size_t len, csum_wsum sum)
{
    if (len - AVX2_ALIGN_MIN <= AVX2_CHUNK_BYTES - AVX2_ALIGN_MIN)
        return csum_partial_avx2_from_boundary(buf, len, sum);
    return avx2_sum(NULL, buf, len, sum, CSUM_STORE_NONE);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx2(void *dst, const void *src, size_t len, csum_wsum sum)
{
    if (len - AVX2_ALIGN_MIN <= AVX2_CHUNK_BYTES - AVX2_ALIGN_MIN)
        return csum_partial_copy_avx2_from_boundary(dst, src, len, sum);
    return avx2_sum(dst, src, len, sum, CSUM_STORE_TEMPORAL);
}

X86_ROW_ENTRY static csum_wsum csum_partial_copy_avx2_nt(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return x86_copy_stream(avx2_sum, dst, src, len, sum);
}
CSUM_TARGET_END

const struct csum_kernel csum_kernel_avx2 = {
    CSUM_KERNEL_NAME("avx2"),
    .sum.partial = csum_partial_avx2,
    .sum.description = "AVX2: whole-lane and high-half 64-bit accumulators (3 simple ops/32 B, "
                       "8 accumulators); overlapping in-bounds tail vector",
    .copy.copy = csum_partial_copy_avx2,
    .copy.description = "AVX2: the avx2 sum storing each vector it loads; in-bounds tail",
    .copy_nt.copy = csum_partial_copy_avx2_nt,
    .copy_nt.description = "AVX2 sum with non-temporal 32-byte stores (vmovntdq) from dst's "
                           "first line boundary, sfence; for copies larger than the cache",
    .ipv4_batch = avx2_ipv4_batch,
};
