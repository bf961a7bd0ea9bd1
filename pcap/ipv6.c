/*
 * IPv6 (RFC 8200): no header checksum; the extension headers are walked to the transport,
 * whose pseudo-header holds the final destination when a Routing header has segments left.
 * A payload length of 0 is either a jumbogram (RFC 2675: the length is in a Jumbo Payload
 * option of the Hop-by-Hop header) or, without that option, a segmentation-offload
 * super-packet, whose length is taken from the frame.
 */
#include "dissect.h"
#include "bytes.h"
#include "protocols.h"

#include <string.h>

enum {
    OPTION_PAD1 = 0,
    OPTION_JUMBO = 0xc2,
};

/*
 * The last address of an RPL Source Route Header (routing type 3, RFC 6554 section 3), the
 * final destination, into out[16]. Its first CmprE octets are elided: they are those of the
 * IPv6 destination `dst`. After the 8 fixed bytes come n - 1 addresses of 16 - CmprI octets,
 * the last one of 16 - CmprE, then Pad octets, so n = (Hdr Ext Len * 8 - Pad - (16 - CmprE))
 * / (16 - CmprI) + 1. Returns 0 when the header has no room for its last address and Pad
 * (n < 1): the final destination is not known.
 */
static int rpl_last_address(const unsigned char *rh, size_t rh_len, const unsigned char *dst,
                            unsigned char *out)
{
    const size_t cmpr_i = rh[4] >> 4, cmpr_e = rh[4] & 15u, pad = rh[5] >> 4;
    const size_t room = rh_len - 8, last = 16 - cmpr_e;
    if (room < pad + last)
        return 0;
    /* n - 1 addresses before the last; a remainder (a header longer than its addresses and
     * Pad say) is left at the end, where the formula's division leaves it. */
    const size_t before = (room - pad - last) / (16 - cmpr_i);
    memcpy(out, dst, cmpr_e);
    memcpy(out + cmpr_e, rh + 8 + before * (16 - cmpr_i), last);
    return 1;
}

/*
 * With a Routing header that still has segments to visit, the pseudo-header holds the final
 * destination (RFC 8200 section 8.1): the last address of a type 0 header, the home address
 * of type 2 (RFC 6275), the last address of an RPL header (type 3, rebuilt into rpl[16]),
 * the first entry of a segment list (type 4, RFC 8754). `dst` is the destination so far:
 * the IPv6 header's (one Routing header at most, RFC 8200 section 4.1). NULL when an RPL
 * header is too short for its last address (the other types keep `dst` then).
 */
static const unsigned char *final_destination(const unsigned char *rh, size_t rh_len,
                                              const unsigned char *dst, unsigned char *rpl)
{
    const unsigned type = rh[2], segments_left = rh[3];
    if (segments_left == 0)
        return dst;
    if (type == 3) /* a segments left beyond n is an error (RFC 6554 section 4.2), yet the
                    * last address is still the one the sender meant, as Wireshark says */
        return rpl_last_address(rh, rh_len, dst, rpl) ? rpl : NULL;
    if (rh_len < 8 + 16)
        return dst;
    switch (type) {
    case 0:
        return rh + 8 + 16 * ((rh_len - 8) / 16 - 1);
    case 2:
    case 4:
        return rh + 8;
    default:
        return dst;
    }
}

/* The Jumbo Payload option's length in the Hop-by-Hop header hbh[0..len), or -1 if none. */
static int64_t jumbo_length(const unsigned char *hbh, size_t len)
{
    size_t i = 2;
    while (i < len) {
        if (hbh[i] == OPTION_PAD1) {
            i++;
            continue;
        }
        if (i + 2 > len || i + 2 + hbh[i + 1] > len)
            return -1;
        if (hbh[i] == OPTION_JUMBO && hbh[i + 1] == 4)
            return be32(hbh + i + 2);
        i += 2 + (size_t)hbh[i + 1];
    }
    return -1;
}

void dissect_ipv6(struct dissect *d, struct span s)
{
    if (!have(d, s.off, 40) || s.end < s.off + 40) {
        /* no header checksum, and the transport is not known */
        dissect_lost_transport(d, &s, s.off, 40, s.end);
        return;
    }
    const unsigned char *h = d->data + s.off;
    const size_t plen = be16(h + 4);
    struct ip_info ip = { 6, h + 8, h + 24, NULL, NULL, NULL, 0,
                          s.level, s.via, s.quoted, s.hops };
    unsigned char rpl_final[16]; /* a final destination rebuilt from an RPL header */
    uint8_t next = h[6];
    size_t p = s.off + 40;
    size_t end = p + plen;

    if (plen == 0) {
        /* A jumbogram says so in a Hop-by-Hop header, which must come first. */
        int64_t jumbo = -1;
        if (next == IPPROTO_HOPOPTS_ && have(d, p, 2) && have(d, p, ((size_t)h[41] + 1) * 8))
            jumbo = jumbo_length(d->data + p, ((size_t)h[41] + 1) * 8);
        if (jumbo < 0) {
            end = s.end;
            ip.offload = "IPv6 payload length 0: a segmentation-offload placeholder";
        } else if (jumbo <= 0xffff) {
            /* RFC 2675 section 3: a Jumbo Payload length must exceed 65535; a smaller one is
             * an error (a Parameter Problem for the sender, malformed for tshark), so the
             * length the checksums cover is not known. */
            end = s.end;
            ip.problem = "Jumbo Payload option with a length below 65536";
        } else {
            end = p + (size_t)jumbo;
            if (end > s.end)
                ip.problem = s.quoted ? "quoted in an ICMP error: not all quoted"
                                      : "IP length beyond the frame";
        }
    } else if (end > s.end) {
        ip.problem = s.quoted ? "quoted in an ICMP error: not all quoted" : "IP length beyond the frame";
    }
    if (end > s.end)
        end = s.end;

    /* Walk the extension headers (RFC 8200 section 4). */
    for (;;) {
        size_t ext_len;
        if (next == IPPROTO_HOPOPTS_ || next == IPPROTO_ROUTING_ || next == IPPROTO_DSTOPTS_ ||
            next == IPPROTO_SHIM6_ || next == IPPROTO_AH_) {
            if (end < p + 2 || !have(d, p, 2)) { /* the transport is not known */
                dissect_lost_transport(d, &s, p, 2, end);
                return;
            }
            ext_len = next == IPPROTO_AH_ ? ((size_t)d->data[p + 1] + 2) * 4
                                          : ((size_t)d->data[p + 1] + 1) * 8;
            if (end < p + ext_len || !have(d, p, ext_len)) {
                dissect_lost_transport(d, &s, p, ext_len, end);
                return;
            }
            if (next == IPPROTO_HOPOPTS_ && plen != 0 && !ip.problem &&
                jumbo_length(d->data + p, ext_len) >= 0)
                ip.problem = "Jumbo Payload option in a packet with a payload length";
            if (next == IPPROTO_ROUTING_) {
                const unsigned char *final = final_destination(d->data + p, ext_len, ip.dst,
                                                               rpl_final);
                if (final)
                    ip.dst = final;
                else
                    ip.dst_unknown = "an RPL source route header too short for its addresses";
            }
        } else if (next == IPPROTO_FRAGMENT_) {
            ext_len = 8;
            if (end < p + ext_len || !have(d, p, ext_len)) {
                dissect_lost_transport(d, &s, p, ext_len, end);
                return;
            }
            const uint16_t frag = be16(d->data + p + 2);
            if (frag & 0xfff9) { /* a fragment offset, or more fragments */
                ip.later_fragment = (frag & 0xfff8) != 0;
                if (!ip.problem)
                    ip.problem = "fragment";
            }
        } else {
            break; /* the transport, or something not looked into */
        }
        next = d->data[p];
        p += ext_len;
        if (ip.later_fragment) /* what follows is the middle of the payload: no more headers */
            break;             /* (RFC 8200 section 4.5); its transport is not checkable */
    }
    struct span payload = s;
    payload.off = p;
    payload.end = end;
    dissect_transport(d, &ip, next, payload);
}
