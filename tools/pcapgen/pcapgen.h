/*
 * csum-pcapgen: writes test captures with known checksums. Every checksum is computed with
 * the reference oracle (oracle/oracle.c), never with the code under test, and for every
 * checksum of every frame the verdict a verifier must give is recorded, so a test can
 * require exactly that set back.
 *
 * A packet is built inside out: the inner IP datagram (ip.c), the tunnel around it, which is
 * itself an IP datagram (encap.c), then the link layer with its own encapsulations (link.c);
 * packet.c puts them together.
 */
#ifndef CSUM_PCAPGEN_H
#define CSUM_PCAPGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- bytes ---------------------------------------------------------------------------------- */

static inline void be16put(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)(v >> 8);
    p[1] = (unsigned char)v;
}

static inline void be32put(unsigned char *p, uint32_t v)
{
    be16put(p, (uint16_t)(v >> 16));
    be16put(p + 2, (uint16_t)v);
}

static inline uint16_t be16get(const unsigned char *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}

uint64_t rnd(uint64_t *rng);
/* Pseudo-random bytes, the same on every host. */
void fill(void *dst, size_t n, uint64_t seed);
/* A wrong value for a checksum whose correct value is `good`: different, never 0, never the
 * other ones'-complement zero of a 0x0000 / 0xffff (which would still verify). */
uint16_t wrong_value(uint16_t good, uint64_t *rng);

/* ---- expectations --------------------------------------------------------------------------- */

enum expect_verdict { EXPECT_GOOD, EXPECT_BAD, EXPECT_OFFLOAD, EXPECT_NOT_CHECKABLE, EXPECT_NONE };

/* Encapsulations that lead to an inner IP layer, named as `csum pcap verify` names them. */
enum via { VIA_NONE, VIA_IP, VIA_GRE, VIA_ERSPAN, VIA_VXLAN, VIA_VXLAN_GPE, VIA_GENEVE,
           VIA_ICMP, VIA_ICMPV6 };

/* What csum pcap verify must say about one checksum of a frame. */
struct expectation {
    const char *layer; /* "ipv4", "tcp", "udp", "icmp", "icmpv6", "gre" */
    enum expect_verdict verdict;
    unsigned level;
    enum via via;
    uint16_t stored, computed;
};

/* Frames up to a jumbogram of 66000 bytes of payload, with headers. */
enum { MAX_FRAME = 70 * 1024, MAX_EXPECT = 16 };

/* An IP datagram and what must be said about its checksums. */
struct datagram {
    unsigned char data[MAX_FRAME];
    size_t len;
    int ipv;
    size_t l3_len;        /* the IP header (IPv4 options included, IPv6 extensions not) */
    size_t l4_off;        /* where the transport starts (after extension headers and AH) */
    /* A tunnel's (build_tunnel; 0 for an ICMP error's quote): where its own headers start
     * (GRE's; VXLAN's or Geneve's after the UDP header), where the header holding the outer
     * transport checksum ends (GRE's, UDP's), and where the inner datagram starts. */
    size_t tunnel_off, tunnel_l4_end, inner_off;
    struct expectation expect[MAX_EXPECT];
    int n_expect;
};

void expect_add(struct expectation *list, int *n, const struct expectation *e);

/* ---- IP datagrams (ip.c) -------------------------------------------------------------------- */

/* IPv6 extension headers. EXT_RT0: type 0 routing header, no segments left; EXT_RT0_LEFT:
 * type 0 with one segment left; EXT_SRH: segment routing header with one segment left (with
 * segments left, the pseudo-header holds the final destination, not the header's); EXT_RPL:
 * RPL source route header (RFC 6554) with segments left, its addresses compressed;
 * EXT_RPL_DONE: the same with none left; EXT_RPL_SHORT: segments left but no room for an
 * address (the final destination is not known: not checkable). */
enum { EXT_HBH = 1, EXT_DSTOPTS = 2, EXT_RT0 = 4, EXT_SRH = 8, EXT_AH = 16, EXT_RT0_LEFT = 32,
       EXT_RPL = 64, EXT_RPL_DONE = 128, EXT_RPL_SHORT = 256 };

/* An IPv4 source route option (RFC 791 section 3.1). While the route is followed (LSRR,
 * SSRR, ODD_LENGTH) the header holds the next hop and the pseudo-header the route's last
 * address; otherwise the header holds the final destination. */
enum route {
    ROUTE_NONE,
    ROUTE_LSRR,        /* loose, three addresses, the first visited */
    ROUTE_SSRR,        /* strict, two addresses, after a router alert option */
    ROUTE_ODD_LENGTH,  /* loose, length 10 (not 3 + 4n): the last four bytes are the end */
    ROUTE_DONE,        /* loose, pointer past the end: the route is over */
    ROUTE_BAD_POINTER, /* loose, pointer between two addresses: not followed */
    ROUTE_AFTER_EOL,   /* loose, after an End of Option List: not an option */
    ROUTE_NO_POINTER,  /* loose, length 2: final destination not known, not checkable */
    ROUTE_NO_ADDRESS,  /* loose, length 6, pointer 4: the same */
    /* The pointer at the option's end (RFC 791: the route is over once it exceeds the length) */
    ROUTE_AT_LENGTH,   /* loose, length 12 (not 3 + 4n), pointer 12: not past the end, so
                        * followed: the last four bytes are the end, as for ROUTE_ODD_LENGTH */
    ROUTE_IN_LAST,     /* strict, length 11, pointer 11: inside the last address, not followed */
    ROUTE_DONE_ONE,    /* strict, one address (length 7), pointer 8: the route is over */
};

enum offload {
    OFFLOAD_NONE,
    OFFLOAD_PARTIAL,       /* TCP/UDP checksum = folded pseudo-header sum (Linux CHECKSUM_PARTIAL) */
    OFFLOAD_PARTIAL_NOLEN, /* the same sum without the length (Windows large send offload) */
    OFFLOAD_TSO,           /* IP length 0 and a partial checksum: a TSO/GSO super-packet */
    OFFLOAD_IP_ZERO,       /* IPv4 header checksum left 0 for the NIC */
};

struct ip_spec {
    int ipv;              /* 4 or 6 */
    uint8_t proto;        /* 6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6, 2 IGMP, 103 PIM, 112 VRRP,
                           * 89 OSPF (version 2 over IPv4, 3 over IPv6), 46 RSVP, 33 DCCP,
                           * 136 UDP-Lite, 135 the IPv6 Mobility Header (checksummed); 4, 41, 47 carried */
    size_t payload;       /* transport payload bytes (random), when nothing is carried */
    const unsigned char *carry; /* bytes carried after the transport header instead (a tunnel) */
    size_t carry_len;
    uint16_t dport;       /* UDP destination port (0: random, 50000..50999) */
    uint8_t icmp_type, icmp_code; /* 0/0: echo request; errors quote `carry`. IGMP, PIM,
                           * OSPF, RSVP, DCCP: the message type (IGMP 0: a version 2 report;
                           * OSPF 0: a Hello; RSVP 0: a Path; DCCP: 0 Request, 2 Data, 3 Ack,
                           * 4 DataAck); VRRP: the version */
    uint8_t cscov;        /* DCCP's Checksum Coverage (0: all; beyond the packet: the packet is
                           * to be ignored, not checkable) */
    int short_seq;        /* DCCP Data, Ack, DataAck: 24-bit sequence numbers (X = 0) */
    uint8_t mh_header_len;/* MH: not 0, the Header Len stored (past the payload: not
                           * checkable); 0: the message's (its payload a multiple of 8) */
    uint16_t coverage;    /* UDP-Lite's Checksum Coverage as stored (0: the whole datagram;
                           * 1..7 or past its end: to be discarded, not checkable) */
    uint8_t auth;         /* OSPFv2: the AuType (0 none, 1 a simple password, 2 cryptographic:
                           * no checksum); OSPFv3: 1 sets a Hello's or Database Description's
                           * AT-bit and writes an authentication trailer's header in
                           * `udp_trailer` (no checksum) */
    uint32_t icmp_rest;   /* the ICMP header's second word */
    int ip_option_words;  /* IPv4 options, in 32-bit words (0..10) */
    enum route route;     /* an IPv4 source route (in options of its own, not ip_option_words) */
    int ext;              /* IPv6 extension headers (EXT_*); EXT_AH also works over IPv4 */
    int tcp_option_words; /* TCP options, in 32-bit words */
    int tcp_offset;       /* not 0: the TCP (DCCP) data offset stored, in words (1..15),
                           * whatever the header's length (below 5, below DCCP's generic
                           * header: not checkable) */
    int fragments;        /* 0, or split the datagram into this many IP fragments (2..) */
    int corrupt_ip;       /* store a wrong IPv4 header checksum (in every fragment) */
    int corrupt_l4;       /* store a wrong transport checksum */
    int udp_zero;         /* store 0 as the UDP (OSPF, RSVP, UDP-Lite) checksum */
    size_t udp_trailer;   /* the payload's last bytes follow the UDP datagram (the OSPF
                           * packet, the RSVP message): a length below the IP payload's, which
                           * the checksum does not cover. OSPF: a digest or authentication
                           * trailer with `auth`, else a link-local signaling block (RFC 5613)
                           * after a Hello or Database Description, a multiple of 4, and
                           * random bytes after another packet */
    int l4_sum_zero;      /* choose the payload so the computed transport checksum is 0x0000 */
    int icmp_all_zero;    /* ICMP echo reply of all zeros: the checksum is 0xffff */
    int tcp_ffff;         /* with l4_sum_zero: store 0xffff for a TCP or ICMP 0x0000 */
    enum offload offload;
    int jumbo;            /* IPv6 jumbogram (RFC 2675): payload length 0, Jumbo Payload option */
};

/* Build the datagram(s) of `s` (several for fragments, at most 8), with expectations at
 * `level`/`via`; returns how many. */
int build_ip(const struct ip_spec *s, unsigned level, enum via via, uint64_t *rng,
             struct datagram *out);

/* ---- tunnels (encap.c) ---------------------------------------------------------------------- */

enum encap {
    ENCAP_NONE,
    ENCAP_IPIP,           /* IPv4/IPv6 in IPv4/IPv6 (protocol 4 or 41) */
    ENCAP_GRE,            /* GRE (RFC 2784/2890), key and sequence number, IP inside */
    ENCAP_GRE_CSUM,       /* the same with the optional checksum */
    ENCAP_GRE_TEB,        /* Ethernet in GRE (0x6558), with checksum */
    ENCAP_ERSPAN1, ENCAP_ERSPAN2, ENCAP_ERSPAN3,
    ENCAP_VXLAN,          /* UDP 4789 */
    ENCAP_VXLAN_PORT,     /* UDP 8472 (Linux's old default): needs --vxlan-port 8472 */
    ENCAP_VXLAN_GPE,      /* UDP 4790, IP payload */
    ENCAP_GENEVE,         /* UDP 6081, with an option */
    ENCAP_GENEVE_PORT,    /* UDP 6082: needs --geneve-port 6082 */
    ENCAP_ICMP_ERROR,     /* the packet quoted whole in an ICMP/ICMPv6 error */
    ENCAP_ICMP_ERROR_CUT, /* quoted up to 8 bytes past the IP header (RFC 792's minimum) */
    ENCAP_GRE_ROUTE,      /* GRE with checksum, key, sequence number and an RFC 1701 source route */
    ENCAP_COUNT
};

/* RFC 4884 in an ICMP error (ENCAP_ICMP_ERROR, of a type with its length field: ICMP 3, 11,
 * 12; ICMPv6 1, 3): the "original datagram" field's length in the header, then maybe an
 * extension structure (RFC 4884 section 7) holding an MPLS label stack object (RFC 4950).
 * A structure is checked after a field of at least 128 bytes only. */
enum icmp_ext {
    ICMP_EXT_NONE,        /* no length field (RFC 792, RFC 4443) */
    ICMP_EXT_LENGTH_ONLY, /* the length field, nothing after the field */
    ICMP_EXT_GOOD,        /* an extension structure, its checksum right */
    ICMP_EXT_BAD,         /* ... wrong */
    ICMP_EXT_ZERO,        /* ... 0: none sent, nothing to check */
    ICMP_EXT_NEGATIVE_ZERO,     /* ... its checksum computes to 0, sent as 0xffff (0 says none) */
    ICMP_EXT_NEGATIVE_ZERO_BAD, /* ... wrong: fix must store 0xffff */
    ICMP_EXT_VERSION_1,   /* a structure of version 1 (not RFC 4884's), its checksum wrong:
                           * not looked into */
};

struct tunnel_spec {
    enum encap encap;
    int outer_ipv;
    int corrupt_outer_ip, corrupt_outer_l4; /* outer IPv4 header; outer UDP/ICMP/GRE checksum */
    /* ICMP errors: the type (0: random), RFC 4884's length field and extension, and the
     * "original datagram" field's length (0: the quote padded to whole 32-bit (ICMP) or 64-bit
     * (ICMPv6) words, at least 128 bytes; otherwise that, cutting the quote if shorter). */
    uint8_t icmp_type;
    enum icmp_ext icmp_ext;
    size_t icmp_field;
};

/* Wrap `inner` (one datagram) in the tunnel: `out` is the outer datagram, with the inner
 * expectations one level down. */
void build_tunnel(const struct tunnel_spec *t, const struct datagram *inner, uint64_t *rng,
                  struct datagram *out);

const char *encap_name(enum encap e);
int encap_find(const char *name);     /* -1 if unknown */
/* What csum and tshark need to be told for a capture using it (NULL: nothing). */
const char *encap_csum_option(enum encap e);
const char *encap_tshark_option(enum encap e);

/* ---- link layers (link.c) ------------------------------------------------------------------- */

enum link {
    LINK_ETHERNET, LINK_VLAN, LINK_QINQ, LINK_8023_SNAP,
    LINK_SLL, LINK_SLL2, LINK_RAW, LINK_RAW_VERSIONED, LINK_NULL, LINK_LOOP,
    LINK_WLAN, LINK_WLAN_QOS, LINK_WLAN_4ADDR, LINK_WLAN_AMSDU, LINK_WLAN_PROTECTED,
    LINK_RADIOTAP, LINK_PRISM, LINK_AVS, LINK_PPI,
    LINK_PPP, LINK_PPP_HDLC, LINK_PPPOE, LINK_PPP_DIR, LINK_CHDLC, LINK_FRELAY,
    LINK_FRELAY_SNAP, LINK_SLIP, LINK_PKTAP, LINK_NFLOG,
    LINK_COUNT
};

/* Link-level encapsulations under Ethernet (before the first IP layer). */
enum l2encap { L2_NONE, L2_MPLS, L2_PPPOE, L2_MACSEC, L2_MACSEC_ENCRYPTED, L2_COUNT };

struct link_info {
    const char *name;        /* "ethernet", "radiotap", ... */
    uint32_t linktype;       /* written in the file (IPv4 for LINK_RAW_VERSIONED) */
    int ethernet;            /* Ethernet framing: L2 encapsulations apply, frames padded to 60 */
    const char *tshark_gap;  /* why tshark 4.0 cannot check it, or NULL */
};

const struct link_info *link_info(enum link l);
int link_find(const char *name);      /* -1 if unknown */
const char *l2_name(enum l2encap e);
int l2_find(const char *name);

/* A frame: link header + datagram(s) (two for an A-MSDU), with its expectations. */
struct frame {
    unsigned char data[MAX_FRAME + 256];
    size_t caplen, wirelen;
    size_t ip_off;           /* where the (first) datagram starts */
    struct expectation expect[2 * MAX_EXPECT];
    int n_expect;
    int skipped;             /* not looked into: encrypted, or cut before its transport */
};

/* Put the link layer (and `l2`) around dg[0..n) into fr (expectations copied). `pad`: pad
 * Ethernet frames to 60 bytes. */
void build_link(enum link link, enum l2encap l2, const struct datagram *dg, int n, int pad,
                uint64_t *rng, struct frame *fr);

/* An Ethernet header (+ one VLAN tag if vlan) for `ethertype` in front of p; its length. */
size_t ethernet_header(unsigned char *p, uint16_t ethertype, int vlan, uint64_t *rng);
/* The CRC-32 of IEEE 802.3 clause 3.2.9 (Ethernet's and 802.11's frame check sequence, and
 * gzip's trailer, RFC 1952): reflected polynomial 0xedb88320, all ones in and out. */
uint32_t crc32_ieee(const unsigned char *p, size_t n);

uint32_t linktype_of(enum link link, int ipv);

/* ---- packets (packet.c) --------------------------------------------------------------------- */

struct pkt_spec {
    enum link link;
    enum l2encap l2;
    struct ip_spec ip;        /* the innermost datagram */
    struct tunnel_spec tunnel;
    size_t snap;              /* capture at most this many bytes of the frame (0: everything) */
    int cut_link;             /* capture 1 byte up to where the (first) datagram starts, at
                               * random: a frame cut inside its link layer's headers */
    int cut_tunnel;           /* capture from the tunnel's own headers up to where the inner
                               * datagram starts, at random: a frame cut inside the
                               * encapsulation (not for ICMP errors) */
    int pad_ethernet;         /* pad Ethernet frames to the 60-byte minimum */
};

/* Build the frame(s) of one packet (several for fragments); returns how many (<= 8). */
int build_packet(const struct pkt_spec *spec, uint64_t *rng, struct frame *frames);

/* ---- capture files (writer.c) ------------------------------------------------------------- */

enum format { FMT_PCAP, FMT_PCAPNG };

struct capture_file {
    FILE *f;
    const char *name;
    enum format format;
    int big;            /* byte order of the file / current section */
    int nanoseconds;    /* pcap: nanosecond magic */
    uint64_t frames;    /* frames written */
    uint64_t offset;    /* bytes written */
    uint32_t interfaces;/* pcapng: interfaces in the current section */
    FILE *expect;       /* NAME.expect: every checksum's verdict (NULL when not wanted) */
    int any_bad;
    uint64_t skipped;   /* frames not looked into (encrypted, cut before the transport) */
};

/* Open NAME in dir for `format` (and NAME.expect if with_expectations); for pcap, write the
 * file header now. Exits on I/O errors. */
int cf_open(struct capture_file *cf, const char *dir, const char *name, enum format format,
            int big, int nanoseconds, uint32_t pcap_linktype, int with_expectations);
/* Close; in the manifest: "capture NAME STATUS [OPTION...]". */
void cf_close(struct capture_file *cf, FILE *manifest, const char *options);

/* pcapng blocks */
void cf_section(struct capture_file *cf, int big);
void cf_interface(struct capture_file *cf, uint32_t linktype, uint32_t snaplen);
void cf_other_blocks(struct capture_file *cf); /* name resolution, statistics, custom */

enum packet_block { PB_ENHANCED, PB_SIMPLE, PB_OBSOLETE };

/* Write a frame (pcap record or pcapng packet block) and its expectations. */
void cf_frame(struct capture_file *cf, const struct frame *fr, uint32_t interface,
              enum packet_block kind);

/* Raw bytes, for hand-made malformed files. */
void cf_bytes(struct capture_file *cf, const void *p, size_t n);
void put16(unsigned char *p, uint16_t v, int big);
void put32(unsigned char *p, uint32_t v, int big);

/* The line `csum pcap verify --all` prints for an expectation, normalized as the test does:
 * "FRAME DEPTH LAYER VERDICT [STORED [COMPUTED]] VIA". */
void expectation_line(FILE *f, uint64_t frame, const struct expectation *e);

/* ---- what main.c runs (corpus.c, bulk.c, mutate.c) -------------------------------------- */

int write_corpus(const char *dir);
/* A random, plausible datagram (about a quarter of its checksums wrong). */
struct ip_spec random_ip(uint64_t *rng, int ipv, int allow_fragments);
/* Write the frames of one packet on `interface` as `kind`. */
void add_packet(struct capture_file *cf, const struct pkt_spec *s, uint64_t *rng,
                uint32_t interface, enum packet_block kind);
void malformed_files(const char *dir, FILE *manifest);
int write_bulk(const char *path, uint64_t bytes, uint64_t seed);

/* One capture of `count` random packets on `link`, through `l2` and `encap`, with about
 * corrupt_pct percent of the checksums wrong, and special cases mixed in; NAME.expect next
 * to it when `expect`. */
struct write_spec {
    enum link link;
    enum l2encap l2;
    enum encap encap;
    enum format format;
    uint64_t count, seed;
    unsigned corrupt_pct;
    int ipv;                  /* 0: both */
    enum offload offload;
    int jumbo, ffff, fragments, expect;
};
int write_one(const char *path, const struct write_spec *w);

int mutate_file(const char *in, const char *out, uint64_t seed);

#endif /* CSUM_PCAPGEN_H */
