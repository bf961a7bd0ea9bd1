/*
 * Building blocks shared by the x86-64 scalar implementations (x86-scalar, src/x86/x86_scalar.[ch],
 * and the reference rows in src/reference/), and the entry alignment of every x86 row.
 *
 * The historical algorithms differ in how they arrange add-with-carry chains, not in the
 * chains themselves, so the chains are written once here as GNU inline asm (AT&T syntax):
 * "add the first word, adc the rest, adc $0" is one carry chain whose last carry is folded
 * back (end-around carry). Asm rather than C because the instruction choice is the point:
 * these files exist so the lab can compare adc chain layouts on the reader's CPU.
 *
 * Every asm block names the exact bytes it reads as "m" operands (the chains read their words
 * through them; elsewhere they only tell the compiler which memory the asm depends on) and
 * clobbers "cc".
 *
 * Why `adc $0` never loses a carry: after `add` (carry in 0) a carry out leaves at most
 * 2^64 - 2 in the register, and an `adc` whose register input is at most 2^64 - 2 when the
 * carry is set again leaves at most 2^64 - 2 when it carries. So whenever CF = 1 the register
 * is below 2^64 - 1 and the closing `adc $0` cannot overflow.
 *
 * x86-64 only, little-endian: "the low byte of a loaded word is the first byte in memory".
 */
#ifndef CSUM_X86_ADC_H
#define CSUM_X86_ADC_H

#include "csum_internal.h"

/*
 * Every row's entry point starts a 64-byte block: the front end fetches and predicts in
 * aligned blocks, and with the default 16-byte alignment the same code measured a tick
 * faster or slower depending on link order. Aligned, the lab compares algorithms, not layouts.
 */
#define X86_ROW_ENTRY __attribute__((aligned(64)))

/* ---- one carry chain over a fixed number of words at p ---------------------------------- */

/*
 * Each word is its own "m" operand, as Linux's update_csum_40b() passes them: the compiler
 * writes every address as base + displacement, so a chain at a constant offset from a pointer
 * costs no address arithmetic (with the pointer as a register operand, GCC computed p + 40,
 * p + 80, ... into registers first: 3 to 5 instructions more on a 104-byte call).
 */
#define X86_WORD(p, size, k) "m"(*(const unsigned char(*)[size])((p) + (size) * (k)))
#define X86_Q(p, k) X86_WORD(p, 8, k)
#define X86_L(p, k) X86_WORD(p, 4, k)
#define X86_CLOSE "adc $0, %0"

/* "add %1, %0; adc %2, %0; ...": no size suffix, the accumulator's register gives the width, so
 * one text serves the 64- and the 32-bit chains. */
#define X86_CHAIN1 "add %1, %0\n\t"
#define X86_CHAIN2 X86_CHAIN1 "adc %2, %0\n\t"
#define X86_CHAIN3 X86_CHAIN2 "adc %3, %0\n\t"
#define X86_CHAIN4 X86_CHAIN3 "adc %4, %0\n\t"
#define X86_CHAIN5 X86_CHAIN4 "adc %5, %0\n\t"
#define X86_CHAIN8 X86_CHAIN5 "adc %6, %0\n\tadc %7, %0\n\tadc %8, %0\n\t"

/* Defines `static inline type name(type acc, const unsigned char *p)`: acc + the words named by
 * the operands, in one chain closed by adc $0. */
#define X86_DEFINE_CHAIN(name, type, chain, ...)                                                \
    static inline type name(type acc, const unsigned char *p)                                  \
    {                                                                                          \
        __asm__(chain X86_CLOSE : "+r"(acc) : __VA_ARGS__ : "cc");                             \
        return acc;                                                                            \
    }

/* 64-bit chains: acc + 1 to 5 or 8 quadwords. */
X86_DEFINE_CHAIN(x86_chain_q1, uint64_t, X86_CHAIN1, X86_Q(p, 0))
X86_DEFINE_CHAIN(x86_chain_q2, uint64_t, X86_CHAIN2, X86_Q(p, 0), X86_Q(p, 1))
X86_DEFINE_CHAIN(x86_chain_q3, uint64_t, X86_CHAIN3, X86_Q(p, 0), X86_Q(p, 1), X86_Q(p, 2))
X86_DEFINE_CHAIN(x86_chain_q4, uint64_t, X86_CHAIN4, X86_Q(p, 0), X86_Q(p, 1), X86_Q(p, 2),
                 X86_Q(p, 3))
X86_DEFINE_CHAIN(x86_chain_q5, uint64_t, X86_CHAIN5, X86_Q(p, 0), X86_Q(p, 1), X86_Q(p, 2),
                 X86_Q(p, 3), X86_Q(p, 4))
X86_DEFINE_CHAIN(x86_chain_q8, uint64_t, X86_CHAIN8, X86_Q(p, 0), X86_Q(p, 1), X86_Q(p, 2),
                 X86_Q(p, 3), X86_Q(p, 4), X86_Q(p, 5), X86_Q(p, 6), X86_Q(p, 7))

/* 32-bit chains: acc + 1, 2 or 4 doublewords (the "32 bit only" step of van de Ven 2021). */
X86_DEFINE_CHAIN(x86_chain_l1, uint32_t, X86_CHAIN1, X86_L(p, 0))
X86_DEFINE_CHAIN(x86_chain_l2, uint32_t, X86_CHAIN2, X86_L(p, 0), X86_L(p, 1))
X86_DEFINE_CHAIN(x86_chain_l4, uint32_t, X86_CHAIN4, X86_L(p, 0), X86_L(p, 1), X86_L(p, 2),
                 X86_L(p, 3))

/* ---- register arithmetic ---------------------------------------------------------------- */

/* a + b with end-around carry, as add + adc $0 (the kernel's add64_with_carry). */
static inline uint64_t x86_add_ec64(uint64_t a, uint64_t b)
{
    __asm__("addq %[b], %[a]\n\tadcq $0, %[a]" : [a] "+r"(a) : [b] "r"(b) : "cc");
    return a;
}

static inline uint32_t x86_add_ec32(uint32_t a, uint32_t b)
{
    __asm__("addl %[b], %[a]\n\tadcl $0, %[a]" : [a] "+r"(a) : [b] "r"(b) : "cc");
    return a;
}

/* a + b + c with end-around carry, one add/adc/adc chain (add32_with_carry3 in Herbert 2016). */
static inline uint32_t x86_add3_ec32(uint32_t a, uint32_t b, uint32_t c)
{
    __asm__("addl %[b], %[a]\n\t"
            "adcl %[c], %[a]\n\t"
            "adcl $0, %[a]"
            : [a] "+r"(a)
            : [b] "r"(b), [c] "r"(c)
            : "cc");
    return a;
}

/* The kernel's 64 -> 32 fold (add32_with_carry of the halves) with a 32-bit term c added in
 * the same chain. */
static inline csum_wsum x86_fold64_add(uint64_t x, uint32_t c)
{
    return x86_add3_ec32((uint32_t)x, (uint32_t)(x >> 32), c);
}

/*
 * 64 -> 32 fold with one rotate: the high half of x + ror64(x, 32) is hi + lo plus the carry
 * out of the low half, which is exactly the end-around carry of hi + lo (Linux 6.8's
 * csum_finalize_sum).
 */
static inline csum_wsum x86_fold64_rotate(uint64_t x)
{
    return (csum_wsum)((x + ((x >> 32) | (x << 32))) >> 32);
}

/*
 * For the algorithms that sum an odd-addressed buffer from its second byte and byte-swap the
 * result (x86-2002, x86-dumazet): the swap only works on a 16-bit value, so those paths end in
 * 16 bits. The even-address path must then end in 16 bits too, or the same bytes at an odd and
 * an even address would give different (if congruent) 32-bit sums. Folding is canonical:
 * nonzero input folds into 1..0xffff, zero to 0, so congruent values fold to the same number.
 */
static inline uint32_t x86_fold32_to16(uint32_t x)
{
    return (uint16_t)~csum_inline_fold(x);
}

static inline uint32_t x86_swab16(uint32_t x)
{
    return ((x >> 8) & 0xff) | ((x & 0xff) << 8);
}

/* ---- tails: the last 0..7 bytes, never reading outside the buffer ----------------------- */

/*
 * The r (1..8) bytes that end at `end`, as a host-order word with zeros above them, read
 * with one backward 8-byte load [end - 8, end) and a shift (Herbert 2016). The caller
 * guarantees that the buffer holds at least 8 bytes before `end`, so the load is in bounds;
 * the word keeps its bytes in the right half of their 16-bit words as long as end - r is at an
 * even offset from the start of the buffer.
 */
static inline uint64_t x86_tail_backward(const unsigned char *end, unsigned r)
{
    return csum_load64(end - 8) >> (8 * (8 - r));
}

/*
 * The last n & 7 bytes of a buffer of total length `len` that ends at `end`: with one backward
 * load when the buffer holds 8 bytes or more, else with 4/2/1-byte loads. This is what replaces
 * the kernel's load_unaligned_zeropad(), which may read up to 7 bytes past the end of the
 * buffer and relies on the kernel's page-fault fixup; userspace has no such fixup.
 */
static inline uint64_t x86_tail_safe(const unsigned char *end, size_t n, size_t len)
{
    unsigned r = (unsigned)(n & 7);
    if (r == 0)
        return 0;
    if (len >= 8)
        return x86_tail_backward(end, r);
    return csum_tail_sum7(end - r, r);
}

/*
 * The end shared by the two-accumulator rows (x86-2stream, x86-adx): the last 0..15 bytes
 * (n & 15) at p, 8 bytes into a and the 1..7-byte tail into b, then a + b folded to 32 bits.
 * `whole` is the buffer's full length, for x86_tail_safe.
 */
static inline csum_wsum x86_finish_two(uint64_t a, uint64_t b, const unsigned char *p, size_t n,
                                       size_t whole)
{
    if (n & 8) {
        a = x86_chain_q1(a, p);
        p += 8;
    }
    if (n & 7)
        b = x86_add_ec64(b, x86_tail_safe(p + (n & 7), n, whole));
    return x86_fold64_rotate(x86_add_ec64(a, b));
}

/* ---- Dumazet's 32/16/8 bisection: the 0..63 bytes left after a 64-byte loop ------------- */

/* acc + the first (n & 56) bytes at p, one chain per set bit of n (32, 16, 8). */
static inline uint64_t x86_bisect_32_16_8(uint64_t acc, const unsigned char *p, size_t n)
{
    if (n & 32) {
        acc = x86_chain_q4(acc, p);
        p += 32;
    }
    if (n & 16) {
        acc = x86_chain_q2(acc, p);
        p += 16;
    }
    if (n & 8)
        acc = x86_chain_q1(acc, p);
    return acc;
}

/* ---- Herbert's computed jump into an adc run ------------------------------------------- */

/*
 * acc + the first `quads` (0..8) quadwords at p, in one adc chain entered by a computed jump
 * (Herbert 2016): a jump table with no table. Every adc in the run is 4 bytes long,
 * so the entry for n quadwords is 4 * n bytes before the end of the run. The jump is
 * position-independent (RIP-relative lea) because libcsum is built -fPIC, and `notrack` so
 * that it stays legal if indirect branch tracking (CET IBT) is ever enforced on the process.
 * `adcq disp8(%rsi), reg` is 4 bytes; `adcq (%rsi), reg` is 3, so a nop pads it (the review of Herbert 2016
 * notes that a forced 8-bit displacement would do too). p is pinned to %rsi because %rsp,
 * %rbp, %r12 and %r13 as a base would change the encoded length. (clang's assembler cannot
 * check the layout with .if on label differences; the exhaustive tests take every entry.)
 */
static inline uint64_t x86_adc_quads_jump(uint64_t acc, const unsigned char *p, size_t quads)
{
    uint64_t target;
    __asm__("lea 2f(%%rip), %[t]\n\t"
            "lea (%[t], %[neg], 4), %[t]\n\t"
            "clc\n\t"
            "notrack jmp *%[t]\n\t"
            "adcq 56(%[src]), %[acc]\n\t"
            "adcq 48(%[src]), %[acc]\n\t"
            "adcq 40(%[src]), %[acc]\n\t"
            "adcq 32(%[src]), %[acc]\n\t"
            "adcq 24(%[src]), %[acc]\n\t"
            "adcq 16(%[src]), %[acc]\n\t"
            "adcq 8(%[src]), %[acc]\n\t"
            "adcq (%[src]), %[acc]\n\t"
            "nop\n"
            "2:\n\t"
            "adcq $0, %[acc]"
            : [acc] "+r"(acc), [t] "=&r"(target)
            : [src] "S"(p), [neg] "r"(-(uint64_t)quads)
            : "cc", "memory");
    return acc;
}

#endif /* CSUM_X86_ADC_H */
