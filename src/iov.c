/*
 * Scatter-gather: the checksum of a chain of segments (csum_iov) or of a byte range of it
 * (csum_iov_range), and the gather-copy that produces it in the same pass (csum_iov_copy).
 *
 * A segment that starts at an odd offset of the message has its bytes in the other halves of
 * the 16-bit words, so its own sum is byte-rotated before it is added (csum_block_add; RFC 1071
 * section 2(B): the sum is byte-order independent). Only the parity of the offset matters. So
 * no byte has to be carried from one segment into the next, and each segment's bulk goes
 * through the fastest csum_partial however odd the segments before it were. Each segment is
 * summed from 0, not from the running sum, so consecutive calls do not wait for each other.
 * csum_iov sends every segment to csum_partial, whose dispatcher already runs the best short
 * path in place (measured: an inline loop of our own here was up to 30% slower from 8-byte
 * segments up). csum_iov_copy copies segments below 64 bytes inline, a 64-bit word at a time
 * with end-around carry: there the indirect call and a vector row's set-up and reduction cost
 * more than the work (Laight's benchmark in Viro/Laight 2020 has 16 segments of 1 byte up to 1 KiB; sources in
 * docs/SOURCES.md).
 */
#include "plan.h"

enum { INLINE_BELOW = 64 };

/* The sum of a short segment, copied to dst. Not sum_generic.h's loop: its four accumulators
 * and their combination cost more than the work below 64 bytes (the lab's iov table: 130
 * against 88 ticks for sixteen 1-byte segments). The tail is the shared helper. */
CSUM_ALWAYS_INLINE csum_wsum small_copy_sum(unsigned char *dst, const unsigned char *p, size_t n)
{
    uint64_t s = 0;
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        uint64_t v = csum_load64(p + i);
        csum_store64(dst + i, v);
        s = csum_add64(s, v);
    }
    return csum_fold64(csum_add64(s, csum_tail_copy_sum7(dst + i, p + i, n & 7)));
}

/* The sum of n segments added to acc, the first starting at an offset of parity `odd` in the
 * message: all of csum_iov, and csum_iov_range's whole segments between its first and last. */
CSUM_ALWAYS_INLINE csum_wsum sum_segments(const struct iovec *iov, size_t n, csum_wsum acc,
                                          size_t odd)
{
    for (size_t k = 0; k < n; k++) {
        const unsigned char *p = iov[k].iov_base;
        size_t len = iov[k].iov_len;
        if (!p || !len)
            continue;
        csum_wsum s = csum_partial(p, len, 0);
        acc = csum_inline_block_add(acc, s, odd);
        odd ^= len & 1;
    }
    return acc;
}

csum_wsum csum_iov(const struct iovec *iov, size_t n, csum_wsum sum)
{
    if (!iov)
        return sum;
    return sum_segments(iov, n, sum, 0);
}

/* A segment's length as csum_iov counts it: one whose iov_base is NULL is empty. */
static size_t segment_len(const struct iovec *v)
{
    return v->iov_base ? v->iov_len : 0;
}

/*
 * First a walk over the iovec entries alone, to the segments that hold the range's first and
 * last bytes, so a range that is not all there reads no byte; then the sum, csum_iov's to the
 * bit: the first piece at an even offset, the whole segments between through csum_iov's loop,
 * the last piece at the parity of the bytes before it. offset + len is never computed (the walk
 * takes each segment's length off what is left), so a range past SIZE_MAX cannot wrap around
 * into one that fits.
 */
csum_wsum csum_iov_range(const struct iovec *iov, size_t n, size_t offset, size_t len,
                         csum_wsum sum)
{
    if (!iov || !len)
        return sum;
    size_t first = 0;
    while (first < n && offset >= segment_len(&iov[first]))
        offset -= segment_len(&iov[first++]);
    if (first == n)
        return sum; /* the range starts at or past the end */
    const unsigned char *p = iov[first].iov_base;
    const size_t in_first = segment_len(&iov[first]) - offset; /* > 0 */
    if (len <= in_first)
        return csum_inline_add(sum, csum_partial(p + offset, len, 0));
    size_t last = first + 1, before = in_first; /* the range's bytes ahead of segment `last` */
    while (last < n && len - before > segment_len(&iov[last]))
        before += segment_len(&iov[last++]);
    if (last == n)
        return sum; /* the range ends past the end */
    csum_wsum acc = csum_inline_add(sum, csum_partial(p + offset, in_first, 0));
    acc = sum_segments(iov + first + 1, last - first - 1, acc, in_first & 1);
    return csum_inline_block_add(acc, csum_partial(iov[last].iov_base, len - before, 0), before);
}

csum_wsum csum_iov_copy(void *dst, const struct iovec *iov, size_t n, csum_wsum sum)
{
    if (!dst || !iov)
        return sum;
    size_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += iov[k].iov_base ? iov[k].iov_len : 0;
    /* One choice for the whole gather: it is the total that decides whether the destination
     * can stay in the cache. */
    csum_partial_copy_fn copy = csum_copy_fn_for(total);
    unsigned char *d = dst;
    csum_wsum acc = sum;
    size_t off = 0;
    for (size_t k = 0; k < n; k++) {
        const unsigned char *p = iov[k].iov_base;
        size_t len = iov[k].iov_len;
        if (!p || !len)
            continue;
        csum_wsum s = len < INLINE_BELOW ? small_copy_sum(d + off, p, len) : copy(d + off, p, len, 0);
        acc = csum_inline_block_add(acc, s, off);
        off += len;
    }
    return acc;
}
