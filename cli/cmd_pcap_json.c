/*
 * csum pcap verify --json: the document, its checks and its summary (the Python extension
 * prints fix's document with the same functions).
 */
#include "cmd_pcap.h"

#include <inttypes.h>

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
void pcap_cli_json_string(const char *s)
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

void pcap_cli_print_check_json(struct report *r, const struct csum_pcap_check *c)
{
    printf("%s\n  {\"frame\": %" PRIu64 ", \"layer\": \"%s\", \"depth\": \"%s\", \"level\": %u, ",
           r->listed++ ? "," : "", c->frame, csum_pcap_layer_name(c->layer), pcap_cli_depth_of(c),
           c->level);
    if (c->level)
        printf("\"via\": \"%s\", ", csum_pcap_via_name(c->via));
    printf("\"verdict\": \"%s\"", csum_pcap_verdict_name(c->verdict));
    if (c->verdict != CSUM_PCAP_NOT_CHECKABLE)
        printf(", \"stored\": \"0x%0*" PRIx32 "\", \"computed\": \"0x%0*" PRIx32
               "\", \"offset\": %" PRIu64, pcap_cli_digits_of(c), c->stored,
               pcap_cli_digits_of(c), c->computed, c->offset);
    if (c->note) {
        printf(", \"note\": ");
        pcap_cli_json_string(c->note);
    }
    putchar('}');
}

/* The JSON document's members after "checks" (which this closes), but for its closing brace. */
void pcap_cli_print_summary_members(const struct csum_pcap_summary *s,
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
               pcap_cli_total_of(s, (enum csum_pcap_verdict)v));
    printf("\"inner\": {");
    for (int v = 0; v < CSUM_PCAP_VERDICT_COUNT; v++)
        printf("%s\"%s\": %" PRIu64, v ? ", " : "", csum_pcap_verdict_name((enum csum_pcap_verdict)v),
               s->inner[v]);
    printf("}, \"without_checksum\": %" PRIu64 ", \"non_packets\": %" PRIu64
           ", \"undissected\": %" PRIu64 ", \"skipped\": %" PRIu64 "},\n \"undissected\": [",
           s->without_checksum, s->non_packets, s->undissected, pcap_cli_skipped_total(s));
    for (int i = 0; i < CSUM_PCAP_MAX_LINKTYPES && s->undissected_by[i].packets; i++) {
        const char *name = csum_pcap_linktype_name(s->undissected_by[i].linktype);
        printf("%s{\"linktype\": %u, \"name\": ", i ? ", " : "", s->undissected_by[i].linktype);
        if (name)
            pcap_cli_json_string(name);
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
            printf(",\n \"error\": {\"offset\": null, \"output\": true,");
        else
            printf(",\n \"error\": {\"offset\": %" PRIu64 ",%s", e->offset,
                   e->cut_short ? " \"cut_short\": true," : "");
        printf(" \"kind\": \"%s\", \"message\": ", csum_pcap_error_kind_name(e->kind));
        pcap_cli_json_string(e->message);
        printf("}");
    }
}

void pcap_cli_print_summary_json(const struct csum_pcap_summary *s, const struct csum_pcap_error *e)
{
    pcap_cli_print_summary_members(s, e);
    printf("}\n");
}
