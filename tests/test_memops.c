/*
 * The lab's memory operations are timed against each other, so each must do exactly its job:
 * zero or copy [dst, dst + len) for any length and alignment, and write nothing else.
 * (The fused copy+checksum entries of the memops list are the library's copy rows, which the
 * copy-* tests cover; here they are checked for the copy only.)
 */
#include "test.h"

#include <stdlib.h>
#include <string.h>

#include "lab.h"

enum { AROUND = 64, CANARY = 0xc3, MAX_LEN = 70000 };

void test_memops(struct test_ctx *t)
{
    static const size_t extra[] = { 1023, 1024, 1025, 4095, 4096, 4097, 8191, 65536 + 13, MAX_LEN };
    static const size_t aligns[][2] = { { 0, 0 }, { 0, 1 }, { 5, 7 }, { 3, 31 }, { 1, 32 }, { 9, 63 } };
    const size_t small_max = t->quick ? 300 : 700;
    unsigned char *src = alloc_aligned(MAX_LEN + 64), *buf = alloc_aligned(MAX_LEN + 64 + 2 * AROUND);
    testdata_fill(src, MAX_LEN + 64, 0x3e3);
    lab_registry_init();
    size_t checked = 0;
    for (size_t m = 0; lab_memops[m]; m++) {
        const struct lab_memop *op = lab_memops[m];
        for (size_t ai = 0; ai < sizeof aligns / sizeof *aligns; ai++) {
            const unsigned char *s = src + aligns[ai][0];
            unsigned char *d = buf + AROUND + aligns[ai][1];
            for (size_t k = 0; k <= small_max + sizeof extra / sizeof *extra; k++) {
                size_t len = k <= small_max ? k : extra[k - small_max - 1];
                memset(d - AROUND, CANARY, len + 2 * AROUND);
                if (op->kind == MEMOP_CSUM_COPY)
                    op->fused(d, s, len, 0);
                else
                    op->fn(d, s, len);
                int ok = op->kind == MEMOP_ZERO ? len == 0 || (d[0] == 0 && memcmp(d, d + 1, len - 1) == 0)
                                                : memcmp(d, s, len) == 0;
                for (size_t b = 0; b < AROUND; b++)
                    ok &= d[-1 - (ptrdiff_t)b] == CANARY && d[len + b] == CANARY;
                CHECK(t, ok, "memop %s (%s): len %zu src align %zu dst align %zu: wrong bytes or wrote "
                      "outside", op->name, op->kind == MEMOP_ZERO ? "zero" : "copy", len, aligns[ai][0],
                      aligns[ai][1]);
                checked++;
            }
        }
    }
    CHECK(t, checked > 0, "no memory operations registered");
    free(src);
    free(buf);
}
