/*
 * csum-pcapgen: test captures whose checksums come from the reference oracle. See usage().
 * Every number is checked: sizes and counts have bounds, and "-3" is an error, not 2^64 - 3.
 */
#include "pcapgen.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { USAGE = 2 };

#define MAX_BULK (64ull << 30)      /* --bulk: at most 64 GiB */
#define MAX_COUNT 10000000ull       /* --write --count: at most 10 million packets */

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: csum-pcapgen DIR\n"
        "       csum-pcapgen --bulk FILE SIZE [SEED]\n"
        "       csum-pcapgen --write FILE [OPTIONS]\n"
        "       csum-pcapgen --mutate IN OUT SEED\n"
        "       csum-pcapgen --list | --help\n"
        "\n"
        "Writes pcap/pcapng captures whose checksums are computed by the reference oracle\n"
        "(byte-at-a-time RFC 1071), never by the code under test, together with the verdict\n"
        "`csum pcap verify` must give for each one.\n"
        "\n"
        "DIR            the test corpus, into the existing directory DIR: one capture per link\n"
        "               type, link-level encapsulation (MPLS, PPPoE, MACsec), tunnel, and\n"
        "               policy case (offload placeholders, jumbograms, 0xffff for 0x0000,\n"
        "               truncation, fragments, pcapng sections), each NAME with NAME.expect\n"
        "               (one line per checksum: FRAME outer|inner LAYER VERDICT [STORED\n"
        "               [COMPUTED]] VIA), malformed files, and MANIFEST (what each must give).\n"
        "--bulk FILE SIZE [SEED]\n"
        "               one Ethernet capture of at least SIZE: MiB, or bytes with a k, M or G\n"
        "               suffix (powers of 1024); 1 KiB to 64 GiB. Mostly full-size IPv4/IPv6\n"
        "               TCP, UDP and ICMP packets, every checksum correct; for timing.\n"
        "--write FILE   one capture of random packets, about a quarter of them with wrong\n"
        "               checksums unless --corrupt says otherwise. Options:\n"
        "  --link NAME      link type (default ethernet; --list shows all)\n"
        "  --l2 NAME        under Ethernet: none, mpls, pppoe, macsec, macsec-encrypted\n"
        "  --encap NAME     tunnel around each packet (default none; --list shows all)\n"
        "  --count N        packets, 1 to 10000000 (default 100)\n"
        "  --format F       pcap or pcapng (default pcap)\n"
        "  --ip 4|6         IP version of every packet (default both)\n"
        "  --corrupt PCT    percentage of packets with a wrong checksum, 0 to 100 (default 25)\n"
        "  --offload KIND   about half the TCP/UDP packets carry an offload placeholder:\n"
        "                   partial (pseudo-header sum), partial-nolen (the same without the\n"
        "                   length, as Windows does), tso (IPv4 length 0), ip-zero (IPv4\n"
        "                   header checksum 0)\n"
        "  --jumbo          every fourth packet an IPv6 jumbogram of more than 64 KiB\n"
        "  --ffff           about half the TCP packets store 0xffff where 0x0000 is computed\n"
        "  --fragments      some packets split into IP fragments (without --encap)\n"
        "  --seed N         random seed (default 1)\n"
        "  --expect         also write FILE.expect\n"
        "--mutate IN OUT SEED\n"
        "               OUT is IN with a few random bytes changed, length fields set to\n"
        "               extremes, or cut short: hostile input for robustness tests.\n"
        "--list         the link types and encapsulations --write knows.\n"
        "\n"
        "Exit status: 0 written, 2 bad usage or an I/O error.\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "csum-pcapgen: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'csum-pcapgen --help'.\n");
    return USAGE;
}

/* A decimal number in [min, max]; with `unit` (a shift), a suffix k/M/G makes it times
 * 1024^n and without one it is in units of 1 << unit. -1 if it is not such a number. */
static int parse_number(const char *s, unsigned unit, uint64_t min, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9') /* no sign, no space: strtoull would accept "-3" */
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    unsigned shift = unit;
    if (unit && *end) {
        switch (*end) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        default: return -1;
        }
        end++;
    }
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    v <<= shift;
    if (v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static void list(void)
{
    printf("link types (--link):\n");
    for (int i = 0; i < LINK_COUNT; i++) {
        const struct link_info *li = link_info((enum link)i);
        printf("  %-16s LINKTYPE %u%s%s\n", li->name, linktype_of((enum link)i, 4),
               li->tshark_gap ? "; " : "", li->tshark_gap ? li->tshark_gap : "");
    }
    printf("under Ethernet (--l2):\n");
    for (int i = 0; i < L2_COUNT; i++)
        printf("  %s\n", l2_name((enum l2encap)i));
    printf("tunnels (--encap):\n");
    for (int i = 0; i < ENCAP_COUNT; i++)
        printf("  %-16s%s%s\n", encap_name((enum encap)i), encap_csum_option((enum encap)i) ? " needs " : "",
               encap_csum_option((enum encap)i) ? encap_csum_option((enum encap)i) : "");
}

static int write_main(int argc, char **argv)
{
    struct write_spec w = { .count = 100, .seed = 1, .corrupt_pct = 25 };
    const char *file = argv[2];
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        int takes_value = 1;
        if (!strcmp(a, "--jumbo")) {
            w.jumbo = 1, takes_value = 0;
        } else if (!strcmp(a, "--ffff")) {
            w.ffff = 1, takes_value = 0;
        } else if (!strcmp(a, "--fragments")) {
            w.fragments = 1, takes_value = 0;
        } else if (!strcmp(a, "--expect")) {
            w.expect = 1, takes_value = 0;
        } else if (!v) {
            return bad_usage("'%s' needs a value (or is unknown)", a);
        } else if (!strcmp(a, "--link")) {
            int k = link_find(v);
            if (k < 0)
                return bad_usage("unknown link type '%s' (see --list)", v);
            w.link = (enum link)k;
        } else if (!strcmp(a, "--l2")) {
            int k = l2_find(v);
            if (k < 0)
                return bad_usage("unknown link-level encapsulation '%s' (see --list)", v);
            w.l2 = (enum l2encap)k;
        } else if (!strcmp(a, "--encap")) {
            int k = encap_find(v);
            if (k < 0)
                return bad_usage("unknown encapsulation '%s' (see --list)", v);
            w.encap = (enum encap)k;
        } else if (!strcmp(a, "--count")) {
            if (parse_number(v, 0, 1, MAX_COUNT, &w.count))
                return bad_usage("--count needs a number from 1 to 10000000, not '%s'", v);
        } else if (!strcmp(a, "--format")) {
            if (strcmp(v, "pcap") && strcmp(v, "pcapng"))
                return bad_usage("--format is pcap or pcapng, not '%s'", v);
            w.format = strcmp(v, "pcap") ? FMT_PCAPNG : FMT_PCAP;
        } else if (!strcmp(a, "--ip")) {
            if (strcmp(v, "4") && strcmp(v, "6"))
                return bad_usage("--ip is 4 or 6, not '%s'", v);
            w.ipv = v[0] - '0';
        } else if (!strcmp(a, "--corrupt")) {
            if (parse_number(v, 0, 0, 100, &n))
                return bad_usage("--corrupt needs a percentage from 0 to 100, not '%s'", v);
            w.corrupt_pct = (unsigned)n;
        } else if (!strcmp(a, "--offload")) {
            static const char *const kinds[] = { "none", "partial", "partial-nolen", "tso", "ip-zero" };
            int k = -1;
            for (int j = 0; j < 5; j++)
                if (!strcmp(v, kinds[j]))
                    k = j;
            if (k < 0)
                return bad_usage("--offload is partial, partial-nolen, tso or ip-zero, not '%s'", v);
            w.offload = (enum offload)k;
        } else if (!strcmp(a, "--seed")) {
            if (parse_number(v, 0, 0, UINT64_MAX, &w.seed))
                return bad_usage("--seed needs a non-negative number, not '%s'", v);
        } else {
            return bad_usage("unknown option '%s'", a);
        }
        i += takes_value;
    }
    if (w.encap != ENCAP_NONE && (w.link == LINK_SLIP || w.link == LINK_RAW_VERSIONED) && w.ipv == 6)
        return bad_usage("%s carries IPv4 only", link_info(w.link)->name);
    return write_one(file, &w);
}

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[1], "--list")) {
        list();
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--bulk")) {
        uint64_t bytes, seed = 1;
        if (argc < 4 || argc > 5)
            return bad_usage("%s needs FILE SIZE [SEED]", "--bulk");
        if (parse_number(argv[3], 20, 1024, MAX_BULK, &bytes))
            return bad_usage("--bulk SIZE is 1k to 64G (a number, k/M/G suffixes), not '%s'",
                             argv[3]);
        if (argc == 5 && parse_number(argv[4], 0, 0, UINT64_MAX, &seed))
            return bad_usage("--bulk SEED is a non-negative number, not '%s'", argv[4]);
        return write_bulk(argv[2], bytes, seed);
    }
    if (argc >= 2 && !strcmp(argv[1], "--write")) {
        if (argc < 3)
            return bad_usage("%s needs FILE", "--write");
        return write_main(argc, argv);
    }
    if (argc >= 2 && !strcmp(argv[1], "--mutate")) {
        uint64_t seed;
        if (argc != 5)
            return bad_usage("%s needs IN OUT SEED", "--mutate");
        if (parse_number(argv[4], 0, 0, UINT64_MAX, &seed))
            return bad_usage("--mutate SEED is a non-negative number, not '%s'", argv[4]);
        return mutate_file(argv[2], argv[3], seed);
    }
    if (argc == 2 && argv[1][0] != '-')
        return write_corpus(argv[1]);
    usage(stderr);
    return USAGE;
}
