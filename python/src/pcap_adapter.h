/*
 * The one place the extension touches csum's pcap code: it runs the CLI's own
 * `csum pcap ...` (cli/cmd_pcap.c) with its output captured in memory. See pcap_adapter.c.
 */
#ifndef CSUM_PY_PCAP_ADAPTER_H
#define CSUM_PY_PCAP_ADAPTER_H

#include <stddef.h>

struct pcap_adapter_result {
    int status;   /* the command's exit status: 0, 1 (bad checksums found) or 2 (error) */
    int error;    /* status 2 but not usage: errno after the command, for OSError; else 0 */
    int usage;    /* 1 when the status 2 is for bad usage (bad options, missing names) */
    char *out;    /* what it printed on stdout (malloc'ed, NUL-terminated); free() all three */
    size_t out_len;
    char *err;    /* what it printed on stderr */
    size_t err_len;
    char *doc;    /* fix: the fix walk's JSON document, as verify --json prints it; else "" */
    size_t doc_len;
};

/* Run `csum pcap ARGS...` (argv[0] = "pcap"), with in_fd as its standard input and out_fd as
 * its standard output descriptor (what "-" means to it; -1: none). The caller keeps both
 * descriptors open and closes them. should_stop(stop_ctx), when not NULL, is the walk's
 * (csum_pcap_options.should_stop, asked in this thread before each read and every 4096
 * packets): once it says stop, the command fails as on any other error (`fix` removes its
 * temporary file), and the result means nothing. Thread-safe: everything the command changes
 * is per thread. Returns 0, or -1 (errno set) when the output buffers could not be made.
 * Never touches the Python API (should_stop may), so the caller may release the GIL around
 * it. */
int pcap_adapter_run(int argc, char **argv, int in_fd, int out_fd,
                     int (*should_stop)(void *ctx), void *stop_ctx, struct pcap_adapter_result *r);

/* Compression i (1: gzip, 2: zstd): its name, and in *library the library that reads it in
 * this build or NULL; NULL for other i. */
const char *pcap_adapter_compression(int i, const char **library);

/* How many --vxlan-port (and --geneve-port) options the command takes. */
int pcap_adapter_max_ports(void);

#endif /* CSUM_PY_PCAP_ADAPTER_H */
