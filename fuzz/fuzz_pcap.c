/*
 * (c) The pcap/pcapng reader behind `csum pcap`: the input is the capture file itself (plain
 * or compressed), in a heap block of exactly its size so that AddressSanitizer sees a read one
 * byte too far.
 *
 * Always-on checks:
 *  - verify and fix never crash, and agree on whether the file is well formed;
 *  - a malformed file's error says something;
 *  - the summary counts exactly the checksums reported one by one;
 *  - fix changes only the two bytes of each checksum it reported bad, and afterwards verify
 *    finds none bad (on a well-formed plain file), with the same number of packets;
 *  - reading the same bytes from a pipe gives the same verdicts as from memory;
 *  - fixing with CSUM_PCAP_FIX_FCS reports the same checks and leaves the same bytes as
 *    without, but maybe the four at the end of a frame (its FCS), and nothing bad;
 *  - with CSUM_PCAP_CHECK_FCS, verify and fix report the same checks as without, but the
 *    FCSs (at most one a frame, at the link level), counted in the summary; fix rewrites each
 *    FCS it finds bad and nothing else but what the fix without it changes, and afterwards
 *    verify with it finds nothing bad, no FCS either.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "csum_pcap.h"
#include "fuzz_common.h"

struct seen {
    uint64_t checks, bad;
    uint64_t by_verdict[CSUM_PCAP_VERDICT_COUNT];
    uint64_t bad_offsets[64];
    size_t n_bad_offsets;
    uint64_t digest; /* of every check, in order */
    uint64_t checksum_digest, checksums; /* of the checks but the FCSs */
    uint64_t fcs_bad, last_fcs_frame;
    uint64_t fcs_offsets[64]; /* FCSs a fix wrote (on_fcs) */
    size_t n_fcs;
};

static void on_check(void *ctx, const struct csum_pcap_check *c)
{
    struct seen *s = ctx;
    FUZZ_CHECK(c->layer < CSUM_PCAP_LAYER_COUNT && c->verdict < CSUM_PCAP_VERDICT_COUNT &&
               c->via < CSUM_PCAP_VIA_COUNT, "layer %d verdict %d via %d", (int)c->layer,
               (int)c->verdict, (int)c->via);
    FUZZ_CHECK(c->frame >= 1, "frame %llu", (unsigned long long)c->frame);
    FUZZ_CHECK((c->level == 0) == (c->via == CSUM_PCAP_VIA_NONE), "level %u via %d", c->level,
               (int)c->via);
    FUZZ_CHECK(c->verdict != CSUM_PCAP_NOT_CHECKABLE || (c->note && *c->note),
               "a not-checkable checksum without a reason");
    FUZZ_CHECK(c->verdict != CSUM_PCAP_OFFLOAD || (c->note && *c->note), "offload without why");
    s->checks++;
    s->by_verdict[c->verdict]++;
    s->digest = s->digest * 1000003 + c->frame * 131 + c->offset * 7 + c->verdict * 3 +
                c->stored + c->level;
    if (c->layer == CSUM_PCAP_FCS) { /* the frame's last check, once, at the link level */
        FUZZ_CHECK(c->frame > s->last_fcs_frame && c->level == 0, "FCS of frame %llu at level "
                   "%u, after one of frame %llu", (unsigned long long)c->frame, c->level,
                   (unsigned long long)s->last_fcs_frame);
        s->last_fcs_frame = c->frame;
        s->fcs_bad += c->verdict == CSUM_PCAP_BAD;
        return;
    }
    FUZZ_CHECK(c->frame > s->last_fcs_frame, "a checksum of frame %llu after its FCS",
               (unsigned long long)c->frame);
    s->checksums++;
    s->checksum_digest = s->checksum_digest * 1000003 + c->frame * 131 + c->offset * 7 +
                         c->verdict * 3 + c->stored + c->level;
    if (c->verdict == CSUM_PCAP_BAD && s->n_bad_offsets < 64)
        s->bad_offsets[s->n_bad_offsets++] = c->offset;
}

static void on_fcs(void *ctx, const struct csum_pcap_fcs *f)
{
    struct seen *s = ctx;
    if (s->n_fcs < 64)
        s->fcs_offsets[s->n_fcs] = f->offset;
    s->n_fcs++;
}

static uint64_t summary_total(const struct csum_pcap_summary *sum, enum csum_pcap_verdict v)
{
    uint64_t t = 0;
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
        t += sum->count[l][v];
    return t;
}

/* The summary's count of every verdict is the number of checks the callbacks got with it. */
static void check_totals(const struct csum_pcap_summary *sum, const struct seen *seen,
                         const char *when)
{
    for (int k = 0; k < CSUM_PCAP_VERDICT_COUNT; k++)
        FUZZ_CHECK(summary_total(sum, (enum csum_pcap_verdict)k) == seen->by_verdict[k],
                   "%s, the summary says %llu %s, callbacks %llu", when,
                   (unsigned long long)summary_total(sum, (enum csum_pcap_verdict)k),
                   csum_pcap_verdict_name((enum csum_pcap_verdict)k),
                   (unsigned long long)seen->by_verdict[k]);
}

/* The same bytes through a pipe (csum_pcap_verify_fd), when small enough for one write. */
static void check_pipe(const uint8_t *data, size_t size, const struct seen *want, int want_rc)
{
    int fds[2];
    if (size > 60000 || pipe(fds) != 0)
        return;
    FUZZ_CHECK(write(fds[1], data, size) == (ssize_t)size, "pipe write");
    close(fds[1]);
    struct seen got = { 0 };
    struct csum_pcap_options o = { .on_check = on_check, .ctx = &got };
    int rc = csum_pcap_verify_fd(fds[0], &o, NULL, NULL);
    close(fds[0]);
    FUZZ_CHECK(rc == want_rc && got.digest == want->digest && got.checks == want->checks,
               "from a pipe: rc %d, %llu checks; from memory: rc %d, %llu checks", rc,
               (unsigned long long)got.checks, want_rc, (unsigned long long)want->checks);
}

/* CSUM_PCAP_CHECK_FCS (with CSUM_PCAP_FIX_FCS, as the CLI's fix --fcs): the checks of a
 * plain capture's verify (v, returning vr) and fix (f, into fixed) plus the FCSs; the fix
 * writes each FCS it finds bad and leaves no FCS or checksum bad. */
static void check_fcs_option(const uint8_t *data, size_t size, const struct seen *v, int vr,
                             const struct seen *f, const unsigned char *fixed)
{
    unsigned char *file = malloc(size ? size : 1), *out = malloc(size ? size : 1);
    FUZZ_CHECK(file && out, "out of memory");
    memcpy(file, data, size);
    memcpy(out, data, size);
    struct seen cv = { 0 }, cf = { 0 };
    struct csum_pcap_options o = { .flags = CSUM_PCAP_CHECK_FCS, .on_check = on_check,
                                   .ctx = &cv };
    struct csum_pcap_summary s;
    FUZZ_CHECK(csum_pcap_verify_buffer(file, size, &o, &s, NULL) == vr &&
               cv.checksum_digest == v->checksum_digest && cv.checksums == v->checksums,
               "verify with CSUM_PCAP_CHECK_FCS reports other checksums");
    check_totals(&s, &cv, "with the FCSs");
    o.flags |= CSUM_PCAP_FIX_FCS;
    o.ctx = &cf;
    o.on_fcs = on_fcs;
    FUZZ_CHECK(csum_pcap_fix_buffer(out, size, &o, &s, NULL) == vr &&
               cf.checksum_digest == f->checksum_digest,
               "fix with CSUM_PCAP_CHECK_FCS reports other checksums");
    FUZZ_CHECK(cf.n_fcs == cf.fcs_bad && s.fcs_fixed == cf.n_fcs,
               "fix found %llu FCSs bad, wrote %zu, counted %llu", (unsigned long long)cf.fcs_bad,
               cf.n_fcs, (unsigned long long)s.fcs_fixed);
    if (cf.n_fcs <= 64) { /* the bytes of the fix without it, but the FCSs written */
        for (size_t i = 0; i < size; i++) {
            int in_fcs = 0;
            for (size_t k = 0; k < cf.n_fcs; k++)
                in_fcs |= i >= cf.fcs_offsets[k] && i < cf.fcs_offsets[k] + 4;
            FUZZ_CHECK(in_fcs || out[i] == fixed[i],
                       "fix with CSUM_PCAP_CHECK_FCS changed byte %zu, in no FCS it wrote", i);
        }
    }
    if (vr == 0) {
        struct seen after = { 0 };
        o.flags = CSUM_PCAP_CHECK_FCS;
        o.ctx = &after;
        o.on_fcs = NULL;
        FUZZ_CHECK(csum_pcap_verify_buffer(out, size, &o, &s, NULL) == 0 &&
                   after.by_verdict[CSUM_PCAP_BAD] == 0,
                   "after fix with CSUM_PCAP_CHECK_FCS, %llu bad (%llu FCSs)",
                   (unsigned long long)after.by_verdict[CSUM_PCAP_BAD],
                   (unsigned long long)after.fcs_bad);
    }
    free(file);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *file = malloc(size ? size : 1), *fixed = malloc(size ? size : 1);
    FUZZ_CHECK(file && fixed, "out of memory");
    memcpy(file, data, size);
    memcpy(fixed, data, size);

    struct seen v = { 0 }, f = { 0 };
    struct csum_pcap_options vo = { .on_check = on_check, .ctx = &v };
    struct csum_pcap_options fo = { .on_check = on_check, .ctx = &f };
    struct csum_pcap_summary vs, fs;
    struct csum_pcap_error ve, fe;
    int vr = csum_pcap_verify_buffer(file, size, &vo, &vs, &ve);
    int fr = csum_pcap_fix_buffer(fixed, size, &fo, &fs, &fe);
    FUZZ_CHECK(memcmp(file, data, size) == 0, "verify changed its input");
    if (vr != 0)
        FUZZ_CHECK(ve.message[0] && (unsigned)ve.kind < CSUM_PCAP_ERROR_KIND_COUNT,
                   "an error without a message, or of kind %d", (int)ve.kind);
    check_totals(&vs, &v, "verifying");
    check_pipe(data, size, &v, vr);

    if (vs.compression == CSUM_PCAP_PLAIN) {
        FUZZ_CHECK(vr == fr, "verify returned %d, fix %d", vr, fr);
        if (vr != 0)
            FUZZ_CHECK(fe.offset == ve.offset, "verify and fix stop at %llu and %llu",
                       (unsigned long long)ve.offset, (unsigned long long)fe.offset);
        /* fix touched only checksum fields: those reported bad, or an outer checksum over a
         * fixed inner one (reported by fix, not by verify) */
        if (v.n_bad_offsets < 64 && f.n_bad_offsets < 64) {
            for (size_t i = 0; i < size; i++) {
                if (file[i] == fixed[i])
                    continue;
                int in_field = 0;
                for (size_t b = 0; b < f.n_bad_offsets; b++)
                    in_field |= i >= f.bad_offsets[b] && i < f.bad_offsets[b] + 2;
                FUZZ_CHECK(in_field, "fix changed byte %zu, outside every bad checksum field", i);
            }
        }
        /* With the FCS kept right: the same checks and bytes, but maybe an FCS. */
        unsigned char *fcs = malloc(size ? size : 1);
        FUZZ_CHECK(fcs, "out of memory");
        memcpy(fcs, data, size);
        struct seen g = { 0 };
        struct csum_pcap_options go = { .flags = CSUM_PCAP_FIX_FCS, .on_check = on_check, .ctx = &g };
        FUZZ_CHECK(csum_pcap_fix_buffer(fcs, size, &go, NULL, NULL) == fr && g.digest == f.digest,
                   "fix with CSUM_PCAP_FIX_FCS reports other checks");
        size_t differ = 0;
        for (size_t i = 0; i < size; i++)
            differ += fcs[i] != fixed[i];
        FUZZ_CHECK(differ == 0 || f.checks > 0, "an FCS rewritten in a capture without checksums");
        if (vr == 0) {
            struct csum_pcap_summary gs;
            FUZZ_CHECK(csum_pcap_verify_buffer(fcs, size, NULL, &gs, NULL) == 0 &&
                       summary_total(&gs, CSUM_PCAP_BAD) == 0,
                       "the capture fixed with CSUM_PCAP_FIX_FCS is not clean");
        }
        free(fcs);
        check_fcs_option(data, size, &v, vr, &f, fixed);
        /* ...and left nothing bad behind. */
        if (vr == 0) {
            struct seen again = { 0 };
            struct csum_pcap_options ao = { .on_check = on_check, .ctx = &again };
            struct csum_pcap_summary as;
            FUZZ_CHECK(csum_pcap_verify_buffer(fixed, size, &ao, &as, NULL) == 0,
                       "the fixed capture does not parse");
            FUZZ_CHECK(summary_total(&as, CSUM_PCAP_BAD) == 0, "%llu checksums still bad after fix",
                       (unsigned long long)summary_total(&as, CSUM_PCAP_BAD));
            FUZZ_CHECK(as.packets == vs.packets, "packets %llu before fix, %llu after",
                       (unsigned long long)vs.packets, (unsigned long long)as.packets);
        }
    } else {
        FUZZ_CHECK(fr != 0, "a compressed buffer was fixed in place");
    }
    free(file);
    free(fixed);
    return 0;
}
