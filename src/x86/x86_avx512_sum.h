/*
 * The avx512 summing loop (x86_lanes.h on 512-bit vectors), shared by csum_partial's avx512
 * row and the AVX-512 copy+checksum row. Include only inside the target region of
 * an AVX-512 kernel (src/isa.h).
 *
 * Never reads (or writes) outside the buffers: the last partial vector is a masked load (and
 * masked store); masked-out bytes are neither accessed nor able to fault.
 */
#ifndef CSUM_X86_AVX512_SUM_H
#define CSUM_X86_AVX512_SUM_H

#include "x86_avx512_common.h"

#define LANES_VEC __m512i
#define LANES_BYTES 64
#define LANES_FUNCTION avx512_sum_with
#define LANES_MOVE avx512_move
#define V_ZERO() _mm512_setzero_si512()
#define V_ADD32(a, b) _mm512_add_epi32((a), (b))
#define V_SUB32(a, b) _mm512_sub_epi32((a), (b))
#define V_SRLI32(a, n) _mm512_srli_epi32((a), (n))
#define V_SLLI32(a, n) _mm512_slli_epi32((a), (n))
#define V_ADD64(a, b) _mm512_add_epi64((a), (b))
#define V_AND(a, b) _mm512_and_si512((a), (b))
#define V_SRLI64(a, n) _mm512_srli_epi64((a), (n))
#define V_SET1_64(x) _mm512_set1_epi64(x)
#include "x86_lanes.h"

CSUM_ALWAYS_INLINE uint64_t lanes_tail(struct lanes *l, unsigned char *dst, const unsigned char *p,
                                       size_t i, size_t n, enum csum_store store)
{
    lanes_add(l, avx512_move_tail(dst, p, i, n, store));
    return 0;
}

static inline uint64_t lanes_reduce(__m512i wide)
{
    return (uint64_t)_mm512_reduce_add_epi64(wide);
}

static inline uint32_t lanes_reduce32(__m512i v)
{
    return (uint32_t)avx512_reduce_add_s32(v);
}

#include "x86_lanes.h"

CSUM_ALWAYS_INLINE csum_wsum avx512_sum(unsigned char *dst, const unsigned char *p, size_t len,
                                        csum_wsum sum, enum csum_store store)
{
    return avx512_sum_with(dst, p, len, sum, store, 0, _mm512_setzero_si512());
}

/* A buffer (a copy's destination) at an even address off a 64-byte boundary, longer than the
 * bytes up to it: those bytes as one masked move, the rest with aligned loads (stores), as
 * avx512_vnni_sum_from_boundary does and for the same reason. The sum of the words is exact, so
 * the result is that of avx512_sum on the same bytes. */
CSUM_ALWAYS_INLINE csum_wsum avx512_sum_from_boundary(unsigned char *dst, const unsigned char *p,
                                                      size_t len, csum_wsum sum,
                                                      enum csum_store store)
{
    size_t head_len;
    const __m512i head = avx512_move_head(dst, p, store, &head_len);
    return avx512_sum_with(csum_dst_at(dst, head_len), p + head_len, len - head_len, sum, store,
                           1, head);
}

#endif /* CSUM_X86_AVX512_SUM_H */
