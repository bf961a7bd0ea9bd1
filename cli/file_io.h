/*
 * Files replaced atomically (file_io.c), for `csum pcap fix` and `csum tune --write`.
 */
#ifndef CSUM_FILE_IO_H
#define CSUM_FILE_IO_H

#include <sys/stat.h>

/* Nonzero when `path` names the file described by `st` (same device and inode). */
int file_same(const struct stat *st, const char *path);

/* Atomic replacement of `path` (file_io.c): file_temp_open creates a temporary file next to
 * it (returns its descriptor and malloc'ed name, or -1 with errno); write to the descriptor,
 * then file_temp_commit (sets the mode, fsync, rename over `path`; 0 or -1 with errno, the
 * temporary file removed either way) or file_temp_abort (close and remove it). */
int file_temp_open(const char *path, char **tmp_path);
int file_temp_commit(int fd, char *tmp_path, const char *path, mode_t mode);
void file_temp_abort(int fd, char *tmp_path);

/* Before file_temp_commit over an existing file `old`: give fd its owner and group where
 * allowed (the group when the caller is in it, the owner as root) and return the mode to set,
 * old's, with the group's permissions narrowed to the others' when the group could not be
 * kept: the replacement is never readable by more people than the file it replaces. */
mode_t file_keep_owner(int fd, const struct stat *old);

#endif /* CSUM_FILE_IO_H */
