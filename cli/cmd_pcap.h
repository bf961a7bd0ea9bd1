/*
 * What the files of `csum pcap` share (cli/cmd_pcap*.c): the options, the report's state, fix's
 * output, and the functions each file gives the others, every one named pcap_cli_* (what is
 * not shared is static, and keeps a short name). Internal to the tool and to the Python
 * extension, which compiles the same files into one translation unit with its own code
 * (python/src/pcap_adapter.c): keep every name that its comment lists.
 */
#ifndef CSUM_CLI_CMD_PCAP_H
#define CSUM_CLI_CMD_PCAP_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "csum_pcap.h"

/* The options of `verify` or `fix` (cmd_pcap_args.c). */
struct args {
    int json, verbose, all, strict, dry_run;
    struct csum_pcap_options opt;
    int n_vxlan, n_geneve;
    const char *names[2];
    int n_names;
};

/* What the walk's callbacks need (the context of every csum_pcap callback). */
struct report {
    const struct args *a;
    int fixing;
    FILE *text;                 /* fix: where the list of changes goes */
    int text_failed;            /* fix: writing it failed (errno text_errno); no more lines */
    int text_errno;
    uint64_t listed;            /* checks printed in the JSON array so far */
    /* progress line */
    int progress, progress_shown;
    uint64_t total_bytes;
    struct timespec start, last;
    const char *name;
};

/* Where fix writes OUT: through a temporary file renamed over `path` once the whole capture
 * went through, or (tmp NULL) straight into fd (cmd_pcap_output.c). */
struct fix_output {
    int fd;
    char *tmp;  /* malloc'ed */
    char *path; /* what tmp replaces: OUT, or the file a symbolic link OUT names (malloc'ed) */
    int replaces;      /* path is an existing file, */
    struct stat old;   /* this one */
};

/* cmd_pcap_help.c: the help texts. */
void pcap_cli_print_pcap_help(void);
void pcap_cli_print_verify_help(void);
void pcap_cli_print_fix_help(void);

/* cmd_pcap_args.c: parse the options `cmd` takes; -1 after --help, else EXIT_OK or EXIT_USAGE. */
int pcap_cli_parse_args(const char *cmd, int fixing, int argc, char **argv, struct args *a);

/* cmd_pcap_report.c: the walk's callbacks (ctx a struct report), and the summary's counts. */
void pcap_cli_on_check(void *arg, const struct csum_pcap_check *c);
void pcap_cli_on_fcs(void *arg, const struct csum_pcap_fcs *f);
int pcap_cli_listed(const struct args *a, enum csum_pcap_verdict v); /* verify prints one such */
const char *pcap_cli_depth_of(const struct csum_pcap_check *c); /* "outer", "inner" or "link" */
int pcap_cli_digits_of(const struct csum_pcap_check *c); /* 4 hex digits, or 8 for an FCS */
uint64_t pcap_cli_total_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v);
uint64_t pcap_cli_checksums_of(const struct csum_pcap_summary *s, enum csum_pcap_verdict v);
uint64_t pcap_cli_skipped_total(const struct csum_pcap_summary *s);

/* cmd_pcap_text.c: the text report. */
void pcap_cli_print_tail(FILE *f, const struct csum_pcap_check *c, const char *note);
void pcap_cli_print_check_text(const struct csum_pcap_check *c);
void pcap_cli_print_unchecked(FILE *f, const struct csum_pcap_summary *s);
void pcap_cli_print_summary_text(const char *name, const struct csum_pcap_summary *s, int fcs);

/* cmd_pcap_json.c: the JSON document; e NULL when the capture went through. */
void pcap_cli_json_string(const char *s);
void pcap_cli_print_check_json(struct report *r, const struct csum_pcap_check *c);
void pcap_cli_print_summary_members(const struct csum_pcap_summary *s,
                                    const struct csum_pcap_error *e);
void pcap_cli_print_summary_json(const struct csum_pcap_summary *s,
                                 const struct csum_pcap_error *e);

/* cmd_pcap_progress.c: the progress line (on a terminal, above 1 GB). */
void pcap_cli_on_progress(void *arg, uint64_t bytes_in, uint64_t packets);
void pcap_cli_progress_start(struct report *r, int fd, const char *name);
void pcap_cli_progress_clear(struct report *r);
void pcap_cli_progress_end(struct report *r);

/* cmd_pcap_output.c: fix's OUT. pcap_cli_check_output before IN is read (EXIT_OK or
 * EXIT_USAGE; either way pcap_cli_release_output or pcap_cli_commit_output is due),
 * pcap_cli_commit_output once the whole capture went through, pcap_cli_release_output after an
 * error. pcap_cli_writes_stdout: OUT is standard output. */
int pcap_cli_check_output(const char *in, const char *out, const struct stat *in_st,
                          struct fix_output *o);
void pcap_cli_release_output(struct fix_output *o);
int pcap_cli_commit_output(const char *out, const struct stat *in_st, struct fix_output *o);
int pcap_cli_writes_stdout(const char *out, const struct fix_output *o);

#endif /* CSUM_CLI_CMD_PCAP_H */
