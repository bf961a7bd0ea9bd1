/*
 * IPv4 (RFC 791): the header checksum, then the payload by protocol. Authentication Headers
 * (RFC 4302) in front of the transport are skipped. IP fragments: the header is checked, the
 * transport checksum of a fragmented datagram is not checkable (it covers bytes of other
 * packets). A source route option moves the destination the pseudo-header holds.
 */
#include "dissect.h"
#include "bytes.h"
#include "protocols.h"
#include "csum.h"

#include <string.h>

enum {
    OPTION_EOL = 0,   /* End of Option List */
    OPTION_NOP = 1,
    OPTION_LSRR = 131, /* Loose Source and Record Route */
    OPTION_SSRR = 137, /* Strict Source and Record Route */
};

/*
 * Where a source route option (`opt`, `len` bytes, all inside the header) says the datagram
 * goes (RFC 791 section 3.1): its pointer, counted from 1, is the next address to visit.
 *  - past the option: the route is done, the header's destination is the final one;
 *  - below 4 or between two addresses: not a route to follow, the header's destination, as
 *    Wireshark says;
 *  - otherwise the route's last address, the option's last four bytes (what Wireshark and
 *    tcpdump take when the length is not 3 + 4n too).
 * NULL when the option has no pointer, or no address while its route is not done: the final
 * destination is not known.
 */
static const unsigned char *route_destination(const unsigned char *opt, size_t len,
                                              const unsigned char *dst)
{
    if (len < 3)
        return NULL;
    const unsigned pointer = opt[2];
    if (pointer > len || pointer < 4 || pointer % 4 != 0)
        return dst;
    if (len < 3 + 4)
        return NULL;
    return opt + len - 4;
}

/*
 * The final destination, which the TCP and UDP pseudo-headers hold: while a datagram follows
 * a source route, the header's destination is only the next hop (the same rule as RFC 8200
 * section 8.1's for IPv6 Routing headers; Linux and Wireshark follow it for IPv4). The first
 * LSRR or SSRR option decides (RFC 791 allows one). The options are walked until an End of
 * Option List or an option whose length is impossible (below 2, past the header), beyond
 * which nothing can be trusted, as Wireshark stops there too: the header's destination then.
 * NULL when the final destination is not known (see route_destination()).
 */
static const unsigned char *ipv4_final_destination(const unsigned char *h, unsigned ihl)
{
    const unsigned char *dst = h + 16;
    const size_t end = (size_t)ihl * 4;
    size_t i = 20;
    while (i < end && h[i] != OPTION_EOL) {
        if (h[i] == OPTION_NOP) {
            i++;
            continue;
        }
        if (end - i < 2 || h[i + 1] < 2 || h[i + 1] > end - i)
            break;
        if (h[i] == OPTION_LSRR || h[i] == OPTION_SSRR)
            return route_destination(h + i, h[i + 1], dst);
        i += h[i + 1];
    }
    return dst;
}


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

    const unsigned char *final = ipv4_final_destination(h, ihl);
    struct ip_info ip = { 4, h + 12, final ? final : h + 16, NULL, NULL, NULL, 0,
                          s.level, s.via, s.quoted, s.hops };
    if (!final)
        ip.dst_unknown = "a source route option too short for its route";
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
        if (!span_has(d, &payload, 2)) { /* what follows is unknown */
            dissect_lost_transport(d, &s, payload.off, 2, payload.end);
            return;
        }
        const size_t ah_len = ((size_t)d->data[payload.off + 1] + 2) * 4;
        if (!span_has(d, &payload, ah_len)) {
            dissect_lost_transport(d, &s, payload.off, ah_len, payload.end);
            return;
        }
        proto = d->data[payload.off];
        payload.off += ah_len;
    }
    if (payload.off > payload.end)
        payload.off = payload.end; /* header longer than the frame: "shorter than its header" */
    dissect_transport(d, &ip, proto, payload);
}

void dissect_ip(struct dissect *d, struct span s)
{
    if (!have(d, s.off, 1) || s.off >= s.end) {
        dissect_lost_transport(d, &s, s.off, 1, s.end);
        return;
    }
    switch (d->data[s.off] >> 4) {
    case 4:
        dissect_ipv4(d, s);
        break;
    case 6:
        dissect_ipv6(d, s);
        break;
    default: /* said to be IP, but not IP after all */
        if (!s.quoted)
            dissect_skip(d, CSUM_PCAP_SKIP_MALFORMED);
        break;
    }
}
