/*
 * csum verify: every supported implementation against the reference oracle, on this CPU: each
 * csum_partial, each csum_partial_copy (streaming ones included) and each IPv4 header batch,
 * walked through the dispatcher's own list of entry points (src/plan.h).
 */
#include "cli.h"
#include "csum.h"
#include "csum_oracle.h"
#include "cpu_features.h" /* internal: which features CSUM_CPU_DISABLE hides */
#include "plan.h" /* internal: the entry points of each operation, batches included */

#include <stdio.h>
#include <string.h>

static const char *const op_names[CSUM_OP_COUNT] = {
    [CSUM_OP_PARTIAL] = "csum_partial",
    [CSUM_OP_COPY] = "csum_partial_copy",
    [CSUM_OP_IPV4_BATCH] = "csum_ipv4_header_batch",
};

static void print_verify_help(void)
{
    printf("Usage: csum verify [--quick] [NAME...]\n"
           "Compare each supported implementation (or only those named) with the\n"
           "byte-at-a-time RFC 1071 oracle: csum_partial's over lengths 0..1100 and larger,\n"
           "every alignment 0..63, several initial sums, random / all-0xff / all-zero data;\n"
           "csum_partial_copy's (streaming ones included) over the same, with the copy\n"
           "checked byte for byte and the bytes around it untouched;\n"
           "csum_ipv4_header_batch's over batches of 0..100 headers and more. A NAME selects\n"
           "every kind of implementation of that name (avx2: its sum, copy and batch;\n"
           "avx2-nt: a copy). Implementations this CPU cannot run are listed as SKIPPED.\n"
           "Exit 1 on any mismatch, or when an implementation named on the command line\n"
           "cannot run here (it was not verified).\n"
           "  --quick   fewer lengths and alignments (what 'csum bench' runs before timing)\n");
}

/* The features a row needs that CSUM_CPU_DISABLE hides, in the order of its `requires`,
 * space-separated, when they are all it lacks (the CPU has them); 0 when the CPU itself lacks
 * one, so that "this CPU lacks" is true. */
static int hidden_features(const struct csum_kernel *k, char *buf, size_t size)
{
    uint32_t missing = k->features & ~csum_cpu_features();
    const char *req = k->sum.requires;
    size_t used = 0;
    if (!missing || (missing & ~csum_cpu_features_hidden()))
        return 0;
    buf[0] = '\0';
    while (*req) {
        size_t len = strcspn(req, " ");
        for (unsigned bit = 0; bit < 32 && len; bit++) {
            const char *name = csum_cpu_feature_name(bit);
            if (!name || !(missing & (1u << bit)) || strlen(name) != len ||
                strncmp(name, req, len))
                continue;
            int n = snprintf(buf + used, size - used, "%s%s", used ? " " : "", name);
            if (n > 0 && (size_t)n < size - used)
                used += (size_t)n;
        }
        req += len + strspn(req + len, " ");
    }
    return 1;
}

/* Nonzero if some operation has an entry called `name`. */
static int known_name(const char *name)
{
    struct csum_op_entry e;
    for (int op = 0; op < CSUM_OP_COUNT; op++)
        for (size_t i = 0; csum_op_entry_at((enum csum_op)op, i, &e) == 0; i++)
            if (!strcmp(e.name, name))
                return 1;
    return 0;
}

static int selfcheck(enum csum_op op, const struct csum_op_entry *e, enum selfcheck_level level,
                     struct selfcheck_result *r)
{
    if (op == CSUM_OP_PARTIAL)
        return oracle_selfcheck(e->fn.partial, level, r);
    if (op == CSUM_OP_COPY)
        return oracle_selfcheck_copy(e->fn.copy, level, r);
    return oracle_selfcheck_batch(e->fn.batch, level, r);
}

/* The first thing that went wrong, after "FAIL  N of M comparisons wrong; first: ". */
static void print_first_mismatch(enum csum_op op, const struct selfcheck_result *r)
{
    if (op == CSUM_OP_IPV4_BATCH)
        printf("%zu headers, header %zu: ", r->len, r->index);
    else if (op == CSUM_OP_COPY)
        printf("len %zu src align %zu dst align %zu initial 0x%08x: ", r->len, r->align,
               r->dst_align, (unsigned)r->initial);
    else
        printf("len %zu align %zu initial 0x%08x: ", r->len, r->align, (unsigned)r->initial);
    if (r->problem)
        printf("%s\n", r->problem);
    else
        printf("got 0x%04x, oracle 0x%04x\n", r->got, r->want);
}

int cmd_verify(int argc, char **argv)
{
    enum selfcheck_level level = SELFCHECK_THOROUGH;
    int first_name = argc, names_only = 0; /* after "--" every argument is a name */
    for (int i = 1; i < argc; i++) {
        if (!names_only && !strcmp(argv[i], "--")) {
            names_only = 1;
        } else if (!names_only && (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
            print_verify_help();
            return EXIT_OK;
        } else if (!names_only && !strcmp(argv[i], "--quick")) {
            level = SELFCHECK_QUICK;
        } else if (!names_only && argv[i][0] == '-') {
            return usage_error("verify: unknown option '%s'", argv[i]);
        } else {
            if (!known_name(argv[i]))
                return usage_error("verify: unknown implementation '%s' (see 'csum impls')",
                                   argv[i]);
            if (first_name == argc)
                first_name = i;
        }
    }

    int failed = 0, named = first_name < argc;
    size_t verified = 0, skipped = 0, hidden_skipped = 0;
    for (int op = 0; op < CSUM_OP_COUNT; op++) {
        struct csum_op_entry e;
        int listed = 0;
        for (size_t i = 0; csum_op_entry_at((enum csum_op)op, i, &e) == 0; i++) {
            int wanted = !named;
            for (int a = first_name; a < argc && !wanted; a++)
                wanted = argv[a][0] != '-' && !strcmp(argv[a], e.name);
            if (!wanted)
                continue;
            if (!listed++)
                printf("%s:\n", op_names[op]);
            if (!csum_kernel_supported(e.kernel)) {
                char hidden[128];
                if (hidden_features(e.kernel, hidden, sizeof hidden)) {
                    printf("%-14s SKIPPED: not verified, CSUM_CPU_DISABLE hides %s\n", e.name,
                           hidden);
                    hidden_skipped++;
                } else
                    printf("%-14s SKIPPED: not verified, this CPU lacks some of: %s\n", e.name,
                           e.kernel->sum.requires);
                skipped++;
                continue;
            }
            verified++;
            struct selfcheck_result r;
            if (selfcheck((enum csum_op)op, &e, level, &r) == 0) {
                printf("%-14s ok    (%zu comparisons with the oracle)\n", e.name, r.checked);
            } else {
                failed++;
                printf("%-14s FAIL  %zu of %zu comparisons wrong; first: ", e.name,
                       r.mismatches, r.checked);
                print_first_mismatch((enum csum_op)op, &r);
            }
        }
    }
    const char *why = hidden_skipped ? "not supported by this CPU, or hidden by CSUM_CPU_DISABLE"
                                     : "not supported by this CPU";
    printf("%zu verified, %zu failed, %zu skipped (%s)\n", verified, (size_t)failed, skipped, why);
    if (named && skipped)
        fprintf(stderr, "csum: verify: %zu of the implementations asked for cannot run %s and "
                        "were not verified\n", skipped,
                hidden_skipped ? "here (CSUM_CPU_DISABLE hides what they need)" : "on this CPU");
    return failed || (named && skipped) ? EXIT_FAILURE_FOUND : EXIT_OK;
}
