/*
 * The classic pcap format (draft-ietf-opsawg-pcap): a 24-byte file header, then records of
 * a 16-byte header and the packet bytes. The magic number's byte order is the file's.
 */
#include "capture.h"
#include "bytes.h"

enum { FILE_HEADER = 24, RECORD_HEADER = 16 };

int capture_walk_pcap(const unsigned char *buf, size_t len, capture_packet_fn fn, void *ctx,
                      struct csum_pcap_error *err)
{
    if (len < FILE_HEADER)
        return capture_error(err, 0, "pcap file header cut short (%zu of 24 bytes)", len);
    const int big = be32(buf) == 0xa1b2c3d4 || be32(buf) == 0xa1b23c4d;
    const uint16_t major = file16(buf + 4, big);
    if (major != 2)
        return capture_error(err, 4, "unsupported pcap version %u.%u", major, file16(buf + 6, big));
    /* Bits 16-31 carry FCS information, not the link type. */
    const uint32_t linktype = file32(buf + 20, big) & 0xffff;

    struct capture_packet pkt = { .linktype = linktype };
    size_t off = FILE_HEADER;
    while (off < len) {
        if (len - off < RECORD_HEADER)
            return capture_error(err, off, "pcap record header cut short (%zu of 16 bytes)",
                                 len - off);
        const uint32_t caplen = file32(buf + off + 8, big);
        const uint32_t wirelen = file32(buf + off + 12, big);
        if (caplen > len - off - RECORD_HEADER)
            return capture_error(err, off + 8, "pcap record of %u bytes, but only %zu bytes "
                                 "remain in the file", caplen, len - off - RECORD_HEADER);
        pkt.frame++;
        pkt.data = buf + off + RECORD_HEADER;
        pkt.caplen = caplen;
        pkt.wirelen = wirelen;
        pkt.offset = off + RECORD_HEADER;
        fn(ctx, &pkt);
        off += RECORD_HEADER + (size_t)caplen;
    }
    return 0;
}
