/*
 * csum pcap verify|fix: the checksums of a capture file, through the csum_pcap library.
 */
#include "cli.h"
#include "csum_pcap.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void print_pcap_help(void)
{
    printf("Usage: csum pcap verify [--json] [--verbose] FILE\n"
           "       csum pcap fix [--dry-run] IN OUT\n"
           "\n"
           "Check the IPv4 header, TCP, UDP, ICMP and ICMPv6 checksums of every packet in a\n"
           "pcap or pcapng capture (Ethernet with VLAN tags, Linux cooked SLL/SLL2, raw IP,\n"
           "BSD loopback), the way Wireshark validates them; or write a copy with the bad ones\n"
           "corrected. Values are printed in network order, as Wireshark shows them.\n"
           "Run 'csum pcap verify --help' or 'csum pcap fix --help' for details.\n");
}

static void print_verify_help(void)
{
    printf("Usage: csum pcap verify [--json] [--verbose] FILE\n"
           "Print one line per bad checksum (frame number from 1, layer, stored and computed\n"
           "value) and a summary. A checksum is 'not checkable' when the bytes it covers were\n"
           "not all captured, when it belongs to an IP fragment, or when lengths disagree;\n"
           "such packets are never reported bad. A UDP checksum of 0 over IPv4 means 'none'.\n"
           "  --json      {\"packets\": N, \"summary\": {...}, \"bad\": [{\"frame\": N,\n"
           "              \"layer\": \"ipv4|tcp|udp|icmp|icmpv6\", \"stored\": \"0x....\",\n"
           "              \"computed\": \"0x....\", \"offset\": N}]} (offset: of the field in FILE)\n"
           "  --verbose   also list the checksums that are not checkable, with the reason\n"
           "Exit status: 0 every checkable checksum is good, 1 some are bad, 2 the file is\n"
           "unreadable or malformed (the message names the byte offset), or bad usage.\n");
}

static void print_fix_help(void)
{
    printf("Usage: csum pcap fix [--dry-run] IN OUT\n"
           "Write OUT, a copy of the capture IN in the same format in which every bad checksum\n"
           "is replaced by the correct one and every other byte is identical. Checksums that\n"
           "are not checkable (truncated packets, fragments) are left as they are. OUT is\n"
           "written to a temporary file next to it and renamed into place; IN is never\n"
           "modified, and OUT may not be IN (also not through another name or a link).\n"
           "  --dry-run   only list what would change (OUT may then be omitted)\n"
           "Exit status: 0 done, 2 the input is unreadable or malformed, OUT cannot be\n"
           "written, or bad usage.\n");
}

/* ---- reporting ---------------------------------------------------------------------------- */

struct bad_entry {
    uint64_t frame, offset;
    enum csum_pcap_layer layer;
    uint16_t stored, computed;
};

struct report {
    int json, verbose, fixing, dry_run;
    struct bad_entry *bad; /* --json: collected, printed at the end */
    size_t n_bad, cap_bad;
    int out_of_memory;
};

static void on_check(void *arg, const struct csum_pcap_check *c)
{
    struct report *r = arg;
    const char *layer = csum_pcap_layer_name(c->layer);
    if (c->verdict == CSUM_PCAP_NOT_CHECKABLE) {
        if (r->verbose && !r->json)
            printf("frame %" PRIu64 ": %s checksum not checkable: %s\n", c->frame, layer, c->reason);
        return;
    }
    if (c->verdict != CSUM_PCAP_BAD)
        return;
    if (r->fixing) {
        printf("frame %" PRIu64 ": %s checksum 0x%04x -> 0x%04x%s\n", c->frame, layer, c->stored,
               c->computed, r->dry_run ? " (dry run)" : "");
    } else if (!r->json) {
        printf("frame %" PRIu64 ": %s checksum bad: stored 0x%04x, computed 0x%04x\n", c->frame,
               layer, c->stored, c->computed);
    } else {
        if (r->n_bad == r->cap_bad) {
            size_t cap = r->cap_bad ? 2 * r->cap_bad : 64;
            struct bad_entry *p = realloc(r->bad, cap * sizeof *p);
            if (!p) {
                r->out_of_memory = 1;
                return;
            }
            r->bad = p;
            r->cap_bad = cap;
        }
        r->bad[r->n_bad++] = (struct bad_entry){ c->frame, c->offset, c->layer, c->stored, c->computed };
    }
}

static uint64_t total_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v)
{
    uint64_t n = 0;
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
        n += s->count[l][v];
    return n;
}

static void print_json(const struct report *r, const struct csum_pcap_summary *s)
{
    printf("{\"packets\": %" PRIu64 ", \"summary\": {", s->packets);
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++) {
        printf("\"%s\": {", csum_pcap_layer_name((enum csum_pcap_layer)l));
        for (int v = 0; v < CSUM_PCAP_VERDICT_COUNT; v++)
            printf("%s\"%s\": %" PRIu64, v ? ", " : "", csum_pcap_verdict_name((enum csum_pcap_verdict)v),
                   s->count[l][v]);
        printf("}, ");
    }
    for (int v = 0; v < CSUM_PCAP_VERDICT_COUNT; v++)
        printf("\"%s\": %" PRIu64 ", ", csum_pcap_verdict_name((enum csum_pcap_verdict)v),
               total_of(s, (enum csum_pcap_verdict)v));
    printf("\"unsupported_link\": %" PRIu64 ", \"non_packets\": %" PRIu64 "}, \"bad\": [",
           s->unsupported_link, s->non_packets);
    for (size_t i = 0; i < r->n_bad; i++) {
        const struct bad_entry *b = &r->bad[i];
        printf("%s{\"frame\": %" PRIu64 ", \"layer\": \"%s\", \"stored\": \"0x%04x\", "
               "\"computed\": \"0x%04x\", \"offset\": %" PRIu64 "}", i ? ", " : "", b->frame,
               csum_pcap_layer_name(b->layer), b->stored, b->computed, b->offset);
    }
    printf("]}\n");
}

static void print_summary(FILE *f, const char *name, const struct csum_pcap_summary *s)
{
    fprintf(f, "%s: %" PRIu64 " packets; checksums: %" PRIu64 " good, %" PRIu64 " bad, %" PRIu64
            " not checkable, %" PRIu64 " UDP without checksum", name, s->packets,
            total_of(s, CSUM_PCAP_GOOD), total_of(s, CSUM_PCAP_BAD),
            total_of(s, CSUM_PCAP_NOT_CHECKABLE), total_of(s, CSUM_PCAP_NO_CHECKSUM));
    if (s->unsupported_link)
        fprintf(f, "; %" PRIu64 " packets on link types not dissected", s->unsupported_link);
    fputc('\n', f);
}

/* "csum: pcap verify: FILE: what" on stderr; returns EXIT_USAGE (2). */
static int file_error(const char *cmd, const char *name, const struct csum_pcap_error *e)
{
    if (e)
        fprintf(stderr, "csum: pcap %s: %s: malformed capture at byte offset %" PRIu64 ": %s\n",
                cmd, name, e->offset, e->message);
    else
        fprintf(stderr, "csum: pcap %s: %s: %s\n", cmd, name, strerror(errno));
    return EXIT_USAGE;
}

static int finish_output(const char *cmd)
{
    if (fflush(stdout) != 0) {
        fprintf(stderr, "csum: pcap %s: cannot write output: %s\n", cmd, strerror(errno));
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* ---- verify ------------------------------------------------------------------------------- */

static int pcap_verify(int argc, char **argv)
{
    struct report r = { 0 };
    const char *name = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_verify_help();
            return EXIT_OK;
        } else if (!strcmp(a, "--json")) {
            r.json = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            r.verbose = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("pcap verify: unknown option '%s'", a);
        } else if (name) {
            return usage_error("pcap verify: one FILE only ('%s' is extra)", a);
        } else {
            name = a;
        }
    }
    if (!name)
        return usage_error("pcap verify: no FILE given");

    struct file_map m;
    if (file_map_open(name, 0, &m) != 0)
        return file_error("verify", name, NULL);
    struct csum_pcap_summary s;
    struct csum_pcap_error e;
    int rc = csum_pcap_verify_buffer(m.data, m.len, on_check, &r, &s, &e);
    file_map_close(&m);
    int status;
    if (rc != 0) {
        fflush(stdout);
        status = file_error("verify", name, &e);
    } else if (r.out_of_memory) {
        fprintf(stderr, "csum: pcap verify: %s: out of memory\n", name);
        status = EXIT_USAGE;
    } else {
        if (r.json)
            print_json(&r, &s);
        else
            print_summary(stdout, name, &s);
        status = total_of(&s, CSUM_PCAP_BAD) ? EXIT_FAILURE_FOUND : EXIT_OK;
        if (finish_output("verify") != EXIT_OK)
            status = EXIT_USAGE;
    }
    free(r.bad);
    return status;
}

/* ---- fix ---------------------------------------------------------------------------------- */

static int pcap_fix(int argc, char **argv)
{
    struct report r = { .fixing = 1 };
    const char *names[2] = { NULL, NULL };
    int n_names = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            print_fix_help();
            return EXIT_OK;
        } else if (!strcmp(a, "-n") || !strcmp(a, "--dry-run")) {
            r.dry_run = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("pcap fix: unknown option '%s'", a);
        } else if (n_names == 2) {
            return usage_error("pcap fix: too many arguments ('%s' is extra)", a);
        } else {
            names[n_names++] = a;
        }
    }
    const char *in = names[0], *out = names[1];
    if (!in)
        return usage_error("pcap fix: no input file given");
    if (!out && !r.dry_run)
        return usage_error("pcap fix: no output file given (or use --dry-run)");

    struct file_map m;
    if (file_map_open(in, 1, &m) != 0)
        return file_error("fix", in, NULL);
    if (out && file_same(&m.st, out)) {
        file_map_close(&m);
        fprintf(stderr, "csum: pcap fix: %s: refusing to overwrite the input (%s is the same file)\n",
                out, in);
        return EXIT_USAGE;
    }
    struct csum_pcap_summary s;
    struct csum_pcap_error e;
    int status = EXIT_OK;
    if (csum_pcap_fix_buffer(m.data, m.len, on_check, &r, &s, &e) != 0) {
        fflush(stdout);
        status = file_error("fix", in, &e);
    } else if (!r.dry_run && file_replace(out, m.data, m.len, m.st.st_mode) != 0) {
        fprintf(stderr, "csum: pcap fix: %s: cannot write: %s\n", out, strerror(errno));
        status = EXIT_USAGE;
    } else {
        uint64_t fixed = total_of(&s, CSUM_PCAP_BAD);
        printf("%s%s%s: %" PRIu64 " packets, %s %" PRIu64 " bad checksums, left %" PRIu64
               " not checkable ones alone\n", in, out ? " -> " : "", out ? out : "", s.packets,
               r.dry_run ? "would fix" : "fixed", fixed, total_of(&s, CSUM_PCAP_NOT_CHECKABLE));
        status = finish_output("fix");
    }
    file_map_close(&m);
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
    if (!strcmp(sub, "verify"))
        return pcap_verify(argc - 1, argv + 1);
    if (!strcmp(sub, "fix"))
        return pcap_fix(argc - 1, argv + 1);
    return usage_error("pcap: unknown subcommand '%s' (verify or fix)", sub);
}
