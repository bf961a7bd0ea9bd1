/*
 * csum_pcap: verify and fix the Internet checksums in a packet capture (pcap or pcapng, plain
 * or gzip/zstd-compressed), read from a file descriptor as a stream or from memory. Used by
 * `csum pcap`, the lab and the fuzz targets; built on the public csum.h API only.
 *
 * Every length in the capture is untrusted: the reader never reads outside what it was
 * given, keeps a bounded window of the stream in memory (RSS does not grow with the file),
 * and reports a malformed file as an error with the byte offset of the problem, after the
 * verdicts for every complete packet before it.
 *
 * Formats: pcap (either byte order, micro- or nanosecond timestamps, FCS length in the link
 * type field) and pcapng (SHB, IDB, EPB, SPB and the obsolete PB, several interfaces and
 * sections, FCS length from if_fcslen or a packet's flags; other blocks are skipped); compressed with gzip (zlib) or zstd (libzstd), found
 * by content, when the library was built with them.
 *
 * Link types: Ethernet (802.1Q/802.1ad tags, 802.3 + LLC/SNAP), Linux cooked SLL and SLL2,
 * raw IPv4/IPv6, BSD loopback (NULL, LOOP), 802.11 data frames (plain, radiotap, Prism, AVS,
 * PPI), PPP (raw, HDLC-like framing, PPPoE, with direction), Cisco HDLC, Frame Relay
 * (RFC 2427), SLIP (BSD header), PKTAP, NFLOG. Encapsulations: MPLS, PPPoE, MACsec
 * (integrity only), IPv4/IPv6 in IPv4/IPv6, GRE (v0 and PPTP's v1; ERSPAN I/II/III), VXLAN,
 * VXLAN-GPE, Geneve, and the packets quoted in ICMP and ICMPv6 errors.
 *
 * Checksums: IPv4 header, TCP, UDP, ICMP, ICMPv6, IGMP, PIM, VRRP, OSPF, RSVP, DCCP, UDP-Lite,
 * the IPv6 Mobility Header, GRE's optional checksum and that of the extension structure after an ICMP/ICMPv6 error's quote
 * (RFC 4884), each with the depth of its IP layer: level 0 is the frame's outer IP layer,
 * level 1 and more an IP layer inside a tunnel or quoted in an ICMP error. On request
 * (CSUM_PCAP_CHECK_FCS), also the frame check sequence of Ethernet and 802.11 frames.
 */
#ifndef CSUM_PCAP_H
#define CSUM_PCAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum csum_pcap_layer {
    CSUM_PCAP_IPV4,
    CSUM_PCAP_TCP,
    CSUM_PCAP_UDP,
    CSUM_PCAP_ICMP,
    CSUM_PCAP_ICMPV6,
    CSUM_PCAP_GRE,        /* the optional GRE checksum (RFC 2784) */
    CSUM_PCAP_ICMP_EXT,   /* an ICMP/ICMPv6 error's extension structure (RFC 4884 section 7),
                             at the level of the error; one whose checksum is 0 has none and
                             is not reported */
    CSUM_PCAP_IGMP,       /* IGMP over IPv4 (RFC 2236, RFC 3376) */
    CSUM_PCAP_PIM,        /* PIM (RFC 7761), over IPv4 and IPv6 */
    CSUM_PCAP_VRRP,       /* VRRP versions 2 and 3 (RFC 3768, RFC 5798) */
    CSUM_PCAP_OSPF,       /* OSPFv2 over IPv4 (RFC 2328), OSPFv3 over IPv6 (RFC 5340) */
    CSUM_PCAP_RSVP,       /* RSVP (RFC 2205), over IPv4 and IPv6 */
    CSUM_PCAP_DCCP,       /* DCCP (RFC 4340), over its Checksum Coverage */
    CSUM_PCAP_UDPLITE,    /* UDP-Lite (RFC 3828), over its Checksum Coverage; a stored 0 is
                             bad (never valid), but in a packet quoted in an ICMP error */
    CSUM_PCAP_MH,         /* the IPv6 Mobility Header (RFC 6275 section 6.1.1) */
    CSUM_PCAP_FCS,        /* an Ethernet or 802.11 frame check sequence, with
                             CSUM_PCAP_CHECK_FCS only: the CRC-32 of IEEE 802.3, not an
                             Internet checksum; at the link layer, below the outer IP layer
                             (level 0, via NONE), reported after the frame's checksums */
    CSUM_PCAP_LAYER_COUNT
};

enum csum_pcap_verdict {
    CSUM_PCAP_GOOD,
    CSUM_PCAP_BAD,
    CSUM_PCAP_OFFLOAD,       /* a placeholder left for the NIC by a sending host with checksum
                                or segmentation offload: not corruption (see `note`) */
    CSUM_PCAP_NOT_CHECKABLE, /* bytes it covers are not all captured, fragment, bad lengths */
    CSUM_PCAP_NO_CHECKSUM,   /* the sender computed none: UDP with a stored 0 over IPv4, or
                                in a packet quoted in an ICMP error (over IPv6 too, and
                                UDP-Lite's there); RSVP
                                with a stored 0; OSPF
                                with cryptographic authentication or an authentication
                                trailer, whatever the field holds (see `note`) */
    CSUM_PCAP_VERDICT_COUNT
};

/* How the IP layer holding a checksum was reached from the one around it (level >= 1). */
enum csum_pcap_via {
    CSUM_PCAP_VIA_NONE,      /* the outer IP layer (level 0) */
    CSUM_PCAP_VIA_IP,        /* IPv4/IPv6 in IPv4/IPv6 */
    CSUM_PCAP_VIA_GRE,
    CSUM_PCAP_VIA_ERSPAN,
    CSUM_PCAP_VIA_VXLAN,
    CSUM_PCAP_VIA_VXLAN_GPE,
    CSUM_PCAP_VIA_GENEVE,
    CSUM_PCAP_VIA_ICMP,      /* quoted in an ICMP error */
    CSUM_PCAP_VIA_ICMPV6,    /* quoted in an ICMPv6 error */
    CSUM_PCAP_VIA_COUNT
};

/* Packets that were not looked into, by why. */
enum csum_pcap_skip {
    CSUM_PCAP_SKIP_WLAN_PROTECTED,  /* 802.11 data frame with the Protected Frame bit */
    CSUM_PCAP_SKIP_WLAN_FRAGMENT,   /* 802.11 fragment after the first */
    CSUM_PCAP_SKIP_MACSEC_ENCRYPTED,
    CSUM_PCAP_SKIP_NESTING,         /* more encapsulations than the dissector follows */
    CSUM_PCAP_SKIP_TRUNCATED,       /* the capture stops inside the headers before a transport
                                       (the link layer's, IPv6 or its extension headers, IPv4's
                                       AH, a tunnel's: GRE, ERSPAN, VXLAN, VXLAN-GPE, Geneve):
                                       its checksum cannot even be found */
    CSUM_PCAP_SKIP_MALFORMED,       /* such headers longer than the packet says it is (a frame
                                       shorter than its link header), an IP version that is
                                       neither 4 nor 6, an undefined GRE version */
    CSUM_PCAP_SKIP_COUNT
};

/* One checksum found in a packet (or, with CSUM_PCAP_CHECK_FCS, a frame's FCS). */
struct csum_pcap_check {
    uint64_t frame;                 /* packet number in the file, from 1 (as Wireshark counts) */
    enum csum_pcap_layer layer;
    enum csum_pcap_verdict verdict;
    unsigned level;                 /* 0: outer IP layer (and an FCS); 1 and more: inner */
    enum csum_pcap_via via;         /* how that level was reached (NONE at level 0) */
    uint32_t stored;                /* the field as a number in network order: a checksum's
                                       16 bits; an FCS's 4 bytes in capture order, as struct
                                       csum_pcap_fcs has them (32 bits since the FCS check:
                                       code built against an older csum_pcap.h must be
                                       compiled again) */
    uint32_t computed;              /* the correct value to store, same convention (GOOD, BAD,
                                       OFFLOAD) */
    uint64_t offset;                /* offset of the checksum field (an FCS's first byte) in the
                                       capture (after decompression); 0 for NOT_CHECKABLE */
    const char *note;               /* NOT_CHECKABLE, OFFLOAD: why; BAD: a remark or NULL */
};

/* Called for every checksum found, in file order. Within a packet, a checksum is reported
 * after every checksum it covers (a tunnel's UDP checksum after the inner packet's). */
typedef void (*csum_pcap_check_fn)(void *ctx, const struct csum_pcap_check *check);

/* A frame check sequence that a fix wrote: with CSUM_PCAP_FIX_FCS, the frame's checksums
 * changed, and its FCS, right before, now covers the fixed frame; with CSUM_PCAP_CHECK_FCS,
 * every FCS found bad (reported to on_check first), now right. Not a 16-bit checksum: the
 * CRC-32 of IEEE 802.3, of an Ethernet or 802.11 frame, sent least significant byte first. */
struct csum_pcap_fcs {
    uint64_t frame;                 /* packet number in the file, from 1 */
    uint32_t stored;                /* the FCS as captured: its 4 bytes in capture order as a
                                       number (network order, as checksums are; Wireshark's
                                       eth.fcs shows it so, its wlan.fcs reversed) */
    uint32_t computed;              /* the FCS written over it, the same convention */
    uint64_t offset;                /* offset of its first byte in the capture (after
                                       decompression) */
};

/* Called for every FCS a fix writes, after the frame's checksums (which it covers). */
typedef void (*csum_pcap_fcs_fn)(void *ctx, const struct csum_pcap_fcs *fcs);

enum csum_pcap_format { CSUM_PCAP_FORMAT_UNKNOWN, CSUM_PCAP_FORMAT_PCAP, CSUM_PCAP_FORMAT_PCAPNG };
enum csum_pcap_compression { CSUM_PCAP_PLAIN, CSUM_PCAP_GZIP, CSUM_PCAP_ZSTD };

/* Policy flags (csum_pcap_options.flags). */
enum {
    /* A TCP checksum stored as 0xffff where 0x0000 is computed is good: the two are the same
     * ones'-complement number (RFC 1624 section 3). By default it is bad, as in Wireshark. */
    CSUM_PCAP_ACCEPT_NEGATIVE_ZERO = 1u << 0,
    /* Fixing also rewrites OFFLOAD checksums (by default they are left alone). */
    CSUM_PCAP_FIX_OFFLOAD = 1u << 1,
    /* A UDP checksum of 0 over IPv6 means none (NO_CHECKSUM), as over IPv4: tunnels may send
     * it (RFC 6935, RFC 6936: VXLAN, Geneve, ... with zero-checksum mode configured). By
     * default it is bad (RFC 8200 section 8.1), as in Wireshark. */
    CSUM_PCAP_IPV6_UDP_ZERO = 1u << 2,
    /* Fixing also keeps a frame's FCS right: an Ethernet or 802.11 frame check sequence (the
     * CRC-32 of IEEE 802.3 clause 3.2.9), known from the capture's FCS length or, for an
     * 802.11 frame behind a radiotap or PPI header, from that header's flags, captured whole
     * and right before its checksums were fixed is computed again over the fixed frame (the
     * 802.11 frame only, not the radio header). One that was wrong (or cut) is left as it
     * was. Each one computed again goes to `on_fcs` and is counted in `fcs_fixed`. By
     * default the FCS bytes are left alone, and a fix makes a right one wrong. */
    CSUM_PCAP_FIX_FCS = 1u << 3,
    /* Also check each frame's FCS (where CSUM_PCAP_FIX_FCS finds one: the capture's FCS
     * length on an Ethernet or 802.11 link type, a radiotap or PPI header's flags), as
     * Wireshark's eth.check_fcs and wlan.check_checksum preferences do: a check of layer
     * CSUM_PCAP_FCS, GOOD or BAD, reported after the frame's checksums and counted with them;
     * NOT_CHECKABLE when the frame was cut short by the capture's snapshot length (its FCS
     * not captured). Off by default, as in Wireshark: hosts whose NIC computes the FCS
     * capture their own frames with whatever the buffer held there. Fixing, the FCS is
     * checked over the fixed frame (it covers the checksums, as an outer checksum covers an
     * inner one) and, when BAD, rewritten and reported to on_fcs too: after the fix, no FCS
     * is bad, a right one made wrong by the fix included (what CSUM_PCAP_FIX_FCS alone
     * keeps). */
    CSUM_PCAP_CHECK_FCS = 1u << 4,
};

enum { CSUM_PCAP_MAX_PORTS = 8 };

struct csum_pcap_options {
    unsigned flags;                               /* CSUM_PCAP_* policy flags */
    /* UDP destination ports carrying VXLAN / Geneve besides the standard 4789 / 6081;
     * the list ends at the first 0. */
    uint16_t vxlan_ports[CSUM_PCAP_MAX_PORTS];
    uint16_t geneve_ports[CSUM_PCAP_MAX_PORTS];
    csum_pcap_check_fn on_check;                  /* may be NULL */
    void *ctx;                                    /* passed to the callbacks */
    /* After each read from the input: bytes read so far (compressed bytes when compressed)
     * and packets walked. May be NULL. */
    void (*on_progress)(void *ctx, uint64_t bytes_in, uint64_t packets);
    /* Fixing with CSUM_PCAP_FIX_FCS or CSUM_PCAP_CHECK_FCS: each FCS written. May be NULL.
     * (Added after the other members: code built against an older csum_pcap.h must be
     * compiled again.) */
    csum_pcap_fcs_fn on_fcs;
    /* Whether to stop the walk now: asked when it starts, before each read(2) from a file
     * descriptor (also before one is tried again after a signal interrupted it, so that a
     * signal handler's request is seen while the input sends nothing) and every 4096 packets
     * (a capture in memory has no reads); never more often. Nonzero ends the walk: the call
     * returns -1 with err->kind CSUM_PCAP_ERROR_INTERRUPTED, every packet read before then
     * walked and reported. E.g. return a flag that a signal handler or another thread sets.
     * May be NULL: never stop. (Added after on_fcs: code built against an older csum_pcap.h
     * must be compiled again.) */
    int (*should_stop)(void *ctx);
};

enum { CSUM_PCAP_MAX_LINKTYPES = 8 };

struct csum_pcap_summary {
    uint64_t packets;          /* frames, numbered as Wireshark numbers them */
    uint64_t count[CSUM_PCAP_LAYER_COUNT][CSUM_PCAP_VERDICT_COUNT]; /* count[CSUM_PCAP_FCS]:
                                  FCSs, with CSUM_PCAP_CHECK_FCS only */
    uint64_t inner[CSUM_PCAP_VERDICT_COUNT]; /* of those, at level 1 and more */
    uint64_t without_checksum; /* packets in which no checksum was found (ARP, beacons, ...;
                                  an FCS is none): packets, not the checksums of verdict
                                  CSUM_PCAP_NO_CHECKSUM, which count[][] has */
    uint64_t non_packets;      /* frames that hold no packet (pcapng custom/journal blocks) */
    uint64_t skipped[CSUM_PCAP_SKIP_COUNT];
    /* Packets on link types this library does not dissect: in all, and by link type (the
     * first CSUM_PCAP_MAX_LINKTYPES kinds seen; the rest only in the total). */
    uint64_t undissected;
    struct { uint32_t linktype; uint64_t packets; } undissected_by[CSUM_PCAP_MAX_LINKTYPES];
    enum csum_pcap_format format;
    enum csum_pcap_compression compression;
    uint64_t bytes;            /* capture bytes walked (after decompression) */
    uint64_t fcs_fixed;        /* fixing with CSUM_PCAP_FIX_FCS or CSUM_PCAP_CHECK_FCS: FCSs
                                  written (on_fcs; added last: see on_fcs) */
};

/* What kind of problem stopped a walk (struct csum_pcap_error's kind). */
enum csum_pcap_error_kind {
    CSUM_PCAP_ERROR_MALFORMED,   /* the bytes are no well-formed capture (or a capture cut
                                    short, with cut_short): `offset` says where */
    CSUM_PCAP_ERROR_UNSUPPORTED, /* a well-formed file of a kind this build does not read:
                                    xz, bzip2 or lz4 compression, gzip or zstd without zlib or
                                    libzstd, compression inside compression, a zstd frame
                                    whose window is over 128 MiB, a pcap version other than
                                    2.x or a pcapng section's other than 1.x (the message
                                    names it), a compressed capture fixed in place
                                    (csum_pcap_fix_buffer) */
    CSUM_PCAP_ERROR_SYSTEM,      /* reading the capture or writing out_fd failed, or memory ran
                                    out: the message names the cause */
    CSUM_PCAP_ERROR_INTERRUPTED, /* the options' should_stop asked to stop (not the capture's
                                    fault): csum_pcap_fix_fd's output is then incomplete */
    CSUM_PCAP_ERROR_KIND_COUNT
};

/* Why a capture could not be walked. */
struct csum_pcap_error {
    /* Byte offset in the capture, counted in bytes of the capture after decompression (never
     * of the compressed file; a message may add a count of compressed bytes), of the problem:
     * malformed, where the capture is (cut_short: the record or block cut); unsupported, the
     * field that says so (a version), 0 for the file's compression, or where in the capture
     * a zstd frame with too large a window starts; system, for a failed read the first byte
     * that could not be read (every byte before it was read and walked), for a failed write
     * (output) the first of the bytes being written, for memory the record being read;
     * interrupted, how far the capture was read when it stopped before a read(2) (every
     * whole record before it was walked), else the record it stopped before. */
    uint64_t offset;
    char message[200];   /* e.g. "pcapng block length 13 is not a multiple of 4" */
    int output;          /* 1: writing out_fd failed (csum_pcap_fix_fd), not the capture */
    int cut_short;       /* 1: the capture ends inside a record or block, as a capture that was
                            interrupted does (also a compressed stream cut mid-frame): every
                            whole record before `offset` was walked, and csum_pcap_fix_fd wrote
                            them all, a capture without the cut record that reads to its end */
    enum csum_pcap_error_kind kind; /* whether the capture is malformed, or what else stopped
                                       the walk (added last: code built against an older
                                       csum_pcap.h must be compiled again) */
};

/*
 * Walk the capture in buf[0..len) (plain or compressed) and check every checksum. `o` may be
 * NULL (defaults, no callbacks). `summary` (may be NULL) receives the totals, also on error.
 * Returns 0 when the whole capture was walked, -1 when it is malformed or cannot be read, or
 * o->should_stop stopped the walk (then `err`, if not NULL, says where and why; every packet
 * before that point has been reported). A capture that ends inside a record also returns -1,
 * with err->cut_short set.
 */
int csum_pcap_verify_buffer(const void *buf, size_t len, const struct csum_pcap_options *o,
                            struct csum_pcap_summary *summary, struct csum_pcap_error *err);

/* The same, reading the capture from a file descriptor (a file, a pipe) until end of file. */
int csum_pcap_verify_fd(int fd, const struct csum_pcap_options *o,
                        struct csum_pcap_summary *summary, struct csum_pcap_error *err);

/*
 * The same walk, rewriting every BAD checksum (and, with CSUM_PCAP_FIX_OFFLOAD, every OFFLOAD
 * one) in buf with its computed value; nothing else changes (but, with CSUM_PCAP_FIX_FCS, the
 * FCS of a frame whose checksums changed, and with CSUM_PCAP_CHECK_FCS every BAD FCS, reported
 * to `on_fcs`). `on_check` sees each checksum as found, before its fix; a checksum covering
 * another one (a tunnel's outer UDP checksum, an ICMP checksum over a quoted header, a frame's
 * FCS over its checksums) is computed after that one was fixed. A compressed
 * buffer is refused (use csum_pcap_fix_fd). Returns as csum_pcap_verify_buffer; on -1, fixes
 * before the error were applied.
 */
int csum_pcap_fix_buffer(void *buf, size_t len, const struct csum_pcap_options *o,
                         struct csum_pcap_summary *summary, struct csum_pcap_error *err);

/* Fix while copying from in_fd to out_fd: the output is the input with the fixes, in the same
 * format and compressed the same way. On -1 the output is incomplete (write it to a temporary
 * file and rename it only on success), an interrupted walk's included, unless err->cut_short:
 * then it holds every whole record, a capture that reads to its end. */
int csum_pcap_fix_fd(int in_fd, int out_fd, const struct csum_pcap_options *o,
                     struct csum_pcap_summary *summary, struct csum_pcap_error *err);

/* "ipv4", "tcp", "udp", "icmp", "icmpv6", "gre", "icmp-ext", "igmp", "pim", "vrrp",
 * "ospf", "rsvp", "dccp", "udplite", "mh", "fcs". */
const char *csum_pcap_layer_name(enum csum_pcap_layer layer);

/* "good", "bad", "offload", "not_checkable", "no_checksum". */
const char *csum_pcap_verdict_name(enum csum_pcap_verdict verdict);

/* "", "ip", "gre", "erspan", "vxlan", "vxlan-gpe", "geneve", "icmp", "icmpv6". */
const char *csum_pcap_via_name(enum csum_pcap_via via);

/* "malformed", "unsupported", "system", "interrupted". */
const char *csum_pcap_error_kind_name(enum csum_pcap_error_kind kind);

/* "wlan_protected", "wlan_fragment", "macsec_encrypted", "nesting", "truncated", "malformed". */
const char *csum_pcap_skip_name(enum csum_pcap_skip skip);

/* For people: "encrypted 802.11 frames". */
const char *csum_pcap_skip_description(enum csum_pcap_skip skip);

/* The tcpdump.org name of a LINKTYPE_ value without its prefix ("IEEE802_15_4_WITHFCS"), or
 * NULL when this library does not know the number. */
const char *csum_pcap_linktype_name(uint32_t linktype);

/* "plain", "gzip", "zstd"; "pcap", "pcapng". */
const char *csum_pcap_compression_name(enum csum_pcap_compression c);
const char *csum_pcap_format_name(enum csum_pcap_format f);

/* Whether this build reads (and writes) the compression: 1 or 0. */
int csum_pcap_compression_supported(enum csum_pcap_compression c);

/* The library behind a compression ("zlib 1.2.13"), or NULL when not built in. */
const char *csum_pcap_compression_library(enum csum_pcap_compression c);

#ifdef __cplusplus
}
#endif

#endif /* CSUM_PCAP_H */
