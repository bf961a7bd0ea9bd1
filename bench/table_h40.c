/*
 * h40: seed 003's table. 40 bytes (an IPv6 header), at an even and an odd address, in
 * throughput mode (the out-of-order engine overlaps calls), latency mode (each result feeds the
 * next call) and fenced mode (lfence around each call: seed 003's "OOO fenced off" worst case).
 *
 * First seed 003's steps in its order — baseline (x86-dumazet, the code the write-up started
 * from), the 40-byte-only kernels of bench/h40_kernels.c, and the header's constant-length
 * inline path — then every other subject. --zero-sum uses an initial sum of 0 (seed 003's last
 * step; the zero-sum kernel and the inline path then see a literal 0).
 */
#include "lab.h"

#include "csum_oracle.h"

/* ---- the header's constant-length path, inline in the loop ---------------------------------
 * `p` goes through an empty asm each iteration so the compiler cannot hoist the loads out of
 * the loop; with --zero-sum the literal 0 lets it drop the addition of the sum. */

#define INLINE_LOOP(name, zero, latency, fenced)                                            \
    static uint64_t name(const void *ctx, uint64_t iters)                                   \
    {                                                                                        \
        const struct lab_csum_case *c = ctx;                                                 \
        const unsigned char *p = c->p;                                                       \
        csum_wsum s = c->sum, acc = 0;                                                       \
        for (uint64_t i = 0; i < iters; i++) {                                               \
            __asm__ volatile("" : "+r"(p));                                                  \
            if (fenced)                                                                      \
                lab_fence();                                                                 \
            csum_wsum r = csum_partial(p, 40, (zero) ? 0 : s);                                \
            if (fenced)                                                                      \
                lab_fence();                                                                 \
            if (latency)                                                                     \
                s = r;                                                                       \
            else                                                                             \
                __asm__ volatile("" ::"r"(r));                                               \
            acc += r;                                                                        \
        }                                                                                    \
        return acc;                                                                          \
    }

INLINE_LOOP(inline_throughput, 0, 0, 0)
INLINE_LOOP(inline_latency, 0, 1, 0)
INLINE_LOOP(inline_fenced, 0, 0, 1)
INLINE_LOOP(inline_throughput_zero, 1, 0, 0)
INLINE_LOOP(inline_fenced_zero, 1, 0, 1)

static lab_body_fn inline_body(enum lab_mode mode, int zero_sum)
{
    switch (mode) {
    case MODE_THROUGHPUT: return zero_sum ? inline_throughput_zero : inline_throughput;
    case MODE_LATENCY: return zero_sum ? NULL : inline_latency; /* a chain has no zero sum */
    case MODE_FENCED: return zero_sum ? inline_fenced_zero : inline_fenced;
    }
    return NULL;
}

/* One line of the table: a function pointer (row, peer or kernel) or the inline path. */
struct h40_entry {
    const char *name;
    csum_partial_fn fn; /* NULL: the inline path */
    int zero_sum_only;
};

static const enum lab_mode order[] = { MODE_THROUGHPUT, MODE_LATENCY, MODE_FENCED };

static int entry_is_correct(const struct h40_entry *e, const unsigned char *p, csum_wsum sum)
{
    csum_wsum got = e->fn ? e->fn(p, 40, sum) : csum_partial(p, 40, sum);
    return csum16_network_value(csum_fold(got)) == oracle_checksum(p, 40, sum);
}

static void run_entry(const struct lab_env *env, const struct h40_entry *e, unsigned modes,
                      const unsigned char *even, const unsigned char *odd)
{
    const int zero = env->o->zero_sum;
    if (e->zero_sum_only && !zero)
        return;
    lab_out("%-16s", e->name);
    for (size_t m = 0; m < 3; m++) {
        if (!(modes & order[m]))
            continue;
        for (int parity = 0; parity < 2; parity++) {
            const unsigned char *p = parity ? odd : even;
            const csum_wsum sum = zero ? 0 : 0x5a5a;
            lab_body_fn body = e->fn ? lab_csum_body(order[m]) : inline_body(order[m], zero);
            if (e->zero_sum_only && order[m] == MODE_LATENCY)
                body = NULL; /* chained calls feed a nonzero sum */
            char cell[32] = "-";
            if (!entry_is_correct(e, p, sum) || !entry_is_correct(e, p, zero ? 0 : 0xffffffffu)) {
                lab_note("h40", "%s refused: disagrees with the oracle at 40 bytes", e->name);
                snprintf(cell, sizeof cell, "refused");
            } else if (body) {
                struct lab_csum_case c = { e->fn, p, 40, sum };
                struct lab_stats st;
                lab_measure(env->o, env->clk, body, &c, &st);
                char variant[32];
                snprintf(variant, sizeof variant, "%s%s", parity ? "odd" : "even", zero ? ",zero-sum" : "");
                lab_result_add("h40", e->name, variant, order[m], 40, (uintptr_t)p & 63, &st);
                snprintf(cell, sizeof cell, "%.2f (%.1f)", st.ticks_median, st.cycles_median);
            }
            lab_out(" %14s", cell);
        }
    }
    lab_out("\n");
}

void table_h40(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    const unsigned modes = lab_modes(env, MODE_THROUGHPUT | MODE_LATENCY | MODE_FENCED);
    unsigned char *base = lab_buffer(4096);
    if (!base) {
        lab_fail("h40", "cannot allocate buffers");
        return;
    }
    const unsigned char *even = base, *odd = base + 64 + 1;

    char what[160];
    snprintf(what, sizeof what, "40 bytes, initial sum %s; median ticks (est. cycles) per call",
             o->zero_sum ? "0 (--zero-sum)" : "0x5a5a");
    lab_table_title(env, "h40 (seed 003)", what);
    lab_out("%-16s", "subject");
    for (size_t m = 0; m < 3; m++)
        if (modes & order[m])
            lab_out(" %14s %14s", lab_mode_name(order[m]), "(odd)");
    lab_out("\n");

    /* Seed 003's steps, in its order. */
    const struct lab_subject *baseline = lab_subject_find(env->subjects, env->n_subjects, "x86-dumazet");
    if (baseline && !baseline->refused) {
        struct h40_entry e = { "x86-dumazet", baseline->fn, 0 };
        run_entry(env, &e, modes, even, odd);
    }
    for (size_t k = 0; lab_h40_kernels[k].name; k++) {
        struct h40_entry e = { lab_h40_kernels[k].name, lab_h40_kernels[k].fn,
                               lab_h40_kernels[k].zero_sum_only };
        if (lab_wanted(o, e.name))
            run_entry(env, &e, modes, even, odd);
    }
    if (lab_wanted(o, "inline-40")) {
        struct h40_entry e = { "inline-40", NULL, 0 };
        run_entry(env, &e, modes, even, odd);
    }
    /* Everything else. */
    for (size_t i = 0; i < env->n_subjects; i++) {
        const struct lab_subject *s = &env->subjects[i];
        if (s->refused || s == baseline)
            continue;
        struct h40_entry e = { s->name, s->fn, 0 };
        run_entry(env, &e, modes, even, odd);
    }
    lab_note("h40", "seed 003's steps: x86-dumazet = baseline; 40:no-odd = unaligned removed; "
                    "40:one-chain = dead code removed; 40:adx; 40:2-stream; 40:32-bit; "
                    "40:zero-sum = assume zero input (--zero-sum only); inline-40 = csum.h's "
                    "constant-length path");
    lab_buffer_free(base, 4096);
}
