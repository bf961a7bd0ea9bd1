/*
 * Handing verdicts to the walk, and the packets given up.
 */
#include "dissect.h"

void dissect_report(struct dissect *d, unsigned level, uint8_t via, enum csum_pcap_layer layer,
                    enum csum_pcap_verdict verdict, uint16_t stored, uint16_t computed,
                    size_t field, const char *note)
{
    const struct dissect_check c = {
        .layer = layer,
        .verdict = verdict,
        .level = level,
        .via = level ? (enum csum_pcap_via)via : CSUM_PCAP_VIA_NONE,
        .stored = stored,
        .computed = computed,
        .field = field,
        .note = note,
    };
    d->fn(d->ctx, &c);
}

void dissect_not_checkable(struct dissect *d, unsigned level, uint8_t via,
                           enum csum_pcap_layer layer, const char *reason)
{
    dissect_report(d, level, via, layer, CSUM_PCAP_NOT_CHECKABLE, 0, 0, 0, reason);
}

void dissect_skip(struct dissect *d, enum csum_pcap_skip why)
{
    if (!d->skipped)
        d->skipped = (int)why + 1;
}

void dissect_lost_transport(struct dissect *d, const struct span *s, size_t off, size_t n,
                            size_t end)
{
    if (s->quoted)
        return;
    const int beyond_packet = off > end || n > end - off;
    dissect_skip(d, beyond_packet ? CSUM_PCAP_SKIP_MALFORMED : CSUM_PCAP_SKIP_TRUNCATED);
}
