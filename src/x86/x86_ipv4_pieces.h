/*
 * What the avx2 and avx512 IPv4 header batches (x86_avx2_ipv4_batch.h, x86_avx512_ipv4_batch.h)
 * share for 20-byte headers: two 16-byte pieces of headers in one 256-bit register, and the
 * header that pads a last, partial group, and how the group is padded. Include only inside a target region with AVX2.
 */
#ifndef CSUM_X86_IPV4_PIECES_H
#define CSUM_X86_IPV4_PIECES_H

#include <immintrin.h>
#include <stddef.h>

/* A valid 20-byte header (ihl 5): what pads the last group, so that a short group of ihl-5
 * headers stays on the fast path. */
static const unsigned char x86_ipv4_pad[20] = { 0x45 };

/* The last group's header pointers: the caller's m, then pads up to size. Two plain loops, not
 * one with `j < m ? hdrs[j] : pad`: GCC 12 turns that one into masked loads (vpmaskmovq) that
 * cover hdrs[m..size), past the caller's array. The hardware does not fault on masked-out
 * lanes, but qemu-x86_64 does (tests/test_proto.c puts the array against a guard page), and the
 * batch reads nothing it was not given in any form. */
static inline void x86_ipv4_pad_group(const void **group, size_t size, const void *const *hdrs,
                                      size_t m)
{
    size_t j = 0;
    for (; j < m; j++)
        group[j] = hdrs[j];
    for (; j < size; j++)
        group[j] = x86_ipv4_pad;
}

/* 16 bytes at a + off_a in the low half, at b + off_b in the high half. */
static inline __m256i x86_ipv4_two_pieces(const unsigned char *a, size_t off_a,
                                          const unsigned char *b, size_t off_b)
{
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(a + off_a))),
        _mm_loadu_si128((const __m128i *)(const void *)(b + off_b)), 1);
}

#endif /* CSUM_X86_IPV4_PIECES_H */
