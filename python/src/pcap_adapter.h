/*
 * The one place the extension touches csum's pcap code: it runs the CLI's own
 * `csum pcap ...` (cli/cmd_pcap.c) with its output captured in memory. See pcap_adapter.c.
 */
#ifndef CSUM_PY_PCAP_ADAPTER_H
#define CSUM_PY_PCAP_ADAPTER_H

#include <stddef.h>

struct pcap_adapter_result {
    int status;   /* the command's exit status: 0, 1 (bad checksums found) or 2 (error) */
    int error;    /* errno after the command (0 unless a system call failed), for OSError */
    char *out;    /* what it printed on stdout (malloc'ed, NUL-terminated); free() both */
    size_t out_len;
    char *err;    /* what it printed on stderr */
    size_t err_len;
};

/* Run `csum pcap ARGS...` (argv[0] = "pcap"). Thread-safe: the output streams are per thread.
 * Returns 0, or -1 (errno set) when the output buffers could not be made. Never touches the
 * Python API, so the caller may release the GIL around it. */
int pcap_adapter_run(int argc, char **argv, struct pcap_adapter_result *r);

#endif /* CSUM_PY_PCAP_ADAPTER_H */
