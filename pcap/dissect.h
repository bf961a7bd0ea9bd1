/*
 * Packet dissection down to the checksums: link layer -> IPv4/IPv6 -> TCP/UDP/ICMP/ICMPv6.
 * Internal to csum_pcap. All offsets are relative to the packet's first byte.
 */
#ifndef CSUM_PCAP_DISSECT_H
#define CSUM_PCAP_DISSECT_H

#include "capture.h"
#include "csum_pcap.h"

/* One checksum found in a packet. */
struct dissect_check {
    enum csum_pcap_layer layer;
    enum csum_pcap_verdict verdict;
    uint16_t stored, computed; /* network-order numbers */
    size_t field;              /* offset of the checksum field in the packet */
    const char *reason;        /* for NOT_CHECKABLE */
};

typedef void (*dissect_check_fn)(void *ctx, const struct dissect_check *check);

/* The packet being dissected and where its findings go. */
struct dissect {
    const unsigned char *data;
    size_t caplen;      /* bytes present */
    uint64_t wirelen;   /* bytes on the wire (never less than caplen) */
    dissect_check_fn fn;
    void *ctx;
};

/* Dissect one packet; -1 if its link type is not one this library knows (nothing reported). */
int dissect_packet(const struct capture_packet *pkt, dissect_check_fn fn, void *ctx);

/* The IP layer: an IPv4 or IPv6 packet (by its version nibble) starting at `off`. */
void dissect_ip(const struct dissect *d, size_t off);

/* Report a checksum that cannot be checked. */
void dissect_not_checkable(const struct dissect *d, enum csum_pcap_layer layer, const char *reason);

#endif /* CSUM_PCAP_DISSECT_H */
