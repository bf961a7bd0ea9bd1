/*
 * h40: van de Ven 2021's table. 40 bytes (an IPv6 header), at an even and an odd address, in
 * throughput mode (independent calls: the out-of-order engine overlaps them), latency mode
 * (each result is the next call's initial sum), latency mode with the seed added after the
 * call (csum_add(fn(p, 40, 0), sum): whatever the subject does with its seed, the data sum no
 * longer waits for the previous call), and fenced mode (lfence around each call: van de Ven 2021's
 * "OOO fenced off" worst case).
 *
 * The two latency columns separate a step's two possible gains: a shorter chain through the
 * data, and a seed that enters last. The 40-byte kernels (bench/h40_kernels.c) come in both
 * seed positions for the same reason.
 *
 * First van de Ven 2021's steps in its order — baseline (x86-dumazet, the code the write-up started
 * from), the 40-byte-only kernels, and the header's constant-length inline path — then every
 * other subject. --zero-sum uses an initial sum of 0 (van de Ven 2021's last step; the zero-sum
 * kernel and the inline path then see a literal 0).
 */
#include "lab.h"

#include "csum_oracle.h"

/* The columns: a mode, and for latency whether the seed goes in after the call. */
enum h40_column { COL_THROUGHPUT, COL_LATENCY, COL_SEED_AFTER, COL_FENCED, N_COLUMNS };
static const enum lab_mode column_mode[N_COLUMNS] = { MODE_THROUGHPUT, MODE_LATENCY, MODE_LATENCY,
                                                      MODE_FENCED };
static const char *const column_name[N_COLUMNS] = { "throughput", "latency", "lat,seed-after",
                                                    "fenced" };

/* ---- the header's constant-length path, inline in the loop ---------------------------------
 * `p` goes through an empty asm each iteration so the compiler cannot hoist the loads out of
 * the loop; with --zero-sum the literal 0 lets it drop the addition of the sum. */

#define INLINE_LOOP(name, zero, latency, fenced, after)                                      \
    static uint64_t name##_loop(const void *ctx, uint64_t iters);                            \
    static uint64_t name(const void *ctx, uint64_t iters) /* on a moved stack */             \
    {                                                                                        \
        const struct lab_csum_case *c = ctx;                                                 \
        return lab_off_stack(c->p, c->p, 40, name##_loop, ctx, iters);                       \
    }                                                                                        \
    static uint64_t name##_loop(const void *ctx, uint64_t iters)                             \
    {                                                                                        \
        const struct lab_csum_case *c = ctx;                                                 \
        const unsigned char *p = c->p;                                                       \
        csum_wsum s = c->sum, acc = 0;                                                       \
        for (uint64_t i = 0; i < iters; i++) {                                               \
            __asm__ volatile("" : "+r"(p));                                                  \
            if (fenced)                                                                      \
                lab_fence();                                                                 \
            csum_wsum r = (after) ? csum_add(csum_partial(p, 40, 0), s)                      \
                                  : csum_partial(p, 40, (zero) ? 0 : s);                     \
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

INLINE_LOOP(inline_throughput, 0, 0, 0, 0)
INLINE_LOOP(inline_latency, 0, 1, 0, 0)
INLINE_LOOP(inline_seed_after, 0, 1, 0, 1)
INLINE_LOOP(inline_fenced, 0, 0, 1, 0)
INLINE_LOOP(inline_throughput_zero, 1, 0, 0, 0)
INLINE_LOOP(inline_fenced_zero, 1, 0, 1, 0)

/* Latency with the seed added after the call, for any function; on a moved stack, as every
 * loop of the lab_csum_body() columns (lab_off_stack). */
static uint64_t seed_after_loop(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    const csum_partial_fn fn = c->fn;
    const unsigned char *const p = c->p;
    csum_wsum s = c->sum;
    for (uint64_t i = 0; i < iters; i++)
        s = csum_add(fn(p, 40, 0), s);
    return s;
}

static uint64_t body_seed_after(const void *ctx, uint64_t iters)
{
    const struct lab_csum_case *c = ctx;
    return lab_off_stack(c->p, c->p, 40, seed_after_loop, ctx, iters);
}

/* NULL: the cell does not apply (a chain has no zero sum). */
static lab_body_fn body_for(const csum_partial_fn fn, enum h40_column col, int zero_sum)
{
    if (zero_sum && (col == COL_LATENCY || col == COL_SEED_AFTER))
        return NULL;
    if (fn)
        return col == COL_SEED_AFTER ? body_seed_after : lab_csum_body(column_mode[col]);
    switch (col) {
    case COL_THROUGHPUT: return zero_sum ? inline_throughput_zero : inline_throughput;
    case COL_LATENCY: return inline_latency;
    case COL_SEED_AFTER: return inline_seed_after;
    case COL_FENCED: return zero_sum ? inline_fenced_zero : inline_fenced;
    case N_COLUMNS: break;
    }
    return NULL;
}

/* One line of the table: a function pointer (row, peer or kernel) or the inline path. */
struct h40_entry {
    const char *name;
    csum_partial_fn fn; /* NULL: the inline path */
    int zero_sum_only;
    const char *seed;   /* "first"/"last" for the kernels, "-" when not known */
    int peer;           /* a lab subject from another project */
};

static int entry_is_correct(const struct h40_entry *e, const unsigned char *p, csum_wsum sum)
{
    csum_wsum got = e->fn ? e->fn(p, 40, sum) : csum_partial(p, 40, sum);
    return csum16_network_value(csum_fold(got)) == oracle_checksum(p, 40, sum);
}

static unsigned wanted_columns(const struct lab_env *env)
{
    const unsigned modes = lab_modes(env, MODE_THROUGHPUT | MODE_LATENCY | MODE_FENCED);
    unsigned cols = 0;
    for (int c = 0; c < N_COLUMNS; c++)
        if (modes & column_mode[c])
            cols |= 1u << c;
    return cols;
}

static void run_entry(const struct lab_env *env, const struct h40_entry *e, unsigned cols,
                      const unsigned char *even, const unsigned char *odd)
{
    const int zero = env->o->zero_sum;
    if (e->zero_sum_only && !zero)
        return;
    lab_out("%-19s %-5s", e->name, e->seed);
    for (int col = 0; col < N_COLUMNS; col++) {
        if (!(cols & (1u << col)))
            continue;
        for (int parity = 0; parity < 2; parity++) {
            const unsigned char *p = parity ? odd : even;
            const csum_wsum sum = zero ? 0 : 0x5a5a;
            lab_body_fn body = body_for(e->fn, (enum h40_column)col, zero);
            char cell[32] = "-";
            /* Checked with the seeds its calls get: the seed-after column calls it with 0 (the
             * 40-byte kernels have no self-check that would have tried 0). */
            if (!entry_is_correct(e, p, sum) || !entry_is_correct(e, p, zero ? 0 : 0xffffffffu) ||
                (col == COL_SEED_AFTER && !entry_is_correct(e, p, 0))) {
                lab_wrong_sum("h40", e->peer, "%s refused: disagrees with the oracle at 40 bytes", e->name);
                lab_refusal_add("h40", e->name, column_mode[col], 40);
                snprintf(cell, sizeof cell, "refused");
            } else if (body) {
                struct lab_csum_case c = { e->fn, p, 40, sum };
                struct lab_stats st;
                lab_measure(env->o, env->clk, body, &c, &st);
                char variant[48];
                snprintf(variant, sizeof variant, "%s%s%s", parity ? "odd" : "even",
                         col == COL_SEED_AFTER ? ",seed-after" : "", zero ? ",zero-sum" : "");
                lab_result_add("h40", e->name, variant, column_mode[col], 40, (uintptr_t)p & 63, &st);
                snprintf(cell, sizeof cell, "%.2f%s", st.ticks_median, st.noisy ? "*" : "");
            }
            lab_out(" %7s", cell);
        }
    }
    lab_out("\n");
}

void table_h40(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    const unsigned cols = wanted_columns(env);
    unsigned char *base = lab_buffer(4096);
    if (!base) {
        lab_fail("h40", "cannot allocate buffers");
        return;
    }
    const unsigned char *even = base, *odd = base + 64 + 1;

    char what[200];
    snprintf(what, sizeof what, "40 bytes, initial sum %s; median ticks per call (* = noisy); "
             "each mode at an even and an odd address", o->zero_sum ? "0 (--zero-sum)" : "0x5a5a");
    lab_table_title(env, "h40 (van de Ven 2021)", what);
    lab_out("%-19s %-5s", "subject", "seed");
    for (int c = 0; c < N_COLUMNS; c++)
        if (cols & (1u << c))
            lab_out(" %-15s", column_name[c]);
    lab_out("\n%-25s", "");
    for (int c = 0; c < N_COLUMNS; c++)
        if (cols & (1u << c))
            lab_out(" %7s %7s", "even", "odd");
    lab_out("\n");

    /* van de Ven 2021's steps, in its order. */
    const struct lab_subject *baseline = lab_subject_find(env->subjects, env->n_subjects, "x86-dumazet");
    if (baseline && !baseline->refused) {
        struct h40_entry e = { "x86-dumazet", baseline->fn, 0, "-", 0 };
        run_entry(env, &e, cols, even, odd);
    }
    for (size_t k = 0; lab_h40_kernels[k].name; k++) {
        struct h40_entry e = { lab_h40_kernels[k].name, lab_h40_kernels[k].fn,
                               lab_h40_kernels[k].zero_sum_only, lab_h40_kernels[k].seed, 0 };
        if (lab_wanted(o, e.name))
            run_entry(env, &e, cols, even, odd);
    }
    if (lab_wanted(o, "inline-40")) {
        struct h40_entry e = { "inline-40", NULL, 0, "-", 0 };
        run_entry(env, &e, cols, even, odd);
    }
    /* Everything else. */
    for (size_t i = 0; i < env->n_subjects; i++) {
        const struct lab_subject *s = &env->subjects[i];
        if (s->refused || s == baseline)
            continue;
        struct h40_entry e = { s->name, s->fn, 0, "-", s->peer };
        run_entry(env, &e, cols, even, odd);
    }
    if (lab_h40_kernels[0].name)
        lab_note("h40", "van de Ven 2021's steps: x86-dumazet = baseline; 40:no-odd = unaligned removed; "
                        "40:one-chain = dead code removed; 40:adx; 40:2-stream; 40:32-bit; each with "
                        "the initial sum entering first (/first) or in the final fold (/last); "
                        "40:zero-sum = assume zero input (--zero-sum only); inline-40 = csum.h's "
                        "constant-length path");
    else
        lab_note("h40", "van de Ven 2021's steps are x86-64 code, not built on this architecture; "
                        "inline-40 = csum.h's constant-length path");
    if (o->zero_sum && (cols & ((1u << COL_LATENCY) | (1u << COL_SEED_AFTER))))
        lab_note("h40", "--zero-sum: the latency columns are not timed (-): each call's result is "
                        "the next call's initial sum, never a constant 0");
    /* what each column timed means, for the columns this run has (--latency, --throughput) */
    static const char *const column_note[N_COLUMNS] = {
        [COL_LATENCY] = "latency = each result is the next call's initial sum (a chained "
                        "csum_partial(..., sum))",
        [COL_SEED_AFTER] = "lat,seed-after = the same chain with the sum added after the call "
                           "(csum_add(fn(p, 40, 0), sum)): the difference is what the seed's "
                           "position costs",
        [COL_THROUGHPUT] = "throughput = independent calls (separate headers)",
    };
    static const enum h40_column note_order[] = { COL_LATENCY, COL_SEED_AFTER, COL_THROUGHPUT };
    char notes[512] = "";
    for (size_t i = 0, used = 0; i < sizeof note_order / sizeof note_order[0]; i++)
        if (cols & (1u << note_order[i]))
            used += (size_t)snprintf(notes + used, sizeof notes - used, "%s%s", used ? "; " : "",
                                     column_note[note_order[i]]);
    if (notes[0])
        lab_note("h40", "%s", notes);
    if (cols & (1u << COL_FENCED))
        lab_note("h40", "fenced = independent calls, each between two fences (%s) that keep "
                        "earlier and later instructions from overlapping it: van de Ven 2021's "
                        "\"OOO fenced off\" worst case",
#if defined(__aarch64__)
                 "isb"
#elif defined(__x86_64__)
                 "lfence"
#else
                 "none on this architecture"
#endif
        );
    lab_buffer_free(base, 4096);
}
