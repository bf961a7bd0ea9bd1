/*
 * Fuzz target (b): csum_partial_copy, csum_iov, csum_iov_range and csum_iov_copy. Every copy
 * implementation this CPU supports and the public entry points, against the byte-at-a-time
 * oracle, on data, alignments, an initial sum and a segmentation taken from the input.
 *
 * Input: an 8-byte header, then a segment list, then the data (missing bytes read as zero).
 *   byte  0      source alignment (& 63) after a 64-byte boundary
 *   byte  1      destination alignment (& 63)
 *   bytes 2..5   initial sum
 *   byte  6      number of iovec segments (& 31)
 *   byte  7      extension: this many KiB of aperiodic bytes are appended to the data (& 127),
 *                so short inputs reach the long loops, the streaming rows' alignment step and,
 *                through csum_iov_copy, large gathers; in the target copy_iov_large (this
 *                file built with FUZZ_LARGE=1) this many 32 KiB blocks (up to 4064 KiB): the
 *                rows take copies above 1 MiB in chunks (avx512-vnni, avx-vnni), and only such
 *                lengths reach that code (a target of its own, as such an input costs many
 *                short ones)
 *   then 2 bytes per segment: its length (& 0x3fff); lengths beyond the data are cut, zero and
 *                odd ones are kept (the point of the exercise)
 *
 * Checks:
 *  - each copy row and csum_partial_copy: the sum folds to the oracle's, the destination equals
 *    the source, the 64 bytes before and after the destination are untouched, and the same copy
 *    with source and destination flush against PROT_NONE pages (end and start) does not crash
 *    and gives the same 32-bit sum;
 *  - seeded with 0xffffffff, csum_partial_copy never returns 0 (Al Viro's property, Viro/Laight 2020);
 *  - csum_iov over the segments equals the oracle over their concatenation, and csum_iov_copy
 *    writes exactly that concatenation (canaries around it) and returns the same checksum;
 *  - csum_iov_range over a range of the concatenation taken from the initial sum's bits
 *    (offset from its low 16, length from its high 16) equals the oracle over those bytes, and
 *    one byte longer than what is left after the offset returns the initial sum.
 */
#include "fuzz_common.h"

#include "csum.h"
#include "csum_oracle.h"

#include <string.h>
#include <sys/uio.h>

#ifndef FUZZ_LARGE
#define FUZZ_LARGE 0
#endif

enum {
    MAX_LEN = FUZZ_LARGE ? (4 << 20) + (130 << 10) : 130 << 10,
    CANARY = 64,
    CANARY_BYTE = 0xa5,
    MAX_SEGMENTS = 31
};

static struct guarded_buffer src_guard, dst_guard;
static unsigned char *src_mem, *dst_mem;

static void setup(void)
{
    if (src_mem)
        return;
    src_mem = malloc(MAX_LEN + 128);
    dst_mem = malloc(MAX_LEN + 128 + 2 * CANARY);
    FUZZ_CHECK(src_mem && dst_mem, "out of memory");
    FUZZ_CHECK(guarded_buffer_map(&src_guard, MAX_LEN) == 0 &&
                   guarded_buffer_map(&dst_guard, MAX_LEN) == 0, "cannot map guard pages");
}

static void check_canaries(const unsigned char *dst, size_t len, const char *who)
{
    for (size_t i = 1; i <= CANARY; i++)
        FUZZ_CHECK(dst[-(ptrdiff_t)i] == CANARY_BYTE && dst[len + i - 1] == CANARY_BYTE,
                   "%s: wrote outside the destination (len %zu)", who, len);
}

static void check_copy(const char *who, csum_partial_copy_fn copy, const unsigned char *src,
                       size_t len, size_t dst_align, csum_wsum initial, uint16_t want)
{
    unsigned char *dst = dst_mem + CANARY + dst_align;
    memset(dst - CANARY, CANARY_BYTE, len + 2 * CANARY);
    csum_wsum got = copy(dst, src, len, initial);
    FUZZ_CHECK(csum16_network_value(csum_fold(got)) == want,
               "%s: len %zu: checksum 0x%04x, oracle 0x%04x", who, len,
               csum16_network_value(csum_fold(got)), want);
    FUZZ_CHECK(memcmp(dst, src, len) == 0, "%s: len %zu: the copy differs", who, len);
    check_canaries(dst, len, who);

    /* Both buffers flush against a guard, after their end and then after the guard before. */
    unsigned char *gsrc[2] = { src_guard.data + src_guard.data_len - len, src_guard.data };
    unsigned char *gdst[2] = { dst_guard.data + dst_guard.data_len - len, dst_guard.data };
    for (int k = 0; k < 2; k++) {
        memcpy(gsrc[k], src, len);
        csum_wsum again = copy(gdst[k], gsrc[k], len, initial);
        FUZZ_CHECK(again == got, "%s: len %zu: 0x%08lx at the guards, 0x%08lx elsewhere", who,
                   len, (unsigned long)again, (unsigned long)got);
        FUZZ_CHECK(memcmp(gdst[k], src, len) == 0, "%s: len %zu: copy at the guards differs", who, len);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    struct fuzz_input in = { data, size };
    const size_t src_align = fuzz_take(&in, 1) & 63, dst_align = fuzz_take(&in, 1) & 63;
    const csum_wsum initial = (csum_wsum)fuzz_take(&in, 4);
    const size_t n_segments = fuzz_take(&in, 1) & MAX_SEGMENTS;
    const size_t extension = (fuzz_take(&in, 1) & 127) << (FUZZ_LARGE ? 15 : 10);
    size_t seg_len[MAX_SEGMENTS];
    for (size_t k = 0; k < n_segments; k++)
        seg_len[k] = fuzz_take(&in, 2) & 0x3fff;

    /* The data: the rest of the input, then the extension. */
    size_t own = in.left < MAX_LEN - extension ? in.left : MAX_LEN - extension;
    const size_t len = own + extension;
    unsigned char *src = src_mem + src_align;
    memcpy(src, in.p, own);
    testdata_fill(src + own, extension, (uint64_t)initial << 8 | src_align);
    const uint16_t want = oracle_checksum(src, len, initial);

    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (csum_copy_impl_supported(impl))
            check_copy(impl->name, impl->copy, src, len, dst_align, initial, want);
    }
    check_copy("csum_partial_copy", csum_partial_copy, src, len, dst_align, initial, want);
    FUZZ_CHECK(csum_partial_copy(dst_mem + CANARY, src, len, 0xffffffffu) != 0,
               "csum_partial_copy seeded with ~0 returned 0 (len %zu)", len);

    /* Segments over the data, in order; cut at the end of the data. */
    struct iovec iov[MAX_SEGMENTS];
    size_t used = 0;
    for (size_t k = 0; k < n_segments; k++) {
        size_t n = seg_len[k] < len - used ? seg_len[k] : len - used;
        iov[k].iov_base = src + used;
        iov[k].iov_len = n;
        used += n;
    }
    const uint16_t want_iov = oracle_checksum(src, used, initial);
    csum_wsum got = csum_iov(iov, n_segments, initial);
    FUZZ_CHECK(csum16_network_value(csum_fold(got)) == want_iov,
               "csum_iov: %zu segments, %zu bytes: 0x%04x, oracle 0x%04x", n_segments, used,
               csum16_network_value(csum_fold(got)), want_iov);
    unsigned char *flat = dst_mem + CANARY + dst_align;
    memset(flat - CANARY, CANARY_BYTE, used + 2 * CANARY);
    got = csum_iov_copy(flat, iov, n_segments, initial);
    FUZZ_CHECK(csum16_network_value(csum_fold(got)) == want_iov,
               "csum_iov_copy: %zu segments, %zu bytes: 0x%04x, oracle 0x%04x", n_segments, used,
               csum16_network_value(csum_fold(got)), want_iov);
    FUZZ_CHECK(memcmp(flat, src, used) == 0, "csum_iov_copy: the gathered bytes differ");
    check_canaries(flat, used, "csum_iov_copy");

    const size_t offset = (initial & 0xffff) % (used + 1);
    const size_t range = (initial >> 16) % (used - offset + 1);
    const uint16_t want_range = oracle_checksum(src + offset, range, initial);
    got = csum_iov_range(iov, n_segments, offset, range, initial);
    FUZZ_CHECK(csum16_network_value(csum_fold(got)) == want_range,
               "csum_iov_range: %zu segments, bytes %zu..+%zu of %zu: 0x%04x, oracle 0x%04x",
               n_segments, offset, range, used, csum16_network_value(csum_fold(got)), want_range);
    FUZZ_CHECK(csum_iov_range(iov, n_segments, offset, used - offset + 1, initial) == initial,
               "csum_iov_range past the end: %zu segments, bytes %zu..+%zu of %zu", n_segments,
               offset, used - offset + 1, used);
    return 0;
}
