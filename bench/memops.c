/*
 * The lab's memory operations (Evans 2003's bzero/bcopy comparison): zeroing and copying with
 * libc, with x86 string instructions, and with unrolled scalar loops of several widths; the
 * vector ones (normal and non-temporal stores) are in bench/memops_vector.c. Lab subjects, not
 * library API. Each is exact for any length and alignment: it writes [dst, dst + len) and
 * nothing else (tests/test_memops.c checks it).
 */
#include "lab.h"

#include <stdint.h>
#include <string.h>

/* ---- libc ------------------------------------------------------------------------------ */

static void zero_libc(void *dst, const void *src, size_t len)
{
    (void)src;
    memset(dst, 0, len);
}

static void copy_libc(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}

/* ---- unrolled scalar: K 8-byte stores per iteration -------------------------------------- */

/*
 * An 8-byte store that the compiler must emit as one: the empty asm with a memory clobber
 * keeps it from merging neighbours into vector stores or turning the loop into a call to
 * memset/memcpy, which would measure libc again under another name.
 */
static inline void store8(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, sizeof v);
    __asm__ volatile("" ::: "memory");
}

static inline uint64_t load8(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Copy (or zero, when `copy` is 0) with K stores per iteration, then 8-byte and 1-byte tails.
 * Always inlined with constant `copy` and `k`. */
static inline __attribute__((always_inline)) void move_unrolled(unsigned char *d,
                                                                const unsigned char *s,
                                                                size_t len, size_t k, int copy)
{
    size_t i = 0;
    for (; len - i >= 8 * k; i += 8 * k) {
#pragma GCC unroll 8
        for (size_t j = 0; j < k; j++)
            store8(d + i + 8 * j, copy ? load8(s + i + 8 * j) : 0);
    }
    for (; len - i >= 8; i += 8)
        store8(d + i, copy ? load8(s + i) : 0);
    for (; i < len; i++) {
        d[i] = copy ? s[i] : 0;
        __asm__ volatile("" ::: "memory");
    }
}

#define UNROLLED(k)                                                   \
    static void zero_unroll##k(void *dst, const void *src, size_t len) \
    {                                                                 \
        (void)src;                                                    \
        move_unrolled(dst, NULL, len, (k) / 8, 0);                    \
    }                                                                 \
    static void copy_unroll##k(void *dst, const void *src, size_t len) \
    {                                                                 \
        move_unrolled(dst, src, len, (k) / 8, 1);                     \
    }
UNROLLED(8)
UNROLLED(16)
UNROLLED(32)
UNROLLED(64)
#undef UNROLLED

/* ---- x86 string instructions (fast with ERMS/FSRM) ----------------------------------------- */

#if defined(__x86_64__)
static void zero_rep_stosb(void *dst, const void *src, size_t len)
{
    (void)src;
    __asm__ volatile("rep stosb" : "+D"(dst), "+c"(len) : "a"(0) : "memory");
}

static void copy_rep_movsb(void *dst, const void *src, size_t len)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(len) : : "memory");
}
#endif

/* ---- the list ------------------------------------------------------------------------------ */

#define ZERO(id, name, origin) { name, origin, MEMOP_ZERO, zero_##id, NULL }
#define COPY(id, name, origin) { name, origin, MEMOP_COPY, copy_##id, NULL }

static const struct lab_memop scalar_ops[] = {
    ZERO(libc, "memset", "libc memset"),
#if defined(__x86_64__)
    ZERO(rep_stosb, "rep stosb", "x86 string store (Evans 2003's stosl, byte form for ERMS)"),
#endif
    ZERO(unroll8, "unroll 8", "one 8-byte store per iteration (Evans 2003's unroll 8)"),
    ZERO(unroll16, "unroll 16", "two 8-byte stores per iteration"),
    ZERO(unroll32, "unroll 32", "four 8-byte stores per iteration"),
    ZERO(unroll64, "unroll 64", "eight 8-byte stores per iteration (Evans 2003's unroll 64)"),
    COPY(libc, "memcpy", "libc memcpy"),
#if defined(__x86_64__)
    COPY(rep_movsb, "rep movsb", "x86 string move (ERMS/FSRM)"),
#endif
    COPY(unroll8, "unroll 8", "one 8-byte load/store per iteration"),
    COPY(unroll16, "unroll 16", "two 8-byte loads/stores per iteration"),
    COPY(unroll32, "unroll 32", "four 8-byte loads/stores per iteration"),
    COPY(unroll64, "unroll 64", "eight 8-byte loads/stores per iteration"),
};

size_t lab_memops_collect(enum lab_memop_kind kind, const struct lab_memop **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof scalar_ops / sizeof *scalar_ops && n < cap; i++)
        if (scalar_ops[i].kind == kind)
            out[n++] = &scalar_ops[i];
    return n + lab_memops_vector_collect(kind, out + n, cap - n);
}
