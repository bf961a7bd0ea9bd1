/*
 * The plan file: where it is (csum_dispatch_file, public) and the plan line in it for this CPU
 * (csum_plan_file_read), for the automatic csum_partial plan (src/dispatch.c) and `csum tune`.
 * `csum tune --write` writes it (bench/tune_file.c).
 */
#define _GNU_SOURCE
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

size_t csum_dispatch_file(char *buf, size_t size)
{
    const char *named = csum_getenv("CSUM_DISPATCH_FILE"),
               *xdg = csum_getenv("XDG_CONFIG_HOME"), *home = csum_getenv("HOME");
    int n;
    if (named)
        n = *named ? snprintf(buf, size, "%s", named) : 0; /* set but empty: no file */
    else if (xdg && *xdg == '/') /* a relative one is ignored, as the XDG spec says */
        n = snprintf(buf, size, "%s/csum/dispatch", xdg);
    else if (home && *home == '/') /* never a file relative to the working directory */
        n = snprintf(buf, size, "%s/.config/csum/dispatch", home);
    else
        n = 0;
    if (n == 0 && size)
        buf[0] = '\0';
    return n > 0 ? (size_t)n : 0;
}

/* Why open(2) failed with `e`, in words of our own: strerror() is not safe in a library that
 * may be called from several threads at once (glibc before 2.32), and strerror_r() has two
 * signatures. NULL for an errno without words here. */
static const char *open_error(int e)
{
    switch (e) {
    case EACCES:
    case EPERM:
        return "permission denied";
    case ELOOP:
        return "too many levels of symbolic links";
    case ENAMETOOLONG:
        return "file name too long";
    case EIO:
        return "input/output error";
    default:
        return NULL;
    }
}

/* The first line of the file that is not a comment or blank, into text. 0, or -1 when the file
 * cannot be read, holds no plan or a plan line too long for text, or names before its plan a CPU
 * of another kind than this one (why says so; not when there is no file, the normal case).
 * Whole lines: a long comment is skipped whole, never read on as a plan. Only a regular file of
 * at most CSUM_PLAN_FILE_MAX bytes is read, opened without blocking (a FIFO would wait for a
 * writer, a device such as /dev/zero never end). */
int csum_plan_file_read(const char *path, char *text, size_t size, char *why, size_t why_size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        /* No file (or no directory) is the normal case: nothing to report. A file that is
         * there but cannot be opened (not readable by this user, a loop of symbolic links) is
         * ignored like a malformed one, and said so, not taken for no file. */
        const int e = errno;
        if (e != ENOENT && e != ENOTDIR) {
            const char *words = open_error(e);
            if (words)
                snprintf(why, why_size, "cannot be opened: %s", words);
            else
                snprintf(why, why_size, "cannot be opened (errno %d)", e);
        }
        return -1;
    }
    struct stat st;
    char *data = NULL;
    ssize_t len = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "not a regular file");
    } else if (st.st_size > CSUM_PLAN_FILE_MAX) {
        snprintf(why, why_size, "larger than %d bytes", CSUM_PLAN_FILE_MAX);
    } else if ((data = malloc(CSUM_PLAN_FILE_MAX + 1)) != NULL) {
        size_t got = 0;
        ssize_t r = 0;
        while (got < CSUM_PLAN_FILE_MAX &&
               ((r = read(fd, data + got, CSUM_PLAN_FILE_MAX - got)) > 0 ||
                (r < 0 && errno == EINTR)))
            got += r > 0 ? (size_t)r : 0;
        len = r < 0 ? -1 : (ssize_t)got;
        snprintf(why, why_size, len < 0 ? "cannot be read" : "no plan in the file");
    }
    close(fd);
    int ok = -1;
    char *const end = data && len > 0 ? data + len : data;
    /* A UTF-8 byte order mark, which Windows editors (Notepad before 2019) write at the start
     * of a file, is not part of the first line: it made that line the plan "\xef\xbb\xbf#..."
     * or "\xef\xbb\xbfgeneric@0", and the whole file was ignored. */
    char *first = data && len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3) ? data + 3 : data;
    for (char *line = first, *next; len >= 0 && line < end; line = next) {
        char *newline = memchr(line, '\n', (size_t)(end - line));
        next = newline ? newline + 1 : end;
        *(newline ? newline : end) = '\0'; /* data has a byte beyond the file's */
        line[strcspn(line, "\r")] = '\0';
        if (!strncmp(line, CSUM_PLAN_FILE_CPU, strlen(CSUM_PLAN_FILE_CPU))) {
            const char *tuned_on = line + strlen(CSUM_PLAN_FILE_CPU);
            char here[64];
            csum_cpu_class(here, sizeof here);
            if (here[0] && strcmp(tuned_on, here) != 0) {
                snprintf(why, why_size, "tuned on %.64s, this CPU is %s", tuned_on, here);
                break;
            }
        }
        /* A comment may be indented, as the plan line may (the parser skips the blanks). */
        const char first = line[strspn(line, " \t")];
        if (first == '#' || first == '\0')
            continue;
        if (strlen(line) < size) {
            memcpy(text, line, strlen(line) + 1);
            ok = 0;
        } else {
            snprintf(why, why_size, "its plan line is longer than %zu characters", size - 1);
        }
        break;
    }
    free(data);
    return ok;
}
