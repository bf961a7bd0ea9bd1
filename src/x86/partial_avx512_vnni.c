/*
 * avx512-vnni: 16-bit words summed with a dot-product instruction.
 *
 * Algorithm. vpdpwssd multiplies pairs of *signed* 16-bit words and adds both products to a
 * 32-bit lane. Checksum words are unsigned, so each word is first shifted into signed range
 * by flipping its top bit (u ^ 0x8000 read as signed is exactly u - 32768), then dotted with a
 * vector of ones: one xor and one vpdpwssd per 64 bytes, no carries to track. The bias is
 * added back at the end: sum(u) = sum(u - 32768) + 32768 * words. The idea of flipping the sign
 * bit to use a signed multiply-add for unsigned data is folklore from SIMD checksum and
 * pixel code (see FIELD-NOTES); the code here is ours.
 *
 * Lane overflow bound. One vpdpwssd moves a lane by at most 2 * 32768 = 2^17. Eight accumulators
 * are added together at a flush, so a flush must come before 8 * steps * 2^17 reaches 2^31:
 * steps <= 2047 (one step = 8 vectors = 512 bytes: a flush about every 1 MiB). A flush widens
 * the 32-bit lanes to 64 bits; 64-bit lanes cannot overflow for any size_t length.
 *
 * Never reads outside the buffer: the last partial vector is a masked load (masked-out bytes
 * are neither read nor able to fault) that zero-pads it. Its padding words go through the flip
 * like the others and are counted in the bias, so they add 0 + 32768 - 32768: nothing.
 */
#include <immintrin.h>

#include "csum_internal.h"
#include "x86_avx512_common.h"

enum { STEPS_PER_FLUSH = 2047 };

static inline __m512i dot_flipped(__m512i acc, __m512i v)
{
    const __m512i flip = _mm512_set1_epi16((short)0x8000);
    const __m512i ones = _mm512_set1_epi16(1);
    return _mm512_dpwssd_epi32(acc, _mm512_xor_si512(v, flip), ones);
}

static csum_wsum csum_partial_avx512_vnni(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    /* Every vector, the zero-padded last one included, flips all of its 32 words. */
    const uint64_t words = 32 * (len / 64 + (len % 64 != 0));
    __m512i wide = _mm512_setzero_si512();      /* 8 signed 64-bit lanes */

    /* Eight independent accumulators: enough dot products in flight to cover their latency. */
    while (len >= 512) {
        size_t steps = len / 512 < STEPS_PER_FLUSH ? len / 512 : STEPS_PER_FLUSH;
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
                a7 = a0;
        for (size_t i = 0; i < steps; i++, p += 512) {
            a0 = dot_flipped(a0, _mm512_loadu_si512(p));
            a1 = dot_flipped(a1, _mm512_loadu_si512(p + 64));
            a2 = dot_flipped(a2, _mm512_loadu_si512(p + 128));
            a3 = dot_flipped(a3, _mm512_loadu_si512(p + 192));
            a4 = dot_flipped(a4, _mm512_loadu_si512(p + 256));
            a5 = dot_flipped(a5, _mm512_loadu_si512(p + 320));
            a6 = dot_flipped(a6, _mm512_loadu_si512(p + 384));
            a7 = dot_flipped(a7, _mm512_loadu_si512(p + 448));
        }
        len -= steps * 512;
        __m512i s03 = _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3));
        __m512i s47 = _mm512_add_epi32(_mm512_add_epi32(a4, a5), _mm512_add_epi32(a6, a7));
        wide = _mm512_add_epi64(wide, avx512_widen_s32(_mm512_add_epi32(s03, s47)));
    }

    /* The rest (< 512 bytes) by halving, still spread over independent accumulators. */
    __m512i b0 = _mm512_setzero_si512(), b1 = b0, b2 = b0, b3 = b0;
    if (len & 256) {
        b0 = dot_flipped(b0, _mm512_loadu_si512(p));
        b1 = dot_flipped(b1, _mm512_loadu_si512(p + 64));
        b2 = dot_flipped(b2, _mm512_loadu_si512(p + 128));
        b3 = dot_flipped(b3, _mm512_loadu_si512(p + 192));
        p += 256;
    }
    if (len & 128) {
        b0 = dot_flipped(b0, _mm512_loadu_si512(p));
        b1 = dot_flipped(b1, _mm512_loadu_si512(p + 64));
        p += 128;
    }
    if (len & 64) {
        b2 = dot_flipped(b2, _mm512_loadu_si512(p));
        p += 64;
    }
    if (len & 63) /* zero-padded: the padding words are flipped too, and counted in the bias */
        b3 = dot_flipped(b3, avx512_load_tail(p, len & 63));
    __m512i rest = _mm512_add_epi32(_mm512_add_epi32(b0, b1), _mm512_add_epi32(b2, b3));

    wide = _mm512_add_epi64(wide, avx512_widen_s32(rest));

    /* The exact sum of the unsigned words: non-negative, far below 2^63. */
    int64_t flipped = _mm512_reduce_add_epi64(wide);
    uint64_t total = (uint64_t)(flipped + (int64_t)(words * 32768u));
    return csum_fold64(csum_add64(total, sum));
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
