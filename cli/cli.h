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

/* A whole file in memory (file_io.c): mapped when possible, else read. */
struct file_map {
    unsigned char *data;
    size_t len;
    struct stat st;
    int mapped;
};

/* Open and map `path` (privately writable if `writable`: changes never reach the file).
 * Returns 0, or -1 with errno set. */
int file_map_open(const char *path, int writable, struct file_map *m);
void file_map_close(struct file_map *m);

/* Nonzero when `path` names the file described by `st` (same device and inode). */
int file_same(const struct stat *st, const char *path);

/* Write `path` atomically: a temporary file in its directory, then rename. 0 or -1/errno. */
int file_replace(const char *path, const void *data, size_t len, mode_t mode);

#endif /* CSUM_CLI_H */
