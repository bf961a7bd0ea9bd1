/*
 * The `csum` command: one file per subcommand, all using only the public API (csum.h).
 */
#ifndef CSUM_CLI_H
#define CSUM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* Exit statuses shared by every subcommand. */
enum { EXIT_OK = 0, EXIT_FAILURE_FOUND = 1, EXIT_USAGE = 2 };

/* Print "csum: <message>" and a hint to stderr; returns EXIT_USAGE for `return usage_error(...)`. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Each subcommand gets argv with argv[0] = its own name. */
int cmd_impls(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sum(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_pcap(int argc, char **argv);

/* Nonzero when `path` names the file described by `st` (same device and inode). */
int file_same(const struct stat *st, const char *path);

/* Atomic replacement of `path` (file_io.c): file_temp_open creates a temporary file next to
 * it (returns its descriptor and malloc'ed name, or -1 with errno); write to the descriptor,
 * then file_temp_commit (sets the mode, fsync, rename over `path`; 0 or -1 with errno, the
 * temporary file removed either way) or file_temp_abort (close and remove it). */
int file_temp_open(const char *path, char **tmp_path);
int file_temp_commit(int fd, char *tmp_path, const char *path, mode_t mode);
void file_temp_abort(int fd, char *tmp_path);

#endif /* CSUM_CLI_H */
