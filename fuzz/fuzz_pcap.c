/*
 * (c) The pcap/pcapng reader behind `csum pcap`: the input is the capture file itself, in a
 * heap block of exactly its size so that AddressSanitizer sees a read one byte too far.
 *
 * Always-on checks:
 *  - verify and fix never crash, and agree on whether the file is well formed;
 *  - a malformed file's error names an offset inside the file and says something;
 *  - the summary counts exactly the checksums reported one by one;
 *  - fix changes only the two bytes of each checksum it reported bad, and afterwards verify
 *    finds none bad (on a well-formed file), with the same number of packets.
 */
#include <stdlib.h>
#include <string.h>

#include "csum_pcap.h"
#include "fuzz_common.h"

struct seen {
    uint64_t checks, bad;
    uint64_t by_verdict[CSUM_PCAP_VERDICT_COUNT];
    uint64_t bad_offsets[64];
    size_t n_bad_offsets;
};

static void on_check(void *ctx, const struct csum_pcap_check *c)
{
    struct seen *s = ctx;
    FUZZ_CHECK(c->layer < CSUM_PCAP_LAYER_COUNT && c->verdict < CSUM_PCAP_VERDICT_COUNT,
               "layer %d verdict %d", (int)c->layer, (int)c->verdict);
    FUZZ_CHECK(c->frame >= 1, "frame %llu", (unsigned long long)c->frame);
    FUZZ_CHECK(c->verdict != CSUM_PCAP_NOT_CHECKABLE || (c->reason && *c->reason),
               "a not-checkable checksum without a reason");
    s->checks++;
    s->by_verdict[c->verdict]++;
    if (c->verdict == CSUM_PCAP_BAD && s->n_bad_offsets < 64)
        s->bad_offsets[s->n_bad_offsets++] = c->offset;
}

static uint64_t summary_total(const struct csum_pcap_summary *sum, enum csum_pcap_verdict v)
{
    uint64_t t = 0;
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
        t += sum->count[l][v];
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *file = malloc(size ? size : 1), *fixed = malloc(size ? size : 1);
    FUZZ_CHECK(file && fixed, "out of memory");
    memcpy(file, data, size);
    memcpy(fixed, data, size);

    struct seen v = { 0 }, f = { 0 };
    struct csum_pcap_summary vs, fs;
    struct csum_pcap_error ve, fe;
    int vr = csum_pcap_verify_buffer(file, size, on_check, &v, &vs, &ve);
    int fr = csum_pcap_fix_buffer(fixed, size, on_check, &f, &fs, &fe);
    FUZZ_CHECK(vr == fr, "verify returned %d, fix %d", vr, fr);
    FUZZ_CHECK(memcmp(file, data, size) == 0, "verify changed its input");
    if (vr != 0) {
        FUZZ_CHECK(ve.offset <= size && ve.message[0], "error at offset %llu of %zu: '%s'",
                   (unsigned long long)ve.offset, size, ve.message);
        FUZZ_CHECK(fe.offset == ve.offset, "verify and fix stop at %llu and %llu",
                   (unsigned long long)ve.offset, (unsigned long long)fe.offset);
    }
    for (int k = 0; k < CSUM_PCAP_VERDICT_COUNT; k++)
        FUZZ_CHECK(summary_total(&vs, (enum csum_pcap_verdict)k) == v.by_verdict[k],
                   "summary says %llu %s, callbacks %llu",
                   (unsigned long long)summary_total(&vs, (enum csum_pcap_verdict)k),
                   csum_pcap_verdict_name((enum csum_pcap_verdict)k),
                   (unsigned long long)v.by_verdict[k]);

    /* fix touched only the reported fields (when there are few enough to track). */
    if (v.n_bad_offsets < 64) {
        for (size_t i = 0; i < size; i++) {
            if (file[i] == fixed[i])
                continue;
            int in_field = 0;
            for (size_t b = 0; b < v.n_bad_offsets; b++)
                in_field |= i >= v.bad_offsets[b] && i < v.bad_offsets[b] + 2;
            FUZZ_CHECK(in_field, "fix changed byte %zu, outside every bad checksum field", i);
        }
    }
    /* ...and left nothing bad behind. */
    if (vr == 0) {
        struct seen again = { 0 };
        struct csum_pcap_summary as;
        FUZZ_CHECK(csum_pcap_verify_buffer(fixed, size, on_check, &again, &as, NULL) == 0,
                   "the fixed capture does not parse");
        FUZZ_CHECK(summary_total(&as, CSUM_PCAP_BAD) == 0, "%llu checksums still bad after fix",
                   (unsigned long long)summary_total(&as, CSUM_PCAP_BAD));
        FUZZ_CHECK(as.packets == vs.packets, "packets %llu before fix, %llu after",
                   (unsigned long long)vs.packets, (unsigned long long)as.packets);
    }
    free(file);
    free(fixed);
    return 0;
}
