/*
 * The lab's vector memory operations: zero and copy with SSE2/AVX2/AVX-512 stores, normal
 * (temporal) or non-temporal (movntdq + sfence, Evans 2003's movntps idea on today's vectors).
 * The lab is compiled with baseline flags, so each function carries its own target attribute
 * and a row is listed only when __builtin_cpu_supports() says the CPU (and OS) can run it.
 */
#include "lab.h"

#if defined(__x86_64__)

#include <immintrin.h>
#include <stdint.h>

/*
 * One worker per vector width W, generated from this one text: copy (or zero, when `copy` is
 * 0) `len` bytes with normal or streaming stores; always called with constant flags.
 *  - below 128 bytes, byte by byte (only the tests go there; the tables use 4 KiB and 400 MiB);
 *  - normal stores: whole vectors, then one more ending exactly at len (it overlaps bytes
 *    already written, but stays inside the buffer);
 *  - streaming stores want whole aligned lines: normal stores up to dst's first 64-byte
 *    boundary, streaming stores from there, the last partial vector a normal overlapping store,
 *    then sfence so the weakly-ordered stores are visible before anything stored later.
 */
#define DEFINE_VECTOR_WORKER(name, isa, W, loadu, storeu, stream, setzero)                       \
    __attribute__((target(isa))) static inline void move_##name(unsigned char *d,                 \
                                                               const unsigned char *s,            \
                                                               size_t len, int copy, int nt)      \
    {                                                                                             \
        if (len < 128) {                                                                          \
            for (size_t k = 0; k < len; k++)                                                      \
                d[k] = copy ? s[k] : 0;                                                                 \
            return;                                                                               \
        }                                                                                         \
        size_t i = 0;                                                                             \
        if (nt) {                                                                                 \
            const size_t head = (size_t)(-(uintptr_t)d & 63);                                     \
            for (; i < head; i += (W))                                                            \
                storeu((void *)(d + i), copy ? loadu((const void *)(s + i)) : setzero());           \
            for (i = head; len - i >= (W); i += (W))                                              \
                stream((void *)(d + i), copy ? loadu((const void *)(s + i)) : setzero());           \
        } else {                                                                                  \
            for (; len - i >= (W); i += (W)) {                                                    \
                storeu((void *)(d + i), copy ? loadu((const void *)(s + i)) : setzero());           \
                __asm__ volatile("" ::: "memory"); /* not a memset/memcpy call in disguise */     \
            }                                                                                     \
        }                                                                                         \
        if (i < len)                                                                              \
            storeu((void *)(d + len - (W)), copy ? loadu((const void *)(s + len - (W))) : setzero()); \
        if (nt)                                                                                   \
            _mm_sfence();                                                                         \
    }                                                                                             \
    __attribute__((target(isa))) static void zero_##name(void *dst, const void *src, size_t len)  \
    {                                                                                             \
        (void)src;                                                                                \
        move_##name(dst, NULL, len, 0, 0);                                                           \
    }                                                                                             \
    __attribute__((target(isa))) static void zero_##name##_nt(void *dst, const void *src,         \
                                                              size_t len)                         \
    {                                                                                             \
        (void)src;                                                                                \
        move_##name(dst, NULL, len, 0, 1);                                                           \
    }                                                                                             \
    __attribute__((target(isa))) static void copy_##name(void *dst, const void *src, size_t len)  \
    {                                                                                             \
        move_##name(dst, src, len, 1, 0);                                                            \
    }                                                                                             \
    __attribute__((target(isa))) static void copy_##name##_nt(void *dst, const void *src,         \
                                                              size_t len)                         \
    {                                                                                             \
        move_##name(dst, src, len, 1, 1);                                                            \
    }

DEFINE_VECTOR_WORKER(sse2, "sse2", 16, _mm_loadu_si128, _mm_storeu_si128, _mm_stream_si128,
                     _mm_setzero_si128)
DEFINE_VECTOR_WORKER(avx2, "avx2", 32, _mm256_loadu_si256, _mm256_storeu_si256,
                     _mm256_stream_si256, _mm256_setzero_si256)
DEFINE_VECTOR_WORKER(avx512, "avx512f", 64, _mm512_loadu_si512, _mm512_storeu_si512,
                     _mm512_stream_si512, _mm512_setzero_si512)
#undef DEFINE_VECTOR_WORKER

enum isa { ISA_SSE2, ISA_AVX2, ISA_AVX512 };

static int isa_supported(enum isa isa)
{
    switch (isa) { /* __builtin_cpu_supports takes only literals; it checks OS support too */
    case ISA_SSE2: return 1; /* x86-64 baseline */
    case ISA_AVX2: return __builtin_cpu_supports("avx2");
    case ISA_AVX512: return __builtin_cpu_supports("avx512f");
    }
    return 0;
}

static const struct vector_row {
    struct lab_memop op;
    enum isa isa;
} rows[] = {
    { { "sse2", "movdqu xmm stores", MEMOP_ZERO, zero_sse2, NULL }, ISA_SSE2 },
    { { "sse2-nt", "movntdq xmm + sfence (Evans 2003's movntps, integer form)", MEMOP_ZERO, zero_sse2_nt, NULL }, ISA_SSE2 },
    { { "avx2", "vmovdqu ymm stores", MEMOP_ZERO, zero_avx2, NULL }, ISA_AVX2 },
    { { "avx2-nt", "vmovntdq ymm + sfence", MEMOP_ZERO, zero_avx2_nt, NULL }, ISA_AVX2 },
    { { "avx512", "vmovdqu64 zmm stores", MEMOP_ZERO, zero_avx512, NULL }, ISA_AVX512 },
    { { "avx512-nt", "vmovntdq zmm + sfence", MEMOP_ZERO, zero_avx512_nt, NULL }, ISA_AVX512 },
    { { "sse2", "movdqu xmm loads and stores", MEMOP_COPY, copy_sse2, NULL }, ISA_SSE2 },
    { { "sse2-nt", "movdqu loads, movntdq xmm stores + sfence", MEMOP_COPY, copy_sse2_nt, NULL }, ISA_SSE2 },
    { { "avx2", "vmovdqu ymm loads and stores", MEMOP_COPY, copy_avx2, NULL }, ISA_AVX2 },
    { { "avx2-nt", "vmovdqu ymm loads, vmovntdq stores + sfence", MEMOP_COPY, copy_avx2_nt, NULL }, ISA_AVX2 },
    { { "avx512", "vmovdqu64 zmm loads and stores", MEMOP_COPY, copy_avx512, NULL }, ISA_AVX512 },
    { { "avx512-nt", "vmovdqu64 zmm loads, vmovntdq stores + sfence", MEMOP_COPY, copy_avx512_nt, NULL }, ISA_AVX512 },
};

size_t lab_memops_vector_collect(enum lab_memop_kind kind, const struct lab_memop **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows && n < cap; i++)
        if (rows[i].op.kind == kind && isa_supported(rows[i].isa))
            out[n++] = &rows[i].op;
    return n;
}

#else /* not x86-64: no vector rows yet */

size_t lab_memops_vector_collect(enum lab_memop_kind kind, const struct lab_memop **out, size_t cap)
{
    (void)kind;
    (void)out;
    (void)cap;
    return 0;
}

#endif
