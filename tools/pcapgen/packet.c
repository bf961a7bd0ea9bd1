/*
 * A packet: the innermost datagram(s), the tunnel around them, the link layer; then what a
 * shortened capture (snap length) leaves checkable.
 */
#include "pcapgen.h"

#include <string.h>

/* After cutting a frame at caplen: checksums whose bytes are not all there are not
 * checkable, and the transport is not even reached when its headers are cut (the frame is
 * then skipped, as truncated), nor is anything when the link layer's are. */
static void truncate_expectations(struct frame *fr, const struct datagram *dg)
{
    const size_t ip_off = fr->ip_off;
    if (fr->caplen <= ip_off) { /* not even the IP version captured */
        fr->n_expect = 0;
        fr->skipped = 1;
        return;
    }
    struct expectation kept[2 * MAX_EXPECT];
    int n = 0;
    for (int i = 0; i < fr->n_expect; i++) {
        struct expectation e = fr->expect[i];
        const int is_ip = !strcmp(e.layer, "ipv4");
        if (dg->ipv == 4 && fr->caplen < ip_off + dg->l3_len) {
            if (!is_ip)
                continue; /* nothing past a truncated IPv4 header is looked at */
            e.verdict = EXPECT_NOT_CHECKABLE;
        } else if (!is_ip && fr->caplen < ip_off + dg->l4_off) {
            continue;     /* extension headers cut: the transport is never reached */
        } else if (!is_ip && fr->caplen < ip_off + dg->len) {
            /* a zero UDP checksum over IPv4 says "none" as long as the field is there */
            if (!(e.verdict == EXPECT_NONE && fr->caplen >= ip_off + dg->l4_off + 8))
                e.verdict = EXPECT_NOT_CHECKABLE;
        }
        kept[n++] = e;
    }
    memcpy(fr->expect, kept, sizeof kept[0] * (size_t)n);
    fr->n_expect = n;
    /* Cut inside the headers in front of the transport (IPv6 and its extension headers, or an
     * IPv4 AH after a whole header): the packet is counted as skipped, "truncated". */
    const int header_whole = dg->ipv == 6 || fr->caplen >= ip_off + dg->l3_len;
    if (header_whole && fr->caplen < ip_off + dg->l4_off)
        fr->skipped = 1;
}

/* Cut fr (of datagram dg) as the spec says: inside its link layer's headers (cut_link), or at
 * the snap length. */
static void cut(const struct pkt_spec *s, uint64_t *rng, struct frame *fr,
                const struct datagram *dg)
{
    size_t snap = s->snap;
    if (s->cut_link && fr->ip_off)
        snap = 1 + (size_t)(rnd(rng) % fr->ip_off);
    if (snap && snap < fr->caplen) {
        fr->caplen = snap;
        truncate_expectations(fr, dg);
    }
}

/* Cut fr, whose datagram dg is a tunnel's outer one, inside the tunnel's headers (from its
 * first byte to the inner datagram's first, that included): the inner datagram is not reached,
 * and the frame is skipped as truncated, as one cut inside its link layer's headers. The outer
 * IPv4 header is whole and checked; the outer UDP or GRE checksum is not checkable (a zero UDP
 * checksum over IPv4 still says none), or not even found when the GRE header is cut. */
static void cut_tunnel(uint64_t *rng, struct frame *fr, const struct datagram *dg)
{
    const size_t from = fr->ip_off + dg->tunnel_off, to = fr->ip_off + dg->inner_off;
    if (!dg->inner_off || to >= fr->caplen)
        return;
    fr->caplen = from + (size_t)(rnd(rng) % (to - from + 1));
    int n = 0;
    for (int i = 0; i < fr->n_expect; i++) {
        struct expectation e = fr->expect[i];
        if (e.level > 0)
            continue;
        if (strcmp(e.layer, "ipv4") != 0) {
            if (fr->caplen < fr->ip_off + dg->tunnel_l4_end)
                continue;
            if (e.verdict != EXPECT_NONE)
                e.verdict = EXPECT_NOT_CHECKABLE;
        }
        fr->expect[n++] = e;
    }
    fr->n_expect = n;
    fr->skipped = 1;
}

int build_packet(const struct pkt_spec *s, uint64_t *rng, struct frame *frames)
{
    static struct datagram dgs[8], outer;
    const int pad = s->pad_ethernet;
    if (s->tunnel.encap != ENCAP_NONE) {
        struct ip_spec inner = s->ip;
        inner.fragments = 0;
        build_ip(&inner, 0, VIA_NONE, rng, dgs);
        build_tunnel(&s->tunnel, &dgs[0], rng, &outer);
        build_link(s->link, s->l2, &outer, 1, pad, rng, &frames[0]);
        if (s->cut_tunnel)
            cut_tunnel(rng, &frames[0], &outer);
        return 1;
    }
    if (s->link == LINK_WLAN_AMSDU) { /* two datagrams in one frame */
        struct ip_spec one = s->ip;
        one.fragments = 0;
        build_ip(&one, 0, VIA_NONE, rng, &dgs[0]);
        one.corrupt_ip = one.corrupt_l4 = 0;
        build_ip(&one, 0, VIA_NONE, rng, &dgs[1]);
        build_link(s->link, s->l2, dgs, 2, pad, rng, &frames[0]);
        if (s->cut_link) /* before the first datagram: neither is looked at */
            cut(s, rng, &frames[0], &dgs[0]);
        return 1;
    }
    const int n = build_ip(&s->ip, 0, VIA_NONE, rng, dgs);
    for (int i = 0; i < n; i++) {
        struct frame *fr = &frames[i];
        build_link(s->link, s->l2, &dgs[i], 1, pad, rng, fr);
        cut(s, rng, fr, &dgs[i]);
    }
    return n;
}
