/*
 * IPv4 (RFC 791): the header checksum, then the payload by protocol. Authentication Headers
 * (RFC 4302) in front of the transport are skipped. IP fragments: the header is checked, the
 * transport checksum of a fragmented datagram is not checkable (it covers bytes of other
 * packets).
 */
#include "dissect.h"
#include "bytes.h"
#include "protocols.h"
#include "csum.h"

#include <string.h>


static void check_header(struct dissect *d, const struct span *s, unsigned ihl, size_t total)
{
    const unsigned char *h = d->data + s->off;
    const uint16_t stored = be16(h + 10);
    if (csum_ipv4_header(h, ihl) == 0) { /* the common case: one pass */
        dissect_report(d, s->level, s->via, CSUM_PCAP_IPV4, CSUM_PCAP_GOOD, stored, stored,
                       s->off + 10, NULL);
        return;
    }
    unsigned char zeroed[60]; /* the value to store is the sum with the field zeroed */
    memcpy(zeroed, h, ihl * 4);
    zeroed[10] = zeroed[11] = 0;
    const csum_sum16 value = csum_ipv4_header(zeroed, ihl);
    unsigned char vb[2];
    memcpy(vb, &value, 2);
    enum csum_pcap_verdict v = CSUM_PCAP_BAD;
    const char *note = NULL;
    if (v == CSUM_PCAP_BAD && total == 0) {
        v = CSUM_PCAP_OFFLOAD;
        note = "IP total length 0: a segmentation-offload placeholder";
    } else if (v == CSUM_PCAP_BAD && stored == 0) {
        v = CSUM_PCAP_OFFLOAD;
        note = "stored 0: a placeholder for header checksum offload";
    }
    dissect_report(d, s->level, s->via, CSUM_PCAP_IPV4, v, stored, be16(vb), s->off + 10, note);
}

void dissect_ipv4(struct dissect *d, struct span s)
{
    const char *cut = s.quoted ? "quoted in an ICMP error: header not all quoted" : "truncated";
    if (!have(d, s.off, 20) || s.end < s.off + 20) {
        dissect_not_checkable(d, s.level, s.via, CSUM_PCAP_IPV4, cut);
        return;
    }
    const unsigned char *h = d->data + s.off;
    const unsigned ihl = h[0] & 15u;
    const size_t total = be16(h + 2);
    if (ihl < 5) {
        dissect_not_checkable(d, s.level, s.via, CSUM_PCAP_IPV4, "bad header length");
        return;
    }
    /* A total length of 0 is what captures of segmentation-offloaded packets show. */
    if (total != 0 && total < ihl * 4) {
        dissect_not_checkable(d, s.level, s.via, CSUM_PCAP_IPV4, "bad total length");
        return;
    }
    if (!have(d, s.off, ihl * 4) || s.end < s.off + ihl * 4) {
        dissect_not_checkable(d, s.level, s.via, CSUM_PCAP_IPV4, cut);
        return;
    }
    check_header(d, &s, ihl, total);

    struct ip_info ip = { 4, h + 12, h + 16, NULL, NULL, 0, s.level, s.via, s.quoted, s.hops };
    struct span payload = s;
    payload.off = s.off + ihl * 4;
    if (total == 0) {
        /* The length the NIC will give each segment is not known: take the frame's, as
         * Wireshark does ("ip.tso_support"). */
        ip.offload = "IP total length 0: a segmentation-offload placeholder";
    } else if (s.off + total > s.end) {
        ip.problem = s.quoted ? "quoted in an ICMP error: not all quoted" : "IP length beyond the frame";
    } else {
        payload.end = s.off + total;
    }
    if (be16(h + 6) & 0x3fff) { /* more fragments, or a fragment offset */
        ip.later_fragment = (be16(h + 6) & 0x1fff) != 0;
        if (!ip.problem)
            ip.problem = "fragment";
    }

    uint8_t proto = h[9];
    while (!ip.problem && proto == IPPROTO_AH_) {
        if (!span_has(d, &payload, 2))
            return; /* what follows is unknown: nothing to report */
        const size_t ah_len = ((size_t)d->data[payload.off + 1] + 2) * 4;
        if (!span_has(d, &payload, ah_len))
            return;
        proto = d->data[payload.off];
        payload.off += ah_len;
    }
    if (payload.off > payload.end)
        payload.off = payload.end; /* header longer than the frame: "shorter than its header" */
    dissect_transport(d, &ip, proto, payload);
}

void dissect_ip(struct dissect *d, struct span s)
{
    if (!have(d, s.off, 1) || s.off >= s.end)
        return;
    switch (d->data[s.off] >> 4) {
    case 4:
        dissect_ipv4(d, s);
        break;
    case 6:
        dissect_ipv6(d, s);
        break;
    default:
        break; /* not IP after all */
    }
}
