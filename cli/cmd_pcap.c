/*
 * csum pcap verify|fix: the checksums of a capture file, through the csum_pcap library.
 *
 * Both stream the capture (a file, or standard input as "-"; plain, gzip or zstd): memory
 * stays bounded whatever the size, every verdict is printed as it is found, and a capture cut
 * short still gets the verdicts for every complete packet before the error. `fix` writes a
 * temporary file next to OUT, created before IN is read, and renames it into place only when
 * the whole capture went through; an OUT that is a FIFO or a device is written directly.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "csum_pcap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio_ext.h> /* __fpurge: glibc and musl */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void print_pcap_help(void)
{
    printf("Usage: csum pcap verify [OPTIONS] FILE|-\n"
           "       csum pcap fix [OPTIONS] IN|- OUT|-\n"
           "\n"
           "Check the IPv4 header, TCP, UDP, UDP-Lite, DCCP, ICMP, ICMPv6, IGMP, PIM, VRRP,\n"
           "OSPF, RSVP, IPv6 Mobility Header, GRE and ICMP extension (RFC 4884) checksums\n"
           "of every packet in a pcap or pcapng capture (plain, gzip or zstd), with\n"
           "Wireshark's rules (with --fcs, the Ethernet and 802.11 FCSs too); or write a\n"
           "copy with the bad ones corrected. Link types: Ethernet (VLAN tags, LLC/SNAP),\n"
           "Linux cooked SLL/SLL2, raw IP, BSD loopback, 802.11 (radiotap, Prism, AVS, PPI),\n"
           "PPP (HDLC-like framing, PPPoE), Cisco HDLC, Frame Relay, SLIP, PKTAP, NFLOG.\n"
           "Followed: MPLS, MACsec, IP in IP, GRE, ERSPAN, VXLAN, Geneve, and the packets\n"
           "quoted in ICMP errors; every checksum says whether it is in the outer or an\n"
           "inner IP layer.\n"
           "Run 'csum pcap verify --help' or 'csum pcap fix --help' for details.\n");
    printf("Compressed captures in this build:");
    for (int c = CSUM_PCAP_GZIP; c <= CSUM_PCAP_ZSTD; c++) {
        const char *lib = csum_pcap_compression_library((enum csum_pcap_compression)c);
        printf(" %s: %s%s%s", csum_pcap_compression_name((enum csum_pcap_compression)c),
               lib ? "yes (" : "no", lib ? lib : "", lib ? ")" : "");
        putchar(c == CSUM_PCAP_ZSTD ? '\n' : ',');
    }
}

static void print_policy_options(void)
{
    printf("  --rfc1624           a TCP checksum stored as 0xffff where 0x0000 is computed is\n"
           "                      good (the same ones'-complement number, RFC 1624); by\n"
           "                      default it is bad, as in Wireshark\n"
           "  --ipv6-udp-zero     a UDP checksum of 0 over IPv6 means none, as over IPv4\n"
           "                      (tunnels may send it: RFC 6935, 6936); by default it is\n"
           "                      bad, as in Wireshark\n"
           "  --fcs               also check the FCS (CRC-32) of each Ethernet or 802.11\n"
           "                      frame that has one (the capture's FCS length says so, or\n"
           "                      a radiotap or PPI header), as Wireshark's eth.check_fcs\n"
           "                      and wlan.check_checksum do; fix also rewrites a wrong\n"
           "                      one. Off by default: a host whose NIC computes the FCS\n"
           "                      captures its own frames without a right one. A frame cut\n"
           "                      by the snapshot length has its FCS not checkable\n"
           "  --vxlan-port N      UDP destination port N also carries VXLAN (besides 4789)\n"
           "  --geneve-port N     UDP destination port N also carries Geneve (besides 6081)\n"
           "                      (each up to %d times)\n", CSUM_PCAP_MAX_PORTS);
}

static void print_verify_help(void)
{
    printf("Usage: csum pcap verify [OPTIONS] FILE|-\n"
           "Print one line per bad checksum and per offload placeholder, as found, then a\n"
           "summary. FILE may be gzip- or zstd-compressed; '-' reads standard input, and\n"
           "after '--' a FILE may start with '-'. Lines:\n"
           "  frame 12: outer tcp checksum bad: stored 0x1234, computed 0xb1e5\n"
           "  frame 40: inner udp checksum bad: stored 0x0101, computed 0x77e2 (via vxlan)\n"
           "  frame 51: outer tcp checksum offload: stored 0x3c1a, computed 0x9e07 (...)\n"
           "  frame 52: fcs bad: stored 0x9a3c61f0, computed 0x4e7b0d15    (with --fcs)\n"
           "Frames count from 1, values are in network order (as Wireshark shows them; an\n"
           "FCS's 4 bytes as its eth.fcs shows them, reversed in its wlan.fcs);\n"
           "'outer' is the frame's first IP layer, 'inner' one inside a tunnel or quoted in\n"
           "an ICMP error. Verdicts: good; bad; offload: a placeholder left for the NIC by a\n"
           "host with checksum or segmentation offload (the pseudo-header sum, or an IP\n"
           "length of 0), not corruption; not checkable: the bytes it covers were not all\n"
           "captured, an IP fragment, lengths that disagree; none: the sender computed none\n"
           "(a UDP checksum of 0 over IPv4, over IPv6 too with --ipv6-udp-zero, or in a\n"
           "packet quoted in an ICMP error, as a UDP-Lite one there; an RSVP checksum of 0;\n"
           "OSPF with cryptographic authentication, RFC 2328, or an authentication trailer,\n"
           "RFC 7166).\n"
           "Packets on link types not dissected, encrypted 802.11/MACsec frames, and packets\n"
           "whose headers before the transport are cut or malformed are counted by kind in the\n"
           "summary.\n"
           "  --json              one JSON document: {\"file\", \"checks\": [{\"frame\", \"layer\",\n"
           "                      \"depth\", \"level\", \"via\", \"verdict\", \"stored\", \"computed\",\n"
           "                      \"offset\", \"note\"}], \"packets\", \"summary\", \"undissected\",\n"
           "                      \"skipped\", \"error\" (only when the capture is malformed)};\n"
           "                      each byte of the file name that is not UTF-8 as \\udcXX, as\n"
           "                      Python's os.fsdecode() gives it\n"
           "  -v, --verbose       also list not-checkable checksums (with the reason) and\n"
           "                      those the sender computed none of\n"
           "  --all               list every checksum, good ones too\n"
           "  --strict            exit 1 also for offload, not-checkable, skipped and\n"
           "                      undissected packets: every packet checked, or a failure\n");
    print_policy_options();
    printf("A progress line is shown on a terminal for captures above 1 GB. A capture that\n"
           "ends inside its last record, as an interrupted one does, is not malformed: a\n"
           "warning names the byte offset, and the packets before it count as usual.\n"
           "Exit status: 0 every checkable checksum (and FCS, with --fcs) is good, 1 some\n"
           "are bad (or, with --strict, something unchecked or a capture cut short), 2 the\n"
           "file is unreadable or malformed (the message names the byte offset, after the\n"
           "verdicts for every complete packet before it), or bad usage.\n");
}

static void print_fix_help(void)
{
    printf("Usage: csum pcap fix [OPTIONS] IN|- OUT|-\n"
           "Write OUT, a copy of the capture IN in the same format and compression in which\n"
           "every bad checksum is replaced by the correct one and every other byte is\n"
           "identical, but the FCS of an Ethernet or 802.11 frame that has one (the capture\n"
           "says so, or a radiotap or PPI header), computed again when it was right. One\n"
           "line per change, an FCS's after its frame's checksums, then a summary (which\n"
           "names packets not looked into, skipped or not dissected, as verify's does):\n"
           "  frame 12: outer tcp checksum 0x1234 -> 0xb1e5\n"
           "  frame 12: fcs 0x9a3c61f0 -> 0x4e7b0d15\n"
           "  in.pcap -> out.pcap: 40 packets, fixed 1 checksum and 1 FCS; left alone: ...\n"
           "(an FCS's 4 bytes in network order, as Wireshark's eth.fcs shows them; its\n"
           "wlan.fcs shows them reversed). With --fcs, every wrong FCS is rewritten too, and\n"
           "listed so. A checksum over another one (a tunnel's UDP checksum, an ICMP error's\n"
           "over the quoted header, an FCS over the frame) is computed after that one is\n"
           "fixed, so it may change too. Not-checkable checksums and offload placeholders\n"
           "are left alone. OUT is written to a temporary file next to it (next to the file\n"
           "a symbolic link names), created before IN is read, and renamed into place once\n"
           "complete: OUT is never partial. An existing OUT keeps its mode (and owner and\n"
           "group where allowed); a new one gets IN's mode less the umask, as with cp. An\n"
           "OUT that exists and is not a regular file (a FIFO, a device, /dev/stdout or\n"
           "/dev/fd/N on a pipe) is opened and written as the fix goes, never replaced: on\n"
           "an error, what was written stays. IN is never modified, and OUT may not be IN\n"
           "(also not through another name or a link). '-' reads standard input, or writes\n"
           "standard output (as a FIFO OUT); after '--' a name that starts with '-' is a\n"
           "file. A capture that ends inside its last record (interrupted) gives a warning,\n"
           "and OUT holds every whole record before it.\n"
           "  -n, --dry-run       only list what would change (OUT may then be omitted)\n"
           "  --fix-offload       also replace offload placeholders by the computed value\n");
    print_policy_options();
    printf("Exit status: 0 done (also when a reader of the list of changes stops early, as\n"
           "head does), 2 the input is unreadable or malformed, OUT cannot be written, the\n"
           "list cannot be written (OUT is complete all the same), or bad usage.\n");
}

/* ---- options -------------------------------------------------------------------------------- */

struct args {
    int json, verbose, all, strict, dry_run;
    struct csum_pcap_options opt;
    int n_vxlan, n_geneve;
    const char *names[2];
    int n_names;
};

/* "--name VALUE" or "--name=VALUE": the value, advancing *i; NULL if `a` is not that option. */
static const char *option_value(const char *name, int argc, char **argv, int *i, int *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return NULL;
    }
    return argv[++*i];
}

static int parse_port(const char *cmd, const char *opt, const char *v, uint16_t *ports, int *n)
{
    char *end;
    errno = 0;
    unsigned long port = strtoul(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || errno || port == 0 || port > 65535)
        return usage_error("pcap %s: %s needs a UDP port from 1 to 65535, not '%s'", cmd, opt, v);
    if (*n == CSUM_PCAP_MAX_PORTS)
        return usage_error("pcap %s: at most %d %s options", cmd, CSUM_PCAP_MAX_PORTS, opt);
    ports[(*n)++] = (uint16_t)port;
    return EXIT_OK;
}

/* `s` is an option of the other subcommand only (verify's --json given to fix, say): the
 * error then says where it belongs, not merely that it is unknown. */
static int other_commands_option(int fixing, const char *s)
{
    static const char *const verify_only[] = { "--json", "-v", "--verbose", "--all", "--strict" };
    static const char *const fix_only[] = { "-n", "--dry-run", "--fix-offload" };
    const char *const *list = fixing ? verify_only : fix_only;
    const size_t n = fixing ? sizeof verify_only / sizeof *verify_only
                            : sizeof fix_only / sizeof *fix_only;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, list[i]))
            return 1;
    return 0;
}

/* Parse the options `cmd` takes; -1 after --help, else EXIT_OK or EXIT_USAGE. */
static int parse_args(const char *cmd, int fixing, int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    if (fixing) /* a fixed frame's FCS that was right stays right */
        a->opt.flags |= CSUM_PCAP_FIX_FCS;
    int names_only = 0; /* after "--": a file may start with '-' */
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v;
        int missing = 0, rc;
        if (!names_only && !strcmp(s, "--")) {
            names_only = 1;
        } else if (names_only || s[0] != '-' || s[1] == '\0') {
            if (a->n_names == (fixing ? 2 : 1))
                return usage_error("pcap %s: %s ('%s' is extra)", cmd,
                                   fixing ? "too many arguments" : "one FILE only", s);
            a->names[a->n_names++] = s;
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            fixing ? print_fix_help() : print_verify_help();
            return -1;
        } else if (!strcmp(s, "--rfc1624")) {
            a->opt.flags |= CSUM_PCAP_ACCEPT_NEGATIVE_ZERO;
        } else if (!strcmp(s, "--ipv6-udp-zero")) {
            a->opt.flags |= CSUM_PCAP_IPV6_UDP_ZERO;
        } else if (!strcmp(s, "--fcs")) {
            a->opt.flags |= CSUM_PCAP_CHECK_FCS;
        } else if ((v = option_value("--vxlan-port", argc, argv, &i, &missing))) {
            if ((rc = parse_port(cmd, "--vxlan-port", v, a->opt.vxlan_ports, &a->n_vxlan)))
                return rc;
        } else if ((v = option_value("--geneve-port", argc, argv, &i, &missing))) {
            if ((rc = parse_port(cmd, "--geneve-port", v, a->opt.geneve_ports, &a->n_geneve)))
                return rc;
        } else if (missing) {
            return usage_error("pcap %s: option '%s' needs a value", cmd, s);
        } else if (!fixing && !strcmp(s, "--json")) {
            a->json = 1;
        } else if (!fixing && (!strcmp(s, "-v") || !strcmp(s, "--verbose"))) {
            a->verbose = 1;
        } else if (!fixing && !strcmp(s, "--all")) {
            a->all = a->verbose = 1;
        } else if (!fixing && !strcmp(s, "--strict")) {
            a->strict = 1;
        } else if (fixing && (!strcmp(s, "-n") || !strcmp(s, "--dry-run"))) {
            a->dry_run = 1;
        } else if (fixing && !strcmp(s, "--fix-offload")) {
            a->opt.flags |= CSUM_PCAP_FIX_OFFLOAD;
        } else if (other_commands_option(fixing, s)) {
            return usage_error("pcap %s: '%s' is an option of 'csum pcap %s', not of %s", cmd, s,
                               fixing ? "verify" : "fix", cmd);
        } else {
            return usage_error("pcap %s: unknown option '%s'", cmd, s);
        }
    }
    return EXIT_OK;
}

/* ---- reporting ------------------------------------------------------------------------------ */

struct report {
    const struct args *a;
    int fixing;
    FILE *text;                 /* fix: where the list of changes goes */
    int text_failed;            /* fix: writing it failed (errno text_errno); no more lines */
    int text_errno;
    uint64_t listed;            /* checks printed in the JSON array so far */
    /* progress line */
    int progress, progress_shown;
    uint64_t total_bytes;
    struct timespec start, last;
    const char *name;
};

/* The length of the well-formed UTF-8 sequence at s (Unicode's table 3-7: no overlong form,
 * no surrogate, nothing above U+10FFFF), 0 if none starts there. Stops at the NUL. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char lo = 0x80, hi = 0xbf; /* the range of the second byte */
    size_t n;
    if (s[0] < 0x80) {
        return 1;
    } else if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        lo = s[0] == 0xe0 ? 0xa0 : lo; /* below: overlong */
        hi = s[0] == 0xed ? 0x9f : hi; /* above: a surrogate */
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        lo = s[0] == 0xf0 ? 0x90 : lo; /* below: overlong */
        hi = s[0] == 0xf4 ? 0x8f : hi; /* above: past U+10FFFF */
    } else {
        return 0; /* a continuation byte, C0, C1 (overlong), F5..FF */
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

/* s as a JSON string. A file name is bytes, not necessarily UTF-8: each byte outside a
 * well-formed UTF-8 sequence becomes \udcXX (XX the byte), the lone surrogate Python's
 * os.fsdecode() (errors="surrogateescape") makes of it, so that json.loads() returns what
 * os.fsdecode() does and os.fsencode() gives the bytes back. Byte by byte through putchar:
 * the Python extension redirects it (python/src/pcap_adapter.c). */
static void json_string(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    putchar('"');
    while (*p) {
        size_t n = utf8_length(p);
        if (n == 0)
            printf("\\udc%02x", *p++);
        else if (*p == '"' || *p == '\\')
            printf("\\%c", *p++);
        else if (*p < 0x20)
            printf("\\u%04x", *p++);
        else
            while (n--)
                putchar(*p++);
    }
    putchar('"');
}

/* "outer", "inner", or "link" for a frame's FCS (below the outer IP layer, at level 0). */
static const char *depth_of(const struct csum_pcap_check *c)
{
    return c->level ? "inner" : c->layer == CSUM_PCAP_FCS ? "link" : "outer";
}

/* Hex digits of a check's values: a checksum's 16 bits, an FCS's 32. */
static int digits_of(const struct csum_pcap_check *c)
{
    return c->layer == CSUM_PCAP_FCS ? 8 : 4;
}

/* " (via vxlan; note)" or "" */
static void print_tail(FILE *f, const struct csum_pcap_check *c, const char *note)
{
    if (!c->level && !note)
        return;
    fputs(" (", f);
    if (c->level)
        fprintf(f, "via %s%s", csum_pcap_via_name(c->via), note ? "; " : "");
    if (note)
        fputs(note, f);
    fputc(')', f);
}

static void print_check_text(const struct csum_pcap_check *c)
{
    const int n = digits_of(c);
    if (c->layer == CSUM_PCAP_FCS) /* as fix lists it: "frame 12: fcs 0x... -> 0x..." */
        printf("frame %" PRIu64 ": fcs ", c->frame);
    else
        printf("frame %" PRIu64 ": %s %s checksum ", c->frame, depth_of(c),
               csum_pcap_layer_name(c->layer));
    switch (c->verdict) {
    case CSUM_PCAP_GOOD:
        printf("good: 0x%0*" PRIx32, n, c->stored);
        print_tail(stdout, c, NULL);
        break;
    case CSUM_PCAP_BAD:
        printf("bad: stored 0x%0*" PRIx32 ", computed 0x%0*" PRIx32, n, c->stored, n, c->computed);
        print_tail(stdout, c, c->note);
        break;
    case CSUM_PCAP_OFFLOAD:
        printf("offload: stored 0x%0*" PRIx32 ", computed 0x%0*" PRIx32, n, c->stored, n,
               c->computed);
        print_tail(stdout, c, c->note);
        break;
    case CSUM_PCAP_NOT_CHECKABLE:
        printf("not checkable: %s", c->note);
        print_tail(stdout, c, NULL);
        break;
    default:
        printf("none: %s", c->note ? c->note : "a stored 0 means no checksum");
        print_tail(stdout, c, NULL);
        break;
    }
    putchar('\n');
}

static void print_check_json(struct report *r, const struct csum_pcap_check *c)
{
    printf("%s\n  {\"frame\": %" PRIu64 ", \"layer\": \"%s\", \"depth\": \"%s\", \"level\": %u, ",
           r->listed++ ? "," : "", c->frame, csum_pcap_layer_name(c->layer), depth_of(c), c->level);
    if (c->level)
        printf("\"via\": \"%s\", ", csum_pcap_via_name(c->via));
    printf("\"verdict\": \"%s\"", csum_pcap_verdict_name(c->verdict));
    if (c->verdict != CSUM_PCAP_NOT_CHECKABLE)
        printf(", \"stored\": \"0x%0*" PRIx32 "\", \"computed\": \"0x%0*" PRIx32
               "\", \"offset\": %" PRIu64, digits_of(c), c->stored, digits_of(c), c->computed,
               c->offset);
    if (c->note) {
        printf(", \"note\": ");
        json_string(c->note);
    }
    putchar('}');
}

static int listed(const struct args *a, enum csum_pcap_verdict v)
{
    switch (v) {
    case CSUM_PCAP_BAD:
    case CSUM_PCAP_OFFLOAD:
        return 1;
    case CSUM_PCAP_GOOD:
        return a->all;
    default:
        return a->verbose;
    }
}

static int will_fix(const struct args *a, const struct csum_pcap_check *c)
{
    return c->verdict == CSUM_PCAP_BAD ||
           (c->verdict == CSUM_PCAP_OFFLOAD && (a->opt.flags & CSUM_PCAP_FIX_OFFLOAD));
}

static void progress_clear(struct report *r);

/* The end of a line of fix's list of changes. A reader that went away (`| head`) or a full
 * disk: the fix goes on, OUT is what matters; the cause is kept for the end. */
static void end_fix_line(struct report *r)
{
    fputc('\n', r->text);
    if (ferror(r->text)) {
        r->text_failed = 1;
        r->text_errno = errno;
    }
}

static void on_check(void *arg, const struct csum_pcap_check *c)
{
    struct report *r = arg;
    if (r->fixing) {
        /* an FCS it rewrites is listed by on_fcs, as it is written */
        if (!will_fix(r->a, c) || c->layer == CSUM_PCAP_FCS || r->text_failed)
            return;
        progress_clear(r);
        fprintf(r->text, "frame %" PRIu64 ": %s %s checksum 0x%04" PRIx32 " -> 0x%04" PRIx32
                "%s", c->frame, depth_of(c), csum_pcap_layer_name(c->layer), c->stored,
                c->computed, r->a->dry_run ? " (dry run)" : "");
        print_tail(r->text, c, c->verdict == CSUM_PCAP_OFFLOAD ? "offload" : NULL);
        end_fix_line(r);
    } else if (listed(r->a, c->verdict)) {
        progress_clear(r);
        r->a->json ? print_check_json(r, c) : print_check_text(c);
    }
}

/* fix: a frame's FCS written (computed again over its fixed checksums, or with --fcs found
 * wrong), listed as they are (its bytes in network order, as the checksums' and Wireshark's
 * eth.fcs). */
static void on_fcs(void *arg, const struct csum_pcap_fcs *f)
{
    struct report *r = arg;
    if (r->text_failed)
        return;
    progress_clear(r);
    fprintf(r->text, "frame %" PRIu64 ": fcs 0x%08" PRIx32 " -> 0x%08" PRIx32 "%s", f->frame,
            f->stored, f->computed, r->a->dry_run ? " (dry run)" : "");
    end_fix_line(r);
}

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) * 1e-9;
}

/* The progress line (a terminal on stderr, a file above 1 GB): at most 4 updates a second. */
static void on_progress(void *arg, uint64_t bytes_in, uint64_t packets)
{
    struct report *r = arg;
    if (!r->progress || seconds_since(&r->last) < 0.25)
        return;
    clock_gettime(CLOCK_MONOTONIC, &r->last);
    const double elapsed = seconds_since(&r->start);
    r->progress_shown = 1;
    fprintf(stderr, "\r\033[Kcsum pcap %s: %s: %.2f of %.2f GB (%.0f%%), %" PRIu64 " packets, "
            "%.2f GB/s", r->fixing ? "fix" : "verify", r->name, (double)bytes_in / 1e9,
            (double)r->total_bytes / 1e9, 100.0 * (double)bytes_in / (double)r->total_bytes,
            packets, elapsed > 0 ? (double)bytes_in / 1e9 / elapsed : 0.0);
}

static void progress_start(struct report *r, int fd, const char *name)
{
    struct stat st;
    r->name = name;
    if (isatty(STDERR_FILENO) && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size > 1000000000) {
        r->progress = 1;
        r->total_bytes = (uint64_t)st.st_size;
        clock_gettime(CLOCK_MONOTONIC, &r->start);
        r->last = r->start;
    }
}

/* Before a line on a terminal that may be the progress line's: clear it (the next update
 * draws it again). */
static void progress_clear(struct report *r)
{
    if (r->progress && r->progress_shown) {
        fputs("\r\033[K", stderr);
        r->progress_shown = 0;
    }
}

static void progress_end(struct report *r)
{
    progress_clear(r);
    r->progress = 0;
}

static uint64_t total_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v)
{
    uint64_t n = 0;
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
        n += s->count[l][v];
    return n;
}

/* The checksums' count of a verdict, without the FCSs' (counted apart, with --fcs). */
static uint64_t checksums_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v)
{
    return total_of(s, v) - s->count[CSUM_PCAP_FCS][v];
}

static uint64_t skipped_total(const struct csum_pcap_summary *s)
{
    uint64_t n = 0;
    for (int k = 0; k < CSUM_PCAP_SKIP_COUNT; k++)
        n += s->skipped[k];
    return n;
}

static void print_linktype(FILE *f, uint32_t linktype)
{
    const char *name = csum_pcap_linktype_name(linktype);
    if (name)
        fprintf(f, "%s (%u)", name, linktype);
    else
        fprintf(f, "link type %u", linktype);
}

/* The end of a summary line, the packets not looked into (none of their checksums checked, or
 * fixed): "; not dissected: 141 packets on IEEE802_15_4_WITHFCS (195)"; "; skipped: 20
 * encrypted 802.11 frames". verify and fix say the same. */
static void print_unchecked(FILE *f, const struct csum_pcap_summary *s)
{
    if (s->undissected) {
        uint64_t named = 0;
        fputs("; not dissected: ", f);
        for (int i = 0; i < CSUM_PCAP_MAX_LINKTYPES && s->undissected_by[i].packets; i++) {
            fprintf(f, "%s%" PRIu64 " packets on ", i ? ", " : "", s->undissected_by[i].packets);
            print_linktype(f, s->undissected_by[i].linktype);
            named += s->undissected_by[i].packets;
        }
        if (named < s->undissected)
            fprintf(f, ", %" PRIu64 " on other link types", s->undissected - named);
    }
    if (skipped_total(s)) {
        const char *sep = "; skipped: ";
        for (int k = 0; k < CSUM_PCAP_SKIP_COUNT; k++) {
            if (s->skipped[k]) {
                fprintf(f, "%s%" PRIu64 " %s", sep, s->skipped[k],
                        csum_pcap_skip_description((enum csum_pcap_skip)k));
                sep = ", ";
            }
        }
    }
}

static void print_summary_text(const char *name, const struct csum_pcap_summary *s, int fcs)
{
    printf("%s: %" PRIu64 " packets; checksums: %" PRIu64 " good, %" PRIu64 " bad, %" PRIu64
           " offload, %" PRIu64 " not checkable, %" PRIu64 " without checksum", name,
           s->packets, checksums_of(s, CSUM_PCAP_GOOD), checksums_of(s, CSUM_PCAP_BAD),
           checksums_of(s, CSUM_PCAP_OFFLOAD), checksums_of(s, CSUM_PCAP_NOT_CHECKABLE),
           checksums_of(s, CSUM_PCAP_NO_CHECKSUM));
    if (fcs) {
        const uint64_t *n = s->count[CSUM_PCAP_FCS];
        printf("; FCSs: %" PRIu64 " good, %" PRIu64 " bad, %" PRIu64 " not checkable",
               n[CSUM_PCAP_GOOD], n[CSUM_PCAP_BAD], n[CSUM_PCAP_NOT_CHECKABLE]);
    }
    print_unchecked(stdout, s);
    putchar('\n');
}

/* The JSON document's members after "checks" (which this closes), but for its closing brace. */
static void print_summary_members(const struct csum_pcap_summary *s,
                                  const struct csum_pcap_error *e)
{
    printf("],\n \"format\": \"%s\", \"compression\": \"%s\", \"packets\": %" PRIu64
           ", \"bytes\": %" PRIu64 ",\n \"summary\": {", csum_pcap_format_name(s->format),
           csum_pcap_compression_name(s->compression), s->packets, s->bytes);
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++) {
        printf("\"%s\": {", csum_pcap_layer_name((enum csum_pcap_layer)l));
        for (int v = 0; v < CSUM_PCAP_VERDICT_COUNT; v++)
            printf("%s\"%s\": %" PRIu64, v ? ", " : "",
                   csum_pcap_verdict_name((enum csum_pcap_verdict)v), s->count[l][v]);
        printf("}, ");
    }
    for (int v = 0; v < CSUM_PCAP_VERDICT_COUNT; v++)
        printf("\"%s\": %" PRIu64 ", ", csum_pcap_verdict_name((enum csum_pcap_verdict)v),
               total_of(s, (enum csum_pcap_verdict)v));
    printf("\"inner\": {");
    for (int v = 0; v < CSUM_PCAP_VERDICT_COUNT; v++)
        printf("%s\"%s\": %" PRIu64, v ? ", " : "", csum_pcap_verdict_name((enum csum_pcap_verdict)v),
               s->inner[v]);
    printf("}, \"without_checksum\": %" PRIu64 ", \"non_packets\": %" PRIu64
           ", \"undissected\": %" PRIu64 ", \"skipped\": %" PRIu64 "},\n \"undissected\": [",
           s->without_checksum, s->non_packets, s->undissected, skipped_total(s));
    for (int i = 0; i < CSUM_PCAP_MAX_LINKTYPES && s->undissected_by[i].packets; i++) {
        const char *name = csum_pcap_linktype_name(s->undissected_by[i].linktype);
        printf("%s{\"linktype\": %u, \"name\": ", i ? ", " : "", s->undissected_by[i].linktype);
        if (name)
            json_string(name);
        else
            printf("null");
        printf(", \"packets\": %" PRIu64 "}", s->undissected_by[i].packets);
    }
    printf("],\n \"skipped\": {");
    for (int k = 0; k < CSUM_PCAP_SKIP_COUNT; k++)
        printf("%s\"%s\": %" PRIu64, k ? ", " : "", csum_pcap_skip_name((enum csum_pcap_skip)k),
               s->skipped[k]);
    printf("}");
    if (e) {
        if (e->output) /* writing OUT failed (fix): there is no offset in the capture to name */
            printf(",\n \"error\": {\"offset\": null, \"output\": true, \"message\": ");
        else
            printf(",\n \"error\": {\"offset\": %" PRIu64 ",%s \"message\": ", e->offset,
                   e->cut_short ? " \"cut_short\": true," : "");
        json_string(e->message);
        printf("}");
    }
}

static void print_summary_json(const struct csum_pcap_summary *s, const struct csum_pcap_error *e)
{
    print_summary_members(s, e);
    printf("}\n");
}

/* An interrupted capture (the library's cut_short): not an error, what comes before the cut
 * record was checked (and written); said on stderr, with what became of it. */
static void warn_cut_short(const char *cmd, const char *name, const struct csum_pcap_error *e,
                           const char *kept)
{
    fprintf(stderr, "csum: pcap %s: %s: warning: capture cut short at byte offset %" PRIu64
            ": %s (interrupted?); %s\n", cmd, name, e->offset, e->message, kept);
}

/* "csum: pcap verify: FILE: malformed capture at byte offset N: what" on stderr. */
static int capture_error(const char *cmd, const char *name, const struct csum_pcap_error *e)
{
    fprintf(stderr, "csum: pcap %s: %s: malformed capture at byte offset %" PRIu64 ": %s\n",
            cmd, name, e->offset, e->message);
    return EXIT_USAGE;
}

static int finish_output(const char *cmd)
{
    /* errno names the cause only when this flush failed: after an earlier failed write that
     * the flush got past, it is whatever a later call left there. */
    const int e = fflush(stdout) != 0 ? errno : 0;
    if (!e && !ferror(stdout))
        return EXIT_OK;
    fprintf(stderr, "csum: pcap %s: cannot write output%s%s\n", cmd, e ? ": " : "",
            e ? strerror(e) : "");
    clearerr(stdout); /* said: main() need not say it again */
    return EXIT_USAGE;
}

/* The end of fix's list of changes, given the fix's own status: a reader that went away
 * early (EPIPE, `| head`) is no failure; another error is one, said with OUT written all the
 * same when the fix went through (after a failure its message said enough). */
static int finish_listing(struct report *r, const char *out, int status)
{
    if (!r->text_failed && fflush(r->text) != 0) {
        r->text_failed = 1;
        r->text_errno = errno;
    }
    if (!r->text_failed)
        return status;
    /* What is still buffered cannot be written either: dropped, so that exit does not try
     * again (and main() need not say it). */
    __fpurge(r->text);
    clearerr(r->text);
    if (r->text_errno == EPIPE || status != EXIT_OK)
        return status;
    fprintf(stderr, "csum: pcap fix: %s%s, but the list of changes could not be: %s\n",
            out ? out : "", out ? " was written" : "the dry run went through",
            strerror(r->text_errno));
    return EXIT_USAGE;
}

/* Open a capture to read ("-": standard input); -1 with errno. */
static int open_input(const char *name, struct stat *st)
{
    int fd = strcmp(name, "-") ? open(name, O_RDONLY) : STDIN_FILENO;
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || S_ISDIR(st->st_mode)) {
        int e = S_ISDIR(st->st_mode) ? EISDIR : errno;
        if (fd != STDIN_FILENO)
            close(fd);
        return errno = e, -1;
    }
    if (S_ISREG(st->st_mode))
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return fd;
}

/* ---- verify --------------------------------------------------------------------------------- */

static int pcap_verify(int argc, char **argv)
{
    struct args a;
    int rc = parse_args("verify", 0, argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (a.n_names == 0)
        return usage_error("pcap verify: no FILE given ('-' for standard input)");
    const char *name = a.names[0];
    struct report r = { .a = &a };
    a.opt.on_check = on_check;
    a.opt.on_progress = on_progress;
    a.opt.ctx = &r;

    struct stat st;
    int fd = open_input(name, &st);
    if (a.json) {
        printf("{\"file\": ");
        json_string(name);
        if (fd < 0) {
            printf(", \"error\": {\"message\": ");
            json_string(strerror(errno));
            printf("}}\n");
        } else {
            printf(",\n \"checks\": [");
        }
    }
    if (fd < 0) {
        fprintf(stderr, "csum: pcap verify: %s: %s\n", name, strerror(errno));
        fflush(stdout);
        return EXIT_USAGE;
    }

    struct csum_pcap_summary s;
    struct csum_pcap_error e;
    progress_start(&r, fd, name);
    const int failed = csum_pcap_verify_fd(fd, &a.opt, &s, &e) != 0;
    progress_end(&r);
    if (fd != STDIN_FILENO)
        close(fd);

    if (a.json)
        print_summary_json(&s, failed ? &e : NULL);
    else if (!failed || s.bytes > 0) /* not for a file that is no capture at all */
        print_summary_text(name, &s, (a.opt.flags & CSUM_PCAP_CHECK_FCS) != 0);
    int status = EXIT_OK;
    const int cut = failed && e.cut_short;
    if (failed && !cut) {
        fflush(stdout);
        status = capture_error("verify", name, &e);
    } else if (total_of(&s, CSUM_PCAP_BAD)) {
        status = EXIT_FAILURE_FOUND;
    } else if (a.strict && (cut || s.undissected || skipped_total(&s) ||
                            total_of(&s, CSUM_PCAP_NOT_CHECKABLE) || total_of(&s, CSUM_PCAP_OFFLOAD))) {
        status = EXIT_FAILURE_FOUND;
    }
    if (cut) {
        fflush(stdout);
        warn_cut_short("verify", name, &e, "the incomplete last record was not checked");
    }
    if (finish_output("verify") != EXIT_OK)
        status = EXIT_USAGE;
    return status;
}

/* ---- fix ------------------------------------------------------------------------------------ */

/* The temporary output, removed if a signal ends the program before the rename. Per thread:
 * the tool has one, but the Python extension runs this code from several at once (and keeps
 * signal handlers away from it); the handler runs in the thread that installed it. */
static _Thread_local char *volatile pending_tmp;

static void remove_pending(int sig)
{
    if (pending_tmp)
        unlink(pending_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard_pending(char *tmp)
{
    pending_tmp = tmp;
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], tmp ? remove_pending : SIG_DFL);
}

/* Where fix writes OUT: through a temporary file renamed over `path` once the whole capture
 * went through, or (tmp NULL) straight into fd. */
struct fix_output {
    int fd;
    char *tmp;  /* malloc'ed */
    char *path; /* what tmp replaces: OUT, or the file a symbolic link OUT names (malloc'ed) */
    int replaces;      /* path is an existing file, */
    struct stat old;   /* this one */
};

static int cannot_write(const char *out)
{
    fprintf(stderr, "csum: pcap fix: %s: cannot write: %s\n", out, strerror(errno));
    return EXIT_USAGE;
}

static int refuse_terminal(void)
{
    fprintf(stderr, "csum: pcap fix: refusing to write a capture to a terminal\n");
    return EXIT_USAGE;
}

/* OUT is an existing FIFO, device or socket (also /dev/stdout or /dev/fd/N on a pipe): a file
 * renamed over it would cut off its reader (or fail in /dev and /proc/self/fd, where no file
 * can be created), so it is opened and written as the fix goes. EXIT_OK with o->fd >= 0,
 * EXIT_OK with o->fd < 0 when it turned out to be a regular file after all (replaced since
 * stat), or EXIT_USAGE. */
static int open_direct(const char *out, struct fix_output *o)
{
    struct stat st;
    int fd = open(out, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        int rc = cannot_write(out);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    if (S_ISREG(st.st_mode)) {
        close(fd);
        return EXIT_OK;
    }
    if (isatty(fd)) {
        close(fd);
        return refuse_terminal();
    }
    o->fd = fd;
    return EXIT_OK;
}

/* OUT is a regular file or a new name: a temporary file in the directory of the file to be
 * replaced. A symbolic link is followed, so that the link stays and the file it names gets the
 * new content (a dangling one is replaced). EXIT_OK or EXIT_USAGE. */
static int open_temporary(const char *out, struct fix_output *o)
{
    struct stat st;
    if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode))
        o->path = realpath(out, NULL);
    if (!o->path)
        o->path = strdup(out);
    if (!o->path)
        return cannot_write(out);
    if (stat(o->path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "csum: pcap fix: %s: is a directory\n", out);
            errno = EISDIR;
            return EXIT_USAGE;
        }
        if (access(o->path, W_OK) != 0)
            return cannot_write(out);
        o->replaces = 1;
        o->old = st;
    }
    o->fd = file_temp_open(o->path, &o->tmp);
    if (o->fd < 0)
        return cannot_write(out);
    guard_pending(o->tmp);
    return EXIT_OK;
}

static int refuse_input(const char *out, const char *in)
{
    fprintf(stderr, "csum: pcap fix: %s: refusing to overwrite the input (%s is the same file)\n",
            out, strcmp(in, "-") ? in : "standard input");
    return EXIT_USAGE;
}

/* Before reading anything: OUT may be written (and is not IN). EXIT_OK or EXIT_USAGE; on
 * EXIT_USAGE, release_output() is still due. */
static int check_output(const char *in, const char *out, const struct stat *in_st,
                        struct fix_output *o)
{
    struct stat st;
    if (!strcmp(out, "-")) {
        if (isatty(STDOUT_FILENO))
            return refuse_terminal();
        /* `csum pcap fix IN - >>IN` (or 1<>IN) would write IN while reading it, and read
         * back what it wrote: standard output is IN as much as /dev/stdout is. */
        if (S_ISREG(in_st->st_mode) && fstat(STDOUT_FILENO, &st) == 0 &&
            st.st_dev == in_st->st_dev && st.st_ino == in_st->st_ino)
            return refuse_input(out, in);
        o->fd = STDOUT_FILENO;
        return EXIT_OK;
    }
    /* IN "-" too: standard input opened on a file OUT (`<OUT`), which the fix would replace */
    if (S_ISREG(in_st->st_mode) && file_same(in_st, out))
        return refuse_input(out, in);
    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        int rc = open_direct(out, o);
        if (rc != EXIT_OK || o->fd >= 0)
            return rc;
    }
    return open_temporary(out, o);
}

/* Remove the temporary file (if any) and close what was opened; errno is kept. */
static void release_output(struct fix_output *o)
{
    int e = errno;
    if (o->tmp)
        file_temp_abort(o->fd, o->tmp);
    else if (o->fd >= 0 && o->fd != STDOUT_FILENO)
        close(o->fd);
    free(o->path);
    guard_pending(NULL);
    memset(o, 0, sizeof *o);
    o->fd = -1;
    errno = e;
}

/* The mode OUT gets: an OUT that existed keeps its own (and its owner and group where allowed),
 * as with `>`; a new one gets IN's, less the umask, as cp(1) does (a capture only its owner
 * may read stays so), or what a new file gets when IN is not a file. */
static mode_t output_mode(const struct fix_output *o, const struct stat *in_st)
{
    if (o->replaces)
        return file_keep_owner(o->fd, &o->old);
    mode_t mask = umask(0);
    umask(mask);
    return (S_ISREG(in_st->st_mode) ? in_st->st_mode & 0777 : 0666) & ~mask;
}

/* After the whole capture went through: rename the temporary file into place, or close OUT
 * (where a late write error of a device can still show). EXIT_OK or EXIT_USAGE. */
static int commit_output(const char *out, const struct stat *in_st, struct fix_output *o)
{
    int rc = EXIT_OK;
    if (o->tmp) {
        if (file_temp_commit(o->fd, o->tmp, o->path, output_mode(o, in_st)) != 0)
            rc = cannot_write(out);
        o->tmp = NULL; /* removed (if not renamed) and freed either way */
        o->fd = -1;
    } else if (o->fd >= 0 && o->fd != STDOUT_FILENO) {
        if (close(o->fd) != 0)
            rc = cannot_write(out);
        o->fd = -1;
    }
    release_output(o);
    return rc;
}

/* OUT is standard output ("-", or /dev/stdout, /dev/fd/1 and the like), where the list of
 * changes must not go. */
static int writes_stdout(const char *out, const struct fix_output *o)
{
    struct stat st;
    if (o->fd == STDOUT_FILENO)
        return 1;
    return out && fstat(STDOUT_FILENO, &st) == 0 && file_same(&st, out);
}

static int pcap_fix(int argc, char **argv)
{
    struct args a;
    int rc = parse_args("fix", 1, argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *in = a.names[0], *out = a.names[1];
    if (!in)
        return usage_error("pcap fix: no input file given ('-' for standard input)");
    if (!out && !a.dry_run)
        return usage_error("pcap fix: no output file given (or use --dry-run)");
    if (out && a.dry_run)
        out = NULL; /* nothing is written */

    struct stat in_st;
    memset(&in_st, 0, sizeof in_st);
    /* Standard input too: closed, the temporary OUT would take its descriptor and be read. */
    if (strcmp(in, "-") ? stat(in, &in_st) != 0 : fstat(STDIN_FILENO, &in_st) != 0) {
        fprintf(stderr, "csum: pcap fix: %s: %s\n", in, strerror(errno));
        return EXIT_USAGE;
    }
    struct fix_output o = { .fd = -1 };
    if (out && check_output(in, out, &in_st, &o) != EXIT_OK) {
        release_output(&o);
        return EXIT_USAGE;
    }

    int in_fd = open_input(in, &in_st);
    if (in_fd < 0) {
        fprintf(stderr, "csum: pcap fix: %s: %s\n", in, strerror(errno));
        release_output(&o);
        return EXIT_USAGE;
    }
    /* With OUT on standard output, the list of changes goes to stderr. Otherwise a broken pipe
     * on standard output is the list's (`| head`): its writes fail instead, and the fix goes
     * on (a broken pipe as OUT is a failed write too). */
    struct report r = { .a = &a, .fixing = 1, .text = writes_stdout(out, &o) ? stderr : stdout };
    if (r.text == stdout)
        signal(SIGPIPE, SIG_IGN);
    a.opt.on_check = on_check;
    a.opt.on_progress = on_progress;
    a.opt.on_fcs = on_fcs;
    a.opt.ctx = &r;
    struct csum_pcap_summary s;
    struct csum_pcap_error e;
    progress_start(&r, in_fd, in);
    const int failed = csum_pcap_fix_fd(in_fd, o.fd, &a.opt, &s, &e) != 0;
    progress_end(&r);
    if (in_fd != STDIN_FILENO)
        close(in_fd);

    int status;
    const int cut = failed && e.cut_short;
    if (failed && !cut) {
        fflush(stdout);
        if (e.output) { /* the capture may be fine: OUT (or "-") is the problem */
            fprintf(stderr, "csum: pcap fix: %s: %s\n", out, e.message);
            status = EXIT_USAGE;
        } else {
            status = capture_error("fix", in, &e);
        }
        release_output(&o); /* a direct OUT keeps what was written */
    } else {
        status = commit_output(out, &in_st, &o);
    }
    if (status == EXIT_OK && cut) {
        fflush(stdout);
        warn_cut_short("fix", in, &e, out ? "the output holds every whole record before it, "
                       "without the incomplete one" : "the incomplete last record was not checked");
    }
    if (status == EXIT_OK) {
        uint64_t fixed = checksums_of(&s, CSUM_PCAP_BAD); /* the FCSs written: fcs_fixed */
        if (a.opt.flags & CSUM_PCAP_FIX_OFFLOAD)
            fixed += total_of(&s, CSUM_PCAP_OFFLOAD);
        if (!r.text_failed) {
            fprintf(r.text, "%s%s%s: %" PRIu64 " packets, %s %" PRIu64 " checksum%s and %" PRIu64
                    " FCS%s; left alone: %" PRIu64 " not checkable, %" PRIu64 " offload", in,
                    out ? " -> " : "", out ? out : "", s.packets,
                    a.dry_run ? "would fix" : "fixed", fixed, fixed == 1 ? "" : "s", s.fcs_fixed,
                    s.fcs_fixed == 1 ? "" : "s",
                    total_of(&s, CSUM_PCAP_NOT_CHECKABLE),
                    a.opt.flags & CSUM_PCAP_FIX_OFFLOAD ? 0 : total_of(&s, CSUM_PCAP_OFFLOAD));
            /* packets it could not look into, whose bad checksums (if any) stay bad */
            print_unchecked(r.text, &s);
            fputc('\n', r.text);
        }
    }
    status = finish_listing(&r, out, status);
    signal(SIGPIPE, SIG_DFL);
    return status;
}

int cmd_pcap(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("pcap: which one: 'csum pcap verify FILE' or 'csum pcap fix IN OUT'?");
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        print_pcap_help();
        return EXIT_OK;
    }
    if (!strcmp(sub, "verify")) {
        usage_hint("pcap verify");
        return pcap_verify(argc - 1, argv + 1);
    }
    if (!strcmp(sub, "fix")) {
        usage_hint("pcap fix");
        return pcap_fix(argc - 1, argv + 1);
    }
    return usage_error("pcap: unknown subcommand '%s' (verify or fix)", sub);
}
