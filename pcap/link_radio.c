/*
 * Radio headers that capture software puts in front of 802.11 frames:
 *  - radiotap (radiotap.org): version 0, little-endian length and presence bitmaps (bit 31
 *    chains another word); fields follow in bit order, each aligned to its size. The Flags
 *    field (bit 1, after the 8-byte TSFT of bit 0) says whether the frame ends with its FCS;
 *  - Prism (Linux wlan-ng / madwifi): a message of 144 bytes whose length is its second
 *    32-bit word, in the writer's byte order;
 *  - AVS (wlan-ng's capture header): a big-endian version 0x8021100x and header length;
 *  - PPI (CACE Technologies' Per-Packet Information): version, flags, little-endian length
 *    and the link type of what follows, then fields (type, length, data; padded to 4 bytes
 *    when the header's flags say so): the 802.11-Common field's Flags (after its 8-byte TSF
 *    timer) say whether the frame ends with its FCS.
 * The FCS of such a frame is left out of the 802.11 frame dissected (or it would end the
 * payload of an IP layer that takes its length from the frame), and noted for `fix`, which
 * keeps a right one right, and for the FCS check (walk.c).
 */
#include "dissect.h"
#include "bytes.h"

enum {
    RADIOTAP_TSFT = 1u << 0, RADIOTAP_FLAGS = 1u << 1, RADIOTAP_EXT = 1u << 31,
    RADIOTAP_F_FCS = 0x10,
    FCS_LEN = 4,
    PRISM_HEADER = 144,
    PPI_F_ALIGNED = 0x01,                      /* in the header's flags: fields 4-byte aligned */
    PPI_80211_COMMON = 2, PPI_80211_COMMON_LEN = 20,
    PPI_80211_F_FCS = 0x0001,                  /* in its Flags: the frame includes the FCS */
    PPI_DLT_IEEE802_11 = 105,                  /* the link type of what follows */
};

/* The 802.11 frame in *inner ends with a CRC-32 FCS: leave it out of the span, and note it
 * for `fix` and the FCS check when it was captured whole, else that it was cut off. */
static void wlan_fcs(struct dissect *d, struct span *inner)
{
    if (inner->end - inner->off < FCS_LEN)
        return;
    inner->end -= FCS_LEN;
    if (have(d, inner->end, FCS_LEN)) {
        d->fcs_from = inner->off;
        d->fcs_at = inner->end;
    } else {
        d->fcs_cut = 1;
    }
}

static int is_avs(const unsigned char *h)
{
    return (be32(h) & 0xfffffff0u) == 0x80211000u;
}

void dissect_radiotap(struct dissect *d, struct span s)
{
    if (!span_need(d, &s, 8) || d->data[s.off] != 0)
        return;
    const unsigned char *h = d->data + s.off;
    const size_t len = le16(h + 2);
    if (len < 8 || !span_need(d, &s, len))
        return;
    const uint32_t present = le32(h + 4);
    size_t at = 8;
    for (uint32_t word = present; word & RADIOTAP_EXT; at += 4) {
        if (at + 4 > len)
            return;
        word = le32(h + at);
    }
    struct span inner;
    if (!span_enter(d, &s, len, &inner))
        return;
    if (present & RADIOTAP_FLAGS) {
        if (present & RADIOTAP_TSFT)
            at = ((at + 7) & ~(size_t)7) + 8;
        if (at < len && (h[at] & RADIOTAP_F_FCS))
            wlan_fcs(d, &inner);
    }
    dissect_wlan(d, inner);
}

void dissect_avs(struct dissect *d, struct span s)
{
    struct span inner;
    if (!span_need(d, &s, 8) || !is_avs(d->data + s.off))
        return;
    const size_t len = be32(d->data + s.off + 4);
    if (len >= 8 && span_need(d, &s, len) && span_enter(d, &s, len, &inner))
        dissect_wlan(d, inner);
}

void dissect_prism(struct dissect *d, struct span s)
{
    struct span inner;
    if (!span_need(d, &s, 8))
        return;
    if (is_avs(d->data + s.off)) { /* what some drivers write under the Prism link type */
        dissect_avs(d, s);
        return;
    }
    size_t len = le32(d->data + s.off + 4);
    if (len != PRISM_HEADER)
        len = be32(d->data + s.off + 4);
    if (len == PRISM_HEADER && span_need(d, &s, len) && span_enter(d, &s, len, &inner))
        dissect_wlan(d, inner);
}

/* Whether the PPI header h[0..len) has an 802.11-Common field saying the frame has its FCS. */
static int ppi_says_fcs(const unsigned char *h, size_t len)
{
    size_t at = 8;
    while (at + 4 <= len) {
        const size_t type = le16(h + at), n = le16(h + at + 2);
        if (n > len - at - 4)
            return 0;
        if (type == PPI_80211_COMMON && n >= PPI_80211_COMMON_LEN)
            return (le16(h + at + 4 + 8) & PPI_80211_F_FCS) != 0;
        at += 4 + n;
        if (h[1] & PPI_F_ALIGNED)
            at = (at + 3) & ~(size_t)3;
    }
    return 0;
}

void dissect_ppi(struct dissect *d, struct span s)
{
    struct span inner;
    if (!span_need(d, &s, 8) || d->data[s.off] != 0)
        return;
    const unsigned char *h = d->data + s.off;
    const size_t len = le16(h + 2);
    const uint32_t linktype = le32(h + 4);
    if (len < 8 || !span_need(d, &s, len) || !span_enter(d, &s, len, &inner))
        return;
    if (linktype == PPI_DLT_IEEE802_11 && ppi_says_fcs(h, len))
        wlan_fcs(d, &inner);
    dissect_linktype(d, linktype, inner);
}
