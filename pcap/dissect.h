/*
 * Packet dissection down to the checksums. One file per job: link layers (link_*.c), the IP
 * layers (ipv4.c, ipv6.c), the checksummed transports (transport.c), tunnels (tunnel_*.c),
 * the packets quoted in ICMP errors (icmp_quote.c); verdict.c hands the verdicts to the walk
 * (walk.c), which counts them and applies the fixes.
 * Internal to csum_pcap.
 *
 * Every dissector gets the packet and a span: where its layer starts, where it ends as sent
 * (the capture may stop earlier: d->caplen), and the depth of the next IP layer found in it.
 * No dissector reads a byte at or past d->caplen; lengths from the packet are checked first.
 */
#ifndef CSUM_PCAP_DISSECT_H
#define CSUM_PCAP_DISSECT_H

#include "csum_pcap.h"

#include <stddef.h>
#include <stdint.h>

/* Encapsulations followed within one packet before it is given up (SKIP_NESTING): enough for
 * any real stack (Ethernet, VLANs, MPLS, VXLAN in GRE in IPsec...), and a bound on recursion. */
#define DISSECT_MAX_HOPS 24

/* One checksum found in a packet. */
struct dissect_check {
    enum csum_pcap_layer layer;
    enum csum_pcap_verdict verdict;
    unsigned level;
    enum csum_pcap_via via;
    uint16_t stored, computed; /* network-order numbers */
    size_t field;              /* offset of the checksum field in the packet */
    const char *note;
};

typedef void (*dissect_check_fn)(void *ctx, const struct dissect_check *check);

/* The packet being dissected and where its findings go. */
struct dissect {
    const unsigned char *data;
    size_t caplen;                       /* bytes present */
    const struct csum_pcap_options *opt; /* policy and tunnel ports (never NULL) */
    dissect_check_fn fn;
    void *ctx;
    int skipped;                         /* an enum csum_pcap_skip + 1 once given up */
    int undissected;                     /* a link type this library does not dissect was met
                                            (also inside PKTAP or PPI): */
    uint32_t undissected_linktype;       /* that one */
    /* The CRC-32 frame check sequence the frame ends with, when known (the capture's FCS
     * length, or a radio header's flags: radiotap, PPI): the 4 bytes at fcs_at, over
     * [fcs_from, fcs_at); what CSUM_PCAP_FIX_FCS keeps right and CSUM_PCAP_CHECK_FCS checks.
     * fcs_at is 0 when there is none or it was not captured whole; then fcs_cut is 1 when
     * there is one, cut off by the capture's snapshot length (not checkable). */
    size_t fcs_from, fcs_at;
    int fcs_cut;
};

/* A layer of the packet. 12 bytes, so that it travels in registers from dissector to
 * dissector (a frame never exceeds 4 GiB: its wire length is a 32-bit field). */
struct span {
    uint32_t off;          /* its first byte */
    uint32_t end;          /* one past its last byte as sent (may be past d->caplen) */
    uint8_t level;         /* level of the next IP layer found in it */
    uint8_t via;           /* enum csum_pcap_via of that IP layer */
    uint8_t quoted;        /* inside the quotation of an ICMP error */
    uint8_t hops;          /* encapsulations entered so far (at most DISSECT_MAX_HOPS) */
};

/* Give up on the packet (encrypted, compressed, too deep): counted by reason. */
void dissect_skip(struct dissect *d, enum csum_pcap_skip why);

/* The n header bytes at off, in front of the transport, are not all there, so its checksum
 * cannot be found: the packet is given up as truncated (not captured) or malformed (past
 * `end`, where the packet says it ends). Not for a packet quoted in an ICMP error, whose
 * quotation may stop anywhere. */
void dissect_lost_transport(struct dissect *d, const struct span *s, size_t off, size_t n,
                            size_t end);

/* Whether n bytes at off were captured. */
static inline int have(const struct dissect *d, size_t off, size_t n)
{
    return off <= d->caplen && n <= d->caplen - off;
}

/* Whether n bytes at s->off lie inside the span and were captured. */
static inline int span_has(const struct dissect *d, const struct span *s, size_t n)
{
    return s->off <= s->end && n <= s->end - s->off && have(d, s->off, n);
}

/* span_has() for a header in front of the transport, a link layer's too: when its n bytes are
 * not all there, its checksums cannot even be found, and the packet is given up as truncated
 * or malformed (dissect_lost_transport). */
static inline int span_need(struct dissect *d, const struct span *s, size_t n)
{
    if (span_has(d, s, n))
        return 1;
    dissect_lost_transport(d, s, s->off, n, s->end);
    return 0;
}

/* The span's remainder after its first n bytes (a header), one hop further; NULL-safe use:
 * call only after span_has(d, s, n). Returns 0 when the hop limit is reached (packet given
 * up, d->skipped set). */
static inline int span_enter(struct dissect *d, const struct span *s, size_t n,
                             struct span *inner)
{
    if (s->hops >= DISSECT_MAX_HOPS) {
        dissect_skip(d, CSUM_PCAP_SKIP_NESTING);
        return 0;
    }
    *inner = *s;
    inner->off = (uint32_t)(s->off + n);
    inner->hops = (uint8_t)(s->hops + 1);
    return 1;
}

/* ---- link layers ---------------------------------------------------------------------------- */

/* By link type; -1 if this library does not know it (nothing reported; d->undissected set,
 * as it is for one found inside PKTAP or PPI). */
int dissect_linktype(struct dissect *d, uint32_t linktype, struct span s);

void dissect_ethernet(struct dissect *d, struct span s);          /* from the MAC addresses */
void dissect_ethertype(struct dissect *d, uint16_t type, struct span s); /* payload of type */
void dissect_llc(struct dissect *d, struct span s);               /* 802.2 LLC, SNAP */
void dissect_ppp(struct dissect *d, struct span s);               /* PPP, HDLC-like framing optional */
void dissect_pppoe_session(struct dissect *d, struct span s);
void dissect_wlan(struct dissect *d, struct span s);              /* 802.11 MAC header on */
void dissect_radiotap(struct dissect *d, struct span s);
void dissect_prism(struct dissect *d, struct span s);
void dissect_avs(struct dissect *d, struct span s);
void dissect_ppi(struct dissect *d, struct span s);
void dissect_chdlc(struct dissect *d, struct span s);             /* Cisco HDLC */
void dissect_frelay(struct dissect *d, struct span s);
void dissect_slip(struct dissect *d, struct span s);
void dissect_null(struct dissect *d, struct span s);              /* BSD loopback */
void dissect_sll(struct dissect *d, struct span s);
void dissect_sll2(struct dissect *d, struct span s);
void dissect_pktap(struct dissect *d, struct span s);
void dissect_nflog(struct dissect *d, struct span s);

/* ---- IP and above ------------------------------------------------------------------------- */

/* An IPv4 or IPv6 packet (by its version nibble). */
void dissect_ip(struct dissect *d, struct span s);
void dissect_ipv4(struct dissect *d, struct span s);
void dissect_ipv6(struct dissect *d, struct span s);

/* What the transport checksums need from the IP header around them. */
struct ip_info {
    int version;
    const unsigned char *src, *dst; /* as stored; dst is the final destination */
    const char *problem;            /* why its payload's checksums cannot be checked, or NULL */
    const char *offload;            /* the IP length is an offload placeholder (why), or NULL */
    const char *dst_unknown;        /* why the final destination is not known (a malformed
                                     * source route): the checksums over a pseudo-header
                                     * cannot be checked, ICMP's still can; or NULL */
    int later_fragment;             /* a fragment other than the first: no transport header */
    unsigned level;
    uint8_t via, quoted, hops;
};

/* The IP payload [s.off, s.end) carrying `proto` (extension headers already walked). */
void dissect_transport(struct dissect *d, const struct ip_info *ip, uint8_t proto, struct span s);

/* Tunnels: the span starts at the tunnel header; `ip` is the IP layer carrying it. */
void dissect_gre(struct dissect *d, const struct ip_info *ip, struct span s);
void dissect_vxlan(struct dissect *d, struct span s);
void dissect_vxlan_gpe(struct dissect *d, struct span s);
void dissect_geneve(struct dissect *d, struct span s);
void dissect_mpls(struct dissect *d, struct span s);

/* The packet quoted after an ICMP (version 4) / ICMPv6 (6) error header at s.off. Returns
 * where an RFC 4884 extension structure starts after the quote (its header captured), or 0
 * when there is none. */
size_t dissect_icmp_quote(struct dissect *d, int version, struct span s);

/* ---- verdicts (verdict.c) ------------------------------------------------------------------- */

void dissect_report(struct dissect *d, unsigned level, uint8_t via, enum csum_pcap_layer layer,
                    enum csum_pcap_verdict verdict, uint16_t stored, uint16_t computed,
                    size_t field, const char *note);

/* Report a checksum that cannot be checked. */
void dissect_not_checkable(struct dissect *d, unsigned level, uint8_t via,
                           enum csum_pcap_layer layer, const char *reason);

#endif /* CSUM_PCAP_DISSECT_H */
