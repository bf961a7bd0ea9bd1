/*
 * iov: Viro/Laight 2020's benchmark. A checksum over 16 iovec segments, each of 1, 2, 4, ... 1024 bytes;
 * ticks per call and ticks per 64-bit word (Viro/Laight 2020's figure of merit: about 1 per word is the
 * limit when the data is also written). Latency mode: each result is the next initial sum.
 */
#include "lab.h"

#include <sys/uio.h>

#include "csum_oracle.h"

enum { SEGMENTS = 16, MAX_SEGMENT = 1024 };

struct iov_ctx {
    const struct lab_iov_subject *s;
    struct iovec iov[SEGMENTS];
};

static uint64_t body_iov(const void *ctx, uint64_t iters)
{
    const struct iov_ctx *c = ctx;
    csum_wsum sum = 0;
    for (uint64_t i = 0; i < iters; i++)
        sum = c->s->fn(c->iov, SEGMENTS, sum);
    return sum;
}

void table_iov(const struct lab_env *env)
{
    lab_table_title(env, "iov (Viro/Laight 2020)", "16 segments, latency mode; ticks per call (* = "
                    "noisy) / ticks per 64-bit word");
    if (!lab_iov_subjects[0]) {
        lab_note("iov", "not available yet: no csum_iov in this build");
        return;
    }
    /* Segments 64-byte aligned and 4 KiB apart, like separate buffers. */
    unsigned char *buf = lab_buffer(SEGMENTS * 4096);
    unsigned char *flat = lab_buffer(SEGMENTS * MAX_SEGMENT);
    if (!buf || !flat) {
        lab_fail("iov", "cannot allocate buffers");
        lab_buffer_free(buf, SEGMENTS * 4096);
        lab_buffer_free(flat, SEGMENTS * MAX_SEGMENT);
        return;
    }
    lab_out("%-8s", "segment");
    for (size_t i = 0; lab_iov_subjects[i]; i++)
        lab_out(" %22s", lab_iov_subjects[i]->name);
    lab_out("\n");
    for (size_t seg = 1; seg <= MAX_SEGMENT; seg *= 2) {
        lab_out("%-8zu", seg);
        struct iov_ctx c;
        for (int k = 0; k < SEGMENTS; k++) {
            c.iov[k].iov_base = buf + (size_t)k * 4096;
            c.iov[k].iov_len = seg;
            for (size_t b = 0; b < seg; b++) /* the concatenation, for the oracle */
                flat[k * seg + b] = buf[(size_t)k * 4096 + b];
        }
        const uint16_t want = oracle_checksum(flat, SEGMENTS * seg, 0);
        for (size_t i = 0; lab_iov_subjects[i]; i++) {
            c.s = lab_iov_subjects[i];
            if (csum16_network_value(csum_fold(c.s->fn(c.iov, SEGMENTS, 0))) != want) {
                lab_wrong_sum("iov", 0, "%s refused at segment size %zu: disagrees with the oracle",
                              c.s->name, seg);
                lab_out(" %22s", "refused");
                continue;
            }
            struct lab_stats st;
            lab_measure(env->o, env->clk, body_iov, &c, &st);
            lab_result_add("iov", c.s->name, "", MODE_LATENCY, SEGMENTS * seg, 0, &st);
            char cell[48];
            snprintf(cell, sizeof cell, "%.1f%s / %.2f", st.ticks_median, st.noisy ? "*" : "",
                     st.ticks_median / ((double)(SEGMENTS * seg) / 8.0));
            lab_out(" %22s", cell);
        }
        lab_out("\n");
    }
    lab_buffer_free(buf, SEGMENTS * 4096);
    lab_buffer_free(flat, SEGMENTS * MAX_SEGMENT);
}
