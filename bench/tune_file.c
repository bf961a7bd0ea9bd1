/*
 * csum tune's plan file (bench/tune.c measures and chooses): checking that --write can write
 * where it will before any timing, the plan a file gives (what --write FILE is checked
 * against), writing a plan (atomically, with the CPU it was tuned on, over nothing but a plan
 * file or an empty file), and --reset, which removes only a file --write wrote.
 */
#define _GNU_SOURCE
#include "lab.h"
#include "file_io.h" /* the atomic replacement `csum pcap fix` uses */
#include "cpu_features.h"
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* mkdir -p of the directory part of `path`. */
static void make_parent_dirs(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *s = dir + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(dir, 0777);
            *s = '/';
        }
}

/*
 * Store `text` as the file `path` at once (file_io.c: a temporary file in the same directory,
 * on disk before it is renamed over `path`), so that a program starting meanwhile reads the old
 * plan or the new one, never a part of one, a write that fails leaves the old plan as it was,
 * and two tunes writing at once leave one whole plan. The file keeps its permissions, and its
 * owner and group where allowed (file_keep_owner, as for `csum pcap fix`). A
 * symbolic link of ours (or root's) is followed, the file it names replaced or created and the
 * link kept; another user's is refused (file_follow_links, as for `csum pcap fix`).
 * 0, or -1 with a reason in `why` (an errno text, or file_follow_links's own).
 */
static int write_plan_file(const char *path, const char *text, const char **why)
{
    struct stat st;
    *why = NULL;
    char *target = file_follow_links(path, why);
    if (!target)
        return -1;
    path = target;
    const int replaces = stat(path, &st) == 0;
    mode_t mode = 0;
    char *tmp;
    int fd = file_temp_open(path, &tmp), rc = fd < 0 ? -1 : 0;
    if (fd >= 0 && replaces) {
        /* Its owner and group too, where allowed: root replacing a user's plan file (mode
         * 0600) left one that user's programs could not read, so they ran without it. */
        mode = file_keep_owner(fd, &st);
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    for (size_t done = 0, len = strlen(text); rc == 0 && done < len;) {
        ssize_t n = write(fd, text + done, len - done);
        if (n > 0)
            done += (size_t)n;
        else if (n == 0 || errno != EINTR)
            rc = -1, errno = n == 0 ? EIO : errno; /* 0: no progress, and errno not set */
    }
    if (fd >= 0) {
        if (rc == 0)
            rc = file_temp_commit(fd, tmp, path, mode);
        else
            file_temp_abort(fd, tmp);
    }
    if (rc != 0)
        *why = strerror(errno);
    free(target);
    return rc;
}

/*
 * Whether --write can put a file where `path` is, asked before the minutes of timing rather
 * than found after them (a plan directory that cannot be created or written, an unwritable
 * HOME, a symbolic link into a directory that does not exist). Nothing is created: a plan
 * refused after the timing left an empty ~/.config/csum behind. A directory not there yet is
 * judged by the nearest one that is, in which lab_tune_write_plan will make it; a link's target
 * gets no directory made (write_plan_file makes none), so its own must exist. A link that
 * cannot be followed (another user's, a loop) is refused here too, not after the timing. 0, or
 * -1 with errno and a reason in *why (file_follow_links's own, or errno's text).
 */
int lab_tune_plan_dir_writable(const char *path, const char **why)
{
    struct stat st;
    char dir[4096];
    const int is_link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
    char *target = file_follow_links(path, why);
    if (!target)
        return -1;
    snprintf(dir, sizeof dir, "%s", target);
    free(target);
    int found;
    for (;;) { /* up one directory at a time while it does not exist */
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else
            slash[slash == dir] = '\0'; /* "/plan": the root */
        found = stat(dir, &st) == 0;
        if (found || errno != ENOENT || is_link || !slash)
            break;
    }
    if (found && !S_ISDIR(st.st_mode))
        errno = ENOTDIR;
    const int rc = !found || !S_ISDIR(st.st_mode) ? -1 : access(dir, W_OK | X_OK);
    *why = rc ? strerror(errno) : NULL;
    return rc;
}

/*
 * Whether `path` is a plan file `--write` wrote: a regular file (or a symbolic link to one) of
 * at most CSUM_PLAN_FILE_MAX bytes that starts with CSUM_PLAN_FILE_HEADER. Anything but a
 * regular file is refused unopened (opening a device may do something; a FIFO would wait for a
 * writer). 0 with its identity in *st; -1 with *why NULL when there is no file (or a symbolic
 * link to none); -1 with a reason in *why (an errno text, or this function's own) otherwise.
 */
static int plan_file_check(const char *path, struct stat *st, const char **why)
{
    *why = NULL;
    if (stat(path, st) != 0) {
        *why = errno == ENOENT ? NULL : strerror(errno);
        return -1;
    }
    char head[sizeof CSUM_PLAN_FILE_HEADER - 1];
    size_t got = 0;
    ssize_t r = 0;
    int fd = S_ISREG(st->st_mode) ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) : -1;
    if (!S_ISREG(st->st_mode))
        *why = "it is not a regular file";
    else if (fd < 0 || fstat(fd, st) != 0)
        *why = strerror(errno);
    else if (!S_ISREG(st->st_mode)) /* replaced since stat */
        *why = "it is not a regular file";
    else if (st->st_size > CSUM_PLAN_FILE_MAX)
        *why = "it is larger than a plan file";
    else {
        while (got < sizeof head &&
               ((r = read(fd, head + got, sizeof head - got)) > 0 || (r < 0 && errno == EINTR)))
            got += r > 0 ? (size_t)r : 0;
        if (r < 0)
            *why = strerror(errno);
        else if (got < sizeof head || memcmp(head, CSUM_PLAN_FILE_HEADER, sizeof head) != 0)
            *why = "it does not start with \"" CSUM_PLAN_FILE_HEADER "\"";
    }
    if (fd >= 0)
        close(fd);
    return *why ? -1 : 0;
}

/*
 * Whether --write may replace what is at `path`: nothing (or a symbolic link to nothing), a
 * plan file --write wrote, a plan written by hand (a regular file whose plan line this CPU
 * runs), or an empty file. Anything else (a file CSUM_DISPATCH_FILE or --write names by
 * mistake, a directory, a FIFO, a device) is refused, as --reset refuses to remove it: the
 * rename would put a plan in its place, and even root's --write must never replace a
 * device node such as /dev/null. 0, or -1 with a reason in *why.
 */
int lab_tune_plan_replaceable(const char *path, const char **why)
{
    static char reason[400];
    struct stat st;
    if (plan_file_check(path, &st, why) == 0 || *why == NULL)
        return 0;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > CSUM_PLAN_FILE_MAX)
        return -1; /* plan_file_check said why */
    if (st.st_size == 0)
        return 0;
    char plan[CSUM_PLAN_TEXT_MAX], read_why[160] = "";
    struct csum_plan p;
    if (csum_plan_file_read(path, plan, sizeof plan, read_why, sizeof read_why) == 0 &&
        csum_plan_parse(&p, CSUM_OP_PARTIAL, plan, 1, read_why, sizeof read_why) == 0)
        return 0;
    snprintf(reason, sizeof reason, "it is not a plan file (it does not start with \"%s\", and "
                                    "holds no plan this CPU runs: %s)",
             CSUM_PLAN_FILE_HEADER, read_why[0] ? read_why : "no plan in the file");
    *why = reason;
    return -1;
}

/*
 * Remove the plan file. A symbolic link is followed as --write follows it (file_follow_links:
 * ours or root's only): the file it names is removed and the link kept, so that the next
 * --write writes there again. Removing the link instead left the plan it named on disk, and
 * made the next --write put a new file where the link had been.
 */
int lab_tune_reset(void)
{
    char path[4096];
    size_t n = csum_dispatch_file(path, sizeof path);
    if (n == 0 || n >= sizeof path) {
        printf("no plan file is read (CSUM_DISPATCH_FILE is empty, or no absolute HOME): nothing to reset\n");
        return 0;
    }
    const char *why = NULL;
    char *target = file_follow_links(path, &why);
    if (!target) {
        fprintf(stderr, "csum: tune: not removing %s: %s\n", path, why);
        return 1;
    }
    const int linked = strcmp(target, path) != 0;
    struct stat st;
    int rc = 1;
    if (plan_file_check(target, &st, &why) != 0) {
        if (why == NULL) {
            printf("no plan file at %s: csum_partial already uses the compiled-in plan\n", path);
            rc = 0;
        } else {
            fprintf(stderr, "csum: tune: not removing %s: %s (--reset removes only a plan file "
                            "that 'csum tune --write' wrote)\n", path, why);
        }
    } else if (!file_same(&st, target)) { /* replaced since it was checked */
        fprintf(stderr, "csum: tune: not removing %s: it changed while it was checked\n", target);
    } else if (unlink(target) != 0) {
        fprintf(stderr, "csum: tune: cannot remove %s: %s\n", target, strerror(errno));
    } else {
        printf("removed %s%s%s%s: programs started from now on use the compiled-in plan\n", target,
               linked ? " (the link " : "", linked ? path : "",
               linked ? " stays, for the next 'csum tune --write')" : "");
        rc = 0;
    }
    free(target);
    return rc;
}

/*
 * The plan that `--write FILE` replaces when FILE is not the plan file this process read (a
 * file for CSUM_DISPATCH_FILE in a service's environment, say): what a program reading FILE
 * runs, FILE's plan when it holds one for this CPU, else the compiled-in plan. The new plan is
 * checked against that one; this process's own plan (from another file, or the compiled-in
 * one when FILE holds a plan) would be the wrong bar, lower or higher.
 */
void lab_tune_plan_in(const char *file, char *plan, size_t size, char *source, size_t source_size)
{
    char why[160] = "", measured[160];
    struct csum_plan p;
    if (csum_plan_file_read(file, plan, size, why, sizeof why) == 0 &&
        csum_plan_parse(&p, CSUM_OP_PARTIAL, plan, 1, why, sizeof why) == 0) {
        /* As csum_dispatch_describe() gives it ("generic @ 0" written by hand is "generic@0"):
         * tune knows a plan it proposes is the one in force by its text. */
        csum_plan_format(&p, plan, size);
        snprintf(source, source_size, "%s", file);
        return;
    }
    snprintf(plan, size, "%s", csum_dispatch_default_plan(measured, sizeof measured));
    snprintf(source, source_size, "compiled-in defaults, as %s %s", file,
             why[0] ? "is ignored: " : "does not exist yet");
    if (why[0])
        snprintf(source + strlen(source), source_size - strlen(source), "%s", why);
}

int lab_tune_write_plan(const char *path, const char *plan, const char **why)
{
    /* Checked before the timing too (lab_tune_main); again here, for a file that appeared
     * meanwhile. */
    if (lab_tune_plan_replaceable(path, why) != 0)
        return -1;
    make_parent_dirs(path);
    time_t now = time(NULL);
    char date[32], cpu[64], cpu_line[96] = "", text[512];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    csum_cpu_class(cpu, sizeof cpu);
    if (cpu[0]) /* the library ignores the file on another kind of CPU */
        snprintf(cpu_line, sizeof cpu_line, "%s%s\n", CSUM_PLAN_FILE_CPU, cpu);
    snprintf(text, sizeof text, CSUM_PLAN_FILE_HEADER " on %s\n"
                                "# remove with 'csum tune --reset'\n%s%s\n", date, cpu_line, plan);
    return write_plan_file(path, text, why);
}
