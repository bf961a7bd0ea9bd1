/*
 * csum-avx2-bound: measure, on this CPU, the throughputs that bound the avx2 and avx-vnni kernels
 * (docs/METHOD.md, "The AVX2 bound"): vector ALU ops per cycle by kind, 256-bit loads and
 * stores per cycle, instructions the front end delivers per cycle, and the avx2 loop's own
 * 256-byte step in its two forms. Not part of the lab: a probe for the numbers the bound is
 * derived from, run pinned (taskset -c N) on an idle core.
 *
 * Method: each probe is a block of independent instructions repeated in a loop; the best of
 * 30 runs of 100000 iterations, timed with the TSC, is converted to core cycles with a chain of
 * dependent 1-cycle adds measured the same way (cycles per tick, as the lab estimates them).
 */
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

enum { ITERS = 100000, RUNS = 30 };

static unsigned char buf[4096] __attribute__((aligned(64)));

static inline uint64_t ticks(void)
{
    unsigned aux;
    _mm_lfence();
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

#define V_CLOBBERS                                                                           \
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",           \
    "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* Best ticks per iteration of `body` (an asm string reading and writing at %rsi). */
#define PROBE(result, body)                                                                  \
    do {                                                                                     \
        uint64_t best_ = UINT64_MAX;                                                         \
        for (int r_ = 0; r_ < RUNS; r_++) {                                                  \
            uint64_t t0_ = ticks();                                                          \
            for (int i_ = 0; i_ < ITERS; i_++)                                               \
                __asm__ volatile(body : : "S"(buf) : "rax", "rbx", "rcx", "rdx", "cc",     \
                                 "memory", V_CLOBBERS);                                      \
            uint64_t d_ = ticks() - t0_;                                                     \
            if (d_ < best_)                                                                  \
                best_ = d_;                                                                  \
        }                                                                                    \
        (result) = (double)best_ / ITERS;                                                    \
    } while (0)

/* Eight independent ops of one kind (destinations ymm1..ymm8, sources ymm0/ymm9). */
#define EIGHT(op)                                                                            \
    op " %%ymm0, %%ymm9, %%ymm1\n" op " %%ymm0, %%ymm9, %%ymm2\n" op " %%ymm0, %%ymm9, %%ymm3\n" \
    op " %%ymm0, %%ymm9, %%ymm4\n" op " %%ymm0, %%ymm9, %%ymm5\n" op " %%ymm0, %%ymm9, %%ymm6\n" \
    op " %%ymm0, %%ymm9, %%ymm7\n" op " %%ymm0, %%ymm9, %%ymm8\n"
#define EIGHT_IMM(op)                                                                        \
    op " %%ymm9, %%ymm1\n" op " %%ymm9, %%ymm2\n" op " %%ymm9, %%ymm3\n" op " %%ymm9, %%ymm4\n" \
    op " %%ymm9, %%ymm5\n" op " %%ymm9, %%ymm6\n" op " %%ymm9, %%ymm7\n" op " %%ymm9, %%ymm8\n"

/* The avx2 kernel's vector forms (src/x86/x86_avx2_sum.h): whole lanes into ymm0..3, high
 * halves into ymm4..7. */
#define SHIFTED(off, a, h)                                                                   \
    "vmovdqu " #off "(%%rsi), %%ymm8\n vpaddq %%ymm8, %%ymm" #a ", %%ymm" #a "\n"             \
    "vpsrlq $32, %%ymm8, %%ymm8\n vpaddq %%ymm8, %%ymm" #h ", %%ymm" #h "\n"
#define SHUFFLED_FROM_MEMORY(off, a, h)                                                      \
    "vpaddq " #off "(%%rsi), %%ymm" #a ", %%ymm" #a "\n"                                      \
    "vpshufd $0xf5, " #off "(%%rsi), %%ymm9\n vpaddq %%ymm9, %%ymm" #h ", %%ymm" #h "\n"

/* Fourteen independent dot products (accumulators ymm1..ymm14). */
#define DOT1_(n) "%{vex%} vpdpwssd %%ymm0, %%ymm15, %%ymm" #n "\n"
#define DOT14                                                                                \
    DOT1_(1) DOT1_(2) DOT1_(3) DOT1_(4) DOT1_(5) DOT1_(6) DOT1_(7) DOT1_(8) DOT1_(9) DOT1_(10) \
    DOT1_(11) DOT1_(12) DOT1_(13) DOT1_(14)
/* The avx-vnni row's vector: flip the words (ymm15), dot with ones (ymm14) into accumulator
 * `a`; SUM flips straight from memory, COPY loaded into a register first and stored 512 bytes further on. */
#define VNNI_SUM_(off) "vpxor " #off "(%%rsi), %%ymm15, %%ymm10\n"
#define VNNI_COPY_(off)                                                                      \
    "vmovdqu " #off "(%%rsi), %%ymm9\n vmovdqu %%ymm9, 512+" #off "(%%rsi)\n"                \
    "vpxor %%ymm9, %%ymm15, %%ymm10\n"
#define VNNI(off, a, kind) VNNI_##kind##_(off) "%{vex%} vpdpwssd %%ymm14, %%ymm10, %%ymm" #a "\n"

int main(void)
{
    if (!__builtin_cpu_supports("avx2")) {
        fprintf(stderr, "csum-avx2-bound: this CPU has no AVX2\n");
        return 1;
    }
    double t, tpc;
    PROBE(t, ".rept 100\n add %%rax, %%rax\n .endr\n");
    tpc = t / 100; /* ticks per cycle */
    printf("core cycles per TSC tick: %.3f (a chain of dependent adds)\n\n", 1 / tpc);

    struct {
        const char *what;
        double ops;
        double result;
    } probes[] = {
        { "vpaddq ymm", 16, 0 },        { "vpsrlq ymm, imm", 16, 0 },
        { "vpshufd ymm, imm", 16, 0 },  { "vpmaddwd ymm", 16, 0 },
        { "vpsrlq + vpshufd", 16, 0 },  { "vpsrlq + vpaddq x2 (1:2)", 24, 0 },
        { "vmovdqu load ymm", 16, 0 },  { "vmovdqu store ymm", 16, 0 },
        { "3-byte nop (front end)", 48, 0 },
    };
    PROBE(probes[0].result, EIGHT("vpaddq") EIGHT("vpaddq"));
    PROBE(probes[1].result, EIGHT_IMM("vpsrlq $32,") EIGHT_IMM("vpsrlq $32,"));
    PROBE(probes[2].result, EIGHT_IMM("vpshufd $0xf5,") EIGHT_IMM("vpshufd $0xf5,"));
    PROBE(probes[3].result, EIGHT("vpmaddwd") EIGHT("vpmaddwd"));
    PROBE(probes[4].result, EIGHT_IMM("vpsrlq $32,") EIGHT_IMM("vpshufd $0xf5,"));
    PROBE(probes[5].result, EIGHT_IMM("vpsrlq $32,") EIGHT("vpaddq") EIGHT("vpaddq"));
    PROBE(probes[6].result,
          "vmovdqu (%%rsi), %%ymm1\n vmovdqu 32(%%rsi), %%ymm2\n vmovdqu 64(%%rsi), %%ymm3\n"
          "vmovdqu 96(%%rsi), %%ymm4\n vmovdqu 128(%%rsi), %%ymm5\n vmovdqu 160(%%rsi), %%ymm6\n"
          "vmovdqu 192(%%rsi), %%ymm7\n vmovdqu 224(%%rsi), %%ymm8\n"
          "vmovdqu 256(%%rsi), %%ymm1\n vmovdqu 288(%%rsi), %%ymm2\n vmovdqu 320(%%rsi), %%ymm3\n"
          "vmovdqu 352(%%rsi), %%ymm4\n vmovdqu 384(%%rsi), %%ymm5\n vmovdqu 416(%%rsi), %%ymm6\n"
          "vmovdqu 448(%%rsi), %%ymm7\n vmovdqu 480(%%rsi), %%ymm8\n");
    PROBE(probes[7].result,
          "vmovdqu %%ymm0, (%%rsi)\n vmovdqu %%ymm0, 32(%%rsi)\n vmovdqu %%ymm0, 64(%%rsi)\n"
          "vmovdqu %%ymm0, 96(%%rsi)\n vmovdqu %%ymm0, 128(%%rsi)\n vmovdqu %%ymm0, 160(%%rsi)\n"
          "vmovdqu %%ymm0, 192(%%rsi)\n vmovdqu %%ymm0, 224(%%rsi)\n"
          "vmovdqu %%ymm0, 256(%%rsi)\n vmovdqu %%ymm0, 288(%%rsi)\n vmovdqu %%ymm0, 320(%%rsi)\n"
          "vmovdqu %%ymm0, 352(%%rsi)\n vmovdqu %%ymm0, 384(%%rsi)\n vmovdqu %%ymm0, 416(%%rsi)\n"
          "vmovdqu %%ymm0, 448(%%rsi)\n vmovdqu %%ymm0, 480(%%rsi)\n");
    /* nopl (%rax), 0f 1f 00: GNU as drops a zero displacement, so "nopl 0(%rax)" assembles to
     * this same 3-byte form, not the 4-byte 0f 1f 40 00. */
    PROBE(probes[8].result, ".rept 48\n nopl (%%rax)\n .endr\n");
    printf("%-28s %8s\n", "instruction", "per cycle");
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        printf("%-28s %8.2f\n", probes[i].what, probes[i].ops * tpc / probes[i].result);

    /* The avx2 loop's 256-byte step: one load per vector and shifts only (what GCC made of the
     * intrinsics at best), and the kernel's mix (src/x86/x86_avx2_sum.h). */
    double plain, mixed;
    PROBE(plain, SHIFTED(0, 0, 4) SHIFTED(32, 1, 5) SHIFTED(64, 2, 6) SHIFTED(96, 3, 7)
                     SHIFTED(128, 0, 4) SHIFTED(160, 1, 5) SHIFTED(192, 2, 6) SHIFTED(224, 3, 7));
    PROBE(mixed, SHUFFLED_FROM_MEMORY(0, 0, 4) SHIFTED(32, 1, 5) SHUFFLED_FROM_MEMORY(64, 2, 6)
                     SHIFTED(96, 3, 7) SHUFFLED_FROM_MEMORY(128, 0, 4) SHIFTED(160, 1, 5)
                         SHUFFLED_FROM_MEMORY(192, 2, 6) SHIFTED(224, 3, 7));
    printf("\n256-byte step (24 ALU ops)     cycles   B/cycle   B/tick\n");
    printf("%-28s %8.2f %9.1f %8.1f\n", "one load a vector, shifts", plain / tpc,
           256 / (plain / tpc), 256 / plain);
    printf("%-28s %8.2f %9.1f %8.1f\n", "the kernel's mix", mixed / tpc, 256 / (mixed / tpc),
           256 / mixed);

    /* The avx-vnni row (src/x86/x86_avx_vnni_sum.h): the dot product's throughput and latency,
     * and the row's 256-byte step, summing (xor from memory, dot) and copying (load, store,
     * xor, dot). CPUID leaf 7 subleaf 1, EAX bit 4; the OS saves YMM state if AVX2 runs. */
    unsigned a, b, c, d;
    __asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(1));
    if (!(a >> 4 & 1)) {
        printf("\n(no AVX-VNNI: the avx-vnni probes are skipped)\n");
        return 0;
    }
    double dot_tp, dot_lat, vnni_sum, vnni_copy;
    PROBE(dot_tp, ".rept 4\n" DOT14 ".endr\n");
    PROBE(dot_lat, ".rept 16\n %{vex%} vpdpwssd %%ymm0, %%ymm9, %%ymm1\n .endr\n");
    PROBE(vnni_sum, VNNI(0, 1, SUM) VNNI(32, 2, SUM) VNNI(64, 3, SUM) VNNI(96, 4, SUM) VNNI(128, 5, SUM)
                        VNNI(160, 6, SUM) VNNI(192, 7, SUM) VNNI(224, 8, SUM));
    PROBE(vnni_copy, VNNI(0, 1, COPY) VNNI(32, 2, COPY) VNNI(64, 3, COPY) VNNI(96, 4, COPY)
                         VNNI(128, 5, COPY) VNNI(160, 6, COPY) VNNI(192, 7, COPY)
                             VNNI(224, 8, COPY));
    printf("\n{vex} vpdpwssd ymm: %.2f per cycle, latency %.2f cycles\n", 56 * tpc / dot_tp,
           dot_lat / tpc / 16);
    printf("avx-vnni 256-byte step       cycles   B/cycle   B/tick\n");
    printf("%-28s %8.2f %9.1f %8.1f\n", "summing (16 ops)", vnni_sum / tpc,
           256 / (vnni_sum / tpc), 256 / vnni_sum);
    printf("%-28s %8.2f %9.1f %8.1f\n", "copying (+ load, store)", vnni_copy / tpc,
           256 / (vnni_copy / tpc), 256 / vnni_copy);
    return 0;
}
