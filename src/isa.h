/*
 * The instruction sets the kernels are written for. Each is declared ONCE, below, as the list
 * of CPU features it needs (names from cpu_features.h). Three things are derived from that one
 * line, so they cannot drift apart:
 *
 *  - the compiler target of the kernel's code: a kernel file names its ISA and wraps its code
 *    in CSUM_TARGET_BEGIN / CSUM_TARGET_END, a target region (`#pragma GCC target`, or clang's
 *    `#pragma clang attribute`) whose options are these features. The compiler refuses an
 *    intrinsic outside them, but it also turns on what an option implies and may emit that on
 *    its own: with avx512f it writes VEX AVX2 instructions, and GCC 12 with avx512vl writes
 *    the DQ instruction vextracti64x2 (in the IPv4 batch). So an ISA lists every feature its
 *    object code uses, implied or not, and the gate checks them all (tests/isa_test.py reads
 *    the disassembly of every object and fails on an instruction its file's ISA lacks);
 *  - the run-time gate (CSUM_ISA_MASK): the row runs only on a CPU that has all of them;
 *  - the `requires` text that csum_impl and `csum impls` show (CSUM_ISA_REQUIRES).
 *
 * Everything outside a region, the dispatcher included, is compiled for the baseline (x86-64
 * with SSE2, AArch64), and the build passes no -m flags at all. The one thing a region cannot
 * check is inline asm: a kernel's asm must use only its ISA's instructions (x86-adx's adcx and
 * adox are the only asm beyond the baseline, and its ISA is exactly adx).
 *
 * This is xxHash's and simdutf's scheme (target attributes, baseline everywhere else) with
 * zlib-ng's single list of what each ISA needs.
 *
 * Adding an ISA: one line CSUM_ISA_<name>(F) here. Adding a feature: one X() entry in
 * cpu_features.h plus its detection in cpu_features.c.
 */
#ifndef CSUM_ISA_H
#define CSUM_ISA_H

#include "cpu_features.h"

/* ---- the ISAs ------------------------------------------------------------------------------ */
#define CSUM_ISA_baseline(F)    /* nothing beyond the architecture's baseline */
#define CSUM_ISA_adx(F)         F(adx)
#define CSUM_ISA_avx2(F)        F(avx2)
#define CSUM_ISA_avx_vnni(F)    F(avx2) F(avxvnni)
#define CSUM_ISA_avx512(F)      F(avx2) F(avx512f) F(avx512dq) F(avx512bw) F(avx512vl) F(bmi2)
#define CSUM_ISA_avx512_vnni(F) F(avx2) F(avx512f) F(avx512dq) F(avx512bw) F(avx512vl) F(avx512vnni) \
                                F(bmi2)
#define CSUM_ISA_neon(F)        F(neon)

/* ---- what is derived from them ------------------------------------------------------------- */
#define CSUM_ISA_MASK_F_(f) | CSUM_CPU_##f
#define CSUM_ISA_TEXT_F_(f) " " #f
#define CSUM_ISA_TARGET_F_(f) "," #f
#define CSUM_ISA_STR_(x) #x
#define CSUM_ISA_STR(x) CSUM_ISA_STR_(x)

/* The CPU features `isa` needs, as a CSUM_CPU_* mask (a constant expression). */
#define CSUM_ISA_MASK(isa) (0u CSUM_ISA_##isa(CSUM_ISA_MASK_F_))
/* The same features as text, "avx512f avx512bw ..." ("" for the baseline). The list is built
 * with a space before each name; the first character is skipped when there is one. */
#define CSUM_ISA_REQUIRES(isa) \
    (&("" CSUM_ISA_##isa(CSUM_ISA_TEXT_F_))[sizeof("" CSUM_ISA_##isa(CSUM_ISA_TEXT_F_)) > 1])

/*
 * CSUM_TARGET_BEGIN / CSUM_TARGET_END: the target region of the kernel file's ISA
 * (CSUM_KERNEL_ISA, defined before including this header's users). On x86-64 the options are
 * "sse2" (the baseline, so the list never starts with a comma) plus the ISA's features. On
 * other architectures every ISA we use is the baseline, and the region is empty.
 */
#if defined(__x86_64__)
#  define CSUM_ISA_TARGET_(isa) "sse2" CSUM_ISA_##isa(CSUM_ISA_TARGET_F_)
#  if defined(__clang__)
#    define CSUM_TARGET_BEGIN_(isa)                                                         \
        _Pragma(CSUM_ISA_STR(clang attribute push(__attribute__((target(CSUM_ISA_TARGET_(isa)))), \
                                                  apply_to = function)))
#    define CSUM_TARGET_END _Pragma("clang attribute pop")
#  else
#    define CSUM_TARGET_BEGIN_(isa) \
        _Pragma("GCC push_options") _Pragma(CSUM_ISA_STR(GCC target(CSUM_ISA_TARGET_(isa))))
#    define CSUM_TARGET_END _Pragma("GCC pop_options")
#  endif
#else
#  define CSUM_TARGET_BEGIN_(isa)
#  define CSUM_TARGET_END
#endif
#define CSUM_TARGET_BEGIN_ISA_(isa) CSUM_TARGET_BEGIN_(isa)
#define CSUM_TARGET_BEGIN CSUM_TARGET_BEGIN_ISA_(CSUM_KERNEL_ISA)

#endif /* CSUM_ISA_H */
