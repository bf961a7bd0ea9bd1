/*
 * Whole-file input and output for the subcommands that work on a file in memory: map it
 * (or read it when it cannot be mapped, e.g. a pipe), and replace a file atomically through
 * a temporary file in the same directory.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read all of fd into a malloc'ed buffer. */
static int read_all(int fd, struct file_map *m)
{
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf)
            return errno = ENOMEM, -1;
        if (len == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                return errno = ENOMEM, -1;
            }
            buf = bigger;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            return errno = e, -1;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    /* Exactly len bytes, so that a sanitizer sees any read past the end. */
    unsigned char *exact = realloc(buf, len ? len : 1);
    if (exact)
        buf = exact;
    m->data = buf;
    m->len = len;
    m->mapped = 0;
    return 0;
}

int file_map_open(const char *path, int writable, struct file_map *m)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = -1;
    if (fstat(fd, &m->st) != 0)
        goto out;
    if (S_ISDIR(m->st.st_mode)) {
        errno = EISDIR;
        goto out;
    }
    if (S_ISREG(m->st.st_mode) && m->st.st_size > 0 && (uint64_t)m->st.st_size <= SIZE_MAX) {
        /* Private mapping: when writable, changes are copy-on-write and never reach the file. */
        void *p = mmap(NULL, (size_t)m->st.st_size, PROT_READ | (writable ? PROT_WRITE : 0),
                       MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) {
            madvise(p, (size_t)m->st.st_size, MADV_SEQUENTIAL);
            m->data = p;
            m->len = (size_t)m->st.st_size;
            m->mapped = 1;
            rc = 0;
            goto out;
        }
    }
    rc = read_all(fd, m);
out:;
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

void file_map_close(struct file_map *m)
{
    if (m->mapped)
        munmap(m->data, m->len);
    else
        free(m->data);
    memset(m, 0, sizeof *m);
}

int file_same(const struct stat *a, const char *path)
{
    struct stat b;
    return stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

int file_replace(const char *path, const void *data, size_t len, mode_t mode)
{
    /* The temporary file lives next to `path`, so rename() is atomic. */
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
    const unsigned char *p = data;
    size_t left = len;
    int rc = 0;
    while (left > 0 && rc == 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = -1;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    if (rc == 0 && (fchmod(fd, mode & 0777) != 0 || fsync(fd) != 0))
        rc = -1;
    int e = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    errno = e;
    return rc;
}
