/*
 * memops: Evans 2003's bzero/bcopy comparison. Every zeroing and copying variant, and every
 * fused copy+checksum ("csum"), on a 4 KiB buffer (reused: always cached) and on a 400 MiB buffer
 * (never cached), in bytes per second, so the non-temporal trade-off shows: it loses when the
 * data is cached, wins when it is not.
 */
#include "lab.h"

#include <string.h>

#include "csum_oracle.h"

struct memop_ctx {
    const struct lab_memop *op;
    unsigned char *dst;
    const unsigned char *src;
    size_t len;
};

static uint64_t body_memop(const void *ctx, uint64_t iters)
{
    const struct memop_ctx *c = ctx;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < iters; i++) {
        if (c->op->fused)
            acc += c->op->fused(c->dst, c->src, c->len, 0);
        else
            c->op->fn(c->dst, c->src, c->len);
        __asm__ volatile("" ::: "memory");
    }
    return acc;
}

int lab_memop_is_correct(const struct lab_memop *op, unsigned char *dst, const unsigned char *src,
                         size_t len, uint16_t want)
{
    memset(dst, op->kind == MEMOP_ZERO ? 0xa5 : 0, len); /* what the operation must replace */
    if (op->kind == MEMOP_CSUM_COPY) {
        const csum_wsum r = op->fused(dst, src, len, 0);
        return csum16_network_value(csum_fold(r)) == want && memcmp(dst, src, len) == 0;
    }
    op->fn(dst, src, len);
    if (op->kind == MEMOP_COPY)
        return memcmp(dst, src, len) == 0;
    for (size_t i = 0; i < len; i++)
        if (dst[i])
            return 0;
    return 1;
}

void table_memops(const struct lab_env *env)
{
    lab_table_title(env, "memops (Evans 2003)", "zero and copy variants, cached 4 KiB vs uncached "
                    "400 MiB, bytes per second from the median batch (* = noisy)");
    if (!lab_memops[0]) {
        lab_note("memops", "not available yet: no memory operations in this build");
        return;
    }
    static const struct { size_t len; const char *level; } cases[] = {
        { 4096, "cached" }, { (size_t)400 << 20, "uncached" },
    };
    lab_out("%-22s %-5s %16s %16s\n", "op", "kind", "4 KiB cached", "400 MiB uncached");
    unsigned char *src[2], *dst[2];
    for (int k = 0; k < 2; k++) {
        src[k] = lab_buffer(cases[k].len);
        dst[k] = lab_buffer(cases[k].len);
    }
    if (!src[0] || !src[1] || !dst[0] || !dst[1]) {
        lab_fail("memops", "cannot allocate the 400 MiB buffers");
    } else {
        /* The fused copies' checksums, from the oracle, once per buffer: every operation is
         * checked on the buffers it is timed on before it is timed, as in every table. */
        uint16_t want[2];
        for (int k = 0; k < 2; k++)
            want[k] = oracle_checksum(src[k], cases[k].len, 0);
        for (size_t i = 0; lab_memops[i]; i++) {
            const struct lab_memop *op = lab_memops[i];
            static const char *const kinds[] = { "zero", "copy", "csum" };
            lab_out("%-22s %-5s", op->name, kinds[op->kind]);
            for (int k = 0; k < 2; k++) {
                if (!lab_memop_is_correct(op, dst[k], src[k], cases[k].len, want[k])) {
                    /* The fused copies are libcsum's; the others the lab's own: a bug either way. */
                    lab_wrong_sum("memops", 0, "%s (%s) refused on the %s buffer: wrong %s", op->name,
                                  kinds[op->kind], cases[k].level,
                                  op->kind == MEMOP_CSUM_COPY ? "sum or copy" : "bytes");
                    lab_out(" %16s", "refused");
                    continue;
                }
                struct memop_ctx c = { op, dst[k], src[k], cases[k].len };
                struct lab_stats st;
                lab_measure(env->o, env->clk, body_memop, &c, &st);
                char variant[32]; /* the names repeat across kinds: "avx512 zero", "avx512 copy" */
                snprintf(variant, sizeof variant, "%s, %s", kinds[op->kind], cases[k].level);
                struct lab_result *r = lab_result_add("memops", op->name, variant,
                                                      MODE_THROUGHPUT, cases[k].len, 0, &st);
                lab_out(" %11.3g B/s%1s", r ? r->gbps * 1e9 : 0, st.noisy ? "*" : "");
            }
            lab_out("\n");
        }
    }
    for (int k = 0; k < 2; k++) {
        lab_buffer_free(src[k], cases[k].len);
        lab_buffer_free(dst[k], cases[k].len);
    }
}
