/*
 * Output files replaced atomically: the new content goes to a temporary file in the same
 * directory (so rename(2) is atomic), which becomes the file only once it is complete and
 * on disk. A reader of the path sees the old file or the new one, never a part.
 */
#define _GNU_SOURCE
#include "file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_same(const struct stat *a, const char *path)
{
    struct stat b;
    return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

char *file_follow_links(const char *path, const char **why)
{
    enum { MAX_HOPS = 40 }; /* Linux's limit (ELOOP) */
    char *at = strdup(path);
    int e = at ? 0 : ENOMEM;
    *why = NULL;
    for (int hops = 0; at && !e; hops++) {
        struct stat st;
        char target[4096];
        ssize_t n = 0; /* set by readlink() below before any use; GCC cannot tell */
        if (lstat(at, &st) != 0 || !S_ISLNK(st.st_mode))
            return at; /* the file, or no file yet (or one the caller will fail to reach) */
        if (hops == MAX_HOPS)
            e = ELOOP;
        else if (st.st_uid != geteuid() && st.st_uid != 0) {
            e = EACCES; /* as the kernel's fs.protected_symlinks says it */
            *why = hops ? "it leads to a symbolic link owned by another user"
                        : "it is a symbolic link owned by another user";
        } else if ((n = readlink(at, target, sizeof target)) < 0)
            e = errno;
        else if ((size_t)n == sizeof target)
            e = ENAMETOOLONG;
        if (e)
            break;
        /* A relative target is relative to the link's directory. */
        const char *slash = strrchr(at, '/');
        const size_t dir_len = target[0] != '/' && slash ? (size_t)(slash - at) + 1 : 0;
        char *next = malloc(dir_len + (size_t)n + 1);
        if (!next) {
            e = ENOMEM;
            break;
        }
        memcpy(next, at, dir_len);
        memcpy(next + dir_len, target, (size_t)n);
        next[dir_len + (size_t)n] = '\0';
        free(at);
        at = next;
    }
    free(at);
    if (!*why)
        *why = strerror(e);
    errno = e;
    return NULL;
}

int file_temp_open(const char *path, char **tmp_path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = malloc(dir_len + sizeof ".csum-tmp-XXXXXX");
    if (!tmp)
        return errno = ENOMEM, -1;
    memcpy(tmp, path, dir_len);
    strcpy(tmp + dir_len, ".csum-tmp-XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return errno = e, -1;
    }
    *tmp_path = tmp;
    return fd;
}

/*
 * After the rename: the new name is on disk only once the directory is (fsync(2) of the file
 * does not write its directory entry), else a crash soon after may bring the old file back, or
 * none. Only a failure of the disk (EIO) is one: a directory that cannot be opened for reading
 * (mode -wx), a file system that cannot fsync a directory (EINVAL) are quietly left as they are,
 * the file being in place and whole.
 */
static int sync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return 0;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = 0;
    free(dir);
    if (fd >= 0) {
        rc = fsync(fd) != 0 && errno == EIO ? -1 : 0;
        close(fd);
    }
    return rc;
}

int file_temp_commit(int fd, char *tmp_path, const char *path, mode_t mode)
{
    int rc = 0;
    if (fchmod(fd, mode & 0777) != 0 || fsync(fd) != 0)
        rc = -1;
    int e = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc == 0 && rename(tmp_path, path) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0)
        unlink(tmp_path);
    else if (sync_dir_of(path) != 0)
        rc = -1, e = EIO; /* the file is in place, but its name may not survive a crash */
    free(tmp_path);
    errno = e;
    return rc;
}

mode_t file_keep_owner(int fd, const struct stat *old)
{
    mode_t mode = old->st_mode & 0777;
    struct stat now;
    if (fstat(fd, &now) != 0)
        return mode & 0700;
    if (now.st_gid != old->st_gid && fchown(fd, (uid_t)-1, old->st_gid) != 0)
        mode = (mode & 0707) | ((mode & 07) << 3);
    if (now.st_uid != old->st_uid)
        (void)!fchown(fd, old->st_uid, (gid_t)-1); /* root only; otherwise the file is ours */
    return mode;
}

void file_temp_abort(int fd, char *tmp_path)
{
    int e = errno;
    close(fd);
    unlink(tmp_path);
    free(tmp_path);
    errno = e;
}
