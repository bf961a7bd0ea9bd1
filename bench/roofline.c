/*
 * The roofline: the loads a checksum must do, with no arithmetic but an OR to keep them
 * alive. Its speed at a given size is the load limit there (L1, L2, L3 or DRAM), so every
 * checksum result can be shown as a percentage of it. Widest vectors the CPU has, four
 * independent accumulators, and a tail that stays inside the buffer done the way the library's
 * vector rows do it. Below LAB_ROOFLINE_MIN_LEN bytes a call's fixed costs (call, reduction,
 * fold) outweigh its loads and the ratio would say nothing about loads: no roofline there.
 */
#include "lab.h"

#include <string.h>

#if defined(__x86_64__)
#  include <immintrin.h>
#elif defined(__aarch64__)
#  include <arm_neon.h>
#endif

static csum_wsum roofline_u64(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint64_t a = 0, b = 0, c = 0, d = 0, w;
    for (; len >= 32; p += 32, len -= 32) {
        memcpy(&w, p, 8), a |= w;
        memcpy(&w, p + 8, 8), b |= w;
        memcpy(&w, p + 16, 8), c |= w;
        memcpy(&w, p + 24, 8), d |= w;
    }
    for (; len >= 8; p += 8, len -= 8)
        memcpy(&w, p, 8), a |= w;
    for (; len; p++, len--)
        b |= *p;
    a |= b | c | d;
    return (csum_wsum)(a ^ (a >> 32)) ^ sum;
}

#if defined(__x86_64__)
/*
 * Both x86 rooflines follow the rules of the kernels they are compared with: the whole loop,
 * tail and reduction in vector registers (no store of a vector reloaded as smaller words: that
 * store-forwarding stall cost the old AVX2 roofline up to 20x at 192 bytes), the same tail
 * (AVX-512: a byte-masked load; AVX2: one in-bounds 32-byte load ending at the last byte, as
 * the avx2 row does from 32 bytes up, and byte loads below), and vzeroupper before returning, so that the caller's SSE code does
 * not pay the AVX-SSE transition (the old AVX2 roofline called SSE-compiled code with dirty
 * upper halves: 312 ticks instead of 36 at 1500 bytes on Zen 3). A buffer off a vector boundary is
 * read from that boundary on after one unaligned vector, as the avx2 and avx512-vnni rows read
 * large ones: an unaligned load that crosses a cache line takes two load slots, so at such
 * offsets the plain loop is no longer the load limit (it was 20-33 % slower from 4 KiB on,
 * Zen 4). Below 768 bytes the extra vector costs more than the split loads do (Zen 4: 256 B at
 * offset 2 7.4 -> 10.5 ticks), so short buffers keep the plain loop.
 */
__attribute__((target("avx512f,avx512bw,bmi2")))
static csum_wsum roofline_avx512(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
    if (len >= 768 && ((uintptr_t)p & 63)) { /* up to the boundary, then aligned loads */
        const size_t head = 64 - ((uintptr_t)p & 63);
        d = _mm512_loadu_si512(p); /* in bounds; the bytes after the head are read twice */
        p += head, len -= head;
    }
    for (; len >= 256; p += 256, len -= 256) {
        a = _mm512_or_si512(a, _mm512_loadu_si512(p));
        b = _mm512_or_si512(b, _mm512_loadu_si512(p + 64));
        c = _mm512_or_si512(c, _mm512_loadu_si512(p + 128));
        d = _mm512_or_si512(d, _mm512_loadu_si512(p + 192));
    }
    for (; len >= 64; p += 64, len -= 64)
        a = _mm512_or_si512(a, _mm512_loadu_si512(p));
    if (len) /* masked: bytes past the end are not touched, so no fault either */
        b = _mm512_or_si512(b, _mm512_maskz_loadu_epi8(_bzhi_u64(~0ull, (unsigned)len), p));
    a = _mm512_or_si512(_mm512_or_si512(a, b), _mm512_or_si512(c, d));
    __m256i h = _mm256_or_si256(_mm512_castsi512_si256(a), _mm512_extracti64x4_epi64(a, 1));
    __m128i q = _mm_or_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    uint64_t r = (uint64_t)_mm_cvtsi128_si64(q) | (uint64_t)_mm_extract_epi64(q, 1);
    _mm256_zeroupper();
    return (csum_wsum)(r ^ (r >> 32)) ^ sum;
}

__attribute__((target("avx2")))
static csum_wsum roofline_avx2(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf, *const end = p + len;
    const size_t whole = len;
    __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
    if (len >= 768 && ((uintptr_t)p & 31)) { /* up to the boundary, then aligned loads */
        const size_t head = 32 - ((uintptr_t)p & 31);
        d = _mm256_loadu_si256((const __m256i *)p); /* in bounds; some bytes read twice */
        p += head, len -= head;
    }
    for (; len >= 128; p += 128, len -= 128) {
        a = _mm256_or_si256(a, _mm256_loadu_si256((const __m256i *)p));
        b = _mm256_or_si256(b, _mm256_loadu_si256((const __m256i *)(p + 32)));
        c = _mm256_or_si256(c, _mm256_loadu_si256((const __m256i *)(p + 64)));
        d = _mm256_or_si256(d, _mm256_loadu_si256((const __m256i *)(p + 96)));
    }
    for (; len >= 32; p += 32, len -= 32)
        a = _mm256_or_si256(a, _mm256_loadu_si256((const __m256i *)p));
    uint64_t bytes = 0;
    if (len && whole >= 32) /* the last 32 bytes, overlapping what was read: never past the end */
        b = _mm256_or_si256(b, _mm256_loadu_si256((const __m256i *)(const void *)(end - 32)));
    else
        for (; len; p++, len--)
            bytes |= *p;
    a = _mm256_or_si256(_mm256_or_si256(a, b), _mm256_or_si256(c, d));
    __m128i q = _mm_or_si128(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    uint64_t r = (uint64_t)_mm_cvtsi128_si64(q) | (uint64_t)_mm_extract_epi64(q, 1) | bytes;
    _mm256_zeroupper();
    return (csum_wsum)(r ^ (r >> 32)) ^ sum;
}
#elif defined(__aarch64__)
static csum_wsum roofline_neon(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    uint8x16_t a = vdupq_n_u8(0), b = a, c = a, d = a;
    for (; len >= 64; p += 64, len -= 64) {
        a = vorrq_u8(a, vld1q_u8(p));
        b = vorrq_u8(b, vld1q_u8(p + 16));
        c = vorrq_u8(c, vld1q_u8(p + 32));
        d = vorrq_u8(d, vld1q_u8(p + 48));
    }
    a = vorrq_u8(vorrq_u8(a, b), vorrq_u8(c, d));
    uint64x2_t w = vreinterpretq_u64_u8(a);
    return (csum_wsum)(vgetq_lane_u64(w, 0) | vgetq_lane_u64(w, 1)) ^ roofline_u64(p, len, sum);
}
#endif

csum_partial_fn lab_roofline(const char **name)
{
#if defined(__x86_64__)
    /* CSUM_CPU_DISABLE does not apply here: the roofline is what the machine can load. */
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
        *name = "roofline (avx512 loads)";
        return roofline_avx512;
    }
    if (__builtin_cpu_supports("avx2")) {
        *name = "roofline (avx2 loads)";
        return roofline_avx2;
    }
#elif defined(__aarch64__)
    *name = "roofline (neon loads)";
    return roofline_neon;
#endif
    *name = "roofline (64-bit loads)";
    return roofline_u64;
}

