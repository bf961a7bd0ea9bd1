/*
 * Properties of results rather than single values: sums of pieces combine into the sum of the
 * whole, results do not depend on the address, and the public entry point agrees with the row.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

/*
 * csum_block_sub(sum of p[0, len) seeded with `seed`, sum of the piece p[from, to), from)
 * against the oracle's sum of the rest: p with the piece zeroed, since a zero byte adds
 * nothing wherever it is. `scratch` holds len bytes. Returns the oracle's value. When the
 * rest sums to exactly 0 (seed 0, zero bytes only), which the oracle folds to 0xffff,
 * subtraction leaves negative zero, which folds to 0x0000: csum.h documents that difference.
 */
static uint16_t check_block_sub(struct test_ctx *t, const unsigned char *p, size_t len,
                                size_t from, size_t to, csum_wsum seed, unsigned char *scratch,
                                const char *what)
{
    csum_partial_fn f = t->impl->partial;
    const csum_wsum whole = f(p, len, seed), piece = f(p + from, to - from, 0);
    memcpy(scratch, p, len);
    memset(scratch + from, 0, to - from);
    const uint16_t rest = oracle_checksum(scratch, len, seed);
    const uint16_t want = rest == 0xffff ? 0x0000 : rest;
    const csum_wsum got = csum_block_sub(whole, piece, from);
    CHECK(t, (csum_block_sub)(whole, piece, from) == got,
          "%s: %s: exported csum_block_sub 0x%08x, inline 0x%08x", t->impl->name, what,
          (unsigned)(csum_block_sub)(whole, piece, from), (unsigned)got);
    CHECK(t, csum16_network_value(csum_fold(got)) == want,
          "%s: %s: csum_block_sub of [%zu, %zu) from %zu bytes, seed 0x%08x: folds to 0x%04x, "
          "the rest's oracle 0x%04x", t->impl->name, what, from, to, len, (unsigned)seed,
          csum16_network_value(csum_fold(got)), rest);
    return rest;
}

/* Removing a piece's sum with csum_block_sub leaves the sum of the rest: random pieces at odd
 * and even offsets under seeds 0, ~0 and random, then the two ends of ones'-complement zero. */
static void block_sub_pieces(struct test_ctx *t, const unsigned char *p, size_t len)
{
    static const csum_wsum seeds[] = { 0, 0xffffffffu, 0x89abcdefu };
    unsigned char *scratch = alloc_aligned(len);
    unsigned char *edge = alloc_aligned(len);
    uint64_t rng = 0x5b;
    for (int round = 0; round < (t->quick ? 300 : 2000); round++) {
        size_t from = (size_t)(testdata_next(&rng) % (len + 1));
        size_t to = from + (size_t)(testdata_next(&rng) % (len - from + 1));
        csum_wsum seed = round % 3 < 2 ? seeds[round % 3] : (csum_wsum)testdata_next(&rng);
        check_block_sub(t, p, len, from, to, seed, scratch, "random piece");
    }

    /* Zero bytes around the piece: the rest is +0 under seed 0 (0xffff by the oracle), -0
     * under seed ~0 (0x0000). 0xff bytes around a piece with even ends: a nonzero multiple of
     * 0xffff (0x0000). The piece itself from the data, or of the same bytes as the rest; at
     * odd and even offsets; empty, and the whole message. */
    static const size_t froms[] = { 0, 1, 2, 7, 64, 65 };
    static const size_t lens[] = { 0, 1, 2, 9, 40, 333 };
    size_t plus_zero = 0, minus_zero = 0;
    for (int fill = 0; fill < 2; fill++) {
        for (int piece_of_data = 0; piece_of_data < 2; piece_of_data++) {
            for (size_t i = 0; i < sizeof froms / sizeof froms[0]; i++) {
                for (size_t j = 0; j <= sizeof lens / sizeof lens[0]; j++) {
                    size_t from = j < sizeof lens / sizeof lens[0] ? froms[i] : 0;
                    size_t to = j < sizeof lens / sizeof lens[0] ? from + lens[j] : len;
                    memset(edge, fill ? 0xff : 0x00, len);
                    if (piece_of_data)
                        memcpy(edge + from, p + from, to - from);
                    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
                        uint16_t rest = check_block_sub(t, edge, len, from, to, seeds[k],
                                                        scratch, "edge");
                        plus_zero += rest == 0xffff;
                        minus_zero += rest == 0x0000;
                    }
                }
            }
        }
    }
    CHECK(t, plus_zero > 0 && minus_zero > 0,
          "%s: the edge cases left +0 %zu times and -0 %zu times", t->impl->name, plus_zero,
          minus_zero);
    free(scratch);
    free(edge);
}

void test_composition(struct test_ctx *t)
{
    const size_t len = t->quick ? 600 : 1600;
    unsigned char *buf = alloc_aligned(len + 64);
    unsigned char *p = buf + 5;
    testdata_fill(p, len, 0xc0de);
    const csum_wsum init = 0x89abcdefu;
    const uint16_t want = oracle_checksum(p, len, init);
    csum_partial_fn f = t->impl->partial;

    for (size_t k = 0; k <= len; k++) {
        csum_wsum head = f(p, k, init);
        csum_wsum tail = f(p + k, len - k, 0);
        check_value(t, csum_block_add(head, tail, k), want, len, k, init, "two blocks at k");
        /* Removing the tail's contribution leaves the head's. */
        csum_wsum whole = csum_block_add(head, tail, k);
        CHECK(t, csum_sub(whole, csum_block_add(0, tail, k)) % 0xffff == head % 0xffff,
              "csum_sub of the tail at k=%zu", k);
        /* Continuing a running sum is only valid at even offsets. */
        if (k % 2 == 0)
            check_value(t, f(p + k, len - k, head), want, len, k, init, "continued at even k");
        /* Three pieces. */
        size_t j = k + (k * 7919) % (len - k + 1);
        csum_wsum mid = f(p + k, j - k, 0), rest = f(p + j, len - j, 0);
        check_value(t, csum_block_add(csum_block_add(head, mid, k), rest, j), want, len, k, init,
                    "three blocks");
    }

    /* Random chunking, byte-by-byte included (xxHash-style streaming). */
    uint64_t rng = 99;
    for (int round = 0; round < (t->quick ? 50 : 400); round++) {
        csum_wsum s = init;
        size_t off = 0;
        size_t max_chunk = round == 0 ? 1 : 1 + testdata_next(&rng) % 300;
        while (off < len) {
            size_t n = 1 + testdata_next(&rng) % max_chunk;
            if (n > len - off)
                n = len - off;
            s = csum_block_add(s, f(p + off, n, 0), off);
            off += n;
        }
        check_value(t, s, want, len, 5, init, "random chunks");
    }
    block_sub_pieces(t, p, len);
    free(buf);
}

void test_address_independence(struct test_ctx *t)
{
    static const size_t lens[] = { 0, 1, 2, 3, 7, 8, 9, 14, 15, 16, 20, 31, 40, 63, 64, 65,
                                   100, 255, 256, 1500, 4097 };
    unsigned char *src = alloc_aligned(4097);
    unsigned char *buf = alloc_aligned(4097 + 64 * 7);
    testdata_fill(src, 4097, 0xadd7);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        csum_wsum first = 0;
        for (size_t a = 0; a < 64; a++) {
            unsigned char *p = buf + a * 7; /* 64 addresses, every residue mod 64 */
            memcpy(p, src, lens[i]);
            csum_wsum got = t->impl->partial(p, lens[i], 0x1357);
            if (a == 0)
                first = got;
            CHECK(t, got == first, "%s: len %zu gives 0x%08x at %p but 0x%08x at %p",
                  t->impl->name, lens[i], (unsigned)got, (void *)p, (unsigned)first, (void *)buf);
        }
        check_value(t, first, oracle_checksum(src, lens[i], 0x1357), lens[i], 0, 0x1357,
                    "address independence");
    }
    free(src);
    free(buf);
}

void test_public_entry(struct test_ctx *t)
{
    if (csum_impl_select(t->impl->name) != 0 || csum_impl_active() != t->impl) {
        CHECK(t, 0, "cannot select %s", t->impl->name);
        return;
    }
    const size_t max_len = t->quick ? 300 : 1100;
    unsigned char *buf = alloc_aligned(max_len + 64);
    static const size_t aligns[] = { 0, 1, 3, 8, 63 };
    for (size_t ai = 0; ai < sizeof aligns / sizeof aligns[0]; ai++) {
        unsigned char *p = buf + aligns[ai];
        testdata_fill(p, max_len, 0xe7 + ai);
        for (size_t len = 0; len <= max_len; len++) {
            csum_wsum init = (csum_wsum)(len * 0x9e3779b9u);
            check_value(t, csum_partial(p, len, init), oracle_checksum(p, len, init), len,
                        aligns[ai], init, "csum_partial");
        }
    }
    free(buf);
    /* Flush against guard pages too: with x86-scalar selected the dispatcher runs its short
     * path in place, code that no row's own test reaches. */
    struct guarded_buffer g;
    if (guarded_buffer_map(&g, max_len) == 0) {
        testdata_fill(g.data, g.data_len, 0x6a7e);
        for (size_t len = 0; len <= max_len; len++) {
            const unsigned char *at[2] = { g.data + g.data_len - len, g.data };
            for (int k = 0; k < 2; k++)
                check_value(t, csum_partial(at[k], len, 0xffffffffu),
                            oracle_checksum(at[k], len, 0xffffffffu), len,
                            (uintptr_t)at[k] & 63, 0xffffffffu, "csum_partial against a guard page");
        }
        guarded_buffer_unmap(&g);
    } else {
        CHECK(t, 0, "cannot map guard pages");
    }
    csum_impl_select("auto");
}
