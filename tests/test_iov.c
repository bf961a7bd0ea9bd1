/*
 * Scatter-gather: csum_iov and csum_iov_copy over thousands of random segmentations (empty,
 * 1-byte, odd and long segments, each from its own place and alignment) against the oracle on
 * the concatenation; csum_iov_copy must write exactly the concatenation, under every copy row;
 * gathers whose segments, iovec array and dst lie flush against inaccessible pages; and one
 * gather large enough for the non-temporal row. csum_iov_range: every range of a short vector
 * and past its end, random ranges of random segmentations, and ranges whose neighbouring
 * bytes, inside their segments and in the segments around, are inaccessible.
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

enum { POOL = 1 << 16, MAX_TOTAL = 3000, MAX_SEGMENTS = 700, AROUND = 64, CANARY = 0x5a };

struct gather {
    struct iovec iov[MAX_SEGMENTS];
    size_t n, total;
    unsigned char flat[MAX_TOTAL]; /* the concatenation */
    csum_wsum init;
};

static size_t below(uint64_t *rng, size_t n)
{
    return n ? (size_t)(testdata_next(rng) % n) : 0;
}

/* A random segmentation of a random total, each segment taken from a random place in pool. */
static void random_gather(struct gather *g, const unsigned char *pool, uint64_t *rng)
{
    const int shape = (int)below(rng, 5);
    size_t total = below(rng, 8) == 0 ? below(rng, 4) : below(rng, MAX_TOTAL + 1);
    g->n = g->total = 0;
    while (g->total < total && g->n < MAX_SEGMENTS - 1) {
        size_t left = total - g->total, len;
        switch (shape) {
        case 0: len = 1; break;                                  /* all single bytes */
        case 1: len = below(rng, 8); break;                      /* tiny, empty ones included */
        case 2: len = 1 + 2 * below(rng, 40); break;             /* odd lengths */
        case 3: len = below(rng, 4) ? below(rng, left + 1) : 0; break; /* few big, some empty */
        default: len = below(rng, 3) == 0 ? 1 + below(rng, 7) : below(rng, 300); break;
        }
        if (len > left)
            len = left;
        if (g->n < MAX_SEGMENTS - 2 && below(rng, 50) == 0) { /* a NULL segment: empty */
            g->iov[g->n].iov_base = NULL;
            g->iov[g->n++].iov_len = 1 + below(rng, 9);
        }
        const unsigned char *p = pool + below(rng, POOL - len);
        g->iov[g->n].iov_base = (void *)p;
        g->iov[g->n++].iov_len = len;
        memcpy(g->flat + g->total, p, len);
        g->total += len;
    }
    static const csum_wsum inits[] = { 0, 0xffffffffu, 1 };
    g->init = below(rng, 2) ? inits[below(rng, 3)] : (csum_wsum)testdata_next(rng);
}

/*
 * Guard pages: [readable page][PROT_NONE page] repeated, one pair per segment. Each segment ends
 * at the end of its readable page or starts right after a guard page, the iovec array ends at a
 * guard page, and so does dst (csum_iov_copy): a byte read or written outside what the caller
 * gave crashes the test. `row` is the copy row (NULL: csum_iov).
 */
static void guarded_gathers(struct test_ctx *t, const char *row)
{
    enum { SEGS = 16 };
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    struct guarded_buffer iovs, dsts;
    unsigned char *map = mmap(NULL, 2 * SEGS * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *flat = malloc(SEGS * page);
    if (map == MAP_FAILED || !flat || guarded_buffer_map(&iovs, SEGS * sizeof(struct iovec)) != 0) {
        CHECK(t, 0, "cannot map guard pages for the gathers");
        if (map != MAP_FAILED)
            munmap(map, 2 * SEGS * page);
        free(flat);
        return;
    }
    if (guarded_buffer_map(&dsts, SEGS * page) != 0) {
        CHECK(t, 0, "cannot map a guarded dst");
        guarded_buffer_unmap(&iovs);
        munmap(map, 2 * SEGS * page);
        free(flat);
        return;
    }
    testdata_fill(map, 2 * SEGS * page, 0x3a11);
    for (size_t i = 0; i < SEGS; i++)
        mprotect(map + (2 * i + 1) * page, page, PROT_NONE);
    const size_t lens[] = { 0, 1, 2, 3, 7, 8, 9, 39, 40, 63, 64, 65, 255, 256, 1500, page - 1, page };
    const size_t n_lens = sizeof lens / sizeof lens[0];
    uint64_t rng = 0x6a7d;
    for (int round = 0; round < 96; round++) {
        const size_t n = 1 + (size_t)round % SEGS;
        struct iovec *iov = (struct iovec *)(void *)(iovs.data + iovs.data_len - n * sizeof *iov);
        size_t total = 0;
        for (size_t i = 0; i < n; i++) {
            size_t len = below(&rng, 3) ? lens[below(&rng, n_lens)] : below(&rng, page + 1);
            unsigned char *readable = map + 2 * i * page;
            int at_start = (round & 1) && i > 0; /* page 0 has no guard in front */
            iov[i].iov_base = at_start ? readable : readable + page - len;
            iov[i].iov_len = len;
            memcpy(flat + total, iov[i].iov_base, len);
            total += len;
        }
        const csum_wsum init = (csum_wsum)testdata_next(&rng);
        const uint16_t want = oracle_checksum(flat, total, init);
        if (!row) {
            check_value(t, csum_iov(iov, n, init), want, total, n, init,
                        "csum_iov against guard pages (align = segment count)");
            continue;
        }
        unsigned char *dst = dsts.data + dsts.data_len - total;
        if (csum16_network_value(csum_fold(csum_iov_copy(dst, iov, n, init))) != want)
            CHECK(t, 0, "csum_iov_copy (%s) against guard pages: wrong sum, %zu bytes in %zu "
                  "segments", row, total, n);
        CHECK(t, memcmp(dst, flat, total) == 0, "csum_iov_copy (%s) against guard pages: dst is "
              "not the concatenation (%zu bytes in %zu segments)", row, total, n);
    }
    guarded_buffer_unmap(&dsts);
    guarded_buffer_unmap(&iovs);
    munmap(map, 2 * SEGS * page);
    free(flat);
}

void test_iov(struct test_ctx *t)
{
    unsigned char *pool = alloc_aligned(POOL);
    struct gather *g = malloc(sizeof *g);
    testdata_fill(pool, POOL, 0x10f);
    uint64_t rng = 4004;
    const int rounds = t->quick ? 3000 : 30000;
    for (int r = 0; r < rounds; r++) {
        random_gather(g, pool, &rng);
        csum_wsum got = csum_iov(g->iov, g->n, g->init);
        check_value(t, got, oracle_checksum(g->flat, g->total, g->init), g->total, g->n, g->init,
                    "csum_iov (align = segment count)");
        CHECK(t, g->init != 0xffffffffu || got != 0, "csum_iov seeded with 0xffffffff gave 0");
    }
    guarded_gathers(t, NULL);
    free(g);
    free(pool);
}

static void iov_copy_rounds(struct test_ctx *t, const unsigned char *pool, struct gather *g,
                            unsigned char *dstbuf, int rounds, uint64_t *rng, const char *row)
{
    unsigned char *dst = dstbuf + AROUND;
    for (int r = 0; r < rounds; r++) {
        random_gather(g, pool, rng);
        memset(dstbuf, CANARY, MAX_TOTAL + 2 * AROUND);
        csum_wsum got = csum_iov_copy(dst, g->iov, g->n, g->init);
        if (csum16_network_value(csum_fold(got)) != oracle_checksum(g->flat, g->total, g->init))
            CHECK(t, 0, "csum_iov_copy (%s): wrong sum, %zu bytes in %zu segments, initial 0x%08x", row,
                  g->total, g->n, (unsigned)g->init);
        CHECK(t, memcmp(dst, g->flat, g->total) == 0, "csum_iov_copy (%s): dst is not the concatenation "
              "(%zu bytes in %zu segments)", row, g->total, g->n);
        int untouched = 1;
        for (size_t k = 0; k < AROUND; k++)
            untouched &= dstbuf[k] == CANARY && dst[g->total + k] == CANARY;
        CHECK(t, untouched, "csum_iov_copy (%s): wrote outside dst (%zu bytes in %zu segments)", row,
              g->total, g->n);
    }
}

/* A gather above the non-temporal threshold, so "auto" streams it. */
static void large_gather(struct test_ctx *t)
{
    const size_t threshold = csum_copy_nontemporal_threshold();
    if (threshold == SIZE_MAX || t->quick)
        return; /* no streaming row here, or the quick suite */
    const size_t total = threshold + 4097;
    unsigned char *src = map_large(total), *dst = map_large(total + 64);
    struct iovec *iov = malloc(4096 * sizeof *iov);
    if (!src || !dst || !iov) {
        CHECK(t, 0, "cannot map %zu bytes for the large gather", total);
    } else {
        testdata_fill(src, total, 0x1a5e);
        memset(dst, CANARY, total + 64);
        uint64_t rng = 77;
        size_t n = 0, off = 0;
        while (off < total && n < 4095) {
            size_t len = 1 + below(&rng, 1 << 13);
            if (len > total - off)
                len = total - off;
            iov[n].iov_base = src + off;
            iov[n++].iov_len = len;
            off += len;
        }
        iov[n].iov_base = src + off;
        iov[n++].iov_len = total - off;
        CHECK(t, csum_copy_impl_active(total)->nontemporal, "auto does not stream %zu bytes", total);
        check_value(t, csum_iov_copy(dst, iov, n, 0x77), oracle_checksum(src, total, 0x77), total, 0,
                    0x77, "csum_iov_copy above the non-temporal threshold");
        CHECK(t, memcmp(dst, src, total) == 0 && dst[total] == CANARY, "large gather: wrong copy");
    }
    free(iov);
    unmap_large(src, total);
    unmap_large(dst, total + 64);
}

void test_iov_copy(struct test_ctx *t)
{
    unsigned char *pool = alloc_aligned(POOL), *dstbuf = alloc_aligned(MAX_TOTAL + 2 * AROUND);
    struct gather *g = malloc(sizeof *g);
    testdata_fill(pool, POOL, 0x20f);
    uint64_t rng = 4005;
    const int rounds = t->quick ? 1000 : 10000;
    iov_copy_rounds(t, pool, g, dstbuf, rounds, &rng, "auto");
    guarded_gathers(t, "auto");
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl *impl = csum_copy_impl_get(i);
        if (csum_copy_impl_select(impl->name) == 0) {
            iov_copy_rounds(t, pool, g, dstbuf, rounds / 4, &rng, impl->name);
            guarded_gathers(t, impl->name);
        }
    }
    csum_copy_impl_select("auto");
    large_gather(t);
    free(g);
    free(pool);
    free(dstbuf);
}

/*
 * csum_iov_range. The oracle over the range's bytes of the concatenation; for a range that does
 * not lie within the segments, exactly the initial sum.
 */
static void check_range(struct test_ctx *t, const struct iovec *iov, size_t n,
                        const unsigned char *flat, size_t total, size_t offset, size_t len,
                        csum_wsum init, const char *what)
{
    csum_wsum got = csum_iov_range(iov, n, offset, len, init);
    if (len <= total && offset <= total - len) {
        if (csum16_network_value(csum_fold(got)) != oracle_checksum(flat + offset, len, init))
            CHECK(t, 0, "csum_iov_range %s: offset %zu len %zu of %zu bytes in %zu segments, "
                  "initial 0x%08x: 0x%08x, oracle 0x%04x", what, offset, len, total, n,
                  (unsigned)init, (unsigned)got, oracle_checksum(flat + offset, len, init));
        CHECK(t, init != 0xffffffffu || got != 0, "csum_iov_range %s seeded with 0xffffffff gave "
              "0 (offset %zu len %zu)", what, offset, len);
    } else {
        CHECK(t, got == init, "csum_iov_range %s: offset %zu len %zu is outside the %zu bytes, "
              "got 0x%08x, want the initial 0x%08x", what, offset, len, total, (unsigned)got,
              (unsigned)init);
    }
}

/* A short vector (31 bytes in 14 segments: empty ones first, last and between, NULL ones with
 * a length, odd and even lengths), every offset and length, and past the end: so every range
 * inside one segment, from or to every boundary, and ending exactly at the end. */
static void range_every_offset(struct test_ctx *t, const unsigned char *pool)
{
    static const size_t lens[] = { 0, 3, 1, 0, 4, 9, 2, 1, 0, 6, 5, 0 };
    struct iovec iov[16];
    unsigned char flat[64];
    size_t n = 0, total = 0;
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        if (i == 2 || i == 8) { /* a NULL segment with a length counts as empty */
            iov[n].iov_base = NULL;
            iov[n++].iov_len = 5;
        }
        iov[n].iov_base = (void *)(pool + 101 * i + (i & 1)); /* odd and even addresses */
        iov[n].iov_len = lens[i];
        memcpy(flat + total, iov[n].iov_base, lens[i]);
        total += lens[i];
        n++;
    }
    static const csum_wsum inits[] = { 0, 0xffffffffu, 0x1234abcdu };
    for (size_t s = 0; s < 3; s++) {
        for (size_t off = 0; off <= total + 2; off++)
            for (size_t len = 0; off + len <= total + 2; len++)
                check_range(t, iov, n, flat, total, off, len, inits[s], "every offset");
        /* whole: csum_iov to the bit */
        CHECK(t, csum_iov_range(iov, n, 0, total, inits[s]) == csum_iov(iov, n, inits[s]),
              "csum_iov_range of the whole vector differs from csum_iov, initial 0x%08x",
              (unsigned)inits[s]);
        /* offset + len past SIZE_MAX: wrapped around, the end would be inside */
        const size_t offs[] = { 0, 1, 7, total - 1, total, SIZE_MAX };
        for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
            const size_t o = offs[i];
            const size_t bad[] = { SIZE_MAX, SIZE_MAX - o + 1, SIZE_MAX - o + 5, SIZE_MAX - o + total,
                                   total - o + 1 };
            for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++)
                if (bad[j])
                    check_range(t, iov, n, flat, total, o, bad[j], inits[s], "past SIZE_MAX");
        }
        CHECK(t, csum_iov_range(NULL, 3, 0, 1, inits[s]) == inits[s], "csum_iov_range(NULL, 3)");
        CHECK(t, csum_iov_range(NULL, 0, 0, 0, inits[s]) == inits[s], "csum_iov_range(NULL, 0)");
        CHECK(t, csum_iov_range(iov, 0, 0, 1, inits[s]) == inits[s], "csum_iov_range, n = 0");
        CHECK(t, csum_iov_range(iov, n, SIZE_MAX, 0, inits[s]) == inits[s],
              "csum_iov_range, len 0 at offset SIZE_MAX");
    }
}

/* Random segmentations of 0..70-byte segments, and csum_iov's random gathers: random ranges,
 * ranges from and to a random segment boundary, the whole (csum_iov's value to the bit). */
static void range_random(struct test_ctx *t, const unsigned char *pool, struct gather *g,
                         uint64_t *rng, int short_segments)
{
    if (short_segments) {
        g->n = g->total = 0;
        const size_t want = below(rng, 40); /* 39 * 70 bytes fit in flat */
        while (g->n < want) {
            const size_t len = below(rng, 71);
            const unsigned char *p = pool + below(rng, POOL - len);
            g->iov[g->n].iov_base = (void *)p;
            g->iov[g->n++].iov_len = len;
            memcpy(g->flat + g->total, p, len);
            g->total += len;
        }
        g->init = (csum_wsum)testdata_next(rng);
    } else {
        random_gather(g, pool, rng);
    }
    const size_t total = g->total;
    CHECK(t, csum_iov_range(g->iov, g->n, 0, total, g->init) == csum_iov(g->iov, g->n, g->init),
          "csum_iov_range of the whole vector differs from csum_iov (%zu bytes in %zu segments)",
          total, g->n);
    for (int i = 0; i < 6; i++) {
        const size_t off = below(rng, total + 1);
        check_range(t, g->iov, g->n, g->flat, total, off, below(rng, total - off + 1), g->init,
                    "random");
    }
    /* A boundary: the end of segment k, counted as csum_iov counts it. */
    size_t k = below(rng, g->n + 1), edge = 0;
    for (size_t i = 0; i < k; i++)
        edge += g->iov[i].iov_base ? g->iov[i].iov_len : 0;
    check_range(t, g->iov, g->n, g->flat, total, edge, below(rng, total - edge + 1), g->init,
                "from a boundary");
    const size_t from = below(rng, edge + 1);
    check_range(t, g->iov, g->n, g->flat, total, from, edge - from, g->init, "to a boundary");
    check_range(t, g->iov, g->n, g->flat, total, from, total - from + 1 + below(rng, 3), g->init,
                "past the end");
}

/*
 * Guard pages, tighter than csum_iov's: [PROT_NONE][readable] pages, one pair per segment, and a
 * last PROT_NONE page. The segments before and after the range point into PROT_NONE pages, so
 * reading one of their bytes crashes the test. The first segment of the range starts in the
 * PROT_NONE page before its readable page, its part in the range at the readable page's start;
 * the last one's part in the range ends at the end of its readable page, the rest of it in the
 * PROT_NONE page after; whole segments between sit flush against one or the other. A range
 * inside one segment starts at the readable page's start or ends at its end, by round. The
 * iovec array ends at a guard page.
 */
static void range_guarded(struct test_ctx *t)
{
    enum { SEGS = 12 };
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t map_len = (2 * SEGS + 1) * page;
    struct guarded_buffer iovs;
    unsigned char *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                              -1, 0);
    unsigned char *flat = malloc(SEGS * page);
    if (map == MAP_FAILED || !flat || guarded_buffer_map(&iovs, SEGS * sizeof(struct iovec)) != 0) {
        CHECK(t, 0, "cannot map guard pages for the ranges");
        if (map != MAP_FAILED)
            munmap(map, map_len);
        free(flat);
        return;
    }
    testdata_fill(map, map_len, 0x7a9e);
    for (size_t i = 0; i <= SEGS; i++)
        mprotect(map + 2 * i * page, page, PROT_NONE);
    const size_t lens[] = { 0, 1, 2, 3, 7, 8, 9, 39, 40, 63, 64, 65, 255, 256, 1500, page - 1, page };
    const size_t n_lens = sizeof lens / sizeof lens[0];
    uint64_t rng = 0x7a9f;
    for (int round = 0; round < (t->quick ? 300 : 3000); round++) {
        const size_t n = 1 + below(&rng, SEGS);
        struct iovec *iov = (struct iovec *)(void *)(iovs.data + iovs.data_len - n * sizeof *iov);
        size_t len_of[SEGS], total = 0;
        for (size_t i = 0; i < n; i++) {
            len_of[i] = below(&rng, 3) ? lens[below(&rng, n_lens)] : below(&rng, 71);
            total += len_of[i];
        }
        const size_t offset = below(&rng, total + 1), len = below(&rng, total - offset + 1);
        size_t at = 0, got = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char *guard = map + 2 * i * page, *readable = guard + page;
            const size_t seg = len_of[i];
            /* this segment's bytes in the range: [lo, hi) of it */
            const size_t lo = offset > at ? offset - at : 0;
            size_t hi = offset + len > at ? offset + len - at : 0;
            if (hi > seg)
                hi = seg;
            if (len == 0 || lo >= hi) { /* outside the range: unreadable */
                iov[i].iov_base = guard;
            } else if (lo > 0 && hi < seg) { /* the range lies inside this segment */
                iov[i].iov_base = (round & 1) ? readable - lo : readable + page - hi;
            } else if (lo > 0) { /* the first segment: its head in the guard page */
                iov[i].iov_base = readable - lo;
            } else if (hi < seg) { /* the last: its tail in the next guard page */
                iov[i].iov_base = readable + page - hi;
            } else { /* all of it in the range */
                iov[i].iov_base = (round & 2) ? readable : readable + page - seg;
            }
            iov[i].iov_len = seg;
            if (lo < hi) {
                memcpy(flat + got, (unsigned char *)iov[i].iov_base + lo, hi - lo);
                got += hi - lo;
            }
            at += seg;
        }
        const csum_wsum init = (csum_wsum)testdata_next(&rng);
        check_value(t, csum_iov_range(iov, n, offset, len, init), oracle_checksum(flat, len, init),
                    len, offset, init, "csum_iov_range against guard pages (align = offset)");
        CHECK(t, got == len, "range_guarded: %zu bytes placed for a range of %zu", got, len);
        /* past the end by one byte: nothing read, the initial sum back */
        CHECK(t, csum_iov_range(iov, n, offset, total - offset + 1, init) == init,
              "csum_iov_range past the end against guard pages");
    }
    guarded_buffer_unmap(&iovs);
    munmap(map, map_len);
    free(flat);
}

void test_iov_range(struct test_ctx *t)
{
    unsigned char *pool = alloc_aligned(POOL);
    struct gather *g = malloc(sizeof *g);
    testdata_fill(pool, POOL, 0x30f);
    range_every_offset(t, pool);
    uint64_t rng = 4006;
    const int rounds = t->quick ? 2000 : 20000;
    for (int r = 0; r < rounds; r++)
        range_random(t, pool, g, &rng, r & 1);
    range_guarded(t);
    free(g);
    free(pool);
}
