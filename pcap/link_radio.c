/*
 * Radio headers that capture software puts in front of 802.11 frames:
 *  - radiotap (radiotap.org): version 0, little-endian length and presence bitmaps (bit 31
 *    chains another word); fields follow in bit order, each aligned to its size. The Flags
 *    field (bit 1, after the 8-byte TSFT of bit 0) says whether the frame ends with its FCS;
 *  - Prism (Linux wlan-ng / madwifi): a message of 144 bytes whose length is its second
 *    32-bit word, in the writer's byte order;
 *  - AVS (wlan-ng's capture header): a big-endian version 0x8021100x and header length;
 *  - PPI (CACE Technologies' Per-Packet Information): version, flags, little-endian length
 *    and the link type of what follows.
 */
#include "dissect.h"
#include "bytes.h"

enum {
    RADIOTAP_TSFT = 1u << 0, RADIOTAP_FLAGS = 1u << 1, RADIOTAP_EXT = 1u << 31,
    RADIOTAP_F_FCS = 0x10,
    FCS_LEN = 4,
    PRISM_HEADER = 144,
};

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
        if (at < len && (h[at] & RADIOTAP_F_FCS) && inner.end - inner.off >= FCS_LEN)
            inner.end -= FCS_LEN;
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

void dissect_ppi(struct dissect *d, struct span s)
{
    struct span inner;
    if (!span_need(d, &s, 8) || d->data[s.off] != 0)
        return;
    const size_t len = le16(d->data + s.off + 2);
    if (len >= 8 && span_need(d, &s, len) && span_enter(d, &s, len, &inner))
        dissect_linktype(d, le32(d->data + s.off + 4), inner);
}
