/*
 * Fuzz target (a): csum_partial. Every implementation this CPU supports, and the public entry
 * point, against the byte-at-a-time oracle, on a message whose length, alignment, initial sum,
 * split points and bytes all come from the input.
 *
 * Input: a 12-byte header, then the message (missing header bytes read as zero).
 *   byte  0      alignment: the message starts (byte & 63) bytes after a 64-byte boundary
 *   bytes 1..4   initial sum
 *   bytes 5..8   two split points, 16 bits each, taken modulo (length + 1)
 *   bytes 9..10  extension: this many more bytes are appended after the input's own, so short
 *                inputs reach the long-buffer loops (up to 64 KiB more); in the target
 *                partial_large (this file built with FUZZ_LARGE=1) this many 64-byte blocks (up
 *                to 4 MiB more): the kernels take buffers above 1 MiB in chunks (avx512-vnni,
 *                avx-vnni) or flush their lanes every 2 MiB (neon, avx2) and 4 MiB (avx512),
 *                and only such lengths reach that code. A target of its own, because such an
 *                input costs a hundred short ones: mixed in, they starved the short inputs
 *                (170 against 2300 runs a second, Zen 4 VM)
 *   byte  11     what the extension holds (low 2 bits): aperiodic bytes (splitmix64, seeded
 *                by header bytes 0..7), all 0xff (every add carries), all zero, or the input
 *                repeated
 *
 * Checks, for each implementation:
 *  - the folded sum equals the oracle's;
 *  - the same bytes flush against a PROT_NONE page at their end, and starting right after one,
 *    give the identical 32-bit sum (the result must not depend on the address; a read past
 *    either end crashes, even from inline assembly that AddressSanitizer does not see). The
 *    first placement is a heap block ending exactly at the message, for ASan;
 *  - the three pieces around the split points, summed on their own and combined with
 *    csum_block_add at their offsets, fold to the oracle's value; so does the kernel's
 *    streaming form, where a piece at an even offset continues the running sum directly;
 *  - the middle piece's sum taken out of the whole's with csum_block_sub folds to the oracle's
 *    value of the message with that piece zeroed (but for ones'-complement negative zero:
 *    where what is left is all zeros under a zero initial sum, 0x0000 instead of 0xffff).
 * partial_large checks the product rows only (they chunk and flush their lanes; the reference
 * rows are scalar loops, checked above 4 GiB by the unit tests), without the pieces.
 */
#include "fuzz_common.h"

#include "csum.h"
#include "csum_oracle.h"

#include <string.h>

#ifndef FUZZ_LARGE
#define FUZZ_LARGE 0
#endif

enum { MAX_LEN = FUZZ_LARGE ? (4 << 20) + (1 << 17) : 1 << 17 };

struct message {
    const unsigned char *p;
    size_t len, align;
    csum_wsum initial;
    size_t split[2];
    uint16_t want; /* the oracle's checksum */
    uint16_t want_rest; /* the oracle's checksum with the bytes in [split[0], split[1]) zeroed */
    int rest_is_zero;   /* those zeroed bytes, the rest and the initial sum are all 0 */
};

/* Same bytes at two other addresses: flush against the guard after them, and before them. */
static struct guarded_buffer end_guard, start_guard;

static void build_message(unsigned char *dst, const uint8_t *own, size_t own_len, size_t len,
                          unsigned fill, uint64_t seed)
{
    size_t n = own_len < len ? own_len : len;
    memcpy(dst, own, n);
    if (fill == 0)
        testdata_fill(dst + n, len - n, seed);
    else if (fill == 1 || (fill == 3 && n == 0))
        memset(dst + n, 0xff, len - n);
    else if (fill == 2)
        memset(dst + n, 0, len - n);
    else
        for (size_t i = n; i < len; i++)
            dst[i] = own[i % n];
}

static void describe(char *out, size_t size, const char *who, const struct message *m)
{
    snprintf(out, size, "%s: len %zu, align %zu, initial 0x%08lx, splits %zu %zu", who, m->len,
             m->align, (unsigned long)m->initial, m->split[0], m->split[1]);
}

static void check_pieces(const struct csum_impl *impl, const struct message *m, csum_wsum whole,
                         const char *ctx)
{
    const size_t from[3] = { 0, m->split[0], m->split[1] };
    const size_t to[3] = { m->split[0], m->split[1], m->len };
    csum_wsum combined = m->initial, streamed = m->initial;
    for (int k = 0; k < 3; k++) {
        csum_wsum piece = impl->partial(m->p + from[k], to[k] - from[k], 0);
        combined = csum_block_add(combined, piece, from[k]);
        streamed = from[k] % 2 == 0
                       ? impl->partial(m->p + from[k], to[k] - from[k], streamed)
                       : csum_block_add(streamed, piece, from[k]);
    }
    uint16_t got_combined = csum16_network_value(csum_fold(combined));
    uint16_t got_streamed = csum16_network_value(csum_fold(streamed));
    FUZZ_CHECK(got_combined == m->want, "%s: pieces with csum_block_add give 0x%04x, oracle 0x%04x",
               ctx, got_combined, m->want);
    FUZZ_CHECK(got_streamed == m->want, "%s: streamed pieces give 0x%04x, oracle 0x%04x", ctx,
               got_streamed, m->want);

    const csum_wsum middle = impl->partial(m->p + from[1], to[1] - from[1], 0);
    const uint16_t got_rest = csum16_network_value(csum_fold(csum_block_sub(whole, middle, from[1])));
    const uint16_t want_rest = m->rest_is_zero ? 0x0000 : m->want_rest;
    FUZZ_CHECK(got_rest == want_rest, "%s: csum_block_sub of the middle piece gives 0x%04x, "
               "oracle (the piece zeroed) 0x%04x", ctx, got_rest, want_rest);
}

static void check_impl(const struct csum_impl *impl, const struct message *m)
{
    char ctx[256];
    describe(ctx, sizeof ctx, impl->name, m);
    csum_wsum sum = impl->partial(m->p, m->len, m->initial);
    uint16_t got = csum16_network_value(csum_fold(sum));
    FUZZ_CHECK(got == m->want, "%s: 0x%04x, oracle 0x%04x", ctx, got, m->want);

    const unsigned char *at_end = end_guard.data + end_guard.data_len - m->len;
    csum_wsum sum_end = impl->partial(at_end, m->len, m->initial);
    csum_wsum sum_start = impl->partial(start_guard.data, m->len, m->initial);
    FUZZ_CHECK(sum_end == sum && sum_start == sum,
               "%s: the 32-bit sum depends on the address: 0x%08lx here, 0x%08lx at %p, "
               "0x%08lx at %p", ctx, (unsigned long)sum, (unsigned long)sum_end,
               (const void *)at_end, (unsigned long)sum_start, (const void *)start_guard.data);

    if (!FUZZ_LARGE) /* MiB-scale: the lanes and chunks are the point; pieces cost 6 passes */
        check_pieces(impl, m, sum, ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!end_guard.base && (guarded_buffer_map(&end_guard, MAX_LEN) != 0 ||
                            guarded_buffer_map(&start_guard, MAX_LEN) != 0)) {
        fprintf(stderr, "fuzz_partial: cannot map guard pages\n");
        abort();
    }
    struct fuzz_input in = { data, size }, header = { data, size };
    const uint64_t seed = fuzz_take(&header, 8);
    struct message m;
    m.align = fuzz_take(&in, 1) & 63;
    m.initial = (csum_wsum)fuzz_take(&in, 4);
    size_t split_raw[2] = { fuzz_take(&in, 2), fuzz_take(&in, 2) };
    size_t extension = fuzz_take(&in, 2);
    const unsigned layout = (unsigned)fuzz_take(&in, 1), fill = layout & 3;
    if (FUZZ_LARGE)
        extension *= 64;
    m.len = in.left + extension < MAX_LEN ? in.left + extension : MAX_LEN;

    /* The message ends exactly where its heap block ends (ASan poisons what follows). */
    void *block = NULL;
    if (posix_memalign(&block, 64, m.align + m.len + (m.align + m.len == 0)) != 0)
        abort();
    unsigned char *msg = (unsigned char *)block + m.align;
    build_message(msg, in.p, in.left, m.len, fill, seed);
    memcpy(end_guard.data + end_guard.data_len - m.len, msg, m.len);
    memcpy(start_guard.data, msg, m.len);

    m.p = msg;
    for (int k = 0; k < 2; k++)
        m.split[k] = split_raw[k] % (m.len + 1);
    if (m.split[0] > m.split[1]) {
        size_t t = m.split[0];
        m.split[0] = m.split[1];
        m.split[1] = t;
    }
    m.want = oracle_checksum(msg, m.len, m.initial);
    m.want_rest = 0;
    m.rest_is_zero = 0;
    if (!FUZZ_LARGE) { /* for csum_block_sub: the message with its middle piece zeroed */
        unsigned char *rest = malloc(m.len + (m.len == 0));
        if (!rest)
            abort();
        memcpy(rest, msg, m.len);
        memset(rest + m.split[0], 0, m.split[1] - m.split[0]);
        m.want_rest = oracle_checksum(rest, m.len, m.initial);
        m.rest_is_zero = m.initial == 0;
        for (size_t i = 0; i < m.len && m.rest_is_zero; i++)
            m.rest_is_zero = rest[i] == 0;
        free(rest);
    }

    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (csum_impl_supported(impl) && !(FUZZ_LARGE && impl->reference))
            check_impl(impl, &m);
    }
    /* The public entry point, through the dispatcher's length plan. */
    uint16_t got = csum16_network_value(csum_fold(csum_partial(msg, m.len, m.initial)));
    char ctx[256];
    describe(ctx, sizeof ctx, "csum_partial (dispatch)", &m);
    FUZZ_CHECK(got == m.want, "%s: 0x%04x, oracle 0x%04x", ctx, got, m.want);

    free(block);
    return 0;
}
