/*
 * (c) The dissectors behind `csum pcap`, one packet at a time: link layers, IP, tunnels, the
 * packets quoted in ICMP errors. The input is
 *   byte 0      which link type (an index into the dissected ones below)
 *   byte 1      policy: bit 0 --rfc1624, bit 1 --fix-offload, bit 2 VXLAN on 8472 and
 *               Geneve on 6082 too, bit 4 CSUM_PCAP_FIX_FCS (what the CLI's fix sets), bit 5
 *               CSUM_PCAP_CHECK_FCS (--fcs), bit 6 the pcap header's FCS length says each
 *               frame ends with a 4-byte FCS (on an Ethernet or 802.11 link type, one to check)
 *   bytes 2..   the packet (its wire length is its captured length; with bit 3 of byte 1,
 *               the wire length is 64 KiB more, as if the capture were cut short)
 * wrapped in a one-record pcap, in a heap block of exactly its size.
 *
 * Always-on checks: no crash, no read outside the packet (ASan); every field reported lies
 * inside the packet; fix changes only fields it reported (checksums, and an FCS it reports
 * with the bytes it found and wrote there), after which verify finds nothing bad (no FCS
 * either, when it checks them) and the same number of checksums; verdicts never depend on the
 * implementation-free details (the same packet verified twice gives the same list). An FCS
 * is checked only when asked, once at most, after every checksum, at the link level; its
 * value is the bytes at its offset, not checkable only in a frame cut short, and checking it
 * changes none of the other verdicts; a fix rewrites it exactly when it finds it bad.
 */
#include <stdlib.h>
#include <string.h>

#include "csum_pcap.h"
#include "fuzz_common.h"

static const uint32_t linktypes[] = {
    0, 1, 8, 9, 12, 14, 50, 51, 101, 104, 105, 107, 108, 113, 119, 127, 163, 192,
    204, 205, 206, 228, 229, 239, 258, 276, 147 /* USER0: not dissected */,
};
enum { N_LINKTYPES = sizeof linktypes / sizeof linktypes[0], HEADERS = 24 + 16 };

struct seen {
    uint64_t checks, bad, first, last; /* offsets of reported fields */
    uint64_t fields[128];
    size_t n_fields;
    uint64_t digest;
    uint64_t checksum_digest;          /* of the checks but the FCS's */
    struct csum_pcap_fcs fcs;          /* the FCS a fix wrote, */
    unsigned n_fcs;                    /* if any (one frame: at most one) */
    const unsigned char *file;         /* the capture walked */
    unsigned policy;
    unsigned fcs_checks, fcs_bad;      /* FCS checks reported (at most one), bad ones */
};

static uint32_t be32_at(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void on_fcs(void *ctx, const struct csum_pcap_fcs *fcs)
{
    struct seen *s = ctx;
    FUZZ_CHECK(fcs->frame == 1 && s->n_fcs == 0, "FCS of frame %llu, %u before",
               (unsigned long long)fcs->frame, s->n_fcs);
    FUZZ_CHECK(fcs->offset >= s->first && fcs->offset + 4 <= s->last,
               "FCS at %llu, outside the packet [%llu, %llu)", (unsigned long long)fcs->offset,
               (unsigned long long)s->first, (unsigned long long)s->last);
    FUZZ_CHECK(fcs->stored != fcs->computed, "an FCS reported as computed again, unchanged");
    s->fcs = *fcs;
    s->n_fcs++;
}

/* A frame's FCS (CSUM_PCAP_CHECK_FCS): asked for, the last check, one, at the link level; its
 * value what the capture holds at its offset; not checkable only when the frame is cut. */
static void on_fcs_check(struct seen *s, const struct csum_pcap_check *c)
{
    FUZZ_CHECK(s->policy & 32, "an FCS checked without CSUM_PCAP_CHECK_FCS");
    FUZZ_CHECK(s->fcs_checks == 0, "a second FCS check");
    FUZZ_CHECK(c->level == 0 && c->via == CSUM_PCAP_VIA_NONE, "FCS at level %u", c->level);
    s->fcs_checks++;
    if (c->verdict == CSUM_PCAP_NOT_CHECKABLE) {
        FUZZ_CHECK(s->policy & 8, "an FCS not checkable in a frame captured whole");
        return;
    }
    FUZZ_CHECK(c->verdict == CSUM_PCAP_GOOD || c->verdict == CSUM_PCAP_BAD, "FCS verdict %s",
               csum_pcap_verdict_name(c->verdict));
    FUZZ_CHECK(c->offset >= HEADERS && c->offset >= s->first && c->offset + 4 <= s->last,
               "FCS at %llu, outside the packet [%llu, %llu)", (unsigned long long)c->offset,
               (unsigned long long)s->first, (unsigned long long)s->last);
    FUZZ_CHECK(be32_at(s->file + c->offset) == c->stored, "FCS 0x%08x reported, 0x%08x there",
               (unsigned)c->stored, (unsigned)be32_at(s->file + c->offset));
    FUZZ_CHECK((c->stored == c->computed) == (c->verdict == CSUM_PCAP_GOOD),
               "FCS %s: stored 0x%08x, computed 0x%08x", csum_pcap_verdict_name(c->verdict),
               (unsigned)c->stored, (unsigned)c->computed);
    s->fcs_bad += c->verdict == CSUM_PCAP_BAD;
}

static void on_check(void *ctx, const struct csum_pcap_check *c)
{
    struct seen *s = ctx;
    FUZZ_CHECK(c->frame == 1, "frame %llu in a one-packet capture", (unsigned long long)c->frame);
    FUZZ_CHECK((c->level == 0) == (c->via == CSUM_PCAP_VIA_NONE) && c->level < 64,
               "level %u via %d", c->level, (int)c->via);
    FUZZ_CHECK(c->verdict != CSUM_PCAP_NOT_CHECKABLE || (c->note && *c->note), "no reason");
    FUZZ_CHECK(s->fcs_checks == 0, "a %s checksum reported after the FCS, which covers it",
               csum_pcap_layer_name(c->layer));
    if (c->layer == CSUM_PCAP_FCS) {
        on_fcs_check(s, c);
    } else {
        FUZZ_CHECK(c->stored <= 0xffff && c->computed <= 0xffff, "a %s checksum of 0x%x, 0x%x",
                   csum_pcap_layer_name(c->layer), (unsigned)c->stored, (unsigned)c->computed);
        s->checksum_digest = s->checksum_digest * 1000003 + c->offset * 7 + c->verdict * 3 +
                             c->stored + c->level;
    }
    if (c->verdict != CSUM_PCAP_NOT_CHECKABLE && c->layer != CSUM_PCAP_FCS) {
        FUZZ_CHECK(c->offset >= HEADERS && c->offset >= s->first && c->offset + 2 <= s->last,
                   "field at %llu, outside the packet [%llu, %llu)",
                   (unsigned long long)c->offset, (unsigned long long)s->first,
                   (unsigned long long)s->last);
        if (s->n_fields < 128)
            s->fields[s->n_fields++] = c->offset;
    }
    s->checks++;
    s->bad += c->verdict == CSUM_PCAP_BAD;
    s->digest = s->digest * 1000003 + c->offset * 7 + c->verdict * 3 + c->stored + c->level;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const uint32_t linktype = linktypes[data[0] % N_LINKTYPES];
    const unsigned policy = data[1];
    const size_t len = size - 2;
    const size_t total = HEADERS + len;
    unsigned char *file = malloc(total), *fixed = malloc(total);
    FUZZ_CHECK(file && fixed, "out of memory");
    static const unsigned char header[24] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0,
                                              0, 0, 0, 0, 0, 0, 4, 0 };
    memcpy(file, header, 24);
    file[20] = (unsigned char)linktype;
    file[21] = (unsigned char)(linktype >> 8);
    file[22] = 0;
    file[23] = policy & 64 ? 0x24 : 0; /* LT_FCS_DATALINK_EXT: FCS length known, 2 words */
    const uint32_t caplen = (uint32_t)len, wirelen = (uint32_t)len + (policy & 8 ? 65536 : 0);
    for (int i = 0; i < 4; i++) {
        file[24 + i] = file[28 + i] = 0;
        file[32 + i] = (unsigned char)(caplen >> (8 * i));
        file[36 + i] = (unsigned char)(wirelen >> (8 * i));
    }
    memcpy(file + HEADERS, data + 2, len);
    memcpy(fixed, file, total);

    struct csum_pcap_options o = { 0 };
    o.flags = (policy & 1 ? CSUM_PCAP_ACCEPT_NEGATIVE_ZERO : 0) |
              (policy & 2 ? CSUM_PCAP_FIX_OFFLOAD : 0) | (policy & 16 ? CSUM_PCAP_FIX_FCS : 0) |
              (policy & 32 ? CSUM_PCAP_CHECK_FCS : 0);
    if (policy & 4) {
        o.vxlan_ports[0] = 8472;
        o.geneve_ports[0] = 6082;
    }
    o.on_check = on_check;
    o.on_fcs = on_fcs;
    struct seen v = { .first = HEADERS, .last = total, .file = file, .policy = policy };
    struct seen again = v, f = v, after = v, unasked = v;
    after.file = fixed;
    struct csum_pcap_summary vs, fs, as;
    o.ctx = &v;
    FUZZ_CHECK(csum_pcap_verify_buffer(file, total, &o, &vs, NULL) == 0, "a one-record pcap "
               "did not parse");
    o.ctx = &again;
    csum_pcap_verify_buffer(file, total, &o, NULL, NULL);
    FUZZ_CHECK(again.digest == v.digest, "two walks of the same packet differ");
    FUZZ_CHECK(v.n_fcs == 0 && vs.fcs_fixed == 0, "verify computed an FCS again");
    if (policy & 32) { /* the FCS check adds itself, and changes no other verdict */
        struct csum_pcap_options plain = o;
        plain.flags &= ~(unsigned)CSUM_PCAP_CHECK_FCS;
        plain.ctx = &unasked;
        unasked.policy = policy & ~32u;
        csum_pcap_verify_buffer(file, total, &plain, NULL, NULL);
        FUZZ_CHECK(unasked.checksum_digest == v.checksum_digest &&
                   unasked.checks + v.fcs_checks == v.checks,
                   "%llu checks with the FCS's, %llu without", (unsigned long long)v.checks,
                   (unsigned long long)unasked.checks);
    }
    /* 147 (USER0) is not dissected; PKTAP (258) and PPI (192) name the link type inside. */
    const int wraps = linktype == 258 || linktype == 192;
    FUZZ_CHECK(vs.packets == 1 && (linktype == 147 ? vs.undissected == 1 : wraps || !vs.undissected),
               "packets %llu, undissected %llu", (unsigned long long)vs.packets,
               (unsigned long long)vs.undissected);

    o.ctx = &f;
    FUZZ_CHECK(csum_pcap_fix_buffer(fixed, total, &o, &fs, NULL) == 0, "fix did not parse");
    FUZZ_CHECK(fs.fcs_fixed == f.n_fcs && (f.n_fcs == 0 || policy & 48),
               "%llu FCSs counted, %u reported", (unsigned long long)fs.fcs_fixed, f.n_fcs);
    FUZZ_CHECK(!(policy & 32) || f.n_fcs == f.fcs_bad, "%u FCSs found bad by fix, %u rewritten",
               f.fcs_bad, f.n_fcs);
    FUZZ_CHECK(f.fcs_checks == v.fcs_checks, "%u FCSs checked by verify, %u by fix",
               v.fcs_checks, f.fcs_checks);
    if (f.n_fcs)
        FUZZ_CHECK(be32_at(file + f.fcs.offset) == f.fcs.stored &&
                   be32_at(fixed + f.fcs.offset) == f.fcs.computed,
                   "the FCS at %llu is not what was reported", (unsigned long long)f.fcs.offset);
    for (size_t i = 0; i < total; i++) {
        if (file[i] == fixed[i])
            continue;
        int in_field = f.n_fcs && i >= f.fcs.offset && i < f.fcs.offset + 4;
        for (size_t k = 0; k < f.n_fields; k++)
            in_field |= i >= f.fields[k] && i < f.fields[k] + 2;
        FUZZ_CHECK(in_field || f.n_fields == 128, "fix changed byte %zu outside every field", i);
    }
    o.ctx = &after;
    csum_pcap_verify_buffer(fixed, total, &o, &as, NULL);
    FUZZ_CHECK(after.bad == 0, "%llu checksums (or FCSs) bad after fix",
               (unsigned long long)after.bad);
    FUZZ_CHECK(after.checks == v.checks, "%llu checksums before fix, %llu after",
               (unsigned long long)v.checks, (unsigned long long)after.checks);
    free(file);
    free(fixed);
    return 0;
}
