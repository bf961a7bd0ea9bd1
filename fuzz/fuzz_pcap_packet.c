/*
 * (c) The dissectors behind `csum pcap`, one packet at a time: link layers, IP, tunnels, the
 * packets quoted in ICMP errors. The input is
 *   byte 0      which link type (an index into the dissected ones below)
 *   byte 1      policy: bit 0 --rfc1624, bit 1 --fix-offload, bit 2 VXLAN on 8472 and
 *               Geneve on 6082 too
 *   bytes 2..   the packet (its wire length is its captured length; with bit 3 of byte 1,
 *               the wire length is 64 KiB more, as if the capture were cut short)
 * wrapped in a one-record pcap, in a heap block of exactly its size.
 *
 * Always-on checks: no crash, no read outside the packet (ASan); every field reported lies
 * inside the packet; fix changes only fields it reported, after which verify finds nothing
 * bad and the same number of checksums; verdicts never depend on the implementation-free
 * details (the same packet verified twice gives the same list).
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
};

static void on_check(void *ctx, const struct csum_pcap_check *c)
{
    struct seen *s = ctx;
    FUZZ_CHECK(c->frame == 1, "frame %llu in a one-packet capture", (unsigned long long)c->frame);
    FUZZ_CHECK((c->level == 0) == (c->via == CSUM_PCAP_VIA_NONE) && c->level < 64,
               "level %u via %d", c->level, (int)c->via);
    FUZZ_CHECK(c->verdict != CSUM_PCAP_NOT_CHECKABLE || (c->note && *c->note), "no reason");
    if (c->verdict != CSUM_PCAP_NOT_CHECKABLE) {
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
    file[22] = file[23] = 0;
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
              (policy & 2 ? CSUM_PCAP_FIX_OFFLOAD : 0);
    if (policy & 4) {
        o.vxlan_ports[0] = 8472;
        o.geneve_ports[0] = 6082;
    }
    o.on_check = on_check;
    struct seen v = { .first = HEADERS, .last = total }, again = v, f = v, after = v;
    struct csum_pcap_summary vs, fs, as;
    o.ctx = &v;
    FUZZ_CHECK(csum_pcap_verify_buffer(file, total, &o, &vs, NULL) == 0, "a one-record pcap "
               "did not parse");
    o.ctx = &again;
    csum_pcap_verify_buffer(file, total, &o, NULL, NULL);
    FUZZ_CHECK(again.digest == v.digest, "two walks of the same packet differ");
    /* 147 (USER0) is not dissected; PKTAP (258) and PPI (192) name the link type inside. */
    const int wraps = linktype == 258 || linktype == 192;
    FUZZ_CHECK(vs.packets == 1 && (linktype == 147 ? vs.undissected == 1 : wraps || !vs.undissected),
               "packets %llu, undissected %llu", (unsigned long long)vs.packets,
               (unsigned long long)vs.undissected);

    o.ctx = &f;
    FUZZ_CHECK(csum_pcap_fix_buffer(fixed, total, &o, &fs, NULL) == 0, "fix did not parse");
    for (size_t i = 0; i < total; i++) {
        if (file[i] == fixed[i])
            continue;
        int in_field = 0;
        for (size_t k = 0; k < f.n_fields; k++)
            in_field |= i >= f.fields[k] && i < f.fields[k] + 2;
        FUZZ_CHECK(in_field || f.n_fields == 128, "fix changed byte %zu outside every field", i);
    }
    o.ctx = &after;
    csum_pcap_verify_buffer(fixed, total, &o, &as, NULL);
    FUZZ_CHECK(after.bad == 0, "%llu checksums bad after fix", (unsigned long long)after.bad);
    FUZZ_CHECK(after.checks == v.checks, "%llu checksums before fix, %llu after",
               (unsigned long long)v.checks, (unsigned long long)after.checks);
    free(file);
    free(fixed);
    return 0;
}
