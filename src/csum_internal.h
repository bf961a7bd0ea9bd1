/*
 * Pieces shared by the kernels, the dispatcher and the helpers: unaligned loads, tails, folds.
 * Not installed. The kernel table's types are in kernel.h.
 */
#ifndef CSUM_INTERNAL_H
#define CSUM_INTERNAL_H

#define CSUM_NO_INLINE /* the library defines the exported functions themselves */
#include "csum.h"
#include "cpu_features.h"

#include <stdint.h>
#include <string.h>

/* getenv, but NULL in set-uid and set-gid programs (src/env.c): every CSUM_* variable, and
 * HOME and XDG_CONFIG_HOME, are read through it. */
const char *csum_getenv(const char *name);

/* Bytes of the last-level cache that one logical CPU can count on (src/cache_info.c). */
size_t csum_llc_share(void);

/*
 * What a summing kernel does with its destination. The kernels are written once and shared by
 * csum_partial (CSUM_STORE_NONE: sum only) and csum_partial_copy (store every byte it loaded).
 * They are always inlined with a constant mode, so each caller gets a loop without the test.
 * CSUM_STORE_STREAM (non-temporal stores) needs a destination aligned to the vector size for
 * full vectors; partial vectors are stored normally.
 */
enum csum_store { CSUM_STORE_NONE, CSUM_STORE_TEMPORAL, CSUM_STORE_STREAM };

#define CSUM_ALWAYS_INLINE static inline __attribute__((always_inline))

/* dst + i, or NULL when there is no destination: never offsets a null pointer. */
static inline unsigned char *csum_dst_at(unsigned char *dst, size_t i)
{
    return dst ? dst + i : NULL;
}

/* ---- Loads that are legal at any alignment and compile to a single instruction. ---- */

static inline uint64_t csum_load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline uint32_t csum_load32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline uint16_t csum_load16(const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void csum_store64(unsigned char *p, uint64_t v)
{
    memcpy(p, &v, sizeof v);
}

static inline void csum_store32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, sizeof v);
}

static inline void csum_store16(unsigned char *p, uint16_t v)
{
    memcpy(p, &v, sizeof v);
}

/*
 * A lone last byte at an even offset is the first byte of a 16-bit word whose second byte is
 * zero. Loaded in host order that is the low half on little-endian, the high half on big-endian.
 */
static inline uint32_t csum_odd_byte(unsigned char b)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint32_t)b << 8;
#else
    return b;
#endif
}

/*
 * The 0..7 bytes at p, as they would read as a 64-bit host-order word padded with zeros,
 * without touching any byte past p[n-1]. Pieces of 4, 2 and 1 bytes are added rather than
 * placed, since only the sum of the 16-bit words matters: each piece keeps its words aligned.
 * When dst is not NULL each piece is also stored there: exactly n bytes, nothing past them.
 */
CSUM_ALWAYS_INLINE uint64_t csum_tail_copy_sum7(unsigned char *dst, const unsigned char *p, size_t n)
{
    uint64_t s = 0;
    size_t i = 0;
    if (n & 4) {
        uint32_t v = csum_load32(p);
        if (dst)
            memcpy(dst, &v, 4);
        s += v;
        i = 4;
    }
    if (n & 2) {
        uint16_t v = csum_load16(p + i);
        if (dst)
            memcpy(dst + i, &v, 2);
        s += v;
        i += 2;
    }
    if (n & 1) {
        if (dst)
            dst[i] = p[i];
        s += csum_odd_byte(p[i]);
    }
    return s;
}

static inline uint64_t csum_tail_sum7(const unsigned char *p, size_t n)
{
    return csum_tail_copy_sum7(NULL, p, n);
}

/* 64-bit ones'-complement addition (end-around carry). */
static inline uint64_t csum_add64(uint64_t a, uint64_t b)
{
    uint64_t r = a + b;
    return r + (r < b);
}

/* Fold a 64-bit ones'-complement sum to 32 bits: add the halves, then the carry of that. */
static inline csum_wsum csum_fold64(uint64_t x)
{
    x = (x & 0xffffffffu) + (x >> 32);
    x = (x & 0xffffffffu) + (x >> 32);
    return (csum_wsum)x;
}

/*
 * The one 16-bit value of a sum's class modulo 0xffff (0 only for an exact zero), unfolded and
 * uncomplemented. A result that went through an address-dependent split (see the streaming
 * copies) is canonicalized with it, so equal bytes give equal results at any address.
 */
static inline csum_wsum csum_canonical16(csum_wsum x)
{
    x = (x & 0xffff) + (x >> 16);
    return (x & 0xffff) + (x >> 16);
}

#endif /* CSUM_INTERNAL_H */
