/*
 * csum pcap verify|fix: the checksums of a capture file, through the csum_pcap library.
 *
 * Both stream the capture (a file, or standard input as "-"; plain, gzip or zstd): memory
 * stays bounded whatever the size, every verdict is printed as it is found, and a capture cut
 * short still gets the verdicts for every complete packet before the error. `fix` writes a
 * temporary file next to OUT, created before IN is read, and renames it into place only when
 * the whole capture went through; an OUT that is a FIFO or a device is written directly.
 *
 * This file is the driver: it opens the capture, runs the walk and ends with the exit status.
 * The rest is in cmd_pcap_*.c, one job each (cmd_pcap.h lists them). The Python extension
 * compiles every one of them into itself (python/src/pcap_adapter.c).
 */
#define _GNU_SOURCE
#include "cmd_pcap.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio_ext.h> /* __fpurge: glibc and musl */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An interrupted capture (the library's cut_short): not an error, what comes before the cut
 * record was checked (and written); said on stderr, with what became of it. */
static void warn_cut_short(const char *cmd, const char *name, const struct csum_pcap_error *e,
                           const char *kept)
{
    fprintf(stderr, "csum: pcap %s: %s: warning: capture cut short at byte offset %" PRIu64
            ": %s (interrupted?); %s\n", cmd, name, e->offset, e->message, kept);
}

/* --strict's failure without a bad checksum: whether something was left unchecked, and if so
 * what, said on stderr (the summary's counts alone do not say which of them failed the run). */
static int strict_unmet(const char *name, const struct csum_pcap_summary *s, int cut)
{
    const struct {
        uint64_t n;
        const char *what;
        int counted; /* said with its count */
    } unmet[] = {
        { pcap_cli_total_of(s, CSUM_PCAP_OFFLOAD), "offload placeholders", 1 },
        { pcap_cli_total_of(s, CSUM_PCAP_NOT_CHECKABLE), "checksums not checkable", 1 },
        { pcap_cli_skipped_total(s), "packets skipped", 1 },
        { s->undissected, "packets not dissected", 1 },
        { (uint64_t)cut, "the capture cut short", 0 },
    };
    const char *sep = "";
    for (size_t i = 0; i < sizeof unmet / sizeof unmet[0]; i++) {
        if (!unmet[i].n)
            continue;
        if (!*sep)
            fprintf(stderr, "csum: pcap verify: %s: --strict: not all checked: ", name);
        if (unmet[i].counted)
            fprintf(stderr, "%s%" PRIu64 " %s", sep, unmet[i].n, unmet[i].what);
        else
            fprintf(stderr, "%s%s", sep, unmet[i].what);
        sep = ", ";
    }
    if (*sep)
        fputc('\n', stderr);
    return *sep != '\0';
}

/* "csum: pcap verify: FILE: malformed capture at byte offset N: what" on stderr; a file that
 * csum does not read (xz-compressed, say) or that could not be read is not malformed, and the
 * message says what it is (or what failed) alone: "csum: pcap verify: FILE: what". */
static int capture_error(const char *cmd, const char *name, const struct csum_pcap_error *e)
{
    if (e->kind == CSUM_PCAP_ERROR_MALFORMED)
        fprintf(stderr, "csum: pcap %s: %s: malformed capture at byte offset %" PRIu64 ": %s\n",
                cmd, name, e->offset, e->message);
    else
        fprintf(stderr, "csum: pcap %s: %s: %s\n", cmd, name, e->message);
    return EXIT_USAGE;
}

static int finish_output(const char *cmd)
{
    /* errno names the cause when this flush failed. When it had nothing left to fail on, the
     * last write failed (stdio drops what a failed write held: cli/stdout_error.h) and errno
     * is still that write's: verify's summary is its last output, and between it and here
     * come only a flush of stdout and messages on stderr. (Read here, not through
     * stdout_error_errno(): the Python extension compiles this file on a stream of its own.) */
    const int last = errno;
    const int e = fflush(stdout) != 0 ? errno : ferror(stdout) ? last : 0;
    if (!e && !ferror(stdout))
        return EXIT_OK;
    fprintf(stderr, "csum: pcap %s: cannot write output%s%s\n", cmd, e ? ": " : "",
            e ? strerror(e) : "");
    clearerr(stdout); /* said: main() need not say it again */
    return EXIT_USAGE;
}

/* The end of fix's list of changes, given the fix's own status: a reader that went away
 * early (EPIPE, `| head`) is no failure; another error is one, said with OUT written all the
 * same when the fix went through (after a failure its message said enough). */
static int finish_listing(struct report *r, const char *out, int status)
{
    if (!r->text_failed && fflush(r->text) != 0) {
        r->text_failed = 1;
        r->text_errno = errno;
    }
    if (!r->text_failed)
        return status;
    /* What is still buffered cannot be written either: dropped, so that exit does not try
     * again (and main() need not say it). */
    __fpurge(r->text);
    clearerr(r->text);
    if (r->text_errno == EPIPE || status != EXIT_OK)
        return status;
    fprintf(stderr, "csum: pcap fix: %s%s, but the list of changes could not be: %s\n",
            out ? out : "", out ? " was written" : "the dry run went through",
            strerror(r->text_errno));
    return EXIT_USAGE;
}

/* Open a capture to read ("-": standard input); -1 with errno. */
static int open_input(const char *name, struct stat *st)
{
    int fd = strcmp(name, "-") ? open(name, O_RDONLY) : STDIN_FILENO;
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || S_ISDIR(st->st_mode)) {
        int e = S_ISDIR(st->st_mode) ? EISDIR : errno;
        if (fd != STDIN_FILENO)
            close(fd);
        return errno = e, -1;
    }
    if (S_ISREG(st->st_mode))
        posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    return fd;
}

/* ---- verify --------------------------------------------------------------------------------- */

static int pcap_verify(int argc, char **argv)
{
    struct args a;
    int rc = pcap_cli_parse_args("verify", 0, argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (a.n_names == 0)
        return usage_error("pcap verify: no FILE given ('-' for standard input)");
    const char *name = a.names[0];
    struct report r = { .a = &a };
    a.opt.on_check = pcap_cli_on_check;
    a.opt.on_progress = pcap_cli_on_progress;
    a.opt.ctx = &r;

    struct stat st;
    int fd = open_input(name, &st);
    if (a.json) {
        printf("{\"file\": ");
        pcap_cli_json_string(name);
        if (fd < 0) {
            printf(", \"error\": {\"message\": ");
            pcap_cli_json_string(strerror(errno));
            printf("}}\n");
        } else {
            printf(",\n \"checks\": [");
        }
    }
    if (fd < 0) {
        fprintf(stderr, "csum: pcap verify: %s: %s\n", name, strerror(errno));
        fflush(stdout);
        return EXIT_USAGE;
    }

    struct csum_pcap_summary s;
    struct csum_pcap_error e;
    pcap_cli_progress_start(&r, fd, name);
    const int failed = csum_pcap_verify_fd(fd, &a.opt, &s, &e) != 0;
    pcap_cli_progress_end(&r);
    if (fd != STDIN_FILENO)
        close(fd);

    if (a.json)
        pcap_cli_print_summary_json(&s, failed ? &e : NULL);
    else if (!failed || s.bytes > 0) /* not for a file that is no capture at all */
        pcap_cli_print_summary_text(name, &s, (a.opt.flags & CSUM_PCAP_CHECK_FCS) != 0);
    int status = EXIT_OK;
    const int cut = failed && e.cut_short;
    if (cut) {
        fflush(stdout);
        warn_cut_short("verify", name, &e, "the incomplete last record was not checked");
    }
    if (failed && !cut) {
        fflush(stdout);
        status = capture_error("verify", name, &e);
    } else if (pcap_cli_total_of(&s, CSUM_PCAP_BAD)) {
        status = EXIT_FAILURE_FOUND;
    } else if (a.strict && strict_unmet(name, &s, cut)) {
        status = EXIT_FAILURE_FOUND;
    }
    if (finish_output("verify") != EXIT_OK)
        status = EXIT_USAGE;
    return status;
}

/* ---- fix ------------------------------------------------------------------------------------ */

static int pcap_fix(int argc, char **argv)
{
    struct args a;
    int rc = pcap_cli_parse_args("fix", 1, argc, argv, &a);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    const char *in = a.names[0], *out = a.names[1];
    if (!in)
        return usage_error("pcap fix: no input file given ('-' for standard input)");
    if (!out && !a.dry_run)
        return usage_error("pcap fix: no output file given (or use --dry-run)");
    if (out && a.dry_run)
        out = NULL; /* nothing is written */

    struct stat in_st;
    memset(&in_st, 0, sizeof in_st);
    /* Standard input too: closed, the temporary OUT would take its descriptor and be read. */
    if (strcmp(in, "-") ? stat(in, &in_st) != 0 : fstat(STDIN_FILENO, &in_st) != 0) {
        fprintf(stderr, "csum: pcap fix: %s: %s\n", in, strerror(errno));
        return EXIT_USAGE;
    }
    struct fix_output o = { .fd = -1 };
    if (out && pcap_cli_check_output(in, out, &in_st, &o) != EXIT_OK) {
        pcap_cli_release_output(&o);
        return EXIT_USAGE;
    }

    int in_fd = open_input(in, &in_st);
    if (in_fd < 0) {
        fprintf(stderr, "csum: pcap fix: %s: %s\n", in, strerror(errno));
        pcap_cli_release_output(&o);
        return EXIT_USAGE;
    }
    /* With OUT on standard output, the list of changes goes to stderr. Otherwise a broken pipe
     * on standard output is the list's (`| head`): its writes fail instead, and the fix goes
     * on (a broken pipe as OUT is a failed write too). */
    struct report r = { .a = &a, .fixing = 1,
                        .text = pcap_cli_writes_stdout(out, &o) ? stderr : stdout };
    if (r.text == stdout)
        signal(SIGPIPE, SIG_IGN);
    a.opt.on_check = pcap_cli_on_check;
    a.opt.on_progress = pcap_cli_on_progress;
    a.opt.on_fcs = pcap_cli_on_fcs;
    a.opt.ctx = &r;
    struct csum_pcap_summary s;
    struct csum_pcap_error e;
    pcap_cli_progress_start(&r, in_fd, in);
    const int failed = csum_pcap_fix_fd(in_fd, o.fd, &a.opt, &s, &e) != 0;
    pcap_cli_progress_end(&r);
    if (in_fd != STDIN_FILENO)
        close(in_fd);

    int status;
    const int cut = failed && e.cut_short;
    if (failed && !cut) {
        fflush(stdout);
        if (e.output) { /* the capture may be fine: OUT (or "-") is the problem */
            fprintf(stderr, "csum: pcap fix: %s: %s\n", out, e.message);
            status = EXIT_USAGE;
        } else {
            status = capture_error("fix", in, &e);
        }
        pcap_cli_release_output(&o); /* a direct OUT keeps what was written */
    } else {
        status = pcap_cli_commit_output(out, &in_st, &o);
    }
    if (status == EXIT_OK && cut) {
        fflush(stdout);
        warn_cut_short("fix", in, &e, out ? "the output holds every whole record before it, "
                       "without the incomplete one" : "the incomplete last record was not checked");
    }
    if (status == EXIT_OK) {
        uint64_t fixed = pcap_cli_checksums_of(&s, CSUM_PCAP_BAD); /* the FCSs written: fcs_fixed */
        if (a.opt.flags & CSUM_PCAP_FIX_OFFLOAD)
            fixed += pcap_cli_total_of(&s, CSUM_PCAP_OFFLOAD);
        if (!r.text_failed) {
            uint64_t offload = a.opt.flags & CSUM_PCAP_FIX_OFFLOAD
                                   ? 0 : pcap_cli_total_of(&s, CSUM_PCAP_OFFLOAD);
            /* A capture of the host's own traffic (loopback, say) may have nothing else: say
             * how to replace them, or the fix seems to do nothing. */
            fprintf(r.text, "%s%s%s: %" PRIu64 " packets, %s %" PRIu64 " checksum%s and %" PRIu64
                    " FCS%s; left alone: %" PRIu64 " not checkable, %" PRIu64 " offload%s", in,
                    out ? " -> " : "", out ? out : "", s.packets,
                    a.dry_run ? "would fix" : "fixed", fixed, fixed == 1 ? "" : "s", s.fcs_fixed,
                    s.fcs_fixed == 1 ? "" : "s",
                    pcap_cli_total_of(&s, CSUM_PCAP_NOT_CHECKABLE), offload,
                    offload ? " (--fix-offload replaces them)" : "");
            /* packets it could not look into, whose bad checksums (if any) stay bad */
            pcap_cli_print_unchecked(r.text, &s);
            fputc('\n', r.text);
        }
    }
    status = finish_listing(&r, out, status);
    signal(SIGPIPE, SIG_DFL);
    return status;
}

int cmd_pcap(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("pcap: which one: 'csum pcap verify FILE' or 'csum pcap fix IN OUT'?");
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        pcap_cli_print_pcap_help();
        return EXIT_OK;
    }
    if (!strcmp(sub, "verify")) {
        usage_hint("pcap verify");
        return pcap_verify(argc - 1, argv + 1);
    }
    if (!strcmp(sub, "fix")) {
        usage_hint("pcap fix");
        return pcap_fix(argc - 1, argv + 1);
    }
    return usage_error("pcap: unknown subcommand '%s' (verify or fix)", sub);
}
