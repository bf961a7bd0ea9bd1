/*
 * Pieces shared by the implementations and the dispatcher. Not installed.
 */
#ifndef CSUM_INTERNAL_H
#define CSUM_INTERNAL_H

#define CSUM_NO_INLINE /* the library defines the exported functions themselves */
#include "csum.h"
#include "cpu_features.h"

#include <stdint.h>
#include <string.h>

/*
 * A row of the implementation table. `pub` comes first so a `const struct csum_impl *`
 * handed to the user converts back to its row.
 */
struct csum_impl_entry {
    struct csum_impl pub;
    uint32_t cpu_features; /* CSUM_CPU_* bits that must all be present */
};

/* Each implementation file defines one of these; src/impl_list.h names them all. */
#define CSUM_IMPL_ROW(id) extern const struct csum_impl_entry csum_impl_##id;
#include "impl_list.h"
#undef CSUM_IMPL_ROW

const struct csum_impl_entry *csum_impl_entry_of(const struct csum_impl *impl);
int csum_impl_entry_supported(const struct csum_impl_entry *e);

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
 */
static inline uint64_t csum_tail_sum7(const unsigned char *p, size_t n)
{
    uint64_t s = 0;
    if (n & 4) {
        s += csum_load32(p);
        p += 4;
    }
    if (n & 2) {
        s += csum_load16(p);
        p += 2;
    }
    if (n & 1)
        s += csum_odd_byte(*p);
    return s;
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

#endif /* CSUM_INTERNAL_H */
