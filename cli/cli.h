/*
 * The `csum` command: one file per subcommand, all using the public API (csum.h); csum impls
 * also reads two internal reports (src/cpu_features.h, src/plan.h) csum.h has no query for,
 * and csum verify the IPv4 header batches' entry points (src/plan.h).
 */
#ifndef CSUM_CLI_H
#define CSUM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include "file_io.h" /* file_same, file_temp_*: used by pcap fix */

/* Exit statuses shared by every subcommand. */
enum { EXIT_OK = 0, EXIT_FAILURE_FOUND = 1, EXIT_USAGE = 2 };

/* Print "csum: <message>" and a hint to stderr; returns EXIT_USAGE for `return usage_error(...)`. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* From here on the hint of a usage error is "Try 'csum COMMAND --help'." (COMMAND may be two
 * words, "pcap fix"): the help that explains the arguments that were wrong. */
void usage_hint(const char *command);

/* Each subcommand gets argv with argv[0] = its own name. */
int cmd_impls(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sum(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_pcap(int argc, char **argv);

#endif /* CSUM_CLI_H */
