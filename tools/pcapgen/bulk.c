/*
 * Captures made to order: --bulk (a large capture with correct checksums, for timing) and
 * --write (one capture of a chosen link type, encapsulation and mix of cases).
 */
#include "pcapgen.h"

#include <string.h>

/* Split a path into the directory and the name cf_open wants. */
static const char *split(const char *path, char *dir, size_t dir_size)
{
    const char *slash = strrchr(path, '/');
    snprintf(dir, dir_size, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash && slash == path)
        snprintf(dir, dir_size, "/");
    return slash ? slash + 1 : path;
}

/* Ethernet, IPv4 and IPv6, TCP/UDP/ICMP, mostly full-size packets (as bulk traffic is),
 * every checksum correct. */
int write_bulk(const char *path, uint64_t bytes, uint64_t seed)
{
    char dir[4096];
    const char *name = split(path, dir, sizeof dir);
    struct capture_file cf;
    uint64_t rng = seed;
    cf_open(&cf, dir, name, FMT_PCAP, 0, 0, 1, 0);
    while (cf.offset < bytes) {
        struct pkt_spec s = { .link = LINK_ETHERNET, .pad_ethernet = 1 };
        s.ip = random_ip(&rng, 0, 0);
        s.ip.corrupt_ip = s.ip.corrupt_l4 = s.ip.udp_zero = 0;
        if (rnd(&rng) % 4)
            s.ip.payload = 1400 + rnd(&rng) % 50;
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, NULL, NULL);
    return 0;
}

int write_one(const char *path, const struct write_spec *w)
{
    char dir[4096];
    const char *name = split(path, dir, sizeof dir);
    const struct link_info *li = link_info(w->link);
    const int ipv = w->link == LINK_SLIP ? 4 : w->link == LINK_RAW_VERSIONED && !w->ipv ? 4 : w->ipv;
    struct capture_file cf;
    uint64_t rng = w->seed;
    cf_open(&cf, dir, name, w->format, 0, 0, linktype_of(w->link, ipv), w->expect);
    if (w->format == FMT_PCAPNG) {
        cf_section(&cf, 0);
        cf_interface(&cf, linktype_of(w->link, ipv), 262144);
    }
    for (uint64_t i = 0; i < w->count; i++) {
        struct pkt_spec s = { .link = w->link, .l2 = li->ethernet ? w->l2 : L2_NONE,
                              .pad_ethernet = 1 };
        s.ip = random_ip(&rng, ipv, w->fragments && w->encap == ENCAP_NONE);
        s.ip.corrupt_ip = s.ip.corrupt_l4 = 0;
        if (rnd(&rng) % 100 < w->corrupt_pct) {
            s.ip.corrupt_l4 = 1;
            s.ip.corrupt_ip = s.ip.ipv == 4 && (rnd(&rng) & 1);
        }
        if (w->offload && (s.ip.proto == 6 || s.ip.proto == 17) && (rnd(&rng) & 1)) {
            s.ip.offload = w->offload;
            if (w->offload == OFFLOAD_TSO || w->offload == OFFLOAD_IP_ZERO) {
                s.ip.ipv = 4;
                s.ip.ext = 0;
            }
            if (w->offload == OFFLOAD_TSO)
                s.ip.payload = 2000 + rnd(&rng) % 30000;
            s.ip.corrupt_ip = s.ip.corrupt_l4 = s.ip.fragments = 0;
        }
        if (w->ffff && s.ip.proto == 6 && (rnd(&rng) & 1)) {
            s.ip.l4_sum_zero = s.ip.tcp_ffff = 1;
            s.ip.corrupt_l4 = 0;
            if (s.ip.payload < 2)
                s.ip.payload = 2;
        }
        if (w->jumbo && i % 4 == 0) {
            s.ip = (struct ip_spec){ .ipv = 6, .jumbo = 1, .proto = rnd(&rng) & 1 ? 6 : 17,
                                     .payload = 65536 + rnd(&rng) % 2000 };
            /* Links without IPv6, or with a 16-bit length field before the IP layer, cannot
             * carry one: keep the random packet. */
            if (s.link == LINK_RAW_VERSIONED || s.link == LINK_SLIP || s.link == LINK_NFLOG ||
                s.link == LINK_WLAN_AMSDU || s.link == LINK_8023_SNAP || s.link == LINK_PPPOE ||
                s.l2 == L2_PPPOE)
                s.ip.ipv = 0;
        }
        if (s.ip.ipv == 0)
            s.ip = random_ip(&rng, ipv, 0);
        if (w->encap != ENCAP_NONE) {
            s.ip.ext &= ~EXT_AH;
            s.ip.fragments = 0;
            if (s.ip.jumbo)
                s.ip = random_ip(&rng, 0, 0);
            s.tunnel.encap = w->encap;
            s.tunnel.outer_ipv = ipv ? ipv : rnd(&rng) & 1 ? 4 : 6;
            if (w->encap == ENCAP_ICMP_ERROR || w->encap == ENCAP_ICMP_ERROR_CUT)
                s.tunnel.outer_ipv = s.ip.ipv;
            s.tunnel.corrupt_outer_l4 = rnd(&rng) % 100 < w->corrupt_pct;
        }
        add_packet(&cf, &s, &rng, 0, PB_ENHANCED);
    }
    cf_close(&cf, NULL, NULL);
    return 0;
}
