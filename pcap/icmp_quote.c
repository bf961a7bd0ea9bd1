/*
 * The packet an ICMP error quotes (RFC 792, RFC 4443): as much of the offending datagram as
 * fits after the 8-byte ICMP header. Its IP header is checked like any other (level + 1, via
 * icmp/icmpv6); its transport checksum only when the whole datagram is quoted, as Wireshark
 * does; otherwise it is reported not checkable ("not all quoted"). With RFC 4884 extensions,
 * the length field (in 32-bit words for ICMP, 64-bit words for ICMPv6) delimits the quote,
 * and an extension structure may follow it (its checksum is checked in transport.c).
 */
#include "dissect.h"

enum {
    /* RFC 4884 section 4: with an extension structure, the "original datagram" field holds
     * at least 128 bytes; after a shorter one there is none (Linux reads none either). */
    EXTENSION_MIN_FIELD = 128,
    EXTENSION_VERSION = 2, /* RFC 4884 section 7: the extension header's first nibble */
};

size_t dissect_icmp_quote(struct dissect *d, int version, struct span s)
{
    const unsigned char *h = d->data + s.off;
    const unsigned type = h[0];
    size_t quoted = s.end - s.off - 8;
    /* RFC 4884's length: ICMP byte 5 of types 3, 11, 12; ICMPv6 byte 4 of types 1 and 3. */
    size_t field = 0;
    if (version == 4 && (type == 3 || type == 11 || type == 12))
        field = (size_t)h[5] * 4;
    else if (version == 6 && (type == 1 || type == 3))
        field = (size_t)h[4] * 8;
    if (field && field < quoted)
        quoted = field;
    struct span inner;
    if (span_enter(d, &s, 8, &inner)) {
        inner.end = inner.off + quoted;
        inner.quoted = 1;
        dissect_ip(d, inner);
    }
    /* Something after the field: an extension structure if its header (4 bytes) says so. */
    const size_t ext = s.off + 8 + quoted;
    if (field >= EXTENSION_MIN_FIELD && field == quoted && s.end - ext >= 4 && have(d, ext, 4) &&
        d->data[ext] >> 4 == EXTENSION_VERSION)
        return ext;
    return 0;
}
