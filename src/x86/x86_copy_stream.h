/*
 * Copy+checksum with non-temporal (streaming) stores, shared by the "-nt" copy rows.
 *
 * Why: a store to a line that is not cached first reads the line (read for ownership), so a
 * cached copy of a buffer far larger than the cache moves three bytes over the memory bus per
 * byte copied, and evicts everything else on the way. Streaming stores write whole lines from
 * write-combining buffers without reading them: two bytes of traffic per byte, cache left
 * alone. They lose when the destination would have stayed cached (Evans 2003 in docs/SOURCES.md: 3x slower on a
 * cached 4 KiB buffer, 3x faster on an uncached 400 MiB one), hence the size threshold in
 * csum_partial_copy's dispatch (glibc's rule for memcpy).
 *
 * Streaming stores want full, aligned lines: the bytes up to the first 64-byte boundary of dst
 * go through the kernel with normal stores, the rest with streaming stores from that boundary.
 * The two sums are combined at the head's offset (byte-rotated when the head is odd), and the
 * result is reduced to its canonical 16-bit value so it does not depend on where dst happens to
 * be aligned. An sfence at the end orders the weakly-ordered streaming stores before any later
 * store, so a caller that publishes the buffer (a flag, a ring index) publishes its contents.
 */
#ifndef CSUM_X86_COPY_STREAM_H
#define CSUM_X86_COPY_STREAM_H

#include <immintrin.h>

#include "csum_internal.h"

typedef csum_wsum (*x86_sum_kernel)(unsigned char *dst, const unsigned char *src, size_t len,
                                    csum_wsum sum, enum csum_store store);

/* `kernel` is an always-inline summing loop; a constant here, so it is inlined twice. */
CSUM_ALWAYS_INLINE csum_wsum x86_copy_stream(x86_sum_kernel kernel, void *dst, const void *src,
                                             size_t len, csum_wsum sum)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (len == 0)
        return csum_canonical16(sum);
    size_t head = (size_t)(-(uintptr_t)d & 63);
    if (head > len)
        head = len;
    csum_wsum first = kernel(d, s, head, sum, CSUM_STORE_TEMPORAL);
    csum_wsum rest = kernel(d + head, s + head, len - head, 0, CSUM_STORE_STREAM);
    _mm_sfence();
    return csum_canonical16(csum_inline_block_add(first, rest, head));
}

#endif /* CSUM_X86_COPY_STREAM_H */
