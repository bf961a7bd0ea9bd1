/*
 * csum verify: every supported implementation against the reference oracle, on this CPU.
 */
#include "cli.h"
#include "csum.h"
#include "csum_oracle.h"

#include <string.h>

static void print_verify_help(void)
{
    printf("Usage: csum verify [--quick] [NAME...]\n"
           "Compare each supported implementation (or only those named) with the byte-at-a-time\n"
           "RFC 1071 oracle over lengths 0..1100 and larger, every alignment 0..63, several\n"
           "initial sums, random / all-0xff / all-zero data. Implementations this CPU cannot\n"
           "run are listed as SKIPPED. Exit 1 on any mismatch, or when an implementation named\n"
           "on the command line cannot run here (it was not verified).\n"
           "  --quick   fewer lengths and alignments (what 'csum bench' runs before timing)\n");
}

int cmd_verify(int argc, char **argv)
{
    enum selfcheck_level level = SELFCHECK_THOROUGH;
    int first_name = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            print_verify_help();
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--quick")) {
            level = SELFCHECK_QUICK;
        } else if (argv[i][0] == '-') {
            return usage_error("verify: unknown option '%s'", argv[i]);
        } else {
            if (!csum_impl_find(argv[i]))
                return usage_error("verify: unknown implementation '%s' (see 'csum impls')",
                                   argv[i]);
            if (first_name == argc)
                first_name = i;
        }
    }

    int failed = 0, named = first_name < argc;
    size_t verified = 0, skipped = 0;
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        int wanted = first_name == argc;
        for (int a = first_name; a < argc && !wanted; a++)
            wanted = argv[a][0] != '-' && !strcmp(argv[a], impl->name);
        if (!wanted)
            continue;
        if (!csum_impl_supported(impl)) {
            printf("%-14s SKIPPED: not verified, this CPU lacks some of: %s\n", impl->name,
                   impl->requires);
            skipped++;
            continue;
        }
        verified++;
        struct selfcheck_result r;
        if (oracle_selfcheck(impl->partial, level, &r) == 0) {
            printf("%-14s ok    (%zu comparisons with the oracle)\n", impl->name, r.checked);
        } else {
            failed++;
            printf("%-14s FAIL  %zu of %zu comparisons wrong; first: len %zu align %zu "
                   "initial 0x%08x: got 0x%04x, oracle 0x%04x\n",
                   impl->name, r.mismatches, r.checked, r.len, r.align, (unsigned)r.initial,
                   r.got, r.want);
        }
    }
    printf("%zu verified, %zu failed, %zu skipped (not supported by this CPU)\n", verified,
           (size_t)failed, skipped);
    if (named && skipped)
        fprintf(stderr, "csum: verify: %zu of the implementations asked for cannot run on this "
                        "CPU and were not verified\n", skipped);
    return failed || (named && skipped) ? EXIT_FAILURE_FOUND : EXIT_OK;
}
