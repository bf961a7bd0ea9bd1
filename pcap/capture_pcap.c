/*
 * The classic pcap format (draft-ietf-opsawg-pcap, Guy Harris and Michael Richardson): a
 * 24-byte file header, then records of a 16-byte header and the packet bytes. The magic
 * number's byte order is the file's. Alexey Kuznetsov's modified format (magic a1b2cd34, as
 * written by some old Linux tcpdumps; Wireshark reads it too) adds 8 bytes to each record
 * header: interface index, protocol, packet type.
 */
#include "capture.h"
#include "bytes.h"

enum { FILE_HEADER = 24, RECORD_HEADER = 16, MODIFIED_RECORD_HEADER = 24 };

/* The file header's last field holds the link type in its low 16 bits; libpcap's
 * LT_FCS_DATALINK_EXT puts "FCS length known" in bit 26 and the length, in 16-bit words, in
 * bits 28-31. */
static size_t fcs_bytes(uint32_t linktype_field)
{
    return linktype_field & 0x04000000u ? 2 * (size_t)(linktype_field >> 28) : 0;
}

int capture_walk_pcap(struct reader *r, capture_packet_fn fn, void *ctx)
{
    int rc = reader_need(r, FILE_HEADER);
    if (rc <= 0)
        return rc < 0 ? -1 : stream_error(r->err, 0, "pcap file header cut short (%zu of 24 "
                                          "bytes)", reader_avail(r));
    const unsigned char *h = reader_at(r);
    const int big = be32(h) == 0xa1b2c3d4 || be32(h) == 0xa1b23c4d || be32(h) == 0xa1b2cd34;
    const size_t rec = file32(h, big) == 0xa1b2cd34 ? MODIFIED_RECORD_HEADER : RECORD_HEADER;
    const uint16_t major = file16(h + 4, big);
    if (major != 2)
        return stream_unsupported(r->err, 4, "pcap version %u.%u, which csum does not read: it "
                                  "reads version 2 (2.4, the current one)", major,
                                  file16(h + 6, big));
    const uint32_t field = file32(h + 20, big);
    struct capture_packet pkt = { .linktype = field & 0xffff, .fcs_len = fcs_bytes(field) };
    reader_consume(r, FILE_HEADER);

    for (;;) {
        rc = reader_need(r, rec);
        if (rc < 0)
            return -1;
        const uint64_t off = reader_offset(r);
        if (rc == 0) {
            if (reader_avail(r) == 0)
                return 0; /* the end, between two records */
            return stream_cut_short(r->err, off, "pcap record header cut short (%zu of %zu bytes)",
                                    reader_avail(r), rec);
        }
        const unsigned char *rh = reader_at(r);
        const uint32_t caplen = file32(rh + 8, big);
        const uint32_t wirelen = file32(rh + 12, big);
        if (caplen > CAPTURE_MAX_RECORD)
            return stream_error(r->err, off + 8, "pcap record of %u bytes: more than the %u MiB "
                                "a record may hold here", caplen, CAPTURE_MAX_RECORD >> 20);
        rc = reader_need(r, rec + (size_t)caplen);
        if (rc < 0)
            return -1;
        if (rc == 0)
            return stream_cut_short(r->err, off + 8, "pcap record of %u bytes, but only %zu bytes "
                                    "remain in the file", caplen, reader_avail(r) - rec);
        pkt.frame++;
        pkt.data = reader_at(r) + rec;
        pkt.caplen = caplen;
        pkt.wirelen = wirelen;
        pkt.offset = off + rec;
        if (capture_emit(r, fn, ctx, &pkt) != 0)
            return -1;
        reader_consume(r, rec + (size_t)caplen);
    }
}
