/*
 * batch: IPv4 header checksums, many at once. csum_ipv4_header_batch (SIMD across headers
 * where the CPU has it) against a loop of csum_ipv4_header, for n headers in two layouts: each
 * in its own packet buffer (DPDK's mbuf stride, 2176 bytes, after 128 bytes of headroom and a
 * 14-byte Ethernet header), and packed in 64-byte slots; all 20 bytes or mixed lengths (ihl
 * 5..15). Ticks per header; the batch is checked against the loop first.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

#include "csum_oracle.h"

enum { MAX_HEADERS = 4096, MBUF = 2176, MBUF_OFFSET = 128 + 14, PACKED = 64 };

struct batch_ctx {
    const void *hdrs[MAX_HEADERS];
    csum_sum16 out[MAX_HEADERS];
    size_t n;
};

static uint64_t body_loop(const void *vctx, uint64_t iters)
{
    struct batch_ctx *c = (struct batch_ctx *)vctx;
    uint64_t acc = 0;
    for (uint64_t i = 0; i < iters; i++)
        for (size_t k = 0; k < c->n; k++) {
            const unsigned char *h = c->hdrs[k];
            acc += csum_ipv4_header(h, h[0] & 15);
        }
    return acc;
}

static uint64_t body_batch(const void *vctx, uint64_t iters)
{
    struct batch_ctx *c = (struct batch_ctx *)vctx;
    for (uint64_t i = 0; i < iters; i++) {
        csum_ipv4_header_batch(c->hdrs, c->n, c->out);
        __asm__ volatile("" ::: "memory");
    }
    return c->out[0];
}

void table_batch(const struct lab_env *env)
{
    static const size_t counts[] = { 1, 16, 64, 256, 1024, 4096 };
    const size_t mem_len = (size_t)MAX_HEADERS * MBUF;
    unsigned char *mem = lab_buffer(mem_len);
    struct batch_ctx *c = malloc(sizeof *c);
    if (!mem || !c) {
        lab_fail("batch", "cannot allocate buffers");
        free(c);
        lab_buffer_free(mem, mem_len);
        return;
    }
    lab_table_title(env, "batch", "IPv4 header checksums: ticks per header (* = noisy), loop of "
                    "csum_ipv4_header vs csum_ipv4_header_batch");
    lab_out("%-7s %-8s %-7s %12s%1s %12s%1s %8s\n", "layout", "headers", "ihl", "loop", "", "batch",
            "", "ratio");
    for (int packed = 0; packed < 2; packed++)
        for (int mixed = 0; mixed < 2; mixed++) {
            uint64_t rng = 0xba7c4 + (uint64_t)mixed;
            for (size_t k = 0; k < MAX_HEADERS; k++) {
                unsigned char *h = packed ? mem + k * PACKED : mem + k * MBUF + MBUF_OFFSET;
                unsigned ihl = mixed ? 5 + (unsigned)(testdata_next(&rng) % 11) : 5;
                testdata_fill(h, packed ? PACKED : 60, rng + k);
                h[0] = (unsigned char)(0x40 | ihl);
                c->hdrs[k] = h;
            }
            for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
                c->n = counts[i];
                csum_ipv4_header_batch(c->hdrs, c->n, c->out);
                int ok = 1;
                for (size_t k = 0; k < c->n; k++) {
                    const unsigned char *h = c->hdrs[k];
                    uint16_t want = oracle_checksum(h, (size_t)(h[0] & 15) * 4, 0);
                    ok &= csum16_network_value(c->out[k]) == want &&
                          csum16_network_value(csum_ipv4_header(h, h[0] & 15)) == want;
                }
                if (!ok) {
                    lab_wrong_sum("batch", 0, "refused at n = %zu: disagrees with the oracle", c->n);
                    continue;
                }
                /* Timed together, their batches interleaved, as the short table's subjects:
                 * the ratio compares the same moments of this shared machine (until
                 * 2026-11-27 the loop was timed first, then the batch). */
                static const lab_body_fn bodies[2] = { body_loop, body_batch };
                const void *const ctxs[2] = { c, c };
                struct lab_stats pair[2];
                lab_measure_group(env->o, env->clk, 2, bodies, ctxs, pair);
                struct lab_stats loop = pair[0], batch = pair[1];
                char variant[32];
                snprintf(variant, sizeof variant, "%s, ihl %s", packed ? "packed" : "mbuf",
                         mixed ? "5..15" : "5");
                /* Per header: the results hold per-call numbers divided by n, the spread's
                 * p10 and p90 too (until 2026-11-27 they stayed per call, n times the median). */
                struct lab_stats *both[2] = { &loop, &batch };
                for (int b = 0; b < 2; b++) {
                    struct lab_stats *st = both[b];
                    st->ticks_min /= (double)c->n;
                    st->ticks_median /= (double)c->n;
                    st->ticks_p10 /= (double)c->n;
                    st->ticks_p90 /= (double)c->n;
                    st->ns_min /= (double)c->n;
                    st->ns_median /= (double)c->n;
                    st->cycles_est_median /= (double)c->n;
                    struct lab_result *r =
                        lab_result_add("batch", b ? "csum_ipv4_header_batch" : "csum_ipv4_header loop",
                                       variant, MODE_THROUGHPUT, c->n, 0, st);
                    if (r)
                        r->bytes_per_tick = r->gbps = -1; /* per header, not per byte */
                }
                char ratio[16] = "-"; /* none against a median of 0 ticks (a coarse clock) */
                if (loop.ticks_median > 0)
                    snprintf(ratio, sizeof ratio, "%.2fx", batch.ticks_median / loop.ticks_median);
                lab_out("%-7s %-8zu %-7s %12.2f%1s %12.2f%1s %8s\n", packed ? "packed" : "mbuf",
                        c->n, mixed ? "5..15" : "5", loop.ticks_median, loop.noisy ? "*" : "",
                        batch.ticks_median, batch.noisy ? "*" : "", ratio);
            }
        }
    lab_note("batch", "len column in the results = number of headers; times are per header");
    free(c);
    lab_buffer_free(mem, mem_len);
}
