/*
 * csum pcap verify|fix: what the walk reports as it goes (the csum_pcap callbacks for each
 * check and each FCS fix writes), and the counts the summaries are made of.
 */
#include "cmd_pcap.h"

#include <errno.h>
#include <inttypes.h>

/* "outer", "inner", or "link" for a frame's FCS (below the outer IP layer, at level 0). */
const char *pcap_cli_depth_of(const struct csum_pcap_check *c)
{
    return c->level ? "inner" : c->layer == CSUM_PCAP_FCS ? "link" : "outer";
}

/* Hex digits of a check's values: a checksum's 16 bits, an FCS's 32. */
int pcap_cli_digits_of(const struct csum_pcap_check *c)
{
    return c->layer == CSUM_PCAP_FCS ? 8 : 4;
}

int pcap_cli_listed(const struct args *a, enum csum_pcap_verdict v)
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

void pcap_cli_on_check(void *arg, const struct csum_pcap_check *c)
{
    struct report *r = arg;
    if (r->fixing) {
        /* an FCS it rewrites is listed by pcap_cli_on_fcs, as it is written */
        if (!will_fix(r->a, c) || c->layer == CSUM_PCAP_FCS || r->text_failed)
            return;
        pcap_cli_progress_clear(r);
        fprintf(r->text, "frame %" PRIu64 ": %s %s checksum 0x%04" PRIx32 " -> 0x%04" PRIx32
                "%s", c->frame, pcap_cli_depth_of(c), csum_pcap_layer_name(c->layer), c->stored,
                c->computed, r->a->dry_run ? " (dry run)" : "");
        pcap_cli_print_tail(r->text, c, c->verdict == CSUM_PCAP_OFFLOAD ? "offload" : NULL);
        end_fix_line(r);
    } else if (pcap_cli_listed(r->a, c->verdict)) {
        pcap_cli_progress_clear(r);
        r->a->json ? pcap_cli_print_check_json(r, c) : pcap_cli_print_check_text(c);
    }
}

/* fix: a frame's FCS written (computed again over its fixed checksums, or with --fcs found
 * wrong), listed as they are (its bytes in network order, as the checksums' and Wireshark's
 * eth.fcs). */
void pcap_cli_on_fcs(void *arg, const struct csum_pcap_fcs *f)
{
    struct report *r = arg;
    if (r->text_failed)
        return;
    pcap_cli_progress_clear(r);
    fprintf(r->text, "frame %" PRIu64 ": fcs 0x%08" PRIx32 " -> 0x%08" PRIx32 "%s", f->frame,
            f->stored, f->computed, r->a->dry_run ? " (dry run)" : "");
    end_fix_line(r);
}

uint64_t pcap_cli_total_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v)
{
    uint64_t n = 0;
    for (int l = 0; l < CSUM_PCAP_LAYER_COUNT; l++)
        n += s->count[l][v];
    return n;
}

/* The checksums' count of a verdict, without the FCSs' (counted apart, with --fcs). */
uint64_t pcap_cli_checksums_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v)
{
    return pcap_cli_total_of(s, v) - s->count[CSUM_PCAP_FCS][v];
}

uint64_t pcap_cli_skipped_total(const struct csum_pcap_summary *s)
{
    uint64_t n = 0;
    for (int k = 0; k < CSUM_PCAP_SKIP_COUNT; k++)
        n += s->skipped[k];
    return n;
}
