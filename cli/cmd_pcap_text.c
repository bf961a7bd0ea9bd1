/*
 * csum pcap verify|fix: the text report, one line per check and the summary line.
 */
#include "cmd_pcap.h"

#include <inttypes.h>

/* " (via vxlan; note)" or "" */
void pcap_cli_print_tail(FILE *f, const struct csum_pcap_check *c, const char *note)
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

void pcap_cli_print_check_text(const struct csum_pcap_check *c)
{
    const int n = pcap_cli_digits_of(c);
    if (c->layer == CSUM_PCAP_FCS) /* as fix lists it: "frame 12: fcs 0x... -> 0x..." */
        printf("frame %" PRIu64 ": fcs ", c->frame);
    else
        printf("frame %" PRIu64 ": %s %s checksum ", c->frame, pcap_cli_depth_of(c),
               csum_pcap_layer_name(c->layer));
    switch (c->verdict) {
    case CSUM_PCAP_GOOD:
        printf("good: 0x%0*" PRIx32, n, c->stored);
        pcap_cli_print_tail(stdout, c, NULL);
        break;
    case CSUM_PCAP_BAD:
        printf("bad: stored 0x%0*" PRIx32 ", computed 0x%0*" PRIx32, n, c->stored, n, c->computed);
        pcap_cli_print_tail(stdout, c, c->note);
        break;
    case CSUM_PCAP_OFFLOAD:
        printf("offload: stored 0x%0*" PRIx32 ", computed 0x%0*" PRIx32, n, c->stored, n,
               c->computed);
        pcap_cli_print_tail(stdout, c, c->note);
        break;
    case CSUM_PCAP_NOT_CHECKABLE:
        printf("not checkable: %s", c->note);
        pcap_cli_print_tail(stdout, c, NULL);
        break;
    default:
        printf("none: %s", c->note ? c->note : "a stored 0 means no checksum");
        pcap_cli_print_tail(stdout, c, NULL);
        break;
    }
    putchar('\n');
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
void pcap_cli_print_unchecked(FILE *f, const struct csum_pcap_summary *s)
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
    if (pcap_cli_skipped_total(s)) {
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

/* "FILE: 40 packets; checksums: 30 good, 1 bad, 2 offload, 3 not checkable, 4 none (not
 * computed by the sender)", each a count of checksums by verdict, the FCSs not among them (with
 * --fcs, "; FCSs: ..." after). "none" is the verdict's name, as the lines of -v say it: not
 * JSON's "without_checksum", the packets in which no checksum was found at all. */
void pcap_cli_print_summary_text(const char *name, const struct csum_pcap_summary *s, int fcs)
{
    printf("%s: %" PRIu64 " packets; checksums: %" PRIu64 " good, %" PRIu64 " bad, %" PRIu64
           " offload, %" PRIu64 " not checkable, %" PRIu64 " none (not computed by the sender)",
           name,
           s->packets, pcap_cli_checksums_of(s, CSUM_PCAP_GOOD),
           pcap_cli_checksums_of(s, CSUM_PCAP_BAD), pcap_cli_checksums_of(s, CSUM_PCAP_OFFLOAD),
           pcap_cli_checksums_of(s, CSUM_PCAP_NOT_CHECKABLE),
           pcap_cli_checksums_of(s, CSUM_PCAP_NO_CHECKSUM));
    if (fcs) {
        const uint64_t *n = s->count[CSUM_PCAP_FCS];
        printf("; FCSs: %" PRIu64 " good, %" PRIu64 " bad, %" PRIu64 " not checkable",
               n[CSUM_PCAP_GOOD], n[CSUM_PCAP_BAD], n[CSUM_PCAP_NOT_CHECKABLE]);
    }
    pcap_cli_print_unchecked(stdout, s);
    putchar('\n');
}
