/*
 * csum: command-line front end. Global options, then a subcommand.
 */
#include "cli.h"
#include "csum.h"
#include "stdout_error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
    { "impls",  cmd_impls,  "list implementations, the dispatch plan and why it applies" },
    { "verify", cmd_verify, "compare every supported implementation with the reference oracle" },
    { "sum",    cmd_sum,    "print the Internet checksum of each FILE (or stdin)" },
    { "bench",  cmd_bench,  "the lab: time every implementation side by side ('csum bench --help')" },
    { "tune",   cmd_tune,   "measure this host, print a dispatch plan (--write stores it)" },
    { "pcap",   cmd_pcap,   "verify or fix the checksums in a pcap/pcapng capture" },
    { "help",   cmd_help,   "this help, or a command's: 'csum help pcap' is 'csum pcap --help'" },
};

static const char *hint_command; /* usage_hint(): NULL before a command is known */

void usage_hint(const char *command)
{
    hint_command = command;
}

int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("csum: ", stderr);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'csum%s%s --help'.\n", hint_command ? " " : "",
            hint_command ? hint_command : "");
    va_end(ap);
    return EXIT_USAGE;
}

static void print_help(void)
{
    printf("Usage: csum [--impl NAME] COMMAND [ARGS...]\n"
           "\n"
           "The Internet checksum (RFC 1071), and the tools around it.\n"
           "\n"
           "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        printf("  %-8s %s\n", commands[i].name, commands[i].summary);
    printf("\n"
           "Options:\n"
           "  -i, --impl NAME  use implementation NAME for csum_partial (see 'csum impls');\n"
           "                   'auto' is the best one for this CPU\n"
           "  -h, --help       show this help ('csum COMMAND --help' for a command)\n"
           "  -V, --version    show the version\n"
           "\n"
           "Environment: CSUM_IMPL=NAME selects an implementation at first use;\n"
           "CSUM_DISPATCH=name@from,... sets the length plan ('csum tune' measures one);\n"
           "CSUM_DISPATCH_FILE=FILE names the plan file ('' for none);\n"
           "CSUM_COPY_IMPL=NAME selects csum_partial_copy's implementation;\n"
           "CSUM_BATCH_IMPL=NAME forces csum_ipv4_header_batch's implementation;\n"
           "CSUM_CPU_DISABLE=feat,... hides CPU features (e.g. avx512bw) from dispatch.\n"
           "Exit status: 0 success, 1 a failure was found (mismatch, an implementation\n"
           "named to verify that cannot run here, unreadable file, bad checksum, a plan\n"
           "tune refused or could not write or remove, a lab table that could not run,\n"
           "output that could not be written), 2 bad usage (also tune --write under\n"
           "CSUM_DISPATCH or CSUM_CPU_DISABLE; for pcap an unreadable or malformed\n"
           "capture, or output that could not be written).\n");
}

/* csum help [COMMAND]: what git, cargo and go users type; the same text as --help. */
static int cmd_help(int argc, char **argv)
{
    usage_hint(NULL); /* a mistake here is helped by csum --help */
    if (argc > 2)
        return usage_error("help takes one command, not '%s'", argv[2]);
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
        print_help();
        return EXIT_OK;
    }
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (!strcmp(argv[1], commands[c].name)) {
            char *args[] = { argv[1], "--help", NULL };
            usage_hint(commands[c].name);
            return commands[c].run(2, args);
        }
    }
    return usage_error("unknown command '%s'", argv[1]);
}

/* The status once standard output is flushed: output lost to a full disk or a closed
 * descriptor is a failure, said on stderr, never an exit 0. A command that reported it
 * already (csum pcap, also run by the Python extension) cleared the error. The reason is this
 * flush's, or when it had nothing left to fail on, the failed write's (stdout_error.h). */
static int output_written(const char *cmd, int status)
{
    const int seen = stdout_error_errno(); /* before anything else can change errno */
    const int e = fflush(stdout) != 0 ? errno : ferror(stdout) ? seen : 0;
    if (!e && !ferror(stdout))
        return status;
    fprintf(stderr, "csum: %s%scannot write output%s%s\n", cmd ? cmd : "", cmd ? ": " : "",
            e ? ": " : "", e ? strerror(e) : "");
    return status == EXIT_OK ? EXIT_FAILURE_FOUND : status;
}

int main(int argc, char **argv)
{
    /* Standard output that is not a terminal is fully buffered from the first byte, 8 KiB, as
     * glibc does anyway (its buffer is st_blksize, 4 KiB on a pipe). musl line-buffers it until
     * its first write, then buffers 1 KiB, and a failed write (a full disk) drops what it held:
     * after a first line, or a text longer than the buffer (csum --help), the final fflush had
     * nothing left to fail on, and output_written() could say that the output was lost but not
     * why. (A command's last write failing does that with any buffer: see stdout_error.h.) */
    static char out_buffer[8192];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            print_help();
            return output_written(NULL, EXIT_OK);
        }
        if (!strcmp(arg, "-V") || !strcmp(arg, "--version")) {
            printf("csum %s\n", csum_version());
            return output_written(NULL, EXIT_OK);
        }
        if (!strcmp(arg, "-i") || !strcmp(arg, "--impl") || !strncmp(arg, "--impl=", 7)) {
            const char *name;
            if (!strncmp(arg, "--impl=", 7))
                name = arg + 7;
            else if (i + 1 < argc)
                name = argv[++i];
            else
                return usage_error("option '%s' needs an implementation name", arg);
            if (csum_impl_select(name) != 0) {
                const struct csum_impl *impl = csum_impl_find(name);
                const char *hidden = getenv("CSUM_CPU_DISABLE");
                if (!impl)
                    return usage_error("unknown implementation '%s' (see 'csum impls')", name);
                /* CSUM_CPU_DISABLE may be why: then "this CPU lacks it" may be untrue. */
                if (hidden && *hidden)
                    return usage_error("implementation '%s' cannot run here: it needs %s, which "
                                       "this CPU lacks or CSUM_CPU_DISABLE=%s hides",
                                       name, impl->CSUM_REQUIRES_MEMBER, hidden);
                return usage_error("implementation '%s' is not supported by this CPU", name);
            }
            continue;
        }
        return usage_error("unknown option '%s'", arg);
    }
    if (i >= argc)
        return usage_error("no command given");
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (!strcmp(argv[i], commands[c].name)) {
            usage_hint(commands[c].name);
            return output_written(argv[i], commands[c].run(argc - i, argv + i));
        }
    }
    return usage_error("unknown command '%s'", argv[i]);
}
