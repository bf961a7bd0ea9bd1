/*
 * MPLS (RFC 3032): 4-byte label stack entries until the one with the bottom-of-stack bit;
 * what follows is told by its first nibble, 4 for IPv4 and 6 for IPv6 (anything else, such
 * as a pseudowire control word, is not looked into). The IP layer keeps the level of the
 * span: MPLS is not an IP encapsulation.
 */
#include "dissect.h"

void dissect_mpls(struct dissect *d, struct span s)
{
    struct span inner = s;
    for (;;) {
        if (!span_need(d, &inner, 4))
            return;
        const int bottom = d->data[inner.off + 2] & 1;
        if (!span_enter(d, &inner, 4, &inner))
            return;
        if (bottom)
            break;
    }
    /* By the version nibble, which is also how MPLS routers tell: another one is not IP (a
     * pseudowire), not a malformed IP packet. */
    const unsigned version = have(d, inner.off, 1) ? d->data[inner.off] >> 4 : 4;
    if (version == 4 || version == 6)
        dissect_ip(d, inner);
}
