/*
 * csum — the Internet checksum (RFC 1071), fast on the CPU it runs on.
 *
 * Vocabulary follows Linux's include/net/checksum.h:
 *  - csum_wsum  is an unfolded 32-bit ones'-complement running sum. Pass it back in as the
 *               `sum` argument to continue a checksum; it is not yet a checksum.
 *  - csum_sum16 is the folded and complemented 16-bit value that is stored in a header.
 *
 * Byte order: data is summed as 16-bit words in memory order, exactly as the kernel does, so
 * `csum_fold(csum_partial(p, n, 0))` stored in memory as-is (memcpy, or a uint16_t field of a
 * packet header) is the network-order checksum on little- and big-endian hosts alike. Do not
 * byte-swap it. To print it the way Wireshark does, read the two stored bytes big-endian.
 *
 * Different implementations may return different 32-bit csum_wsum values for the same bytes,
 * but they are always congruent modulo 0xffff, so csum_fold() agrees and every value composes
 * with csum_add()/csum_block_add(). The result never depends on the address of the buffer.
 */
#ifndef CSUM_H
#define CSUM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h> /* struct iovec */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(CSUM_BUILDING_LIBRARY) && defined(__GNUC__)
#  define CSUM_API __attribute__((visibility("default")))
#else
#  define CSUM_API
#endif

/** Unfolded 32-bit ones'-complement sum (the kernel's __wsum). Feed it back in as `sum`. */
typedef uint32_t csum_wsum;
/** Folded, complemented 16-bit checksum in memory (network) order (the kernel's __sum16). */
typedef uint16_t csum_sum16;

/**
 * Ones'-complement sum of `len` bytes at `buf`, added to `sum`.
 *
 * @param buf  the bytes; any alignment. May be NULL only when `len` is 0.
 * @param len  number of bytes, any value (odd lengths and lengths above 4 GiB included).
 * @param sum  running sum to continue (0 to start). The bytes are treated as if they started
 *             at an even offset of the whole message; see csum_block_add() otherwise.
 * @return     the new unfolded sum. Never reads outside [buf, buf + len).
 *
 * Uses the implementation chosen by csum_impl_select(), or by the CSUM_IMPL environment
 * variable at first use, or the fastest one this CPU supports.
 */
CSUM_API csum_wsum csum_partial(const void *buf, size_t len, csum_wsum sum);

/**
 * Copy `len` bytes from `src` to `dst` and return their ones'-complement sum added to `sum`,
 * in one pass over the data (the kernel's csum_partial_copy_nocheck, with a seed).
 *
 * @param dst  where the bytes go; any alignment. Exactly [dst, dst + len) is written.
 * @param src  the bytes; any alignment. Exactly [src, src + len) is read.
 *             The two ranges must not overlap (like memcpy; the result is then undefined).
 * @param len  number of bytes, any value.
 * @param sum  running sum to continue, as for csum_partial(). Seeding with 0xffffffff makes
 *             the result never 0, whatever the data, so a caller can reserve 0 as an error
 *             value (how Linux's csum_and_copy_*_user() report a fault).
 * @return     the new unfolded sum, congruent to csum_partial(src, len, sum) modulo 0xffff.
 *             If `dst` or `src` is NULL nothing is copied and `sum` is returned unchanged.
 *
 * Uses the implementation from csum_copy_impl_select() or the CSUM_COPY_IMPL environment
 * variable, else the fastest one for this CPU and length: copies of at least
 * csum_copy_nontemporal_threshold() bytes use non-temporal (streaming) stores, which bypass
 * the caches, so a huge copy does not evict everything else. Streaming stores are ordered
 * (sfence) before the function returns.
 */
CSUM_API csum_wsum csum_partial_copy(void *dst, const void *src, size_t len, csum_wsum sum);

/**
 * The sum of the concatenation of `n` segments (scatter-gather), added to `sum`: the same
 * value modulo 0xffff as csum_partial() over one buffer holding the segments back to back.
 * Segments may have any length and alignment, odd and empty ones included; a segment with
 * an odd length shifts the byte lanes of everything after it, which is accounted for.
 * A NULL `iov` (with any `n`) returns `sum`; a segment whose iov_base is NULL counts as empty.
 */
CSUM_API csum_wsum csum_iov(const struct iovec *iov, size_t n, csum_wsum sum);

/**
 * Copy the `n` segments back to back into `dst` and return the sum of the concatenation, as
 * csum_iov(). `dst` must have room for the total length and must not overlap any segment.
 * The implementation is chosen once for the total length (a large gather uses streaming
 * stores even if its segments are small). A NULL `dst` or `iov` copies nothing and returns
 * `sum`; a segment whose iov_base is NULL counts as empty.
 */
CSUM_API csum_wsum csum_iov_copy(void *dst, const struct iovec *iov, size_t n, csum_wsum sum);

/**
 * Fold a 32-bit sum to 16 bits and complement it: the value to store in a checksum field.
 * A buffer that already contains a correct checksum folds to 0.
 */
CSUM_API csum_sum16 csum_fold(csum_wsum sum);

/** Ones'-complement addition of two sums (end-around carry). */
CSUM_API csum_wsum csum_add(csum_wsum a, csum_wsum b);

/** Ones'-complement subtraction: removes `b`'s contribution from `a`. */
CSUM_API csum_wsum csum_sub(csum_wsum a, csum_wsum b);

/**
 * Add the sum of a block that was computed on its own (csum_partial(block, n, 0)) into the
 * sum of a whole message, given that the block starts at byte `offset` of that message.
 * A block at an odd offset has its bytes in the other half of each 16-bit word, so its sum
 * is byte-rotated before adding.
 */
CSUM_API csum_wsum csum_block_add(csum_wsum sum, csum_wsum block, size_t offset);

/** Signature shared by every csum_partial implementation. */
typedef csum_wsum (*csum_partial_fn)(const void *buf, size_t len, csum_wsum sum);

/** One compiled-in implementation of csum_partial. */
struct csum_impl {
    const char *name;         /**< short name: "generic", "avx512", "x86-adx", ... */
    const char *description;  /**< one line, including where the algorithm comes from */
    csum_partial_fn partial;  /**< the function itself; call only if csum_impl_supported() */
    const char *requires;     /**< CPU features it needs, space-separated ("" for none) */
};

/** Number of compiled-in implementations, supported by this CPU or not. */
CSUM_API size_t csum_impl_count(void);

/** The i-th implementation in priority order (fastest first); NULL when i >= count. */
CSUM_API const struct csum_impl *csum_impl_get(size_t i);

/** The implementation called `name`, or NULL (also for NULL). */
CSUM_API const struct csum_impl *csum_impl_find(const char *name);

/** Nonzero if this CPU (and OS) can run `impl`; 0 for NULL or a pointer not from the table. */
CSUM_API int csum_impl_supported(const struct csum_impl *impl);

/** The implementation csum_partial() uses now (initializing the choice if needed). */
CSUM_API const struct csum_impl *csum_impl_active(void);

/**
 * Make csum_partial() use the implementation called `name`; "auto" picks the best one for
 * this CPU. Returns 0 on success, -1 if the name is unknown or this CPU cannot run it (the
 * active implementation is then unchanged). Safe to call from any thread at any time.
 */
CSUM_API int csum_impl_select(const char *name);

/** Signature shared by every csum_partial_copy implementation. */
typedef csum_wsum (*csum_partial_copy_fn)(void *dst, const void *src, size_t len, csum_wsum sum);

/** One compiled-in implementation of csum_partial_copy (a second table, like csum_impl's). */
struct csum_copy_impl {
    const char *name;          /**< short name: "generic", "avx512-vnni", "avx512-vnni-nt", ... */
    const char *description;   /**< one line, including where the algorithm comes from */
    csum_partial_copy_fn copy; /**< the function itself; call only if csum_copy_impl_supported() */
    const char *requires;      /**< CPU features it needs, space-separated ("" for none) */
    int nontemporal;           /**< 1: streaming stores that bypass the caches; "auto" uses it
                                    only from csum_copy_nontemporal_threshold() bytes up */
};

/** Number of compiled-in copy implementations, supported by this CPU or not. */
CSUM_API size_t csum_copy_impl_count(void);

/** The i-th copy implementation in priority order; NULL when i >= count. */
CSUM_API const struct csum_copy_impl *csum_copy_impl_get(size_t i);

/** The copy implementation called `name`, or NULL (also for NULL). */
CSUM_API const struct csum_copy_impl *csum_copy_impl_find(const char *name);

/** Nonzero if this CPU (and OS) can run `impl`; 0 for NULL or a pointer not from the table. */
CSUM_API int csum_copy_impl_supported(const struct csum_copy_impl *impl);

/**
 * The implementation csum_partial_copy() uses now for a copy of `len` bytes: the selected
 * one, or under "auto" the first supported temporal row below the threshold and the first
 * supported non-temporal row from it up.
 */
CSUM_API const struct csum_copy_impl *csum_copy_impl_active(size_t len);

/**
 * Make csum_partial_copy() (and csum_iov_copy()) use the copy implementation `name` for every
 * length; "auto" restores the choice by CPU and length. Returns 0 on success, -1 if the name
 * is unknown or this CPU cannot run it (nothing changes then). Safe from any thread.
 */
CSUM_API int csum_copy_impl_select(const char *name);

/**
 * Copies of at least this many bytes use non-temporal stores under "auto". The rule is
 * glibc's for memcpy (2.33 to 2.37): 3/4 of one logical CPU's share of the last-level cache
 * (its size divided by the CPUs sharing it, from CPUID), at least 1 MiB; 3 MiB when the
 * cache cannot be read. SIZE_MAX when no non-temporal row runs on this CPU.
 */
CSUM_API size_t csum_copy_nontemporal_threshold(void);

/*
 * Inline fast paths. The functions above are all exported (for FFI and dlsym users, and for
 * taking their address); the macros below make direct calls inline instead. Define
 * CSUM_NO_INLINE before including this header to always call the exported functions.
 * The csum_inline_* helpers are the single definition of this arithmetic.
 */
static inline csum_sum16 csum_inline_fold(csum_wsum sum)
{
    /* Two steps: the first may carry out of bit 15, the second cannot. */
    sum = (sum & 0xffff) + (sum >> 16);
    sum = (sum & 0xffff) + (sum >> 16);
    return (csum_sum16)~sum;
}

static inline csum_wsum csum_inline_add(csum_wsum a, csum_wsum b)
{
    csum_wsum r = a + b;
    return r + (r < b); /* end-around carry */
}

static inline csum_wsum csum_inline_block_add(csum_wsum sum, csum_wsum block, size_t offset)
{
    /* Rotating a 32-bit sum by 8 bits swaps the bytes of every 16-bit word modulo 0xffff. */
    if (offset & 1)
        block = (block >> 8) | (block << 24);
    return csum_inline_add(sum, block);
}

#ifndef CSUM_NO_INLINE
#define csum_fold(sum)                   csum_inline_fold(sum)
#define csum_add(a, b)                   csum_inline_add((a), (b))
#define csum_sub(a, b)                   csum_inline_add((a), ~(csum_wsum)(b))
#define csum_block_add(sum, block, off)  csum_inline_block_add((sum), (block), (off))

#endif /* CSUM_NO_INLINE */

#ifdef __cplusplus
}
#endif

#endif /* CSUM_H */
