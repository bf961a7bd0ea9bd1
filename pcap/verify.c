/*
 * csum_pcap_verify_buffer / csum_pcap_fix_buffer: walk the capture, dissect each packet,
 * count and report every checksum, and (when fixing) write the computed value over each bad
 * one. The fixes are independent of each other because no checksum checked here covers
 * another one's field (the transport pseudo-header holds the addresses, not the IPv4
 * checksum; packets quoted inside ICMP errors and tunnels are not looked into).
 */
#include "capture.h"
#include "dissect.h"

#include <string.h>

struct walk {
    unsigned char *writable;   /* the buffer when fixing, else NULL */
    csum_pcap_check_fn on_check;
    void *ctx;
    struct csum_pcap_summary summary;
    const struct capture_packet *pkt; /* the packet being dissected */
};

static void on_check(void *arg, const struct dissect_check *c)
{
    struct walk *w = arg;
    const struct csum_pcap_check check = {
        .frame = w->pkt->frame,
        .layer = c->layer,
        .verdict = c->verdict,
        .stored = c->stored,
        .computed = c->computed,
        .offset = c->verdict == CSUM_PCAP_NOT_CHECKABLE ? 0 : w->pkt->offset + c->field,
        .reason = c->reason,
    };
    w->summary.count[c->layer][c->verdict]++;
    if (w->on_check)
        w->on_check(w->ctx, &check);
    if (w->writable && c->verdict == CSUM_PCAP_BAD) {
        unsigned char *field = w->writable + check.offset;
        field[0] = (unsigned char)(c->computed >> 8);
        field[1] = (unsigned char)c->computed;
    }
}

static void on_packet(void *arg, const struct capture_packet *pkt)
{
    struct walk *w = arg;
    w->pkt = pkt;
    w->summary.packets++;
    if (pkt->linktype == CAPTURE_NOT_A_PACKET)
        w->summary.non_packets++;
    else if (dissect_packet(pkt, on_check, w) != 0)
        w->summary.unsupported_link++;
}

static int walk(const unsigned char *buf, unsigned char *writable, size_t len,
                csum_pcap_check_fn fn, void *ctx, struct csum_pcap_summary *summary,
                struct csum_pcap_error *err)
{
    struct walk w = { .writable = writable, .on_check = fn, .ctx = ctx };
    if (err)
        memset(err, 0, sizeof *err);
    int rc = capture_walk(buf, len, on_packet, &w, err);
    if (summary)
        *summary = w.summary;
    return rc;
}

int csum_pcap_verify_buffer(const void *buf, size_t len, csum_pcap_check_fn on_check, void *ctx,
                            struct csum_pcap_summary *summary, struct csum_pcap_error *err)
{
    return walk(buf, NULL, len, on_check, ctx, summary, err);
}

int csum_pcap_fix_buffer(void *buf, size_t len, csum_pcap_check_fn on_check, void *ctx,
                         struct csum_pcap_summary *summary, struct csum_pcap_error *err)
{
    return walk(buf, buf, len, on_check, ctx, summary, err);
}

const char *csum_pcap_layer_name(enum csum_pcap_layer layer)
{
    static const char *const names[CSUM_PCAP_LAYER_COUNT] = { "ipv4", "tcp", "udp", "icmp", "icmpv6" };
    return (unsigned)layer < CSUM_PCAP_LAYER_COUNT ? names[layer] : "?";
}

const char *csum_pcap_verdict_name(enum csum_pcap_verdict verdict)
{
    static const char *const names[CSUM_PCAP_VERDICT_COUNT] = { "good", "bad", "not_checkable",
                                                                "no_checksum" };
    return (unsigned)verdict < CSUM_PCAP_VERDICT_COUNT ? names[verdict] : "?";
}
