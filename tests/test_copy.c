/*
 * Per copy row: each csum_partial_copy implementation against the oracle, with the copy checked
 * byte for byte and the bytes around the destination checked untouched; buffers flush against
 * guard pages; 64 MiB copies; results independent of the addresses; the public entry point.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { COPY_MAX_LEN = 4160, AROUND = 64, CANARY = 0xa5 };

/* The initial sum of each sweep case: 0, 0xffffffff or pseudo-random, by length. */
static csum_wsum sweep_init(size_t len)
{
    uint64_t state = len * 0x9e37u;
    return len % 3 == 0 ? 0 : len % 3 == 1 ? 0xffffffffu : (csum_wsum)testdata_next(&state);
}

/* Fill AROUND bytes on each side of [dst, dst + len), and the range itself, with CANARY. */
static void prepare_dst(unsigned char *dst, size_t len)
{
    memset(dst - AROUND, CANARY, len + 2 * AROUND);
}

/*
 * One copy through the row under test: the sum against `want`, the copy against src, and the
 * `around` bytes on each side of dst (prepared with prepare_dst) untouched. Returns the sum.
 */
static csum_wsum copy_case(struct test_ctx *t, unsigned char *dst, const unsigned char *src,
                           size_t len, csum_wsum init, uint16_t want, size_t around,
                           const char *what)
{
    csum_wsum got = t->copy_impl->copy(dst, src, len, init);
    const size_t sa = (uintptr_t)src & 63, da = (uintptr_t)dst & 63;
    if (csum16_network_value(csum_fold(got)) != want)
        CHECK(t, 0, "copy %s: %s len %zu src align %zu dst align %zu initial 0x%08x: got 0x%04x, oracle 0x%04x",
              t->copy_impl->name, what, len, sa, da, (unsigned)init,
              csum16_network_value(csum_fold(got)), want);
    if (memcmp(dst, src, len) != 0) {
        size_t k = 0;
        while (dst[k] == src[k])
            k++;
        CHECK(t, 0, "copy %s: %s len %zu src align %zu dst align %zu: dst differs from src at byte %zu",
              t->copy_impl->name, what, len, sa, da, k);
    }
    for (size_t k = 0; k < around; k++) {
        if (dst[-1 - (ptrdiff_t)k] != CANARY || dst[len + k] != CANARY) {
            CHECK(t, 0, "copy %s: %s len %zu src align %zu dst align %zu: wrote %s dst (byte %zu)",
                  t->copy_impl->name, what, len, sa, da,
                  dst[-1 - (ptrdiff_t)k] != CANARY ? "before" : "after", k);
            break;
        }
    }
    return got;
}

/* ---- every length x src alignment x dst alignment ---------------------------------------------- */

static const size_t aligns16[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 31, 32, 33, 62, 63 };
static const size_t aligns4[] = { 0, 1, 7, 33 };

/* Lengths also run at all 64 x 64 alignment pairs: every size branch and its neighbours. */
static const size_t full_grid_lens[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                         63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513,
                                         1023, 1024, 1025, 1500, 2047, 2049, 4095, 4096, 4097,
                                         4159, 4160 };

static uint16_t *sweep_want; /* [len]: the oracle on the master data, computed once */
static unsigned char *sweep_master;

static void sweep_prepare(void)
{
    if (sweep_want)
        return;
    sweep_master = alloc_aligned(COPY_MAX_LEN);
    testdata_fill(sweep_master, COPY_MAX_LEN, 0xc09c0u);
    sweep_want = malloc((COPY_MAX_LEN + 1) * sizeof *sweep_want);
    for (size_t len = 0; len <= COPY_MAX_LEN; len++)
        sweep_want[len] = oracle_checksum(sweep_master, len, sweep_init(len));
}

static void sweep_pair(struct test_ctx *t, unsigned char *srcbuf, unsigned char *dstbuf, size_t sa,
                       size_t da, size_t len)
{
    unsigned char *dst = dstbuf + AROUND + da;
    prepare_dst(dst, len);
    copy_case(t, dst, srcbuf + sa, len, sweep_init(len), sweep_want[len], AROUND, "random data");
}

void test_copy_sweep(struct test_ctx *t)
{
    sweep_prepare();
    unsigned char *srcbuf = alloc_aligned(COPY_MAX_LEN + 64);
    unsigned char *dstbuf = alloc_aligned(COPY_MAX_LEN + 64 + 2 * AROUND);
    /* The same bytes at every source alignment, so one oracle answer per length serves all. */
    const size_t *a = t->quick ? aligns4 : aligns16;
    const size_t na = t->quick ? 4 : 16;
    for (size_t i = 0; i < na; i++) {
        testdata_fill(srcbuf, COPY_MAX_LEN + 64, 0x5eed + i);
        memcpy(srcbuf + a[i], sweep_master, COPY_MAX_LEN);
        for (size_t j = 0; j < na; j++)
            for (size_t len = 0; len <= COPY_MAX_LEN; len++)
                sweep_pair(t, srcbuf, dstbuf, a[i], a[j], len);
    }
    const size_t grid = t->quick ? 8 : sizeof full_grid_lens / sizeof *full_grid_lens;
    for (size_t sa = 0; sa < 64; sa++) {
        testdata_fill(srcbuf, COPY_MAX_LEN + 64, 0x5eed + sa);
        memcpy(srcbuf + sa, sweep_master, COPY_MAX_LEN);
        for (size_t da = 0; da < 64; da++)
            for (size_t k = 0; k < grid; k++)
                sweep_pair(t, srcbuf, dstbuf, sa, da, full_grid_lens[k]);
    }
    free(srcbuf);
    free(dstbuf);
}

/* ---- guard pages on both buffers ------------------------------------------------------------ */

void test_copy_guard_pages(struct test_ctx *t)
{
    struct guarded_buffer gs, gd;
    if (guarded_buffer_map(&gs, 16384) != 0 || guarded_buffer_map(&gd, 16384) != 0) {
        t->skip_reason = "cannot map guard pages";
        return;
    }
    testdata_fill(gs.data, gs.data_len, 0x6a7d2);
    unsigned char *const src_end = gs.data + gs.data_len, *const dst_end = gd.data + gd.data_len;

    /* Every length, each buffer flush against the guard after its end or right after the
     * guard before its start, in all four combinations. No room for canaries on the guarded
     * side: a stray byte there is a crash, which the runner reports with this test's name. */
    const size_t max_len = t->quick ? 512 : COPY_MAX_LEN;
    for (size_t len = 0; len <= max_len; len++) {
        const unsigned char *srcs[2] = { src_end - len, gs.data };
        unsigned char *dsts[2] = { dst_end - len, gd.data };
        for (int s = 0; s < 2; s++) {
            csum_wsum init = sweep_init(len + (size_t)s);
            uint16_t want = oracle_checksum(srcs[s], len, init);
            for (int d = 0; d < 2; d++) {
                memset(dsts[d], CANARY, len);
                copy_case(t, dsts[d], srcs[s], len, init, want, 0,
                          s ? (d ? "src and dst after the start guard" : "src after start guard, dst at end guard")
                            : (d ? "src at end guard, dst after start guard" : "src and dst at the end guards"));
            }
        }
    }
    /* Larger copies flush against both guards of each buffer at once, and straddling pages. */
    static const size_t big[] = { 1023, 1500, 4095, 4096, 4097, 8191, 9000, 16383, 16384 };
    for (size_t i = 0; i < sizeof big / sizeof *big; i++) {
        uint16_t want_end = oracle_checksum(src_end - big[i], big[i], 0x1234);
        uint16_t want_start = oracle_checksum(gs.data, big[i], 0x1234);
        copy_case(t, dst_end - big[i], src_end - big[i], big[i], 0x1234, want_end, 0, "large, end guards");
        copy_case(t, gd.data, gs.data, big[i], 0x1234, want_start, 0, "large, start guards");
    }
    guarded_buffer_unmap(&gs);
    guarded_buffer_unmap(&gd);

    /* The rows that store a copy from dst's first vector boundary (the AVX-512 ones from 1280
     * bytes when src is as far off its boundary, from 4096 when not; avx2 from 4096), in the
     * quick suite too: from just below each threshold, 66 lengths with dst flush against its end
     * guard (dst then takes every offset mod 64) and src flush against either of its guards (as
     * far off as dst, or at a boundary); the same around 64 KiB and, in the full suite, around
     * 1 MiB (above it avx512-vnni copies the head on its own, then pieces, out of line). */
    static const size_t edges[] = { 1280, 4096, 65536, 16376 * 64 };
    const size_t n_edges = t->quick ? 3 : 4;
    const size_t map_len = edges[n_edges - 1] + 64;
    if (guarded_buffer_map(&gs, map_len) != 0) {
        CHECK(t, 0, "cannot map guard pages for %zu bytes", map_len);
        return;
    }
    if (guarded_buffer_map(&gd, map_len) != 0) {
        guarded_buffer_unmap(&gs);
        CHECK(t, 0, "cannot map guard pages for %zu bytes", map_len);
        return;
    }
    testdata_fill(gs.data, gs.data_len, 0x6a7d3);
    for (size_t e = 0; e < n_edges; e++)
        for (size_t len = edges[e] - 1; len <= edges[e] + 64; len++) {
            const unsigned char *srcs[2] = { gs.data + gs.data_len - len, gs.data };
            unsigned char *dst = gd.data + gd.data_len - len;
            for (int s = 0; s < 2; s++) {
                csum_wsum init = sweep_init(len + (size_t)s);
                copy_case(t, dst, srcs[s], len, init, oracle_checksum(srcs[s], len, init), 0,
                          s ? "from dst's boundary, src after the start guard"
                            : "from dst's boundary, src at the end guard");
            }
        }
    guarded_buffer_unmap(&gs);
    guarded_buffer_unmap(&gd);
}

/* ---- 64 MiB ------------------------------------------------------------------------------------ */

/* Cases: source offset, destination offset, length change, initial sum, data. The oracle's
 * answers are the same for every row, so they are computed once. */
static const struct {
    size_t src_off, dst_off, minus;
    csum_wsum init;
    int random;
} large_cases[] = {
    { 0, 0, 0, 0, 0 }, { 1, 3, 1, 0xffffffffu, 0 }, { 0, 64, 0, 0, 1 }, { 3, 0, 17, 0x9876, 1 },
};
#define N_LARGE (sizeof large_cases / sizeof *large_cases)
static uint16_t large_want[2][N_LARGE];
static int large_want_ready[2];

void test_copy_large(struct test_ctx *t)
{
    const size_t len = (size_t)(t->quick ? 8 : 64) << 20;
    unsigned char *src = map_large(len + 128), *dst = map_large(len + 128);
    if (!src || !dst) {
        unmap_large(src, len + 128);
        unmap_large(dst, len + 128);
        t->skip_reason = "cannot map two 64 MiB buffers";
        return;
    }
    const int q = !!t->quick;
    for (int random = 0; random < 2; random++) {
        if (random)
            testdata_fill(src, len + 128, 0x1a26e);
        else
            memset(src, 0xff, len + 128);
        for (size_t c = 0; c < N_LARGE; c++) {
            if (large_cases[c].random != random)
                continue;
            const unsigned char *s = src + large_cases[c].src_off;
            const size_t n = len - large_cases[c].minus;
            if (!large_want_ready[q])
                large_want[q][c] = oracle_checksum(s, n, large_cases[c].init);
            unsigned char *d = dst + large_cases[c].dst_off;
            memset(dst, CANARY, len + 128);
            copy_case(t, d, s, n, large_cases[c].init, large_want[q][c], 0,
                      random ? "64 MiB random" : "64 MiB of 0xff");
            CHECK(t, (large_cases[c].dst_off == 0 || d[-1] == CANARY) && d[n] == CANARY,
                  "copy %s: wrote outside dst (%zu bytes)", t->copy_impl->name, n);
        }
    }
    large_want_ready[q] = 1;
    /* The lane edges with dst on a boundary, and at an even offset off one with src as far
     * off its own boundary or not (the rows that store from dst's boundary then: a head vector
     * more, on its own above 1 MiB). The data is uniform, so one oracle answer serves all
     * three, and the row must give the same 32-bit result at each. */
    static const size_t edges[] = { TEST_LANE_EDGES };
    static const size_t at[][2] = { { 64, 1 }, { 78, 14 }, { 78, 1 } }; /* dst, src offsets */
    for (int byte = 0; byte <= 0xff; byte += 0xff) {
        memset(src, byte, len + 128);
        for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
            const uint16_t want = oracle_checksum(src + 1, edges[e], 0xffffffffu);
            csum_wsum first = 0;
            for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
                unsigned char *d = dst + at[k][0];
                memset(dst, CANARY, edges[e] + 128);
                const csum_wsum got = copy_case(t, d, src + at[k][1], edges[e], 0xffffffffu,
                                                want, 0, byte ? "lane edge, all 0xff"
                                                              : "lane edge, all 0");
                if (k == 0)
                    first = got;
                CHECK(t, got == first,
                      "copy %s: %zu bytes of 0x%02x give 0x%08x at dst +%zu, src +%zu, "
                      "but 0x%08x at dst +0, src +1", t->copy_impl->name, edges[e], byte,
                      (unsigned)got, at[k][0] & 63, at[k][1], (unsigned)first);
                CHECK(t, d[-1] == CANARY && d[edges[e]] == CANARY,
                      "copy %s: wrote outside dst (%zu bytes at dst +%zu)", t->copy_impl->name,
                      edges[e], at[k][0] & 63);
            }
        }
    }
    unmap_large(src, len + 128);
    unmap_large(dst, len + 128);
}

/* ---- the same bytes at any address ------------------------------------------------------------- */

void test_copy_address_independence(struct test_ctx *t)
{
    static const size_t lens[] = { 0, 1, 2, 3, 7, 8, 9, 14, 15, 16, 20, 31, 40, 63, 64, 65,
                                   100, 255, 256, 1500, 4097 };
    unsigned char *master = alloc_aligned(4097);
    unsigned char *srcbuf = alloc_aligned(4097 + 64 * 7);
    unsigned char *dstbuf = alloc_aligned(4097 + 64 * 5);
    testdata_fill(master, 4097, 0xadd7c);
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        csum_wsum first = 0;
        for (size_t a = 0; a < 64; a++) {
            unsigned char *src = srcbuf + a * 7; /* every residue mod 64 */
            memcpy(src, master, lens[i]);
            for (size_t b = 0; b < 64; b += 5) {
                csum_wsum got = t->copy_impl->copy(dstbuf + b * 5, src, lens[i], 0x1357);
                if (a == 0 && b == 0)
                    first = got;
                CHECK(t, got == first, "copy %s: len %zu gives 0x%08x from %p to %p but 0x%08x first",
                      t->copy_impl->name, lens[i], (unsigned)got, (void *)src, (void *)(dstbuf + b * 5),
                      (unsigned)first);
            }
        }
        check_value(t, first, oracle_checksum(master, lens[i], 0x1357), lens[i], 0, 0x1357,
                    "address independence");
    }
    free(master);
    free(srcbuf);
    free(dstbuf);
}

/* ---- through csum_partial_copy ------------------------------------------------------------------ */

void test_copy_public_entry(struct test_ctx *t)
{
    const struct csum_copy_impl *row = t->copy_impl;
    if (csum_copy_impl_select(row->name) != 0 || csum_copy_impl_active(0) != row ||
        csum_copy_impl_active(SIZE_MAX) != row) {
        CHECK(t, 0, "cannot select copy %s for every length", row->name);
        csum_copy_impl_select("auto");
        return;
    }
    const size_t max_len = t->quick ? 300 : 1100;
    unsigned char *src = alloc_aligned(max_len + 64), *dstbuf = alloc_aligned(max_len + 64 + 2 * AROUND);
    static const size_t aligns[][2] = { { 0, 0 }, { 1, 0 }, { 3, 5 }, { 8, 63 }, { 63, 1 } };
    for (size_t ai = 0; ai < sizeof aligns / sizeof *aligns; ai++) {
        unsigned char *s = src + aligns[ai][0], *d = dstbuf + AROUND + aligns[ai][1];
        testdata_fill(s, max_len, 0xe7c + ai);
        for (size_t len = 0; len <= max_len; len++) {
            csum_wsum init = (csum_wsum)(len * 0x9e3779b9u);
            prepare_dst(d, len);
            csum_wsum got = csum_partial_copy(d, s, len, init);
            check_value(t, got, oracle_checksum(s, len, init), len, aligns[ai][0], init,
                        "csum_partial_copy");
            CHECK(t, memcmp(d, s, len) == 0 && d[-1] == CANARY && d[len] == CANARY,
                  "csum_partial_copy with %s selected: wrong copy at len %zu", row->name, len);
        }
    }
    free(src);
    free(dstbuf);
    csum_copy_impl_select("auto");
}
