/*
 * neon: arm64 Advanced SIMD.
 *
 * Algorithm. UADALP (vpadalq_u16) adds each pair of adjacent 16-bit words into a 32-bit lane
 * of an accumulator: one instruction per 16 bytes, no carries to track. The 32-bit lanes are
 * widened into 64-bit lanes (vpadalq_u32) before they can overflow. Words are loaded in host
 * order, like every other implementation here, so the code is endian-neutral. Arm's own
 * optimized-routines library (networking/aarch64/chksum_simd.c, Arm Ltd 2020) sums with the
 * same instruction one size up, 32-bit words into 64-bit lanes (vpadalq_u32), which needs no
 * flush but a fold of 32-bit halves at the end; 16-bit words into 32-bit lanes and the periodic
 * widening below are our variant, and the code is ours.
 *
 * Lane overflow bound. One UADALP adds at most 2 * 0xffff = 0x1fffe to a 32-bit lane, so
 * 32768 of them fit (32768 * 0x1fffe = 0xffff0000) and 32769 can overflow. Each of the eight
 * accumulators takes one vector per step, and they are widened and cleared every 16384 steps
 * (every 2 MiB), half the bound; below 128 bytes, at most 4 vectors go into each of the two
 * tail accumulators. Widening adds two 32-bit lanes, each below 2^31 then, to a 64-bit lane:
 * less than 8 * 2^32 = 2^35 per 2 MiB, so 64-bit lanes cannot overflow below 2^50 bytes. The
 * large test's all-0xff buffers (8 MiB in the quick suite: 65536 steps) fail if the flush is
 * made rarer than 32768 steps.
 *
 * Never reads outside the buffer: full 16-byte vectors only, then an 8-byte load and the
 * 0..7-byte scalar tail that the portable and scalar rows use too.
 *
 * The copy (csum_partial_copy) is the same loop storing every vector it loads, as the x86 rows
 * and the generic row do: one pass over the data, where memcpy then the sum would read it twice.
 * Not measured on arm64 hardware yet (the arm64 suite runs under qemu, whose timings say
 * nothing about a core); on any core with NEON it does per 16 bytes one load, one store and one
 * UADALP, against the generic row's two 64-bit loads, two stores and four adds with carry
 * counting, so it is the automatic copy row on arm64, as `neon` is the sum row there.
 */
#define CSUM_KERNEL_ISA neon
#include "kernel.h"

#include <arm_neon.h>

enum { STEPS_PER_FLUSH = 16384 };

/* The eight 16-bit words at p, in host order, at any address; stored at d too when copying.
 * Not vld1q_u16 on a cast pointer: its uint16_t * says p is even, which GCC and clang take as
 * given (UBSan stops on an odd p); a memcpy into the vector assumes nothing and compiles to the
 * same LDR/LDP of q registers, and the store to STR/STP. */
CSUM_ALWAYS_INLINE uint16x8_t load_words(int copying, unsigned char *d, const unsigned char *p)
{
    uint16x8_t v;
    memcpy(&v, p, sizeof v);
    if (copying)
        memcpy(d, &v, sizeof v);
    return v;
}

/* The sum of [p, p + len), and when `copying` the copy to d: every vector and tail piece
 * loaded is stored at the same offset of d, nothing outside [d, d + len) written. Always
 * inlined with a constant `copying` (not a test of d: the compiler cannot know that a copy's d
 * is not NULL, and would test it at every store). */
CSUM_ALWAYS_INLINE csum_wsum neon_sum(int copying, unsigned char *d, const unsigned char *p,
                                      size_t len, csum_wsum sum)
{
    uint64x2_t wide = vdupq_n_u64(0);

    while (len >= 128) {
        size_t steps = len / 128 < STEPS_PER_FLUSH ? len / 128 : STEPS_PER_FLUSH;
        uint32x4_t a0 = vdupq_n_u32(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
        for (size_t i = 0; i < steps; i++, p += 128, d += 128) {
            a0 = vpadalq_u16(a0, load_words(copying, d, p));
            a1 = vpadalq_u16(a1, load_words(copying, d + 16, p + 16));
            a2 = vpadalq_u16(a2, load_words(copying, d + 32, p + 32));
            a3 = vpadalq_u16(a3, load_words(copying, d + 48, p + 48));
            a4 = vpadalq_u16(a4, load_words(copying, d + 64, p + 64));
            a5 = vpadalq_u16(a5, load_words(copying, d + 80, p + 80));
            a6 = vpadalq_u16(a6, load_words(copying, d + 96, p + 96));
            a7 = vpadalq_u16(a7, load_words(copying, d + 112, p + 112));
        }
        len -= steps * 128;
        wide = vpadalq_u32(wide, a0);
        wide = vpadalq_u32(wide, a1);
        wide = vpadalq_u32(wide, a2);
        wide = vpadalq_u32(wide, a3);
        wide = vpadalq_u32(wide, a4);
        wide = vpadalq_u32(wide, a5);
        wide = vpadalq_u32(wide, a6);
        wide = vpadalq_u32(wide, a7);
    }
    uint32x4_t b0 = vdupq_n_u32(0), b1 = b0;
    for (; len >= 32; len -= 32, p += 32, d += 32) {
        b0 = vpadalq_u16(b0, load_words(copying, d, p));
        b1 = vpadalq_u16(b1, load_words(copying, d + 16, p + 16));
    }
    if (len >= 16) {
        b0 = vpadalq_u16(b0, load_words(copying, d, p));
        p += 16;
        d += 16;
        len -= 16;
    }
    wide = vpadalq_u32(vpadalq_u32(wide, b0), b1);

    uint64_t total = vgetq_lane_u64(wide, 0);
    total = csum_add64(total, vgetq_lane_u64(wide, 1));
    if (len >= 8) {
        const uint64_t v = csum_load64(p);
        if (copying)
            csum_store64(d, v);
        total = csum_add64(total, v);
        p += 8;
        d += 8;
        len -= 8;
    }
    total = csum_add64(total, csum_tail_copy_sum7(copying ? d : NULL, p, len));
    return csum_fold64(csum_add64(total, sum));
}

static csum_wsum csum_partial_neon(const void *buf, size_t len, csum_wsum sum)
{
    /* d only moves along with p here, never written (and never NULL: no offset from NULL). */
    return neon_sum(0, (unsigned char *)(uintptr_t)buf, buf, len, sum);
}

static csum_wsum csum_partial_copy_neon(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return neon_sum(1, dst, src, len, sum);
}

const struct csum_kernel csum_kernel_neon = {
    CSUM_KERNEL_NAME("neon"),
    .sum.partial = csum_partial_neon,
    .sum.description = "arm64 NEON: pairwise add-accumulate-long of 16-bit words (UADALP) into "
                       "eight 32-bit accumulators, widened to 64 bits",
    .copy.copy = csum_partial_copy_neon,
    .copy.description = "arm64 NEON: the neon sum storing each 16-byte vector it loads; "
                        "8/4/2/1-byte tail copied exactly",
};
