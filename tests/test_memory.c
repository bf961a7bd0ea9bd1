/*
 * Memory-safety and size tests: buffers flush against inaccessible pages (a read of one byte
 * too many or too few crashes the test), 64 MiB buffers, one buffer above 4 GiB and a sparse
 * one above 12 GiB.
 */
#include "test.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- guard pages ----------------------------------------------------------------------- */

void test_guard_pages(struct test_ctx *t)
{
    struct guarded_buffer g;
    if (guarded_buffer_map(&g, 16384) != 0) {
        t->skip_reason = "cannot map guard pages";
        return;
    }
    testdata_fill(g.data, g.data_len, 0x6a7d);
    unsigned char *end = g.data + g.data_len;
    static const csum_wsum sums[] = { 0, 0xffffffffu };

    /* Every length 0..512 (0..4160 in the full suite), flush against the guard at the end
     * (the start alignment then takes every value mod 64 across the lengths), and starting
     * right after the guard in front. */
    const size_t max_len = t->quick ? 512 : 4160;
    for (size_t len = 0; len <= max_len; len++)
        for (size_t s = 0; s < 2; s++) {
            check_against_oracle(t, end - len, len, sums[s], "flush against end guard");
            check_against_oracle(t, g.data, len, sums[s], "flush against start guard");
        }
    /* Larger buffers flush against both guards at once, and straddling page boundaries. */
    static const size_t big[] = { 1023, 1500, 4095, 4096, 4097, 8191, 9000, 16383, 16384 };
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        check_against_oracle(t, end - big[i], big[i], 0x1234, "large, end guard");
        check_against_oracle(t, g.data, big[i], 0x1234, "large, start guard");
    }
    guarded_buffer_unmap(&g);

    /* The rows that sum a buffer off a vector boundary from that boundary (avx512 from 768
     * bytes, avx512-vnni from 2048, avx2 from 4096), in the quick suite too: from just below each
     * threshold, 66 lengths flush against the end guard (the start then takes every offset mod
     * 64) and against the start guard; the same around 64 KiB (where the 32-bit reductions end)
     * and, in the full suite, around 1 MiB (above it avx512-vnni sums the head on its own, then
     * pieces). */
    static const size_t edges[] = { 768, 2048, 4096, 65536, 16376 * 64 };
    const size_t n_edges = t->quick ? 4 : 5;
    if (guarded_buffer_map(&g, edges[n_edges - 1] + 64) != 0) {
        CHECK(t, 0, "cannot map guard pages for %zu bytes", edges[n_edges - 1] + 64);
        return;
    }
    testdata_fill(g.data, g.data_len, 0x6a7f);
    end = g.data + g.data_len;
    for (size_t e = 0; e < n_edges; e++)
        for (size_t len = edges[e] - 1; len <= edges[e] + 64; len++) {
            check_against_oracle(t, end - len, len, sums[len & 1], "from a boundary, end guard");
            check_against_oracle(t, g.data, len, sums[~len & 1], "from a boundary, start guard");
        }
    guarded_buffer_unmap(&g);
}

/* One byte too many, the guard page's: what a zeropad-style tail read does in user space. */
static csum_wsum reads_one_past_end(const void *buf, size_t len, csum_wsum sum)
{
    const volatile unsigned char *p = buf;
    return sum + p[len];
}

/* A guard-page test fails by crashing, and the crash report is then all there is: it names the
 * test and the row (as before) and the call that crashed, its length, offset, initial sum and
 * case, so that an off-by-one tail read says where it happened. A child makes that call. */
void test_crash_report(struct test_ctx *t)
{
    struct guarded_buffer g;
    int fds[2];
    if (guarded_buffer_map(&g, 4096) != 0 || pipe(fds) != 0) {
        t->skip_reason = "cannot map guard pages or make a pipe";
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        const struct csum_impl broken = { .name = "reads-one-past-end",
                                          .partial = reads_one_past_end };
        struct test_ctx child = *t;
        child.impl = &broken;
        check_against_oracle(&child, g.data + g.data_len - 3, 3, 0x1234,
                             "flush against end guard");
        _exit(0); /* not reached: the read faults */
    }
    close(fds[1]);
    char out[512];
    size_t n = 0;
    for (ssize_t r; n < sizeof out - 1 && (r = read(fds[0], out + n, sizeof out - 1 - n)) > 0;)
        n += (size_t)r;
    out[n] = '\0';
    close(fds[0]);
    int status = 0;
    CHECK(t, pid > 0 && waitpid(pid, &status, 0) == pid, "fork or waitpid failed");
    CHECK(t, WIFSIGNALED(status) && (WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS),
          "the child was not killed by SIGSEGV or SIGBUS (status 0x%x)", status);
    const char *want = "CRASH   crash-report at len 3 align 61 initial 0x00001234 "
                       "(flush against end guard): fatal signal";
    CHECK(t, strstr(out, want) != NULL, "crash report '%.*s', want '%s'",
          (int)strcspn(out, "\n"), out, want);
    guarded_buffer_unmap(&g);
}

/* ---- 64 MiB ------------------------------------------------------------------------------ */

void test_large(struct test_ctx *t)
{
    const size_t len = (size_t)(t->quick ? 8 : 64) << 20;
    unsigned char *p = map_large(len + 64);
    if (!p) {
        t->skip_reason = "cannot map a 64 MiB buffer";
        return;
    }
    memset(p, 0xff, len + 64);
    check_against_oracle(t, p, len, 0, "all 0xff");
    check_against_oracle(t, p + 1, len - 1, 0xffffffffu, "all 0xff, odd");
    testdata_fill(p, len + 64, 0x1a26e);
    check_against_oracle(t, p, len, 0, "random");
    check_against_oracle(t, p + 3, len + 13, 0x9876, "random, odd");
    /* An even address off a 64-byte boundary: the rows that sum from that boundary (avx512-vnni
     * from 2 KiB) then take a head vector, and above 1 MiB the pieces after it. */
    check_against_oracle(t, p + 14, len - 14, 0x2468, "random, even, off a boundary");
    static const size_t edges[] = { TEST_LANE_EDGES };
    for (int byte = 0; byte <= 0xff; byte += 0xff) {
        memset(p, byte, len + 64);
        for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
            check_against_oracle(t, p, edges[e], 0, byte ? "lane edge, all 0xff" : "lane edge, all 0");
            check_against_oracle(t, p + 1, edges[e], 0xffffffffu,
                                 byte ? "lane edge, all 0xff, odd" : "lane edge, all 0, odd");
            /* The same bytes (uniform) at an even address off a boundary, from it where a row
             * does that: the same 32-bit result as at the odd address, not just the same
             * folded one. */
            const csum_wsum odd = t->impl->partial(p + 1, edges[e], 0xffffffffu);
            const csum_wsum even = t->impl->partial(p + 14, edges[e], 0xffffffffu);
            CHECK(t, even == odd, "%s: %zu bytes of 0x%02x give 0x%08x at +14 but 0x%08x at +1",
                  t->impl->name, edges[e], byte, (unsigned)even, (unsigned)odd);
        }
    }
    unmap_large(p, len + 64);
}

/* ---- above 4 GiB ------------------------------------------------------------------------- */

/*
 * 4 GiB + 13 bytes starting at an odd address: mostly 0xff (every 64-bit add carries, so a
 * 32-bit accumulator or a 32-bit length overflows visibly), with random bytes near the start,
 * around the 4 GiB mark and at the end. Made once and shared by every implementation.
 */
static unsigned char *huge_map;
static size_t huge_map_len;
static uint16_t huge_want;
enum { HUGE_OFFSET = 1 };
static const size_t HUGE_LEN = ((size_t)4 << 30) + 13;

void test_huge(struct test_ctx *t)
{
    if (t->quick) {
        t->skip_reason = "full suite only (make test)";
        return;
    }
    if (t->no_huge) {
        t->skip_reason = "--no-huge given";
        return;
    }
    if (sizeof(size_t) < 8) {
        t->skip_reason = "32-bit size_t";
        return;
    }
    if (!huge_map) {
        size_t map_len = HUGE_LEN + 64;
        unsigned long long avail = mem_available();
        if (avail && avail < map_len + (512ull << 20)) {
            static char why[128];
            snprintf(why, sizeof why, "needs %zu MiB of memory, only %llu MiB available",
                     (map_len >> 20) + 512, avail >> 20);
            t->skip_reason = why;
            return;
        }
        huge_map = map_large(map_len);
        if (!huge_map) {
            t->skip_reason = "cannot map 4 GiB";
            return;
        }
        huge_map_len = map_len;
        unsigned char *p = huge_map + HUGE_OFFSET;
        memset(p, 0xff, HUGE_LEN);
        testdata_fill(p, 4096, 1);
        testdata_fill(p + ((size_t)4 << 30) - 2048, 4096, 2);
        testdata_fill(p + HUGE_LEN - 100, 100, 3);
        huge_want = oracle_checksum(p, HUGE_LEN, 0x5555);
    }
    check_value(t, t->impl->partial(huge_map + HUGE_OFFSET, HUGE_LEN, 0x5555), huge_want, HUGE_LEN,
                HUGE_OFFSET, 0x5555, "4 GiB + 13");
}

/* ---- above 12 GiB, sparse ------------------------------------------------------------------ */

/*
 * 12 GiB + 8 KiB + 77 bytes at an odd address, for the paths only buffers that long take (the
 * avx2 row sums 8 GiB chunks above 12 GiB). Only three pieces are written (random bytes at the
 * start, around the first 8 GiB chunk's end and at the end); every other page is never written
 * and reads as zeros from the kernel's zero page, so the test needs little memory besides the
 * page tables that map that page (24 MiB without transparent huge pages). Zero bytes add
 * nothing, and each piece starts at an even offset from the buffer's start, so the oracle over
 * the pieces laid end to end (each then at an even offset too) gives the whole buffer's answer.
 */
enum { SPARSE_OFFSET = 1, SPARSE_PIECE = 4096 };
static const size_t SPARSE_LEN = ((size_t)12 << 30) + 8192 + 77;
static unsigned char *sparse_map;
static size_t sparse_map_len;
static uint16_t sparse_want;

static int sparse_map_make(void)
{
    const size_t map_len = SPARSE_LEN + SPARSE_OFFSET;
    void *m = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    unsigned char *p = (unsigned char *)m + SPARSE_OFFSET;
    const size_t at[] = { 0, ((size_t)8 << 30) - SPARSE_PIECE / 2, SPARSE_LEN - SPARSE_PIECE - 77 };
    const size_t len[] = { SPARSE_PIECE, SPARSE_PIECE, SPARSE_PIECE + 77 };
    unsigned char *pieces = alloc_aligned(3 * SPARSE_PIECE + 77);
    size_t n = 0;
    for (size_t k = 0; k < 3; k++) {
        testdata_fill(p + at[k], len[k], 0x5ba75e + k);
        memcpy(pieces + n, p + at[k], len[k]);
        n += len[k];
    }
    sparse_want = oracle_checksum(pieces, n, 0x7777);
    free(pieces);
    sparse_map = m;
    sparse_map_len = map_len;
    return 0;
}

void test_sparse_huge(struct test_ctx *t)
{
    if (t->quick || t->no_huge || sizeof(size_t) < 8) {
        t->skip_reason = t->quick     ? "full suite only (make test)"
                         : t->no_huge ? "--no-huge given"
                                      : "32-bit size_t";
        return;
    }
    if (!sparse_map && sparse_map_make() != 0) {
        t->skip_reason = "cannot map 12 GiB of address space";
        return;
    }
    check_value(t, t->impl->partial(sparse_map + SPARSE_OFFSET, SPARSE_LEN, 0x7777), sparse_want,
                SPARSE_LEN, SPARSE_OFFSET, 0x7777, "12 GiB + 8269, sparse");
}
