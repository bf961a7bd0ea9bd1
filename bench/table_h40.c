/*
 * h40: seed 003's table. Every subject at 40 bytes (an IPv6 header), at an even and an odd
 * address, in throughput mode (the out-of-order engine overlaps calls), latency mode (each
 * result feeds the next call) and fenced mode (lfence around each call: seed 003's
 * "OOO fenced off" worst case). --zero-sum uses an initial sum of 0 (seed 003's last step).
 */
#include "lab.h"

void table_h40(const struct lab_env *env)
{
    const struct lab_options *o = env->o;
    const csum_wsum sum = o->zero_sum ? 0 : 0x5a5a;
    const unsigned modes = lab_modes(env, MODE_THROUGHPUT | MODE_LATENCY | MODE_FENCED);
    unsigned char *base = lab_buffer(4096);
    if (!base) {
        lab_note("h40", "cannot allocate buffers");
        return;
    }
    const unsigned char *even = base, *odd = base + 64 + 1;
    struct lab_expect e_even, e_odd;
    lab_expect_case(even, 40, &e_even);
    lab_expect_case(odd, 40, &e_odd);

    char what[160];
    snprintf(what, sizeof what, "40 bytes, initial sum %s; median ticks (est. cycles) per call",
             o->zero_sum ? "0 (--zero-sum)" : "0x5a5a");
    lab_table_title(env, "h40 (seed 003)", what);
    lab_out("%-14s", "impl");
    static const enum lab_mode order[] = { MODE_THROUGHPUT, MODE_LATENCY, MODE_FENCED };
    for (size_t m = 0; m < 3; m++)
        if (modes & order[m])
            lab_out(" %14s %14s", lab_mode_name(order[m]), "(odd)");
    lab_out("\n");

    for (size_t i = 0; i < env->n_subjects; i++) {
        const struct lab_subject *s = &env->subjects[i];
        if (s->refused)
            continue;
        lab_out("%-14s", s->name);
        for (size_t m = 0; m < 3; m++) {
            if (!(modes & order[m]))
                continue;
            for (int parity = 0; parity < 2; parity++) {
                struct lab_result *r =
                    lab_time_csum(env, s, "h40", o->zero_sum ? (parity ? "odd,zero-sum" : "even,zero-sum")
                                                            : (parity ? "odd" : "even"),
                                  order[m], parity ? odd : even, 40, sum, parity ? &e_odd : &e_even);
                char cell[32] = "refused";
                if (r)
                    snprintf(cell, sizeof cell, "%.2f (%.1f)", r->st.ticks_median, r->st.cycles_median);
                lab_out(" %14s", cell);
            }
        }
        lab_out("\n");
    }
    lab_buffer_free(base, 4096);
}
