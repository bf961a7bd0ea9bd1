/*
 * csum pcap fix: where OUT is written. A regular file (or a new name) is replaced at the end
 * by a temporary file next to it, created before IN is read and removed on an error or on
 * SIGINT, SIGTERM or SIGHUP; a FIFO, a device or standard output is written as the fix goes.
 */
#define _GNU_SOURCE
#include "cmd_pcap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary output, removed if a signal ends the program before the rename. Per thread:
 * the tool has one, but the Python extension runs this code from several at once (and keeps
 * signal handlers away from it); the handler runs in the thread that installed it. */
static _Thread_local char *volatile pending_tmp;

static void remove_pending(int sig)
{
    if (pending_tmp)
        unlink(pending_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void guard_pending(char *tmp)
{
    pending_tmp = tmp;
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], tmp ? remove_pending : SIG_DFL);
}
static int cannot_write(const char *out)
{
    fprintf(stderr, "csum: pcap fix: %s: cannot write: %s\n", out, strerror(errno));
    return EXIT_USAGE;
}

static int refuse_terminal(void)
{
    fprintf(stderr, "csum: pcap fix: refusing to write a capture to a terminal\n");
    return EXIT_USAGE;
}

/* OUT is an existing FIFO, device or socket (also /dev/stdout or /dev/fd/N on a pipe): a file
 * renamed over it would cut off its reader (or fail in /dev and /proc/self/fd, where no file
 * can be created), so it is opened and written as the fix goes. EXIT_OK with o->fd >= 0,
 * EXIT_OK with o->fd < 0 when it turned out to be a regular file after all (replaced since
 * stat), or EXIT_USAGE. */
static int open_direct(const char *out, struct fix_output *o)
{
    struct stat st;
    int fd = open(out, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        int rc = cannot_write(out);
        if (fd >= 0)
            close(fd);
        return rc;
    }
    if (S_ISREG(st.st_mode)) {
        close(fd);
        return EXIT_OK;
    }
    if (isatty(fd)) {
        close(fd);
        return refuse_terminal();
    }
    o->fd = fd;
    return EXIT_OK;
}

/* OUT is a regular file or a new name: a temporary file in the directory of the file to be
 * replaced, `target` (OUT, or the file its symbolic links name, from file_follow_links: the
 * link stays, and a dangling one's file is created; taken over). EXIT_OK or EXIT_USAGE. */
static int open_temporary(const char *out, char *target, struct fix_output *o)
{
    struct stat st;
    o->path = target;
    if (stat(o->path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "csum: pcap fix: %s: is a directory\n", out);
            errno = EISDIR;
            return EXIT_USAGE;
        }
        if (access(o->path, W_OK) != 0)
            return cannot_write(out);
        o->replaces = 1;
        o->old = st;
    }
    o->fd = file_temp_open(o->path, &o->tmp);
    if (o->fd < 0)
        return cannot_write(out);
    guard_pending(o->tmp);
    return EXIT_OK;
}

static int refuse_input(const char *out, const char *in)
{
    fprintf(stderr, "csum: pcap fix: %s: refusing to overwrite the input (%s is the same file)\n",
            out, strcmp(in, "-") ? in : "standard input");
    return EXIT_USAGE;
}

/* Before reading anything: OUT may be written (and is not IN). EXIT_OK or EXIT_USAGE; on
 * EXIT_USAGE, pcap_cli_release_output() is still due. */
int pcap_cli_check_output(const char *in, const char *out, const struct stat *in_st,
                          struct fix_output *o)
{
    struct stat st;
    if (!strcmp(out, "-")) {
        if (isatty(STDOUT_FILENO))
            return refuse_terminal();
        /* `csum pcap fix IN - >>IN` (or 1<>IN) would write IN while reading it, and read
         * back what it wrote: standard output is IN as much as /dev/stdout is. */
        if (S_ISREG(in_st->st_mode) && fstat(STDOUT_FILENO, &st) == 0 &&
            st.st_dev == in_st->st_dev && st.st_ino == in_st->st_ino)
            return refuse_input(out, in);
        o->fd = STDOUT_FILENO;
        return EXIT_OK;
    }
    /* IN "-" too: standard input opened on a file OUT (`<OUT`), which the fix would replace */
    if (S_ISREG(in_st->st_mode) && file_same(in_st, out))
        return refuse_input(out, in);
    /* A symbolic link is followed only as file_follow_links allows (ours or root's; another
     * user's in /tmp could name /etc/shadow), also to a FIFO or a device. */
    const char *why;
    char *target = file_follow_links(out, &why);
    if (!target) {
        fprintf(stderr, "csum: pcap fix: %s: cannot write: %s\n", out, why);
        return EXIT_USAGE;
    }
    /* Opened by its own name: /dev/stdout's links end in /proc/self/fd's magic ones, which
     * name a pipe as "pipe:[N]", not a path. */
    if (stat(out, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        int rc = open_direct(out, o);
        if (rc != EXIT_OK || o->fd >= 0) {
            free(target);
            return rc;
        }
    }
    return open_temporary(out, target, o);
}

/* Remove the temporary file (if any) and close what was opened; errno is kept. */
void pcap_cli_release_output(struct fix_output *o)
{
    int e = errno;
    if (o->tmp)
        file_temp_abort(o->fd, o->tmp);
    else if (o->fd >= 0 && o->fd != STDOUT_FILENO)
        close(o->fd);
    free(o->path);
    guard_pending(NULL);
    memset(o, 0, sizeof *o);
    o->fd = -1;
    errno = e;
}

/* The mode OUT gets: an OUT that existed keeps its own (and its owner and group where allowed),
 * as with `>`; a new one gets IN's, less the umask, as cp(1) does (a capture only its owner
 * may read stays so), or what a new file gets when IN is not a file. */
static mode_t output_mode(const struct fix_output *o, const struct stat *in_st)
{
    if (o->replaces)
        return file_keep_owner(o->fd, &o->old);
    mode_t mask = umask(0);
    umask(mask);
    return (S_ISREG(in_st->st_mode) ? in_st->st_mode & 0777 : 0666) & ~mask;
}

/* After the whole capture went through: rename the temporary file into place, or close OUT
 * (where a late write error of a device can still show). EXIT_OK or EXIT_USAGE. */
int pcap_cli_commit_output(const char *out, const struct stat *in_st, struct fix_output *o)
{
    int rc = EXIT_OK;
    if (o->tmp) {
        if (file_temp_commit(o->fd, o->tmp, o->path, output_mode(o, in_st)) != 0)
            rc = cannot_write(out);
        o->tmp = NULL; /* removed (if not renamed) and freed either way */
        o->fd = -1;
    } else if (o->fd >= 0 && o->fd != STDOUT_FILENO) {
        if (close(o->fd) != 0)
            rc = cannot_write(out);
        o->fd = -1;
    }
    pcap_cli_release_output(o);
    return rc;
}

/* OUT is standard output ("-", or /dev/stdout, /dev/fd/1 and the like), where the list of
 * changes must not go. */
int pcap_cli_writes_stdout(const char *out, const struct fix_output *o)
{
    struct stat st;
    if (o->fd == STDOUT_FILENO)
        return 1;
    return out && fstat(STDOUT_FILENO, &st) == 0 && file_same(&st, out);
}
