/*
 * IEEE 802.11 data frames: the MAC header (three or four addresses, QoS control, HT control)
 * then an 802.2 LLC/SNAP header, or an A-MSDU (several subframes, each with its own
 * addresses and length, padded to 4 bytes). Frames with the Protected Frame bit are
 * encrypted and skipped; fragments after the first cannot be dissected alone and are
 * skipped; management, control and null-data frames carry no IP.
 */
#include "dissect.h"
#include "bytes.h"

enum {
    FC_TO_DS = 0x0100, FC_FROM_DS = 0x0200, FC_PROTECTED = 0x4000, FC_ORDER = 0x8000,
    TYPE_DATA = 2,
    SUBTYPE_QOS = 0x8, SUBTYPE_NO_DATA = 0x4,
    QOS_AMSDU = 0x80, /* in the first byte of QoS control */
};

static void amsdu(struct dissect *d, struct span s)
{
    size_t off = s.off;
    while (off + 14 <= s.end) {
        if (!have(d, off, 14)) { /* a subframe header cut by the capture */
            dissect_lost_transport(d, &s, off, 14, s.end);
            return;
        }
        const size_t len = be16(d->data + off + 12); /* DA, SA, length */
        struct span sub = s;
        sub.off = off + 14;
        sub.end = off + 14 + len < s.end ? off + 14 + len : s.end;
        if (!span_enter(d, &sub, 0, &sub))
            return;
        dissect_llc(d, sub);
        off = s.off + ((off - s.off + 14 + len + 3) & ~(size_t)3); /* padded from the A-MSDU's start */
    }
}

void dissect_wlan(struct dissect *d, struct span s)
{
    /* The frame control first: control frames are shorter than a data frame's header. */
    if (!span_need(d, &s, 2))
        return;
    const unsigned char *h = d->data + s.off;
    const unsigned fc = le16(h); /* little-endian: type and subtype in the first byte */
    const unsigned type = (fc >> 2) & 3, subtype = (fc >> 4) & 15;
    if ((fc & 3) != 0 || type != TYPE_DATA || (subtype & SUBTYPE_NO_DATA))
        return;
    if (!span_need(d, &s, 24))
        return;
    if (fc & FC_PROTECTED) {
        dissect_skip(d, CSUM_PCAP_SKIP_WLAN_PROTECTED);
        return;
    }
    if (le16(h + 22) & 15) { /* fragment number */
        dissect_skip(d, CSUM_PCAP_SKIP_WLAN_FRAGMENT);
        return;
    }
    size_t n = 24;
    if ((fc & FC_TO_DS) && (fc & FC_FROM_DS))
        n += 6;                   /* fourth address */
    int is_amsdu = 0;
    if (subtype & SUBTYPE_QOS) {
        if (!span_need(d, &s, n + 2))
            return;
        is_amsdu = d->data[s.off + n] & QOS_AMSDU;
        n += 2;
        if (fc & FC_ORDER)
            n += 4;               /* HT control */
    }
    struct span inner;
    if (!span_need(d, &s, n) || !span_enter(d, &s, n, &inner))
        return;
    if (is_amsdu)
        amsdu(d, inner);
    else
        dissect_llc(d, inner);
}
