/*
 * csum pcap verify|fix: their options, read into struct args.
 */
#include "cmd_pcap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
int pcap_cli_parse_args(const char *cmd, int fixing, int argc, char **argv, struct args *a)
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
            fixing ? pcap_cli_print_fix_help() : pcap_cli_print_verify_help();
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
