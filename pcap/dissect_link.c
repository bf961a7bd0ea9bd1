/*
 * From a LINKTYPE_ value (the registry of draft-ietf-opsawg-pcaplinktype, mirrored at
 * tcpdump.org/linktypes.html) to the dissector of that link's header.
 */
#include "dissect.h"

enum {
    LINKTYPE_NULL = 0,
    LINKTYPE_ETHERNET = 1,
    LINKTYPE_SLIP = 8,
    LINKTYPE_PPP = 9,
    LINKTYPE_RAW_DLT12 = 12,  /* DLT_RAW as written by some systems (and PKTAP's DLT) */
    LINKTYPE_RAW_DLT14 = 14,  /* DLT_RAW on OpenBSD */
    LINKTYPE_PPP_HDLC = 50,
    LINKTYPE_PPP_ETHER = 51,
    LINKTYPE_RAW = 101,
    LINKTYPE_C_HDLC = 104,
    LINKTYPE_IEEE802_11 = 105,
    LINKTYPE_FRELAY = 107,
    LINKTYPE_LOOP = 108,
    LINKTYPE_LINUX_SLL = 113,
    LINKTYPE_IEEE802_11_PRISM = 119,
    LINKTYPE_IEEE802_11_RADIOTAP = 127,
    LINKTYPE_IEEE802_11_AVS = 163,
    LINKTYPE_PPI = 192,
    LINKTYPE_PPP_WITH_DIR = 204,
    LINKTYPE_C_HDLC_WITH_DIR = 205,
    LINKTYPE_FRELAY_WITH_DIR = 206,
    LINKTYPE_IPV4 = 228,
    LINKTYPE_IPV6 = 229,
    LINKTYPE_NFLOG = 239,
    LINKTYPE_PKTAP = 258,
    LINKTYPE_LINUX_SLL2 = 276,
};

/* LINKTYPE_PPP_HDLC carries PPP in HDLC-like framing, or Cisco HDLC (address 0x0f/0x8f). */
static void ppp_hdlc(struct dissect *d, struct span s)
{
    if (span_has(d, &s, 1) && (d->data[s.off] == 0x0f || d->data[s.off] == 0x8f))
        dissect_chdlc(d, s);
    else
        dissect_ppp(d, s);
}

/* The *_WITH_DIR link types: one byte of direction first. */
static int after_direction(struct dissect *d, const struct span *s, struct span *inner)
{
    return span_need(d, s, 1) && span_enter(d, s, 1, inner);
}

int dissect_linktype(struct dissect *d, uint32_t linktype, struct span s)
{
    struct span after_dir;
    switch (linktype) {
    case LINKTYPE_ETHERNET: dissect_ethernet(d, s); return 0;
    case LINKTYPE_NULL:
    case LINKTYPE_LOOP: dissect_null(d, s); return 0;
    case LINKTYPE_RAW:
    case LINKTYPE_RAW_DLT12:
    case LINKTYPE_RAW_DLT14:
    case LINKTYPE_IPV4:
    case LINKTYPE_IPV6: dissect_ip(d, s); return 0;
    case LINKTYPE_LINUX_SLL: dissect_sll(d, s); return 0;
    case LINKTYPE_LINUX_SLL2: dissect_sll2(d, s); return 0;
    case LINKTYPE_IEEE802_11: dissect_wlan(d, s); return 0;
    case LINKTYPE_IEEE802_11_RADIOTAP: dissect_radiotap(d, s); return 0;
    case LINKTYPE_IEEE802_11_PRISM: dissect_prism(d, s); return 0;
    case LINKTYPE_IEEE802_11_AVS: dissect_avs(d, s); return 0;
    case LINKTYPE_PPI: dissect_ppi(d, s); return 0;
    case LINKTYPE_PPP: dissect_ppp(d, s); return 0;
    case LINKTYPE_PPP_HDLC: ppp_hdlc(d, s); return 0;
    case LINKTYPE_PPP_ETHER: dissect_pppoe_session(d, s); return 0;
    case LINKTYPE_PPP_WITH_DIR: if (after_direction(d, &s, &after_dir)) ppp_hdlc(d, after_dir); return 0;
    case LINKTYPE_C_HDLC: dissect_chdlc(d, s); return 0;
    case LINKTYPE_C_HDLC_WITH_DIR: if (after_direction(d, &s, &after_dir)) dissect_chdlc(d, after_dir); return 0;
    case LINKTYPE_FRELAY: dissect_frelay(d, s); return 0;
    case LINKTYPE_FRELAY_WITH_DIR: if (after_direction(d, &s, &after_dir)) dissect_frelay(d, after_dir); return 0;
    case LINKTYPE_SLIP: dissect_slip(d, s); return 0;
    case LINKTYPE_PKTAP: dissect_pktap(d, s); return 0;
    case LINKTYPE_NFLOG: dissect_nflog(d, s); return 0;
    default:
        d->undissected = 1;
        d->undissected_linktype = linktype;
        return -1;
    }
}
