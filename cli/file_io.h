/*
 * Files replaced atomically (file_io.c), for `csum pcap fix` and `csum tune --write`.
 */
#ifndef CSUM_FILE_IO_H
#define CSUM_FILE_IO_H

#include <sys/stat.h>

/* Nonzero when `path` names the file described by `st` (same device and inode). */
int file_same(const struct stat *st, const char *path);

/*
 * The file that replacing `path` should replace: `path` itself, or the file at the end of its
 * symbolic links, which need not exist yet (the link stays and the file it names is written or
 * created, as the shell's `>` does). A malloc'ed path, or NULL with a reason in *why (an
 * errno text, or this function's own) and errno set.
 *
 * Why not realpath(): it needs the file to exist (a dangling link was replaced by a file), and
 * it follows any link. Root's `csum pcap fix IN /tmp/out.pcap`, where another user had made
 * /tmp/out.pcap a link to /etc/shadow, renamed the capture over /etc/shadow: the kernel's
 * fs.protected_symlinks refuses to follow such a link on open(), but readlink() and a rename
 * over the resolved name escape it. So a link is followed only when it is ours (the effective
 * user's) or root's (root can write anywhere anyway, so its links give nobody anything; it
 * owns /dev/stdout, and the kernel trusts a link whose owner owns its directory, root's in
 * /tmp); another user's is refused (EACCES), wherever it is. One hop at a time, a relative
 * target resolved against its link's directory; more than 40 hops (Linux's limit) is ELOOP.
 * Only the last component is looked at: a link among the directories is followed by the
 * kernel, with its protections, when the temporary file is created there.
 */
char *file_follow_links(const char *path, const char **why);

/* Atomic replacement of `path` (file_io.c): file_temp_open creates a temporary file next to
 * it (returns its descriptor and malloc'ed name, or -1 with errno); write to the descriptor,
 * then file_temp_commit (sets the mode, fsync, rename over `path`, fsync of the directory so
 * that the new name survives a crash too; 0 or -1 with errno, the temporary file removed either
 * way) or file_temp_abort (close and remove it). `path` is what file_follow_links gave. */
int file_temp_open(const char *path, char **tmp_path);
int file_temp_commit(int fd, char *tmp_path, const char *path, mode_t mode);
void file_temp_abort(int fd, char *tmp_path);

/* Before file_temp_commit over an existing file `old`: give fd its owner and group where
 * allowed (the group when the caller is in it, the owner as root) and return the mode to set,
 * old's, with the group's permissions narrowed to the others' when the group could not be
 * kept: the replacement is never readable by more people than the file it replaces. */
mode_t file_keep_owner(int fd, const struct stat *old);

#endif /* CSUM_FILE_IO_H */
