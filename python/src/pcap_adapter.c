/*
 * csum.pcap's whole coupling to csum's pcap code: the CLI's `csum pcap` subcommand
 * (cli/cmd_pcap.c, which calls csum_pcap_verify_buffer / csum_pcap_fix_buffer and writes the
 * --json document) is compiled into the extension unchanged, with its standard output and
 * error redirected to per-thread memory streams. csum.pcap.verify() parses the very document
 * `csum pcap verify --json FILE` prints, so Python's results equal the CLI's by construction
 * and a change to that document reaches Python without a change here.
 *
 * What this file relies on, for whoever changes cli/cmd_pcap.c: the entry point
 * `int cmd_pcap(int argc, char **argv)`, output only through printf/fprintf/fputc/fputs/puts/
 * putchar/fflush on stdout and stderr, the helpers declared in cli/cli.h (usage_error() is
 * defined below, file_map_open/file_map_close/file_same/file_replace come from cli/file_io.c),
 * and the headers included here before the macros (a new header included by cmd_pcap.c after
 * them must not declare stdio functions).
 */
#define _GNU_SOURCE /* open_memstream */
#include "pcap_adapter.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "csum_pcap.h"

static __thread FILE *adapter_out, *adapter_err;

/* From here on, the CLI's standard streams are this thread's memory streams. */
#undef stdout
#undef stderr
#define stdout adapter_out
#define stderr adapter_err
#define printf(...) fprintf(adapter_out, __VA_ARGS__)
#define puts(s) (fputs((s), adapter_out) == EOF ? EOF : fputc('\n', adapter_out))
#define putchar(c) fputc((c), adapter_out)

#include "cmd_pcap.c"

/* main.c's helper, which the extension does not compile. Same text as the CLI's. */
int usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("csum: ", adapter_err);
    va_start(ap, fmt);
    vfprintf(adapter_err, fmt, ap);
    va_end(ap);
    fputc('\n', adapter_err);
    return EXIT_USAGE;
}

#undef stdout
#undef stderr
#undef printf
#undef puts
#undef putchar

int pcap_adapter_run(int argc, char **argv, struct pcap_adapter_result *r)
{
    memset(r, 0, sizeof *r);
    adapter_out = open_memstream(&r->out, &r->out_len);
    adapter_err = open_memstream(&r->err, &r->err_len);
    if (!adapter_out || !adapter_err) {
        int e = errno;
        if (adapter_out)
            fclose(adapter_out);
        if (adapter_err)
            fclose(adapter_err);
        free(r->out);
        free(r->err);
        memset(r, 0, sizeof *r);
        adapter_out = adapter_err = NULL;
        errno = e;
        return -1;
    }
    errno = 0;
    r->status = cmd_pcap(argc, argv);
    r->error = errno;
    /* Closing a memory stream makes its buffer final (NUL-terminated). */
    int closed = fclose(adapter_out) | fclose(adapter_err);
    adapter_out = adapter_err = NULL;
    if (closed != 0 || !r->out || !r->err) {
        free(r->out);
        free(r->err);
        memset(r, 0, sizeof *r);
        errno = ENOMEM;
        return -1;
    }
    return 0;
}
