/*
 * csum.pcap's whole coupling to csum's pcap code. The CLI's `csum pcap` subcommand (the
 * driver cli/cmd_pcap.c and its pieces cli/cmd_pcap_*.c, with their header cli/cmd_pcap.h) is
 * compiled into the extension unchanged, every file #included below into this one translation
 * unit, over the same csum_pcap library the tool links; what is process-wide in a program is
 * made per call here, so that threads may run it at once and it never disturbs the
 * interpreter:
 *
 *  - stdout and stderr are this thread's memory streams. csum.pcap.verify() parses the very
 *    document `csum pcap verify --json` prints, so Python's results equal the CLI's by
 *    construction, and a new member of that document reaches Python without a change here.
 *  - STDIN_FILENO and STDOUT_FILENO, which the command reads for IN "-" and writes for OUT
 *    "-", are descriptors the caller gives: a pipe that Python fills from bytes or a file
 *    object, or one it empties into a file object; -1 when none is given (Python then never
 *    passes "-"). Standard error is never a terminal (STDERR_FILENO is -1), so there is no
 *    progress line, and isatty() leaves errno alone.
 *  - signal() does nothing. `fix` points SIGINT, SIGTERM, SIGHUP and SIGPIPE at a handler that
 *    removes its temporary file and re-raises, then sets them to SIG_DFL: in Python that would
 *    take Ctrl-C away from the interpreter and make a write to a closed pipe kill the process.
 *    `fix` removes its temporary file itself on every error; only a signal that ends the whole
 *    process can leave one behind (as for any Python program writing a file).
 *  - umask() does not change the process's mask: `fix` from "-" to a file reads it (set to 0,
 *    then back) for the mode of OUT, and for that moment another thread would create files
 *    with mask 0. Here it is read from /proc/self/status (set and restored only where there is
 *    no /proc).
 *  - csum_pcap_fix_fd() is wrapped (adapter_fix_fd below): the CLI's fix prints one text line
 *    per change, without its offset, so the fix walk's checks also go into a third memory
 *    stream, through the CLI's own JSON printers, as the document `csum pcap verify --json`
 *    prints (same members, the checks it lists: bad and offload), plus one member of its
 *    own, "fcs": [{"frame", "stored", "computed", "offset"}], the FCSs the fix wrote (kept
 *    in a fourth stream until the checks are closed); csum.pcap.fix() reads that.
 *  - csum_pcap_verify_fd() is wrapped too (adapter_verify_fd below), and both walks get the
 *    caller's should_stop (csum_pcap_options; the CLI sets none, its signals end it): the
 *    extension's, which looks for a Ctrl-C while the GIL is released. A walk it stops fails
 *    as on any other error (its kind "interrupted"): `fix` removes its temporary file, and
 *    the caller raises the signal handler's exception instead of reading the result.
 *
 * What this file relies on in cli/cmd_pcap*.c, for whoever changes them: the entry point
 * `int cmd_pcap(int argc, char **argv)`; the list of files below, every cli/cmd_pcap*.c file
 * (a new piece is one more #include here, or the extension fails to link); output only
 * through printf/fprintf/fputc/fputs/puts/putchar/fflush on stdout and stderr (no write(2) to
 * 1 or 2, no perror); standard input and output only as STDIN_FILENO/STDOUT_FILENO; signals
 * only through signal(); the umask only read through umask(); the capture walked only with
 * csum_pcap_verify_fd() and csum_pcap_fix_fd() (else Ctrl-C waits); the helpers declared in
 * cli/cli.h (usage_error() is defined below, file_same/file_temp_* come from cli/file_io.c);
 * the headers included here before the macros (a new header included by a piece after them
 * must not declare what the macros rename); names that are static in one piece and another
 * never alike (here they share one translation unit); and, for the fix wrapper, the struct
 * report of cli/cmd_pcap.h (members a and name, set before the walk), pcap_cli_listed(),
 * pcap_cli_on_check(), pcap_cli_on_progress(), pcap_cli_on_fcs(), pcap_cli_json_string(),
 * pcap_cli_print_check_json() and pcap_cli_print_summary_members(), with their current
 * signatures. A change to any of these fails to compile here, except the
 * output and descriptor rules, which the Python tests exercise.
 *
 * cmd_pcap_output.c's `pending_tmp` (the temporary file its signal handler removes) is per
 * thread, so fix() calls running at once in several threads do not share it; the handler
 * itself is never installed here.
 */
#define _GNU_SOURCE /* open_memstream */
#include "pcap_adapter.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "csum_pcap.h"

static __thread FILE *adapter_out, *adapter_err, *adapter_doc, *adapter_fcs;
static __thread char *adapter_fcs_buf; /* adapter_fcs's memory */
static __thread size_t adapter_fcs_len;
static __thread int adapter_stdin_fd = -1, adapter_stdout_fd = -1, adapter_usage;
static __thread int (*adapter_should_stop)(void *ctx); /* the caller's, or NULL */
static __thread void *adapter_stop_ctx;

/* Every walk's should_stop: the caller's, with its own context (the walk's is the CLI's). */
static int adapter_stop(void *ignored)
{
    (void)ignored;
    return adapter_should_stop(adapter_stop_ctx);
}

static int adapter_isatty(int fd)
{
    int e = errno, tty = fd >= 0 && isatty(fd);
    errno = e;
    return tty;
}

static void (*adapter_signal(int sig, void (*handler)(int)))(int)
{
    (void)sig;
    (void)handler;
    return SIG_DFL;
}

/* The process's umask, without changing it (see above). */
static mode_t adapter_umask(mode_t ignored)
{
    (void)ignored;
    FILE *f = fopen("/proc/self/status", "re");
    if (f) {
        char line[256];
        unsigned mask;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "Umask: %o", &mask) == 1) {
                fclose(f);
                return (mode_t)mask;
            }
        }
        fclose(f);
    }
    mode_t mask = umask(022); /* no /proc (or no Umask line, Linux < 4.7) */
    umask(mask);
    return mask;
}

static int adapter_fix_fd(int in_fd, int out_fd, const struct csum_pcap_options *o,
                          struct csum_pcap_summary *s, struct csum_pcap_error *e);

/* verify's walk, with the caller's should_stop. */
static int adapter_verify_fd(int fd, const struct csum_pcap_options *o,
                             struct csum_pcap_summary *s, struct csum_pcap_error *e)
{
    struct csum_pcap_options stoppable = *o;
    stoppable.should_stop = adapter_should_stop ? adapter_stop : NULL;
    return csum_pcap_verify_fd(fd, &stoppable, s, e);
}

/* From here on, the CLI's process-wide things are this call's (see the top). */
#undef stdout
#undef stderr
#define stdout adapter_out
#define stderr adapter_err
#define printf(...) fprintf(adapter_out, __VA_ARGS__)
#define puts(s) (fputs((s), adapter_out) == EOF ? EOF : fputc('\n', adapter_out))
#define putchar(c) fputc((c), adapter_out)
#undef STDIN_FILENO
#undef STDOUT_FILENO
#undef STDERR_FILENO
#define STDIN_FILENO adapter_stdin_fd
#define STDOUT_FILENO adapter_stdout_fd
#define STDERR_FILENO (-1)
#define isatty(fd) adapter_isatty(fd)
#define signal(sig, handler) adapter_signal((sig), (handler))
#define umask(mask) adapter_umask(mask)
#define csum_pcap_fix_fd adapter_fix_fd
#define csum_pcap_verify_fd adapter_verify_fd

#include "cmd_pcap.c"
#include "cmd_pcap_args.c"
#include "cmd_pcap_help.c"
#include "cmd_pcap_json.c"
#include "cmd_pcap_output.c"
#include "cmd_pcap_progress.c"
#include "cmd_pcap_report.c"
#include "cmd_pcap_text.c"

/* main.c's helper, which the extension does not compile. Same text as the CLI's, without
 * its "Try 'csum --help'"; the caller learns that it was a usage error (ValueError). */
int usage_error(const char *fmt, ...)
{
    va_list ap;
    adapter_usage = 1;
    fputs("csum: ", adapter_err);
    va_start(ap, fmt);
    vfprintf(adapter_err, fmt, ap);
    va_end(ap);
    fputc('\n', adapter_err);
    return EXIT_USAGE;
}

/* The CLI's hint names a help text; the extension's usage errors have none to name. */
void usage_hint(const char *command)
{
    (void)command;
}

/* ---- fix: the walk's document, as verify --json prints it, and its FCSs ------------------- */

struct fix_tap {
    struct report *cli;   /* the CLI's own report: its callbacks get it unchanged */
    struct report doc;    /* pcap_cli_print_check_json's count of listed checks */
    uint64_t fcs_listed;  /* FCSs in adapter_fcs */
};

/* Run f(args) with the CLI's stdout being the document stream. */
#define TO_DOC(call)                                                                          \
    do {                                                                                      \
        FILE *saved_out = adapter_out;                                                        \
        adapter_out = adapter_doc;                                                            \
        call;                                                                                 \
        adapter_out = saved_out;                                                              \
    } while (0)

static void tap_check(void *arg, const struct csum_pcap_check *c)
{
    struct fix_tap *t = arg;
    if (pcap_cli_listed(t->cli->a, c->verdict))
        TO_DOC(pcap_cli_print_check_json(&t->doc, c));
    pcap_cli_on_check(t->cli, c);
}

static void tap_progress(void *arg, uint64_t bytes_in, uint64_t packets)
{
    struct fix_tap *t = arg;
    pcap_cli_on_progress(t->cli, bytes_in, packets);
}

/* An FCS computed again: into the document's "fcs" list (values as hex strings, as the
 * checks' are), and to the CLI's list of changes. */
static void tap_fcs(void *arg, const struct csum_pcap_fcs *f)
{
    struct fix_tap *t = arg;
    fprintf(adapter_fcs, "%s\n  {\"frame\": %" PRIu64 ", \"stored\": \"0x%08" PRIx32
            "\", \"computed\": \"0x%08" PRIx32 "\", \"offset\": %" PRIu64 "}",
            t->fcs_listed++ ? "," : "", f->frame, f->stored, f->computed, f->offset);
    pcap_cli_on_fcs(t->cli, f);
}

#undef csum_pcap_fix_fd
#undef csum_pcap_verify_fd

static int adapter_fix_fd(int in_fd, int out_fd, const struct csum_pcap_options *o,
                          struct csum_pcap_summary *s, struct csum_pcap_error *e)
{
    struct fix_tap t = { .cli = o->ctx };
    t.doc.a = t.cli->a;
    struct csum_pcap_options tapped = *o;
    tapped.on_check = tap_check;
    tapped.on_progress = tap_progress;
    tapped.on_fcs = o->on_fcs ? tap_fcs : NULL; /* every callback gets the CLI's context */
    tapped.should_stop = adapter_should_stop ? adapter_stop : NULL;
    tapped.ctx = &t;
    TO_DOC((printf("{\"file\": "), pcap_cli_json_string(t.cli->name), printf(",\n \"checks\": [")));
    const int rc = csum_pcap_fix_fd(in_fd, out_fd, &tapped, s, e);
    TO_DOC(pcap_cli_print_summary_members(s, rc != 0 ? e : NULL));
    fflush(adapter_fcs); /* adapter_fcs_buf[0..adapter_fcs_len) holds what was written */
    fputs(",\n \"fcs\": [", adapter_doc);
    fwrite(adapter_fcs_buf, 1, adapter_fcs_len, adapter_doc);
    fputs("]}\n", adapter_doc);
    return rc;
}

/* ---- the entry points ------------------------------------------------------------------------ */

#undef stdout
#undef stderr
#undef printf
#undef puts
#undef putchar
#undef isatty
#undef signal
#undef umask

int pcap_adapter_run(int argc, char **argv, int in_fd, int out_fd,
                     int (*should_stop)(void *ctx), void *stop_ctx, struct pcap_adapter_result *r)
{
    memset(r, 0, sizeof *r);
    adapter_out = open_memstream(&r->out, &r->out_len);
    adapter_err = open_memstream(&r->err, &r->err_len);
    adapter_doc = open_memstream(&r->doc, &r->doc_len);
    adapter_fcs = open_memstream(&adapter_fcs_buf, &adapter_fcs_len);
    if (!adapter_out || !adapter_err || !adapter_doc || !adapter_fcs) {
        int e = errno;
        FILE *streams[] = { adapter_out, adapter_err, adapter_doc, adapter_fcs };
        for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++)
            if (streams[i])
                fclose(streams[i]);
        free(r->out);
        free(r->err);
        free(r->doc);
        free(adapter_fcs_buf);
        memset(r, 0, sizeof *r);
        adapter_out = adapter_err = adapter_doc = adapter_fcs = NULL;
        adapter_fcs_buf = NULL;
        errno = e;
        return -1;
    }
    adapter_stdin_fd = in_fd;
    adapter_stdout_fd = out_fd;
    adapter_should_stop = should_stop;
    adapter_stop_ctx = stop_ctx;
    adapter_usage = 0;
    errno = 0;
    r->status = cmd_pcap(argc, argv);
    r->usage = adapter_usage;
    /* Only a command that failed for a reason other than usage has a system error to give:
     * after a run that went through, errno is whatever a call along the way left there. */
    r->error = r->status == EXIT_USAGE && !r->usage ? errno : 0;
    adapter_stdin_fd = adapter_stdout_fd = -1;
    adapter_should_stop = NULL;
    adapter_stop_ctx = NULL;
    /* Closing a memory stream makes its buffer final (NUL-terminated). */
    int closed = fclose(adapter_out) | fclose(adapter_err) | fclose(adapter_doc);
    fclose(adapter_fcs); /* copied into the document already */
    free(adapter_fcs_buf);
    adapter_out = adapter_err = adapter_doc = adapter_fcs = NULL;
    adapter_fcs_buf = NULL;
    if (closed != 0 || !r->out || !r->err || !r->doc) {
        free(r->out);
        free(r->err);
        free(r->doc);
        memset(r, 0, sizeof *r);
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

const char *pcap_adapter_compression(int i, const char **library)
{
    if (i < CSUM_PCAP_GZIP || i > CSUM_PCAP_ZSTD)
        return NULL;
    *library = csum_pcap_compression_library((enum csum_pcap_compression)i);
    return csum_pcap_compression_name((enum csum_pcap_compression)i);
}

int pcap_adapter_max_ports(void)
{
    return CSUM_PCAP_MAX_PORTS;
}
