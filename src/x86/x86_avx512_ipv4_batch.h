/*
 * csum_ipv4_header_batch for the avx512 kernel (src/x86/avx512.c, inside its target region):
 * 16 headers per step, SIMD across packets rather than within one.
 *
 * Two paths, chosen per group of 16 by the headers' first bytes:
 *  - all ihl 5 (nearly every IPv4 packet): two plain 16-byte loads per header, bytes [0, 16)
 *    and [4, 20), four headers to a register, the second piece weighted to its last 4 bytes in
 *    the multiply-add (the avx2 batch's scheme, x86_avx2_ipv4_batch.h, on 512-bit registers);
 *  - any other group: each header is read with a byte-masked load whose mask covers exactly
 *    its ihl * 4 bytes (nothing for an invalid ihl), so headers of mixed lengths share one code
 *    path and a header ending right before an unmapped page is safe: masked-out bytes are never
 *    accessed and cannot fault.
 * The 16-bit words are widened to 32-bit pair sums with vpmaddwd, each word flipped by 0x8000
 * first so the signed multiply-add sees w - 0x8000 (the widening in docs/SOURCES.md); the bias
 * is the same for every header of a path and is added back once. Then the registers are
 * reduced pairwise, each level halving the lanes per header (256-, 128-, 64-, 32-bit halves)
 * until every header's sum sits in a lane of its own, the transpose-and-add reduction used
 * wherever many horizontal sums are needed at once (e.g. several dot products in BLAS kernels).
 */
#ifndef CSUM_X86_AVX512_IPV4_BATCH_H
#define CSUM_X86_AVX512_IPV4_BATCH_H

#include "proto/proto_internal.h"
#include "x86_ipv4_pieces.h"

#include <immintrin.h>
#include <stdbool.h>

#define BYTES_MASK(n) ((1ull << (n)) - 1)

/* Load masks by IHL nibble: ihl * 4 bytes for 5..15, nothing for 0..4 (an invalid header
 * then sums to 0 and folds to 0xffff, which is exactly what csum_ipv4_header returns). */
static const uint64_t header_mask[16] = {
    0, 0, 0, 0, 0,
    BYTES_MASK(20), BYTES_MASK(24), BYTES_MASK(28), BYTES_MASK(32), BYTES_MASK(36),
    BYTES_MASK(40), BYTES_MASK(44), BYTES_MASK(48), BYTES_MASK(52), BYTES_MASK(56),
    BYTES_MASK(60),
};

/*
 * The reduction below leaves register j's sum in lane order[j] (worked out by following the
 * four levels). The permutation is its own inverse, so loading header order[j] into
 * register j puts header j's sum in lane j and no final permute is needed.
 */
static const uint8_t order[16] = { 0, 2, 1, 3, 8, 10, 9, 11, 4, 6, 5, 7, 12, 14, 13, 15 };

/* The load mask of a header, from the IHL nibble of its first byte. */
static inline uint64_t mask_of(const void *iph)
{
    return header_mask[*(const unsigned char *)iph & 15u];
}

/* 16-bit words flipped by 0x8000, summed in adjacent pairs as signed 32-bit lanes. */
static inline __m512i pair_sums(__m512i v)
{
    v = _mm512_xor_si512(v, _mm512_set1_epi16((short)0x8000));
    return _mm512_madd_epi16(v, _mm512_set1_epi16(1));
}

/* One header alone in a register (any ihl). */
static inline __m512i load_one(const void *iph, uint64_t mask)
{
    return _mm512_maskz_loadu_epi8(_cvtu64_mask64(mask), iph);
}

/*
 * Two headers of ihl <= 8 in one register, the first in the low 256 bits. The second load
 * addresses 32 bytes before the second header with a mask that starts at byte 32: the bytes
 * before the header are masked out, so they are never read.
 */
static inline __m512i load_two(const void *lo, uint64_t mask_lo, const void *hi, uint64_t mask_hi)
{
    const void *below_hi = (const void *)((uintptr_t)hi - 32);
    return _mm512_mask_loadu_epi8(load_one(lo, mask_lo), _cvtu64_mask64(mask_hi << 32), below_hi);
}

/* Level 1: [x.lo256 + x.hi256 | y.lo256 + y.hi256]. */
static inline __m512i fold_256(__m512i x, __m512i y)
{
    return _mm512_add_epi32(_mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(1, 0, 1, 0)),
                            _mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(3, 2, 3, 2)));
}

/* Level 2: the two 128-bit chunks of each 256-bit half added, x's halves then y's. */
static inline __m512i fold_128(__m512i x, __m512i y)
{
    return _mm512_add_epi32(_mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(2, 0, 2, 0)),
                            _mm512_shuffle_i64x2(x, y, _MM_SHUFFLE(3, 1, 3, 1)));
}

/* Level 3: within each 128-bit chunk, its two 64-bit halves added, x's then y's. */
static inline __m512i fold_64(__m512i x, __m512i y)
{
    return _mm512_add_epi32(_mm512_unpacklo_epi64(x, y), _mm512_unpackhi_epi64(x, y));
}

/* Level 4: within each 128-bit chunk, adjacent 32-bit lanes added, x's then y's. */
static inline __m512i fold_32(__m512i x, __m512i y)
{
    __m512 xf = _mm512_castsi512_ps(x), yf = _mm512_castsi512_ps(y);
    __m512 even = _mm512_shuffle_ps(xf, yf, _MM_SHUFFLE(2, 0, 2, 0));
    __m512 odd = _mm512_shuffle_ps(xf, yf, _MM_SHUFFLE(3, 1, 3, 1));
    return _mm512_add_epi32(_mm512_castps_si512(even), _mm512_castps_si512(odd));
}

/*
 * s holds header j's 32-bit sum in lane j, biased by -0x8000 per word counted (words_per_header
 * of them). Store the 16 checksums to out[0..m).
 */
static inline __attribute__((always_inline)) void finish16(__m512i s, int words_per_header,
                                                           size_t m, csum_sum16 *out)
{
    /* Undo the bias: s is then the plain sum of the header's words, below 30 * 0xffff, and
     * folds to 16 bits in two steps as in csum_fold. */
    s = _mm512_add_epi32(s, _mm512_set1_epi32(words_per_header * 0x8000));
    const __m512i low16 = _mm512_set1_epi32(0xffff);
    s = _mm512_add_epi32(_mm512_and_si512(s, low16), _mm512_srli_epi32(s, 16));
    s = _mm512_add_epi32(_mm512_and_si512(s, low16), _mm512_srli_epi32(s, 16));
    __m256i check = _mm512_cvtepi32_epi16(_mm512_xor_si512(s, low16)); /* ~s, 16 bits */
    _mm256_mask_storeu_epi16(out, (__mmask16)_bzhi_u32(0xffff, (unsigned)m), check);
}

/* Bytes [off, off + 16) of headers a, b, c, d in the four 128-bit lanes. */
static inline __m512i four_pieces(const unsigned char *a, const unsigned char *b,
                                  const unsigned char *c, const unsigned char *d, size_t off)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(x86_ipv4_two_pieces(a, off, b, off)),
                              x86_ipv4_two_pieces(c, off, d, off), 1);
}

/*
 * Four 20-byte headers, one per 128-bit lane: bytes [0, 16) and [4, 20) of each (plain loads
 * inside the header, no masks), the second piece counting its last 4 bytes only through 0/1
 * word weights in the multiply-add. Each lane ends with 4 partial sums of its header, 10 words
 * counted.
 */
static inline __m512i four5(const unsigned char *a, const unsigned char *b,
                            const unsigned char *c, const unsigned char *d)
{
    const __m512i flip = _mm512_set1_epi16((short)0x8000);
    const __m512i last4 = _mm512_set4_epi64(0x0001000100000000ll, 0, 0x0001000100000000ll, 0);
    const __m512i w0 = _mm512_madd_epi16(_mm512_xor_si512(four_pieces(a, b, c, d, 0), flip),
                                         _mm512_set1_epi16(1));
    const __m512i w4 = _mm512_madd_epi16(_mm512_xor_si512(four_pieces(a, b, c, d, 4), flip),
                                         last4);
    return _mm512_add_epi32(w0, w4);
}

/*
 * Checksums of the 16 headers hdrs[0..16) of any ihl, stored to out[0..m); returns the OR of
 * their load masks. Written out register by register: with arrays and loops, compilers keep
 * the 16 vectors in memory and every level becomes a store and a reload.
 *
 * Headers of at most 32 bytes (ihl <= 8, nearly all real ones) go two to a register, which
 * is what the first reduction level would produce anyway: that halves the widening work and
 * skips the level. A group with a longer header takes the general path.
 */
static inline __attribute__((always_inline)) uint64_t masked16(const void *const *hdrs, size_t m,
                                                                csum_sum16 *out)
{
#define H(j) hdrs[order[j]]
    const uint64_t k0 = mask_of(H(0)), k1 = mask_of(H(1)), k2 = mask_of(H(2)),
                   k3 = mask_of(H(3)), k4 = mask_of(H(4)), k5 = mask_of(H(5)),
                   k6 = mask_of(H(6)), k7 = mask_of(H(7)), k8 = mask_of(H(8)),
                   k9 = mask_of(H(9)), k10 = mask_of(H(10)), k11 = mask_of(H(11)),
                   k12 = mask_of(H(12)), k13 = mask_of(H(13)), k14 = mask_of(H(14)),
                   k15 = mask_of(H(15));
    const uint64_t any = k0 | k1 | k2 | k3 | k4 | k5 | k6 | k7 | k8 | k9 | k10 | k11 | k12 |
                         k13 | k14 | k15;
    __m512i b0, b1, b2, b3, b4, b5, b6, b7;
    int words_per_header; /* each flipped word, data or padding, adds a bias of -0x8000 */
    if (!(any >> 32)) {
        words_per_header = 16;
#define PAIR(j, l) pair_sums(load_two(H(j), k##j, H(l), k##l))
        b0 = PAIR(0, 8), b1 = PAIR(1, 9), b2 = PAIR(2, 10), b3 = PAIR(3, 11);
        b4 = PAIR(4, 12), b5 = PAIR(5, 13), b6 = PAIR(6, 14), b7 = PAIR(7, 15);
#undef PAIR
    } else {
        words_per_header = 32;
#define LEVEL1(j, l) fold_256(pair_sums(load_one(H(j), k##j)), pair_sums(load_one(H(l), k##l)))
        b0 = LEVEL1(0, 8), b1 = LEVEL1(1, 9), b2 = LEVEL1(2, 10), b3 = LEVEL1(3, 11);
        b4 = LEVEL1(4, 12), b5 = LEVEL1(5, 13), b6 = LEVEL1(6, 14), b7 = LEVEL1(7, 15);
#undef LEVEL1
    }
#undef H
    __m512i c0 = fold_128(b0, b4), c1 = fold_128(b1, b5);
    __m512i c2 = fold_128(b2, b6), c3 = fold_128(b3, b7);
    __m512i d0 = fold_64(c0, c2), d1 = fold_64(c1, c3);
    __m512i s = fold_32(d0, d1);

    finish16(s, words_per_header, m, out);
    return any;
}

/* Whether the 16 headers hdrs[0..16) all have ihl 5 (nearly all traffic), tested four at a
 * time: a group of mixed lengths is told after about four first bytes. */
static inline bool all_ihl5(const void *const *hdrs)
{
#define B(j) ((const unsigned char *)hdrs[j])[0]
#define ALL5(a, b, c, d) ((((B(a) ^ 5u) | (B(b) ^ 5u) | (B(c) ^ 5u) | (B(d) ^ 5u)) & 15u) == 0)
    return ALL5(0, 1, 2, 3) && ALL5(4, 5, 6, 7) && ALL5(8, 9, 10, 11) && ALL5(12, 13, 14, 15);
#undef ALL5
#undef B
}

/* Checksums of 16 headers of ihl 5 to out[0..m): plain 16-byte loads, four headers to a
 * register (header 4 * lane + r in register r); two reduction levels then leave header j's sum
 * in lane j. */
static inline __attribute__((always_inline)) void ihl5_16(const void *const *hdrs, size_t m,
                                                          csum_sum16 *out)
{
    /* The pointers are read again rather than kept from the test of the first bytes: kept, 16
     * of them crowd the general registers and GCC parks them in vector registers. */
    __asm__("" ::: "memory");
#define B(j) ((const unsigned char *)hdrs[j])
    __m512i u0 = four5(B(0), B(4), B(8), B(12)), u1 = four5(B(1), B(5), B(9), B(13));
    __m512i u2 = four5(B(2), B(6), B(10), B(14)), u3 = four5(B(3), B(7), B(11), B(15));
#undef B
    finish16(fold_32(fold_64(u0, u1), fold_64(u2, u3)), 10, m, out);
}

/*
 * Groups from hdrs[i] on with the masked path, until one turns out to hold only ihl-5 (or
 * invalid) headers or fewer than 16 remain; returns where it stopped. Out of line: inlined into
 * the main loop, its 16 masks and pointers crowd the registers of the ihl-5 path (measured:
 * mixed groups 1.5 ticks per header slower); and a run of mixed groups stays in this loop
 * rather than paying a call per group.
 */
static __attribute__((noinline)) size_t masked_run(const void *const *hdrs, size_t i, size_t n,
                                                   csum_sum16 *out)
{
    uint64_t any;
    do {
        any = masked16(hdrs + i, 16, out + i);
        i += 16;
    } while (i + 16 <= n && any != BYTES_MASK(20));
    return i;
}

/* The last, partial group, padded with a valid 20-byte header (so a group of ihl-5 headers
 * stays on the fast path); only the m real results are stored. */
static __attribute__((noinline)) void batch_tail(const void *const *hdrs, size_t m,
                                                 csum_sum16 *out)
{
    const void *group[16];
    x86_ipv4_pad_group(group, 16, hdrs, m);
    if (all_ihl5(group))
        ihl5_16(group, m, out);
    else
        masked16(group, m, out);
}

/* Below this many headers, a partial group costs more than summing them one by one (a padded
 * group of 16 is about 23 ticks for ihl-5 headers and 36 for mixed ones, one header alone
 * about 4.5: the lab's batch table at n = 16, Zen 5). */
enum { TAIL_GROUP_MIN = 8 };

static void avx512_ipv4_batch(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    size_t i = 0;
    while (i + 16 <= n) {
        if (__builtin_expect(all_ihl5(hdrs + i), 1)) {
            ihl5_16(hdrs + i, 16, out + i);
            i += 16;
        } else {
            i = masked_run(hdrs, i, n, out);
        }
    }
    if (n - i >= TAIL_GROUP_MIN)
        batch_tail(hdrs + i, n - i, out + i);
    else
        csum_ipv4_header_batch_generic(hdrs + i, n - i, out + i);
}

#endif /* CSUM_X86_AVX512_IPV4_BATCH_H */
