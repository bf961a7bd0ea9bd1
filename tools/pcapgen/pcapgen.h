/*
 * csum-pcapgen: writes test captures with known checksums. Every checksum is computed with
 * the reference oracle (oracle/oracle.c), never with the code under test, and every
 * deliberately wrong one is recorded, so a test can require exactly that set back.
 */
#ifndef CSUM_PCAPGEN_H
#define CSUM_PCAPGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- packets (packet.c) ------------------------------------------------------------------- */

enum link {
    LINK_ETHERNET, /* plain Ethernet II */
    LINK_VLAN,     /* Ethernet + one 802.1Q tag */
    LINK_QINQ,     /* Ethernet + 802.1ad + 802.1Q tags */
    LINK_SLL,
    LINK_SLL2,
    LINK_RAW,      /* no link header (LINKTYPE_RAW, IPV4, IPV6) */
    LINK_NULL,     /* BSD loopback, address family in little-endian */
};

/* IPv6 extension headers. EXT_RT0: type 0 routing header, no segments left; EXT_RT0_LEFT:
 * type 0 with one segment left; EXT_SRH: segment routing header with one segment left (with
 * segments left, the pseudo-header holds the final destination, not the header's). */
enum { EXT_HBH = 1, EXT_DSTOPTS = 2, EXT_RT0 = 4, EXT_SRH = 8, EXT_AH = 16, EXT_RT0_LEFT = 32 };

/* What to build. Zero means "no" / "default" for every field. */
struct pkt_spec {
    enum link link;
    int ipv;              /* 4 or 6 */
    uint8_t proto;        /* 6 TCP, 17 UDP, 1 ICMP, 58 ICMPv6 */
    size_t payload;       /* transport payload bytes */
    int ip_option_words;  /* IPv4 options, in 32-bit words (0..10) */
    int ext;              /* IPv6 extension headers (EXT_*); EXT_AH also works over IPv4 */
    int tcp_option_words; /* TCP options, in 32-bit words */
    int fragments;        /* 0, or split the datagram into this many IP fragments (2..) */
    int corrupt_ip;       /* store a wrong IPv4 header checksum (in every fragment) */
    int corrupt_l4;       /* store a wrong transport checksum */
    int udp_zero;         /* store 0 as the UDP checksum */
    int l4_sum_zero;      /* choose the payload so the computed transport checksum is 0x0000 */
    int icmp_all_zero;    /* ICMP echo reply of all zeros: the checksum is 0xffff */
    size_t snap;          /* capture at most this many bytes of the frame (0: everything) */
    int pad_ethernet;     /* pad Ethernet frames to the 60-byte minimum */
};

/* What csum pcap verify must say about one checksum of a frame. */
enum expect_verdict { EXPECT_GOOD, EXPECT_BAD, EXPECT_NOT_CHECKABLE, EXPECT_NO_CHECKSUM };

struct expectation {
    const char *layer; /* "ipv4", "tcp", "udp", "icmp", "icmpv6" */
    enum expect_verdict verdict;
    uint16_t stored, computed; /* for BAD */
};

enum { MAX_FRAME = 9216, MAX_EXPECT = 4 };

struct frame {
    unsigned char data[MAX_FRAME];
    size_t caplen, wirelen;
    struct expectation expect[MAX_EXPECT];
    int n_expect;
};

/* Build the frame(s) of one packet (several for fragments); returns how many (<= 8). */
int build_packet(const struct pkt_spec *spec, uint64_t *rng, struct frame *frames);

/* The LINKTYPE_* value a frame built for `link` (and IP version) is written with. */
uint32_t linktype_of(enum link link, int ipv, int raw_style);

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
    FILE *expect_bad;   /* NAME.bad: the lines `csum pcap verify` prints for bad checksums */
    FILE *expect_nc;    /* NAME.nc: "frame N: LAYER" for every not-checkable checksum */
                        /* (both NULL when not wanted) */
    int any_bad;
};

/* Open NAME in dir for `format` (and NAME.bad, NAME.nc if with_expectations); for pcap,
 * write the file header now. Exits on I/O errors. */
int cf_open(struct capture_file *cf, const char *dir, const char *name, enum format format,
            int big, int nanoseconds, uint32_t pcap_linktype, int with_expectations);
void cf_close(struct capture_file *cf, FILE *manifest);

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

/* ---- the corpus (corpus.c) ---------------------------------------------------------------- */

int write_corpus(const char *dir);
int write_bulk(const char *path, uint64_t bytes, uint64_t seed);

/* ---- hostile input (mutate.c) ------------------------------------------------------------- */

int mutate_file(const char *in, const char *out, uint64_t seed);

#endif /* CSUM_PCAPGEN_H */
