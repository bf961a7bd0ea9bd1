/*
 * csum_pcap: verify and fix the Internet checksums in a packet capture (pcap or pcapng)
 * that is already in memory. Used by `csum pcap`, the lab and the fuzz targets; built on the
 * public csum.h API only.
 *
 * Every length in the capture is untrusted: the walk never reads outside [buf, buf + len)
 * and reports a malformed file as an error with the byte offset of the problem.
 *
 * Formats: pcap (either byte order, micro- or nanosecond timestamps) and pcapng (SHB, IDB,
 * EPB, SPB and the obsolete PB, several interfaces and sections; other blocks are skipped).
 * Link types: Ethernet (802.1Q/802.1ad tags, stacked), Linux cooked SLL and SLL2, raw IP
 * (LINKTYPE_RAW, IPV4, IPV6) and BSD loopback (NULL). Checksums: IPv4 header, TCP, UDP, ICMP
 * and ICMPv6, over IPv4 and IPv6 (IPv6 extension headers and IPv4/IPv6 AH are walked).
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
    CSUM_PCAP_LAYER_COUNT
};

enum csum_pcap_verdict {
    CSUM_PCAP_GOOD,
    CSUM_PCAP_BAD,
    CSUM_PCAP_NOT_CHECKABLE, /* bytes it covers are not all captured, fragment, bad lengths */
    CSUM_PCAP_NO_CHECKSUM,   /* UDP over IPv4 with a stored 0: the sender computed none */
    CSUM_PCAP_VERDICT_COUNT
};

/* One checksum found in a packet. */
struct csum_pcap_check {
    uint64_t frame;                 /* packet number in the file, from 1 (as Wireshark counts) */
    enum csum_pcap_layer layer;
    enum csum_pcap_verdict verdict;
    uint16_t stored;                /* the field as a number in network order (GOOD, BAD, NO_CHECKSUM) */
    uint16_t computed;              /* the correct value to store, same convention (GOOD, BAD) */
    uint64_t offset;                /* file offset of the checksum field (GOOD, BAD, NO_CHECKSUM) */
    const char *reason;             /* NOT_CHECKABLE: why, e.g. "fragment" */
};

struct csum_pcap_summary {
    uint64_t packets;          /* frames, numbered as Wireshark numbers them */
    uint64_t count[CSUM_PCAP_LAYER_COUNT][CSUM_PCAP_VERDICT_COUNT];
    uint64_t unsupported_link; /* packets on link types this library does not dissect */
    uint64_t non_packets;      /* frames that hold no packet (pcapng custom/journal blocks) */
};

/* Why a capture could not be walked. */
struct csum_pcap_error {
    uint64_t offset;     /* byte offset in the file where the problem is */
    char message[160];   /* e.g. "pcapng block length 13 is not a multiple of 4" */
};

/* Called for every checksum found, in file order. */
typedef void (*csum_pcap_check_fn)(void *ctx, const struct csum_pcap_check *check);

/*
 * Walk the capture in buf[0..len) and check every checksum. `on_check` (may be NULL) sees
 * each one; `summary` (may be NULL) receives the totals. Returns 0 when the whole file was
 * walked, -1 when it is malformed (then `err`, if not NULL, says where and why; checks
 * before that point have been reported).
 */
int csum_pcap_verify_buffer(const void *buf, size_t len, csum_pcap_check_fn on_check, void *ctx,
                            struct csum_pcap_summary *summary, struct csum_pcap_error *err);

/*
 * The same walk, rewriting every BAD checksum in buf with its computed value; nothing else
 * changes (not-checkable ones are left alone). `on_check` sees each checksum as found, before
 * the fix. The fixes are independent: no checksum this library checks covers another one's
 * field. Returns as csum_pcap_verify_buffer; on -1, fixes before the error were applied.
 */
int csum_pcap_fix_buffer(void *buf, size_t len, csum_pcap_check_fn on_check, void *ctx,
                         struct csum_pcap_summary *summary, struct csum_pcap_error *err);

/* "ipv4", "tcp", "udp", "icmp", "icmpv6". */
const char *csum_pcap_layer_name(enum csum_pcap_layer layer);

/* "good", "bad", "not_checkable", "no_checksum". */
const char *csum_pcap_verdict_name(enum csum_pcap_verdict verdict);

#ifdef __cplusplus
}
#endif

#endif /* CSUM_PCAP_H */
