/*
 * csum_ipv4_header_batch for the avx2 kernel (src/x86/avx2.c, inside its target region): eight
 * headers per step, SIMD across packets rather than within one.
 *
 * Reading exactly ihl * 4 bytes without masked loads. AVX2's masked loads (vpmaskmovd) may
 * fault on masked-out lanes on some CPUs and emulators, so every load here is a plain 16-byte
 * load that lies inside the header, and the bytes it holds twice are cleared or weighted 0:
 *  - a group of eight 20-byte headers (ihl 5: nearly every IPv4 packet) takes bytes [0, 16)
 *    and [4, 20) of each; the second piece counts only its last 4 bytes (a 0/1 word weight in
 *    the multiply-add below, so no mask op);
 *  - any other group takes, for each header of len = ihl * 4 bytes, the 16-byte pieces k = 0..3
 *    of [16k, 16k + 16) from offset min(16k, len - 16), which always lies inside the header,
 *    keeping the top clamp(len - 16k, 0, 16) bytes of each: a mask per ihl from a table. A
 *    header with ihl < 5 is read from a block of zeros instead (nothing of it past its first
 *    byte is touched), sums to 0 and so gives 0xffff, like csum_ipv4_header.
 * Two headers' pieces share a 256-bit register, header j in the low half and j + 4 in the high.
 *
 * Summing. The 16-bit words are widened to 32-bit pair sums with vpmaddwd, each word flipped
 * by 0x8000 first so that the signed multiply-add sees w - 0x8000 (the widening in
 * docs/SOURCES.md): a counted word then adds a bias of -0x8000, the same for every header of a
 * path, added back once at the end. The eight headers' lanes are then added pairwise, each level
 * halving the lanes per header (128-bit halves, 64-bit, 32-bit), until header j's sum is in
 * lane j: the transpose-and-add reduction of the avx512 batch (x86_avx512_ipv4_batch.h), on
 * eight 8-lane registers.
 */
#ifndef CSUM_X86_AVX2_IPV4_BATCH_H
#define CSUM_X86_AVX2_IPV4_BATCH_H

#include "proto/proto_internal.h"
#include "x86_ipv4_pieces.h"

#include <immintrin.h>

/* ---- the general path's layout table, one row per IHL nibble --------------------------- */

/* Of the 16 bytes loaded for piece k of a len-byte header, how many at the top are its bytes
 * [16k, 16k + 16): clamp(len - 16k, 0, 16); and where that load starts. */
#define AVX2_KEPT_(len, k)                                                                   \
    ((len) - 16 * (k) < 0 ? 0 : (len) - 16 * (k) > 16 ? 16 : (len) - 16 * (k))
#define AVX2_AT_(len, k) ((len) < 20 ? 0 : (len) - 16 < 16 * (k) ? (len) - 16 : 16 * (k))
#define AVX2_B_(len, k, b) (unsigned char)((b) >= 16 - AVX2_KEPT_(len, k) ? 0xff : 0)
#define AVX2_PIECE_(len, k)                                                                  \
    AVX2_B_(len, k, 0), AVX2_B_(len, k, 1), AVX2_B_(len, k, 2), AVX2_B_(len, k, 3),          \
    AVX2_B_(len, k, 4), AVX2_B_(len, k, 5), AVX2_B_(len, k, 6), AVX2_B_(len, k, 7),          \
    AVX2_B_(len, k, 8), AVX2_B_(len, k, 9), AVX2_B_(len, k, 10), AVX2_B_(len, k, 11),        \
    AVX2_B_(len, k, 12), AVX2_B_(len, k, 13), AVX2_B_(len, k, 14), AVX2_B_(len, k, 15)
#define AVX2_ROW_(len)                                                                       \
    { { AVX2_PIECE_(len, 0), AVX2_PIECE_(len, 1), AVX2_PIECE_(len, 2), AVX2_PIECE_(len, 3) }, \
      { AVX2_AT_(len, 1), AVX2_AT_(len, 2), AVX2_AT_(len, 3) } }

struct __attribute__((aligned(64))) avx2_ipv4_layout {
    unsigned char keep[64]; /* pieces 0..3: 0xff for the bytes that count */
    unsigned char at[3];    /* where pieces 1..3 are loaded from (piece 0: offset 0) */
};

/* Indexed by the IHL nibble; ihl 0..4 (invalid) keep nothing and read the zero block. */
static const struct avx2_ipv4_layout avx2_ipv4_layout[16] = {
    AVX2_ROW_(0),  AVX2_ROW_(0),  AVX2_ROW_(0),  AVX2_ROW_(0),  AVX2_ROW_(0),  AVX2_ROW_(20),
    AVX2_ROW_(24), AVX2_ROW_(28), AVX2_ROW_(32), AVX2_ROW_(36), AVX2_ROW_(40), AVX2_ROW_(44),
    AVX2_ROW_(48), AVX2_ROW_(52), AVX2_ROW_(56), AVX2_ROW_(60),
};

/* What an invalid header is read as (all of its pieces are masked off anyway). */
static const unsigned char avx2_ipv4_zeros[64] __attribute__((aligned(64))) = { 0 };

/* ---- building blocks --------------------------------------------------------------------- */

/* The two constants of the widening, made once per group and kept in registers: an empty asm
 * hides their value, or GCC rebuilds them (movabs, vmovq, vpbroadcast) for every header. */
struct avx2_ipv4_k {
    __m256i flip, ones;
};

static inline struct avx2_ipv4_k avx2_ipv4_constants(void)
{
    struct avx2_ipv4_k k = { _mm256_set1_epi16((short)0x8000), _mm256_set1_epi16(1) };
    __asm__("" : "+x"(k.flip), "+x"(k.ones));
    return k;
}

/* Each 32-bit lane: its two words, each flipped by 0x8000 and weighted, added. */
static inline __m256i avx2_pair_sums(__m256i v, __m256i flip, __m256i weights)
{
    return _mm256_madd_epi16(_mm256_xor_si256(v, flip), weights);
}

/* The reduction levels: a's and b's four 32-bit lanes per half become ... */
/* ... [a.low + a.high | b.low + b.high] (a's header j in the low half, b's in the high); */
static inline __m256i avx2_fold_halves(__m256i a, __m256i b)
{
    return _mm256_add_epi32(_mm256_permute2x128_si256(a, b, 0x20),
                            _mm256_permute2x128_si256(a, b, 0x31));
}

/* ... per half, two lanes for x's header then two for y's; */
static inline __m256i avx2_fold_64(__m256i x, __m256i y)
{
    return _mm256_add_epi32(_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y));
}

/* ... per half, one lane each for x's two headers, then y's two. */
static inline __m256i avx2_fold_32(__m256i x, __m256i y)
{
    __m256 xf = _mm256_castsi256_ps(x), yf = _mm256_castsi256_ps(y);
    __m256 even = _mm256_shuffle_ps(xf, yf, _MM_SHUFFLE(2, 0, 2, 0));
    __m256 odd = _mm256_shuffle_ps(xf, yf, _MM_SHUFFLE(3, 1, 3, 1));
    return _mm256_add_epi32(_mm256_castps_si256(even), _mm256_castps_si256(odd));
}

/*
 * u0..u3 hold headers k (low half) and k + 4 (high half) of u_k as four 32-bit partial sums
 * each, with `bias` = -0x8000 times the words counted per header. Store the eight checksums to
 * out[0..m).
 */
static inline __attribute__((always_inline)) void
avx2_ipv4_finish(__m256i u0, __m256i u1, __m256i u2, __m256i u3, int32_t bias, size_t m,
                 csum_sum16 *out)
{
    __m256i s = avx2_fold_32(avx2_fold_64(u0, u1), avx2_fold_64(u2, u3));
    /* Undo the bias: s is then the plain sum of the header's words, below 30 * 0xffff, and folds
     * to 16 bits in two steps as in csum_fold. */
    s = _mm256_sub_epi32(s, _mm256_set1_epi32(bias));
    const __m256i low16 = _mm256_set1_epi32(0xffff);
    s = _mm256_add_epi32(_mm256_and_si256(s, low16), _mm256_srli_epi32(s, 16));
    s = _mm256_add_epi32(_mm256_and_si256(s, low16), _mm256_srli_epi32(s, 16));
    s = _mm256_xor_si256(s, low16); /* ~s, 16 bits */
    __m128i check = _mm_packus_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    if (m == 8) {
        _mm_storeu_si128((__m128i *)(void *)out, check);
    } else {
        csum_sum16 all[8];
        _mm_storeu_si128((__m128i *)(void *)all, check);
        memcpy(out, all, m * sizeof *out);
    }
}

/* ---- eight headers, written out register by register ------------------------------------ */
/* (With arrays and loops, GCC keeps the vectors in memory: a store and a reload each.) */

/* Headers a and b, both 20 bytes: bytes [0, 16) and [4, 20) of each, the second counting its
 * last 4 bytes only. 10 words counted per header. */
static inline __m256i avx2_ipv4_two5(const unsigned char *a, const unsigned char *b,
                                     struct avx2_ipv4_k k, __m256i last4)
{
    return _mm256_add_epi32(avx2_pair_sums(x86_ipv4_two_pieces(a, 0, b, 0), k.flip, k.ones),
                            avx2_pair_sums(x86_ipv4_two_pieces(a, 4, b, 4), k.flip, last4));
}

/*
 * One header of any IHL: its four pieces, masked (the layout table). 32 words counted.
 * The loads are asm because GCC 12 makes 35-40 instructions of them (the table row computed
 * twice, spills, a branch that duplicates the rest) where 14 do: find the row, read the three
 * offsets, swap in the zero block for an invalid header (ihl < 5), load the pieces and mask
 * them. Baseline x86-64 and AVX2 instructions only.
 */
static inline __m256i avx2_ipv4_one(const unsigned char *hdr, struct avx2_ipv4_k k)
{
    __m256i p, q;
    size_t row, at1, at2, at3;
    __asm__("movzbl (%[h]), %k[row]\n\t"
            "andl $15, %k[row]\n\t"
            "shll $7, %k[row]\n\t"
            "movzbl 64(%[tab], %[row]), %k[at1]\n\t"
            "movzbl 65(%[tab], %[row]), %k[at2]\n\t"
            "movzbl 66(%[tab], %[row]), %k[at3]\n\t"
            "cmpl $5 << 7, %k[row]\n\t"
            "cmovb %[zeros], %[h]\n\t"
            "vmovdqu (%[h]), %x[p]\n\t"
            "vinserti128 $1, (%[h], %[at1]), %[p], %[p]\n\t"
            "vmovdqu (%[h], %[at2]), %x[q]\n\t"
            "vinserti128 $1, (%[h], %[at3]), %[q], %[q]\n\t"
            "vpand (%[tab], %[row]), %[p], %[p]\n\t"
            "vpand 32(%[tab], %[row]), %[q], %[q]"
            : [p] "=&x"(p), [q] "=&x"(q), [row] "=&r"(row), [at1] "=&r"(at1),
              [at2] "=&r"(at2), [at3] "=&r"(at3), [h] "+r"(hdr)
            : [tab] "r"(avx2_ipv4_layout), [zeros] "r"(avx2_ipv4_zeros),
              "m"(*(const unsigned char(*)[64])hdr), "m"(avx2_ipv4_layout), "m"(avx2_ipv4_zeros)
            : "cc");
    return _mm256_add_epi32(avx2_pair_sums(p, k.flip, k.ones), avx2_pair_sums(q, k.flip, k.ones));
}

/* Headers h0..h7 to out[0..m). */
static inline __attribute__((always_inline)) void
avx2_ipv4_eight(const unsigned char *h0, const unsigned char *h1, const unsigned char *h2,
                const unsigned char *h3, const unsigned char *h4, const unsigned char *h5,
                const unsigned char *h6, const unsigned char *h7, size_t m, csum_sum16 *out)
{
    const unsigned not5 = ((h0[0] ^ 5u) | (h1[0] ^ 5u) | (h2[0] ^ 5u) | (h3[0] ^ 5u) |
                           (h4[0] ^ 5u) | (h5[0] ^ 5u) | (h6[0] ^ 5u) | (h7[0] ^ 5u)) & 15u;
    const struct avx2_ipv4_k k = avx2_ipv4_constants();
    if (__builtin_expect(not5 == 0, 1)) {
        const __m256i last4 = _mm256_setr_epi16(0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1);
        avx2_ipv4_finish(avx2_ipv4_two5(h0, h4, k, last4), avx2_ipv4_two5(h1, h5, k, last4),
                         avx2_ipv4_two5(h2, h6, k, last4), avx2_ipv4_two5(h3, h7, k, last4),
                         -10 * 0x8000, m, out);
    } else {
        __m256i u0 = avx2_fold_halves(avx2_ipv4_one(h0, k), avx2_ipv4_one(h4, k));
        __m256i u1 = avx2_fold_halves(avx2_ipv4_one(h1, k), avx2_ipv4_one(h5, k));
        __m256i u2 = avx2_fold_halves(avx2_ipv4_one(h2, k), avx2_ipv4_one(h6, k));
        __m256i u3 = avx2_fold_halves(avx2_ipv4_one(h3, k), avx2_ipv4_one(h7, k));
        avx2_ipv4_finish(u0, u1, u2, u3, -32 * 0x8000, m, out);
    }
}

/* The last 1..7 headers, padded with a valid 20-byte header (so a group of ihl-5 headers stays
 * on the fast path); only the m real results are stored. */
static __attribute__((noinline)) void avx2_ipv4_tail(const void *const *hdrs, size_t m,
                                                     csum_sum16 *out)
{
    const void *h[8];
    x86_ipv4_pad_group(h, 8, hdrs, m);
    avx2_ipv4_eight(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], m, out);
}

/* Below this many headers, a padded group costs more than summing them one by one (a group of
 * eight is about 11 ticks, one header alone about 4.5: the lab's batch table, Zen 5). */
enum { AVX2_TAIL_GROUP_MIN = 3 };

static void avx2_ipv4_batch(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        avx2_ipv4_eight(hdrs[i], hdrs[i + 1], hdrs[i + 2], hdrs[i + 3], hdrs[i + 4], hdrs[i + 5],
                        hdrs[i + 6], hdrs[i + 7], 8, out + i);
    if (n - i >= AVX2_TAIL_GROUP_MIN)
        avx2_ipv4_tail(hdrs + i, n - i, out + i);
    else
        csum_ipv4_header_batch_generic(hdrs + i, n - i, out + i);
}

#endif /* CSUM_X86_AVX2_IPV4_BATCH_H */
