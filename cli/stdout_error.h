/*
 * Why standard output could not be written, kept from the moment a failed write is seen
 * (stdout_error.c): for csum's "cannot write output: REASON" at the end of a command.
 */
#ifndef CSUM_STDOUT_ERROR_H
#define CSUM_STDOUT_ERROR_H

/*
 * errno of standard output's first failed write, 0 while none was seen (or it set none).
 * A failed write leaves stdio's buffer empty (glibc and musl both drop what it held, all of a
 * write larger than the buffer too), so when it was a command's last write the final fflush
 * has nothing left to fail on: then only errno still names the cause, and only until another
 * call fails (csum sum opening a missing file, the lab's probes). Call it right after writing
 * to stdout, before other work that may fail; main() calls it once a command returns.
 */
int stdout_error_errno(void);

#endif
