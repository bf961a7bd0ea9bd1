/*
 * Protocol helpers against the oracle: IPv4 header checksums (one and batched), pseudo-header
 * sums, UDP's zero rule, and RFC 1624 incremental updates (by field, and by a difference of
 * sums: csum_replace_by_diff) against full recomputation.
 *
 * Expected values are computed by the byte-at-a-time oracle over the bytes a packet would
 * hold (pseudo-headers are laid out byte by byte here), never with the library's arithmetic.
 */
#include "test.h"

#include "kernel.h"

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A checksum as the network-order number a protocol analyzer prints, and back. */
static uint16_t net(csum_sum16 stored)
{
    return csum16_network_value(stored);
}

static csum_sum16 stored_of(uint16_t network_value)
{
    unsigned char b[2] = { (unsigned char)(network_value >> 8), (unsigned char)network_value };
    csum_sum16 s;
    memcpy(&s, b, 2);
    return s;
}

static void put_be16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

static uint32_t load32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* csum_replace2, 4 or 16 by the field's width: `from` and `to` as stored in the packet. */
static void replace_field(csum_sum16 *check, const unsigned char *from, const unsigned char *to,
                          size_t width)
{
    if (width == 2) {
        uint16_t f, n;
        memcpy(&f, from, 2);
        memcpy(&n, to, 2);
        csum_replace2(check, f, n);
    } else if (width == 4) {
        csum_replace4(check, load32(from), load32(to));
    } else {
        csum_replace16(check, from, to);
    }
}

/* ---- csum_ipv4_header ----------------------------------------------------------------- */

static void check_ipv4_header(struct test_ctx *t)
{
    /* The classic example header (checksum 0xb861 in place): intact, so 0. */
    static const unsigned char known[20] = { 0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00,
                                             0x40, 0x11, 0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01,
                                             0xc0, 0xa8, 0x00, 0xc7 };
    CHECK(t, csum_ipv4_header(known, 5) == 0, "known header does not verify");
    unsigned char zeroed[20];
    memcpy(zeroed, known, 20);
    zeroed[10] = zeroed[11] = 0;
    CHECK(t, net(csum_ipv4_header(zeroed, 5)) == 0xb861, "known header: got 0x%04x, want 0xb861",
          net(csum_ipv4_header(zeroed, 5)));

    unsigned char buf[64 + 8];
    uint64_t rng = 0x1f0;
    for (int iter = 0; iter < 20000; iter++) {
        unsigned ihl = 5 + (unsigned)(testdata_next(&rng) % 11);
        size_t align = testdata_next(&rng) % 8;
        unsigned char *h = buf + align;
        testdata_fill(h, ihl * 4, testdata_next(&rng));
        if (iter % 7 == 0)
            memset(h + 1, 0xff, ihl * 4 - 1); /* carry-heavy headers */
        h[0] = (unsigned char)(0x40 | ihl);
        uint16_t want = oracle_checksum(h, ihl * 4, 0);
        CHECK(t, net(csum_ipv4_header(h, ihl)) == want, "ihl %u align %zu: got 0x%04x, oracle 0x%04x",
              ihl, align, net(csum_ipv4_header(h, ihl)), want);
        /* Store it (in network order) and the header verifies. */
        h[10] = 0;
        h[11] = 0;
        csum_sum16 c = csum_ipv4_header(h, ihl);
        memcpy(h + 10, &c, 2);
        CHECK(t, csum_ipv4_header(h, ihl) == 0 && oracle_checksum(h, ihl * 4, 0) == 0,
              "ihl %u: stored checksum does not verify", ihl);
    }

    /* With a valid ihl, 0xffff comes from zero bytes only (csum.h): the ihl is the argument's,
     * and the first byte holding it is enough for any other result. */
    memset(buf, 0, sizeof buf);
    for (unsigned ihl = 5; ihl <= 15; ihl++) {
        buf[0] = 0;
        CHECK(t, csum_ipv4_header(buf, ihl) == 0xffff, "ihl %u over zero bytes: 0x%04x", ihl,
              csum_ipv4_header(buf, ihl));
        buf[0] = (unsigned char)(0x40 | ihl);
        CHECK(t, csum_ipv4_header(buf, ihl) != 0xffff, "ihl %u, first byte 0x%02x, zeros: 0xffff",
              ihl, buf[0]);
    }

    /* An ihl outside 5..15 gives 0xffff without reading the header: point it at a page that
     * cannot be read. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (none != MAP_FAILED) {
        static const unsigned bad[] = { 0, 1, 4, 16, 255, 1u << 31 };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            CHECK(t, csum_ipv4_header(none, bad[i]) == CSUM_IPV4_BAD_IHL &&
                         CSUM_IPV4_BAD_IHL == 0xffff, "ihl %u: want 0xffff", bad[i]);
        munmap(none, page);
    }

    /* A NULL header is a caller bug: 0xffff (it never verifies, as an ihl outside 5..15),
     * nothing read, never a crash. */
    for (unsigned ihl = 0; ihl <= 16; ihl++)
        CHECK(t, csum_ipv4_header(NULL, ihl) == CSUM_IPV4_BAD_IHL, "csum_ipv4_header(NULL, %u)", ihl);
}

/* ---- pseudo-headers -------------------------------------------------------------------- */

/* The IPv4 pseudo-header bytes; lengths above 0xffff as the 32-bit field of the IPv6 layout
 * (documented behaviour of csum_tcpudp_nofold). Returns its length. */
static size_t ipv4_pseudo(unsigned char *ph, uint32_t saddr, uint32_t daddr, uint32_t len,
                          uint8_t proto)
{
    memcpy(ph, &saddr, 4);
    memcpy(ph + 4, &daddr, 4);
    if (len <= 0xffff) {
        ph[8] = 0;
        ph[9] = proto;
        put_be16(ph + 10, (uint16_t)len);
        return 12;
    }
    put_be16(ph + 8, (uint16_t)(len >> 16));
    put_be16(ph + 10, (uint16_t)len);
    memset(ph + 12, 0, 3);
    ph[15] = proto;
    return 16;
}

static size_t ipv6_pseudo(unsigned char *ph, const unsigned char *s16, const unsigned char *d16,
                          uint32_t len, uint8_t proto)
{
    memcpy(ph, s16, 16);
    memcpy(ph + 16, d16, 16);
    put_be16(ph + 32, (uint16_t)(len >> 16));
    put_be16(ph + 34, (uint16_t)len);
    memset(ph + 36, 0, 3);
    ph[39] = proto;
    return 40;
}

static void check_pseudo_headers(struct test_ctx *t)
{
    uint64_t rng = 0x9e3;
    unsigned char ph[40], addrs[32];
    for (int iter = 0; iter < 200000; iter++) {
        uint64_t r = testdata_next(&rng);
        uint32_t saddr = (uint32_t)r, daddr = (uint32_t)(r >> 32);
        r = testdata_next(&rng);
        uint32_t len = (iter & 3) ? (uint32_t)(r & 0xffff) : (uint32_t)r;
        uint8_t proto = (uint8_t)(r >> 32);
        csum_wsum sum = (uint32_t)testdata_next(&rng);
        if (iter < 64) { /* edges: all ones and all zeros */
            saddr = daddr = (iter & 1) ? 0xffffffffu : 0;
            len = (iter & 2) ? 0xffff : 0;
            sum = (iter & 4) ? 0xffffffffu : 0;
            proto = (iter & 8) ? 0xff : 0;
        }
        size_t n = ipv4_pseudo(ph, saddr, daddr, len, proto);
        uint16_t want = oracle_checksum(ph, n, sum);
        csum_sum16 got = csum_tcpudp_magic(saddr, daddr, len, proto, sum);
        CHECK(t, net(got) == want, "tcpudp_magic(0x%08x, 0x%08x, %u, %u, 0x%08x) = 0x%04x, oracle 0x%04x",
              (unsigned)saddr, (unsigned)daddr, (unsigned)len, proto, (unsigned)sum, net(got), want);
        CHECK(t, csum_fold(csum_tcpudp_nofold(saddr, daddr, len, proto, sum)) == got,
              "fold(nofold) != magic");

        testdata_fill(addrs, 32, testdata_next(&rng));
        if (iter < 64)
            memset(addrs, (iter & 1) ? 0xff : 0, 32);
        n = ipv6_pseudo(ph, addrs, addrs + 16, len, proto);
        want = oracle_checksum(ph, n, sum);
        got = csum_ipv6_magic(addrs, addrs + 16, len, proto, sum);
        CHECK(t, net(got) == want, "ipv6_magic(len %u, proto %u, sum 0x%08x) = 0x%04x, oracle 0x%04x",
              (unsigned)len, proto, (unsigned)sum, net(got), want);
    }

    /* Whole segments: the library's way (csum_partial + magic) stored in the field makes the
     * oracle's sum over pseudo-header + segment come out 0. */
    unsigned char pkt[40 + 1600];
    for (int iter = 0; iter < 2000; iter++) {
        size_t seglen = 8 + testdata_next(&rng) % 1500;
        int v6 = iter & 1, udp = iter & 2;
        uint8_t proto = udp ? 17 : v6 && (iter & 4) ? 58 : 6;
        size_t field = udp ? 6 : proto == 58 ? 2 : 16;
        if (seglen < field + 2)
            seglen = field + 2;
        testdata_fill(addrs, 32, testdata_next(&rng));
        size_t phl = v6 ? ipv6_pseudo(pkt, addrs, addrs + 16, (uint32_t)seglen, proto)
                        : ipv4_pseudo(pkt, load32(addrs), load32(addrs + 16), (uint32_t)seglen, proto);
        unsigned char *seg = pkt + phl;
        testdata_fill(seg, seglen, testdata_next(&rng));
        seg[field] = seg[field + 1] = 0;
        csum_wsum body = csum_partial(seg, seglen, 0);
        csum_sum16 c = v6 ? csum_ipv6_magic(addrs, addrs + 16, (uint32_t)seglen, proto, body)
                          : csum_tcpudp_magic(load32(addrs), load32(addrs + 16), (uint32_t)seglen, proto, body);
        if (udp)
            c = csum_udp_fixup(c);
        memcpy(seg + field, &c, 2);
        CHECK(t, oracle_checksum(pkt, phl + seglen, 0) == 0, "v6 %d proto %u len %zu: stored checksum "
              "0x%04x does not verify", v6, proto, seglen, net(c));
        csum_wsum all = csum_partial(seg, seglen, 0);
        csum_sum16 verify = v6 ? csum_ipv6_magic(addrs, addrs + 16, (uint32_t)seglen, proto, all)
                               : csum_tcpudp_magic(load32(addrs), load32(addrs + 16), (uint32_t)seglen, proto, all);
        CHECK(t, verify == 0, "v6 %d proto %u len %zu: magic over a correct segment is 0x%04x",
              v6, proto, seglen, net(verify));
    }

    /* UDP: a computed 0 goes out as 0xffff; nothing else changes. */
    for (uint32_t v = 0; v <= 0xffff; v++) {
        csum_sum16 want = v == 0 ? (csum_sum16)0xffff : (csum_sum16)v;
        CHECK(t, csum_udp_fixup((csum_sum16)v) == want, "csum_udp_fixup(0x%04x)", (unsigned)v);
    }
    CHECK(t, CSUM_MANGLED_0 == 0xffff, "CSUM_MANGLED_0");
}

/* ---- UDP's computed zero, and checksum offload's placeholder ---------------------------- */

/* A UDP datagram (v4 or v6) of `seglen` bytes after its pseudo-header at pkt, its checksum
 * field zeroed. Returns the pseudo-header's length; the addresses are left in `addrs`. */
static size_t udp_datagram(unsigned char *pkt, unsigned char *addrs, int v6, size_t seglen,
                           uint64_t *rng)
{
    testdata_fill(addrs, 32, testdata_next(rng));
    size_t phl = v6 ? ipv6_pseudo(pkt, addrs, addrs + 16, (uint32_t)seglen, 17)
                    : ipv4_pseudo(pkt, load32(addrs), load32(addrs + 16), (uint32_t)seglen, 17);
    testdata_fill(pkt + phl, seglen, testdata_next(rng));
    put_be16(pkt + phl + 4, (uint16_t)seglen);
    pkt[phl + 6] = pkt[phl + 7] = 0;
    return phl;
}

/* The TCP/UDP checksum of seg (its field as it is) under v4's or v6's pseudo-header. */
static csum_sum16 l4_magic(int v6, const unsigned char *addrs, const unsigned char *seg,
                           size_t seglen, uint8_t proto)
{
    csum_wsum body = csum_partial(seg, seglen, 0);
    return v6 ? csum_ipv6_magic(addrs, addrs + 16, (uint32_t)seglen, proto, body)
              : csum_tcpudp_magic(load32(addrs), load32(addrs + 16), (uint32_t)seglen, proto, body);
}

/*
 * UDP over IPv4 and IPv6 whose computed checksum is 0 (RFC 768; RFC 8200 section 8.1): the
 * helpers give 0x0000, csum_udp_fixup() makes it 0xffff, and that stored value verifies. Then
 * csum_replace2 (the source port), csum_replace4 or csum_replace16 (the source address, in
 * the pseudo-header) over that stored 0xffff, passed through csum_udp_fixup() as csum.h says:
 * what recomputing gives, random new values and ones that leave the computed checksum 0
 * (a word going 0x0000 -> 0xffff or back, the ones'-complement zeros).
 */
static void check_udp_zero(struct test_ctx *t)
{
    unsigned char pkt[40 + 1600], addrs[32], to[16];
    uint64_t rng = 0x768;
    size_t zero_again = 0;
    for (int iter = 0; iter < 8000; iter++) {
        const int v6 = iter & 1, port = iter & 2, corner = (iter >> 2) % 3;
        const size_t seglen = 10 + testdata_next(&rng) % 1400;
        const size_t phl = udp_datagram(pkt, addrs, v6, seglen, &rng);
        unsigned char *seg = pkt + phl;
        /* The field to rewrite: the source port, or the source address (pseudo-header). */
        unsigned char *field = port ? seg : pkt;
        const size_t flen = port ? 2 : v6 ? 16 : 4;
        memcpy(to, field, flen);
        if (corner == 1) { /* its first word 0x0000 -> 0xffff, or 0xffff -> 0x0000 */
            memset(field, iter & 8 ? 0xff : 0x00, 2);
            memset(to, iter & 8 ? 0x00 : 0xff, 2);
        } else {
            testdata_fill(to, flen, testdata_next(&rng));
        }
        if (!port)
            memcpy(addrs, field, flen);

        /* The payload's first word makes the whole sum to ones'-complement zero. */
        seg[8] = seg[9] = 0;
        put_be16(seg + 8, oracle_checksum(pkt, phl + seglen, 0));
        csum_sum16 c = l4_magic(v6, addrs, seg, seglen, 17);
        CHECK(t, c == 0 && oracle_checksum(pkt, phl + seglen, 0) == 0,
              "v6 %d len %zu: computed 0x%04x, want 0x0000", v6, seglen, net(c));
        c = csum_udp_fixup(c);
        memcpy(seg + 6, &c, 2);
        CHECK(t, net(c) == 0xffff && l4_magic(v6, addrs, seg, seglen, 17) == 0 &&
                     oracle_checksum(pkt, phl + seglen, 0) == 0,
              "v6 %d len %zu: stored 0x%04x does not verify", v6, seglen, net(c));

        replace_field(&c, field, to, flen);
        c = csum_udp_fixup(c);
        memcpy(field, to, flen);
        if (!port)
            memcpy(addrs, to, flen);
        seg[6] = seg[7] = 0;
        const csum_sum16 want = csum_udp_fixup(l4_magic(v6, addrs, seg, seglen, 17));
        const uint16_t oracle = oracle_checksum(pkt, phl + seglen, 0);
        zero_again += oracle == 0;
        CHECK(t, c == want && net(c) == (oracle ? oracle : 0xffff),
              "v6 %d, %s of a datagram holding 0xffff (%s): got 0x%04x, recomputed 0x%04x, "
              "oracle 0x%04x", v6, flen == 2 ? "csum_replace2" : flen == 4 ? "csum_replace4"
              : "csum_replace16", corner == 1 ? "0 to 0xffff" : "random", net(c), net(want),
              oracle);
        memcpy(seg + 6, &c, 2);
        CHECK(t, l4_magic(v6, addrs, seg, seglen, 17) == 0 &&
                     oracle_checksum(pkt, phl + seglen, 0) == 0,
              "v6 %d: the updated 0x%04x does not verify", v6, net(c));
    }
    CHECK(t, zero_again > 0, "no rewrite left a computed 0");
}

/*
 * Checksum offload as csum.h describes it: the field holds the pseudo-header's sum, folded and
 * not complemented, (csum_sum16)~csum_tcpudp_magic(..., 0) or ~csum_ipv6_magic(..., 0); a NIC
 * (emulated: csum_fold of the sum from the TCP/UDP header on, csum_udp_fixup for UDP) then
 * stores the right checksum. An address rewrite updates the placeholder as a checksum of the
 * pseudo-header alone: complemented, csum_replace4/16, complemented again.
 */
static void check_offload_placeholder(struct test_ctx *t)
{
    unsigned char pkt[40 + 1600], addrs[32], to[16];
    uint64_t rng = 0x0ff1;
    for (int iter = 0; iter < 4000; iter++) {
        const int v6 = iter & 1, udp = iter & 2;
        const uint8_t proto = udp ? 17 : 6;
        const size_t field = udp ? 6 : 16;
        const size_t seglen = field + 2 + testdata_next(&rng) % 1400;
        testdata_fill(addrs, 32, testdata_next(&rng));
        testdata_fill(to, 16, testdata_next(&rng));
        if (iter < 32) /* all-zero and all-ones addresses, before and after */
            memset(iter & 4 ? to : addrs, iter & 8 ? 0xff : 0x00, 32 - (iter & 4 ? 16 : 0));
        size_t phl = v6 ? ipv6_pseudo(pkt, addrs, addrs + 16, (uint32_t)seglen, proto)
                        : ipv4_pseudo(pkt, load32(addrs), load32(addrs + 16), (uint32_t)seglen, proto);
        unsigned char *seg = pkt + phl;
        testdata_fill(seg, seglen, testdata_next(&rng));
        seg[field] = seg[field + 1] = 0;
        const csum_sum16 want = udp ? csum_udp_fixup(l4_magic(v6, addrs, seg, seglen, proto))
                                    : l4_magic(v6, addrs, seg, seglen, proto);

        csum_sum16 ph = (csum_sum16)~(v6 ? csum_ipv6_magic(addrs, addrs + 16, (uint32_t)seglen, proto, 0)
                                         : csum_tcpudp_magic(load32(addrs), load32(addrs + 16),
                                                             (uint32_t)seglen, proto, 0));
        memcpy(seg + field, &ph, 2);
        csum_sum16 nic = csum_fold(csum_partial(seg, seglen, 0));
        if (udp)
            nic = csum_udp_fixup(nic);
        CHECK(t, nic == want, "v6 %d proto %u len %zu: placeholder 0x%04x, the NIC's 0x%04x, "
              "want 0x%04x", v6, proto, seglen, net(ph), net(nic), net(want));

        /* NAT: a new source address; the placeholder follows it. */
        const size_t alen = v6 ? 16 : 4;
        csum_sum16 c = (csum_sum16)~ph;
        replace_field(&c, addrs, to, alen);
        ph = (csum_sum16)~c;
        memcpy(addrs, to, alen);
        memcpy(pkt, to, alen);
        const csum_sum16 fresh = (csum_sum16)~(v6 ? csum_ipv6_magic(addrs, addrs + 16, (uint32_t)seglen, proto, 0)
                                                  : csum_tcpudp_magic(load32(addrs), load32(addrs + 16),
                                                                      (uint32_t)seglen, proto, 0));
        CHECK(t, ph == fresh, "v6 %d proto %u: updated placeholder 0x%04x, recomputed 0x%04x",
              v6, proto, net(ph), net(fresh));
        memcpy(seg + field, &ph, 2);
        nic = csum_fold(csum_partial(seg, seglen, 0));
        if (udp)
            nic = csum_udp_fixup(nic);
        memcpy(seg + field, &nic, 2);
        CHECK(t, oracle_checksum(pkt, phl + seglen, 0) == 0,
              "v6 %d proto %u: after the rewrite the NIC's 0x%04x does not verify", v6, proto,
              net(nic));
    }
}

/* ---- RFC 1624 ------------------------------------------------------------------------- */

/*
 * A random "header" of `len` bytes with its checksum at `cpos`, a field of `flen` bytes at
 * `fpos` (both even, not overlapping) changed to `to`, the stored checksum updated with
 * csum_replace{2,4,16}, and compared with the oracle's full recomputation.
 */
static void check_one_replace(struct test_ctx *t, unsigned char *h, size_t len, size_t cpos,
                              size_t fpos, size_t flen, const unsigned char *to, const char *why)
{
    h[cpos] = h[cpos + 1] = 0;
    put_be16(h + cpos, oracle_checksum(h, len, 0));
    csum_sum16 check;
    memcpy(&check, h + cpos, 2);
    uint16_t before = net(check);

    unsigned char from[16];
    memcpy(from, h + fpos, flen);
    memcpy(h + fpos, to, flen);
    replace_field(&check, from, to, flen);
    h[cpos] = h[cpos + 1] = 0;
    uint16_t want = oracle_checksum(h, len, 0);
    CHECK(t, net(check) == want, "%s: replace%zu at %zu (checksum 0x%04x, field %02x%02x -> %02x%02x): "
          "got 0x%04x, full recomputation 0x%04x", why, flen, fpos, before, from[0], from[1], to[0],
          to[1], net(check), want);
}

static void check_replace(struct test_ctx *t)
{
    /* RFC 1624 section 3's example: HC = 0xdd2f, m = 0x5555 -> m' = 0x3285 gives 0x0000
     * (eqn. 2 would give 0xffff). */
    csum_sum16 check = stored_of(0xdd2f);
    csum_replace2(&check, stored_of(0x5555), stored_of(0x3285));
    CHECK(t, net(check) == 0x0000, "RFC 1624 example: got 0x%04x, want 0x0000", net(check));

    unsigned char h[64], to[16];
    uint64_t rng = 0x1624;
    static const size_t widths[] = { 2, 4, 16 };
    for (int iter = 0; iter < 300000; iter++) {
        size_t flen = widths[iter % 3];
        size_t len = 20 + 2 * (testdata_next(&rng) % 22); /* 20..62 bytes */
        size_t fpos = 2 * (testdata_next(&rng) % ((len - flen) / 2 + 1));
        /* The checksum somewhere outside the field: one of the (len - flen) / 2 other words. */
        size_t cpos = 2 * (testdata_next(&rng) % ((len - flen) / 2));
        if (cpos >= fpos)
            cpos += flen;
        testdata_fill(h, len, testdata_next(&rng));
        testdata_fill(to, flen, testdata_next(&rng));
        int corner = iter % 5;
        if (corner == 1) { /* old or new field all ones / all zeros */
            memset(iter & 8 ? to : h + fpos, iter & 16 ? 0xff : 0x00, flen);
        } else if (corner == 2) {
            /* Choose the new field so the correct new checksum is 0x0000: with the field and
             * the checksum zeroed the rest sums to S; a new field worth ~S makes the total
             * all ones. Only its first 16-bit word is needed. */
            memset(h + fpos, 0, flen);
            h[cpos] = h[cpos + 1] = 0;
            uint16_t rest = oracle_checksum(h, len, 0); /* ~S */
            testdata_fill(h + fpos, flen, testdata_next(&rng)); /* some old value */
            memset(to, 0, flen);
            put_be16(to, rest);
        } else if (corner == 3) { /* a header that is all ones apart from the change */
            memset(h, 0xff, len);
        }
        check_one_replace(t, h, len, cpos, fpos, flen, to, corner == 2 ? "result 0x0000" : "random");
    }
}

/*
 * A stored 0xffff: UDP's form of a computed 0, or a correct 0x0000 that another box's eqn. 2
 * update left as 0xffff. Its 16-bit complement is 0, so a field going from all ones to all
 * zeros left eqn. 3's sum 0 when ~HC was taken as 16 bits, and the update stored 0xffff where
 * recomputing gives 0x0000 (csum.h: never 0xffff). Every helper must give the oracle's value,
 * and the same as csum_replace_by_diff() by the same change.
 */
static void check_replace_stored_ffff(struct test_ctx *t)
{
    static const size_t widths[] = { 2, 4, 16 };
    unsigned char h[64], from[16], to[16];
    uint64_t rng = 0xffff;
    for (int iter = 0; iter < 30000; iter++) {
        const size_t flen = widths[iter % 3];
        const size_t len = 20 + 2 * (testdata_next(&rng) % 22); /* 20..62 bytes */
        const size_t fpos = 2 * (testdata_next(&rng) % ((len - flen) / 2 + 1));
        size_t cpos = 2 * (testdata_next(&rng) % ((len - flen) / 2));
        if (cpos >= fpos)
            cpos += flen;
        testdata_fill(h, len, testdata_next(&rng));
        memset(h + fpos, 0xff, flen);
        /* Give the data a computed checksum of 0x0000: a word outside the field and the
         * checksum worth ~S of the rest (S = the rest's sum with that word zeroed). */
        size_t w = 0;
        while (w == cpos || (w >= fpos && w < fpos + flen))
            w += 2;
        h[w] = h[w + 1] = 0;
        h[cpos] = h[cpos + 1] = 0;
        put_be16(h + w, oracle_checksum(h, len, 0));
        CHECK(t, oracle_checksum(h, len, 0) == 0x0000, "set-up: the data's checksum is 0x%04x",
              oracle_checksum(h, len, 0));
        put_be16(h + cpos, 0xffff); /* stored as 0xffff; it verifies as 0x0000 would */
        CHECK(t, oracle_checksum(h, len, 0) == 0x0000, "set-up: stored 0xffff does not verify");

        memcpy(from, h + fpos, flen);
        if (iter & 4)
            memset(to, 0, flen); /* all ones to all zeros: eqn. 3's sum of three zeros */
        else
            testdata_fill(to, flen, testdata_next(&rng));
        csum_sum16 check = stored_of(0xffff), by_diff = check;
        replace_field(&check, from, to, flen);
        csum_replace_by_diff(&by_diff,
                             csum_sub(csum_partial(to, flen, 0), csum_partial(from, flen, 0)));
        memcpy(h + fpos, to, flen);
        h[cpos] = h[cpos + 1] = 0;
        /* The documented difference: data left all zeros (a 20-byte header whose field is
         * 16 bytes, the set-up's word then 0) gives 0x0000 where recomputing gives 0xffff. */
        size_t nonzero = 0;
        for (size_t i = 0; i < len; i++)
            nonzero += h[i] != 0;
        const uint16_t want = nonzero ? oracle_checksum(h, len, 0) : 0x0000;
        CHECK(t, net(check) == want && check == by_diff,
              "replace%zu of a stored 0xffff, field all ones -> %s: got 0x%04x, recomputed "
              "0x%04x, csum_replace_by_diff 0x%04x", flen, iter & 4 ? "zeros" : "random",
              net(check), want, net(by_diff));
    }
}

/* ---- csum_replace_by_diff -------------------------------------------------------------- */

/*
 * The incremental-update idiom of csum.h: the sum of the bytes p[off, off + n) before and
 * after a change, taken out and put in with csum_block_sub/add at `off` (odd offsets rotate),
 * or with csum_sub when `off` is even and `plain_sub` asks for it.
 */
static csum_wsum diff_of_change(const unsigned char *old_bytes, const unsigned char *new_bytes,
                                size_t off, size_t n, int plain_sub)
{
    csum_wsum was = csum_partial(old_bytes, n, 0), now = csum_partial(new_bytes, n, 0);
    if (plain_sub && !(off & 1))
        return csum_sub(now, was);
    return csum_block_add(csum_block_sub(0, was, off), now, off);
}

/* Whether p[0, len) is all zeros but for the two bytes at cpos (the checksum field). */
static int zero_but_field(const unsigned char *p, size_t len, size_t cpos)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] && (i < cpos || i > cpos + 1))
            return 0;
    return 1;
}

/*
 * A packet of `len` bytes (`initial`: a pseudo-header's sum, 0 for none) with a correct
 * checksum at even `cpos`; p[off, off + n) (clear of the checksum) changes to `repl`, the
 * stored checksum is updated with csum_replace_by_diff() (exported, and through the macro) by
 * `diff_kind` (0: the idiom, 1: csum_sub at an even offset, 2: the idiom's value plus a
 * negative zero, 3: a positive zero for "nothing changed"), and compared with the oracle's
 * recomputation. The one documented difference: data left all zeros, with no initial sum,
 * gives 0x0000 where the recomputation gives 0xffff; the update never stores 0xffff.
 */
static void check_one_by_diff(struct test_ctx *t, unsigned char *p, size_t len, size_t cpos,
                              csum_wsum initial, size_t off, size_t n,
                              const unsigned char *repl, int diff_kind, const char *why)
{
    p[cpos] = p[cpos + 1] = 0;
    put_be16(p + cpos, oracle_checksum(p, len, initial));
    csum_sum16 check;
    memcpy(&check, p + cpos, 2);
    const uint16_t before = net(check);

    unsigned char old_bytes[256];
    memcpy(old_bytes, p + off, n);
    memcpy(p + off, repl, n);
    csum_wsum diff = diff_of_change(old_bytes, p + off, off, n, diff_kind == 1);
    if (diff_kind == 2)
        diff = csum_add(diff, 0xffffffffu); /* the same number, with a negative zero added */
    else if (diff_kind == 3 && memcmp(old_bytes, p + off, n) == 0)
        diff = 0;
    csum_sum16 exported = check;
    csum_replace_by_diff(&check, diff);
    (csum_replace_by_diff)(&exported, diff);

    p[cpos] = p[cpos + 1] = 0;
    const uint16_t recomputed = oracle_checksum(p, len, initial);
    const int all_zero = initial == 0 && zero_but_field(p, len, cpos);
    const uint16_t want = all_zero ? 0x0000 : recomputed;
    CHECK(t, net(check) == want && exported == check,
          "%s: csum_replace_by_diff of %zu bytes at %zu of %zu (checksum 0x%04x at %zu, initial "
          "0x%08x, diff 0x%08x, kind %d): got 0x%04x (exported 0x%04x), recomputed 0x%04x%s",
          why, n, off, len, before, cpos, (unsigned)initial, (unsigned)diff, diff_kind,
          net(check), net(exported), recomputed, all_zero ? " (all zeros: 0x0000 documented)" : "");
    CHECK(t, !all_zero || recomputed == 0xffff, "%s: the oracle's checksum of zeros is 0x%04x",
          why, recomputed);
}

static void check_replace_by_diff(struct test_ctx *t)
{
    /* RFC 1624 section 3's example as a difference: HC 0xdd2f, a word 0x5555 -> 0x3285 gives
     * 0x0000, not eqn. 2's 0xffff. The difference is summed from the stored bytes. */
    unsigned char was[2] = { 0x55, 0x55 }, now[2] = { 0x32, 0x85 };
    csum_sum16 check = stored_of(0xdd2f);
    csum_replace_by_diff(&check, csum_sub(csum_partial(now, 2, 0), csum_partial(was, 2, 0)));
    CHECK(t, net(check) == 0x0000, "RFC 1624 example by diff: got 0x%04x, want 0x0000", net(check));

    /* csum_unfold widens as it is, and is csum_fold's partner: ~unfold(fold(s)) folds back. */
    for (uint32_t v = 0; v <= 0xffff; v++) {
        const csum_sum16 c = (csum_sum16)v;
        CHECK(t, csum_unfold(c) == v && (csum_unfold)(c) == v, "csum_unfold(0x%04x) = 0x%08x",
              (unsigned)v, (unsigned)(csum_unfold)(c));
        CHECK(t, csum_fold(~csum_unfold(c)) == (v == 0xffff ? 0 : c),
              "csum_fold(~csum_unfold(0x%04x)) = 0x%04x", (unsigned)v,
              (unsigned)csum_fold(~csum_unfold(c)));
    }

    unsigned char p[1600], repl[256];
    uint64_t rng = 0xd1ff;
    for (int iter = 0; iter < 200000; iter++) {
        const uint64_t r = testdata_next(&rng);
        /* Header-sized packets mostly, some up to 1500 bytes; odd lengths too. */
        const size_t len = (r & 7) ? 4 + r % 61 : 64 + (r >> 8) % 1437;
        const size_t cpos = 2 * ((r >> 24) % ((len - 2) / 2 + 1));
        const size_t n = 1 + (r >> 36) % (len - 2 < 255 ? len - 2 : 255);
        /* A range of n bytes clear of [cpos, cpos + 2): before it or after it, any offset. */
        size_t off;
        if (cpos >= n && (!(r & 0x100) || cpos + 2 + n > len))
            off = (r >> 44) % (cpos - n + 1);
        else if (cpos + 2 + n <= len)
            off = cpos + 2 + (r >> 44) % (len - cpos - 2 - n + 1);
        else
            continue; /* no room on either side */
        const csum_wsum initial = (r & 0x200) ? (csum_wsum)testdata_next(&rng) : 0;
        testdata_fill(p, len, testdata_next(&rng));
        testdata_fill(repl, n, testdata_next(&rng));
        const int corner = iter % 8, kind = (int)((r >> 12) & 3);
        const char *why = "random";
        if (corner == 1) { /* the data all zeros before the change: stored 0xffff */
            memset(p, 0, len);
            why = "from zeros";
        } else if (corner == 2) { /* all zeros after it */
            memset(p, 0, len);
            testdata_fill(p + off, n, testdata_next(&rng));
            memset(repl, 0, n);
            why = "to zeros";
        } else if (corner == 3) { /* a change that changes nothing */
            memcpy(repl, p + off, n);
            why = "no change";
        } else if (corner == 4 && n >= 3) {
            /* New bytes making the correct new checksum 0x0000 (data summing to negative
             * zero): with the range's first whole word zeroed the rest sums to S; a word worth
             * ~S there makes the total all ones. */
            const size_t w = off + (off & 1); /* the first even offset in the range */
            memcpy(p + off, repl, n);
            p[w] = p[w + 1] = 0;
            p[cpos] = p[cpos + 1] = 0;
            const uint16_t rest = oracle_checksum(p, len, initial); /* ~S */
            put_be16(p + w, rest);
            memcpy(repl, p + off, n);
            testdata_fill(p + off, n, testdata_next(&rng)); /* some old value */
            why = "result 0x0000";
        } else if (corner == 5) { /* all ones apart from the change */
            memset(p, 0xff, len);
            why = "all ones";
        }
        check_one_by_diff(t, p, len, cpos, initial, off, n, repl, kind, why);
    }
}

/* ---- a sum computed elsewhere ---------------------------------------------------------- */

/* A 16-bit sum handed over as a number, RFC 1071's sum of big-endian words (a NIC's raw
 * receive checksum), joins the library's sums as (csum_wsum)htons(raw), as csum.h says at
 * csum_unfold(): the first part of a buffer summed "elsewhere" (by the oracle), the rest by
 * csum_partial, and the two added must fold to the whole buffer's checksum. */
static void check_raw_sum_from_elsewhere(struct test_ctx *t)
{
    unsigned char buf[1600];
    uint64_t rng = 0x4e1c;
    for (int i = 0; i < 2000; i++) {
        const size_t len = (size_t)(testdata_next(&rng) % sizeof buf);
        const size_t k = (size_t)(testdata_next(&rng) % (len + 1)) & ~(size_t)1; /* even */
        testdata_fill(buf, len, testdata_next(&rng));
        if (i % 7 == 0)
            memset(buf, i % 2 ? 0xff : 0, k); /* a raw sum of 0 or 0xffff */
        const uint16_t raw = (uint16_t)~oracle_checksum(buf, k, 0);
        const csum_wsum sum = csum_add((csum_wsum)htons(raw), csum_partial(buf + k, len - k, 0));
        const uint16_t want = oracle_checksum(buf, len, 0);
        CHECK(t, net(csum_fold(sum)) == want,
              "raw sum 0x%04x of %zu of %zu bytes as htons(raw), plus csum_partial of the rest: "
              "0x%04x, the whole buffer's checksum is 0x%04x", raw, k, len, net(csum_fold(sum)),
              want);
    }
}

void test_proto_helpers(struct test_ctx *t)
{
    check_raw_sum_from_elsewhere(t);
    check_ipv4_header(t);
    check_pseudo_headers(t);
    check_udp_zero(t);
    check_offload_placeholder(t);
    check_replace(t);
    check_replace_stored_ffff(t);
    check_replace_by_diff(t);
}

/* ---- csum_ipv4_header_batch ----------------------------------------------------------- */

/* Run one batch function and compare each result with csum_ipv4_header and the oracle; also
 * check that nothing past out[n - 1] was written. */
static void check_batch_run(struct test_ctx *t, const char *name, csum_ipv4_batch_fn fn,
                            const void *const *hdrs, size_t n, const char *what)
{
    csum_sum16 *out = malloc((n + 1) * sizeof *out);
    for (size_t i = 0; i <= n; i++)
        out[i] = 0x5a5a;
    fn(hdrs, n, out);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *h = hdrs[i];
        unsigned ihl = h[0] & 15u;
        csum_sum16 want = csum_ipv4_header(h, ihl);
        uint16_t oracle = ihl >= 5 ? oracle_checksum(h, ihl * 4, 0) : 0xffff;
        CHECK(t, out[i] == want && net(out[i]) == oracle,
              "%s, %s: n %zu header %zu (ihl %u): got 0x%04x, single 0x%04x, oracle 0x%04x", name,
              what, n, i, ihl, net(out[i]), net(want), oracle);
    }
    CHECK(t, out[n] == 0x5a5a, "%s, %s: n %zu: wrote past the end of out", name, what, n);
    free(out);
}

/* Every kernel's batch this CPU runs, plus the public entry point. */
static void check_batch_all(struct test_ctx *t, const void *const *hdrs, size_t n, const char *what)
{
    const struct csum_kernel *k;
    for (size_t i = 0; (k = csum_kernel_at(i)) != NULL; i++)
        if (k->ipv4_batch && csum_kernel_supported(k))
            check_batch_run(t, k->sum.name, k->ipv4_batch, hdrs, n, what);
    check_batch_run(t, "csum_ipv4_header_batch", csum_ipv4_header_batch, hdrs, n, what);
}

enum ihl_mix { ALL_FIVE, MOSTLY_FIVE, SHORT_ONLY, ANY_VALID, ANY_BYTE, MIXES };

static unsigned char first_byte(uint64_t r, enum ihl_mix mix)
{
    switch (mix) {
    case ALL_FIVE:   return 0x45;
    case MOSTLY_FIVE: /* groups of ihl 5 and mixed groups in turn: the paths hand over */
        return r % 23 ? 0x45 : (unsigned char)(0x40 | (5 + (r >> 8) % 11));
    case SHORT_ONLY: return (unsigned char)(0x40 | (5 + r % 4));   /* ihl 5..8 */
    case ANY_VALID:  return (unsigned char)(0x40 | (5 + r % 11));  /* ihl 5..15 */
    default:         return (unsigned char)r;                     /* ihl 0..15, any version */
    }
}

void test_ipv4_batch(struct test_ctx *t)
{
    /* NULL arrays are a caller bug: with any count nothing is read or written, never a crash
     * (SIMD rows from 8 headers on, so both paths), as csum_partial treats NULL as empty. */
    {
        static const unsigned char iph[20] = { 0x45 };
        const void *some[64];
        csum_sum16 untouched[64];
        for (size_t i = 0; i < 64; i++) {
            some[i] = iph;
            untouched[i] = 0x5a5a;
        }
        static const size_t counts[] = { 0, 1, 7, 8, 64 };
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            csum_ipv4_header_batch(NULL, counts[c], untouched);
            csum_ipv4_header_batch(some, counts[c], NULL);
            csum_ipv4_header_batch(NULL, counts[c], NULL);
        }
        int same = 1;
        for (size_t i = 0; i < 64; i++)
            same &= untouched[i] == 0x5a5a;
        CHECK(t, same, "csum_ipv4_header_batch(NULL, n, out) wrote to out");
    }

    /* Headers scattered at random offsets of a random pool. */
    enum { POOL = 1 << 20, MAX_N = 3000 };
    unsigned char *pool = alloc_aligned(POOL);
    testdata_fill(pool, POOL, 0xba7c);
    const void **hdrs = malloc(MAX_N * sizeof *hdrs);
    uint64_t rng = 0x5eed;
    static const size_t sizes[] = { 0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 1000, MAX_N };
    static const char *const mix_names[MIXES] = { "ihl 5", "mostly ihl 5", "ihl 5..8",
                                                  "ihl 5..15", "any first byte" };
    for (int mix = ALL_FIVE; mix < MIXES; mix++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0] + 8; s++) {
            size_t n = s < sizeof sizes / sizeof sizes[0] ? sizes[s] : testdata_next(&rng) % 200;
            for (size_t i = 0; i < n; i++) {
                unsigned char *h = pool + testdata_next(&rng) % (POOL - 64);
                h[0] = first_byte(testdata_next(&rng), (enum ihl_mix)mix);
                hdrs[i] = h;
            }
            /* Mostly short headers with a single long one: the other path of the group. */
            if (mix == SHORT_ONLY && n > 3 && (s & 1))
                ((unsigned char *)hdrs[n / 2])[0] = 0x4f;
            check_batch_all(t, hdrs, n, mix_names[mix]);
        }
    }
    /* Carry-heavy: headers of all 0xff bytes (apart from the first). */
    for (size_t i = 0; i < 64; i++) {
        unsigned char *h = pool + i * 64;
        memset(h, 0xff, 64);
        h[0] = (unsigned char)(0xf0 | (5 + i % 11));
        hdrs[i] = h;
    }
    check_batch_all(t, hdrs, 64, "all 0xff");
    free(pool);

    free(hdrs);

    /* Guard pages: [readable page][PROT_NONE page] repeated. Each header ends exactly at the
     * end of a readable page (an invalid one is a single byte there), or starts right after
     * a PROT_NONE page; any read past ihl * 4 bytes, or before the header, crashes. The array
     * of pointers ends at a guard page too: a group padded past the caller's n (the tail)
     * must not read hdrs[n], even through a masked load, which an emulator may fault on
     * (qemu-x86_64 did, with a loop GCC 12 had turned into vpmaskmovq). */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    enum { PAGES = 48 };
    struct guarded_buffer ptrs;
    unsigned char *map = mmap(NULL, 2 * PAGES * page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || guarded_buffer_map(&ptrs, PAGES * sizeof *hdrs) != 0) {
        if (map != MAP_FAILED)
            munmap(map, 2 * PAGES * page);
        t->skip_reason = "cannot map guard pages";
        return;
    }
    testdata_fill(map, 2 * PAGES * page, 0x9a4d);
    for (size_t i = 0; i < PAGES; i++)
        mprotect(map + (2 * i + 1) * page, page, PROT_NONE);
    for (int round = 0; round < 40; round++) {
        /* Every remainder mod 8 (the tail's sizes) first, then random counts. */
        size_t n = round < 8 ? PAGES - (size_t)round : 1 + testdata_next(&rng) % PAGES;
        hdrs = (const void **)(void *)(ptrs.data + ptrs.data_len - n * sizeof *hdrs);
        for (size_t i = 0; i < n; i++) {
            unsigned char *readable = map + 2 * i * page;
            unsigned char b = first_byte(testdata_next(&rng), (enum ihl_mix)(round % MIXES));
            unsigned ihl = b & 15u;
            size_t bytes = ihl >= 5 ? ihl * 4 : 1;
            int at_start = (round & 4) && i > 0; /* page 0 has no guard in front */
            unsigned char *h = at_start ? readable : readable + page - bytes;
            h[0] = b;
            hdrs[i] = h;
        }
        check_batch_all(t, hdrs, n, (round & 4) ? "after a guard page" : "flush against a guard page");
    }
    munmap(map, 2 * PAGES * page);
    guarded_buffer_unmap(&ptrs);
}
