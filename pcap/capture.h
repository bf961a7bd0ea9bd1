/*
 * Capture containers: walk a pcap or pcapng file in memory and hand out its packets.
 * Internal to csum_pcap.
 */
#ifndef CSUM_PCAP_CAPTURE_H
#define CSUM_PCAP_CAPTURE_H

#include "csum_pcap.h"

#include <stddef.h>
#include <stdint.h>

/* LINKTYPE_* values (tcpdump.org/linktypes.html) this library dissects. */
enum {
    LINKTYPE_NULL = 0,        /* BSD loopback: 4-byte address family in the writer's order */
    LINKTYPE_ETHERNET = 1,
    LINKTYPE_RAW_DLT12 = 12,  /* DLT_RAW as written by some systems */
    LINKTYPE_RAW_DLT14 = 14,  /* DLT_RAW on OpenBSD */
    LINKTYPE_RAW = 101,
    LINKTYPE_LINUX_SLL = 113,
    LINKTYPE_IPV4 = 228,
    LINKTYPE_IPV6 = 229,
    LINKTYPE_LINUX_SLL2 = 276,
    /* Not a link type: a pcapng record that Wireshark numbers as a frame although it holds
     * no packet (custom blocks, systemd journal entries). Keeps frame numbers identical to
     * Wireshark's. */
    CAPTURE_NOT_A_PACKET = 0xffffffffu,
};

/* One packet record. `data` points into the capture buffer. */
struct capture_packet {
    uint64_t frame;             /* from 1 */
    uint32_t linktype;
    const unsigned char *data;
    size_t caplen;              /* bytes present in the file */
    uint64_t wirelen;           /* bytes the packet had on the wire */
    size_t offset;              /* file offset of data[0] */
};

typedef void (*capture_packet_fn)(void *ctx, const struct capture_packet *pkt);

/* Walk every packet of a pcap or pcapng capture; 0, or -1 with *err filled. */
int capture_walk(const unsigned char *buf, size_t len, capture_packet_fn fn, void *ctx,
                 struct csum_pcap_error *err);

/* The two formats, for capture_walk once it has recognized the magic number. */
int capture_walk_pcap(const unsigned char *buf, size_t len, capture_packet_fn fn, void *ctx,
                      struct csum_pcap_error *err);
int capture_walk_pcapng(const unsigned char *buf, size_t len, capture_packet_fn fn, void *ctx,
                        struct csum_pcap_error *err);

/* Fill *err (if not NULL) and return -1. */
int capture_error(struct csum_pcap_error *err, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* CSUM_PCAP_CAPTURE_H */
