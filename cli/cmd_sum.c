/*
 * csum sum: the Internet checksum of files, like cksum(1) for RFC 1071.
 */
#include "cli.h"
#include "csum.h"
#include "stdout_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK = 1 << 20 };

/* Sum a whole file descriptor; returns 0, or -1 with errno set. Chunks may have any length:
 * each is summed on its own and placed at its offset with csum_block_add. */
static int sum_fd(int fd, unsigned char *buf, csum_wsum *sum, unsigned long long *len)
{
    csum_wsum total = 0;
    unsigned long long offset = 0;
    for (;;) {
        ssize_t n = read(fd, buf, CHUNK);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        total = csum_block_add(total, csum_partial(buf, (size_t)n, 0), (size_t)(offset & 1));
        offset += (unsigned long long)n;
    }
    *sum = total;
    *len = offset;
    return 0;
}

/* One result line. A name holding a backslash, newline or carriage return is written with
 * those escaped (\\, \n, \r) and the line starts with a backslash, as GNU coreutils' sha256sum
 * does: every result stays one line, and a reader can tell an escaped name from a plain one. */
static void print_result(const unsigned char stored[2], unsigned long long len, const char *name)
{
    const int escaped = name[strcspn(name, "\\\n\r")] != '\0';
    printf("%s0x%02x%02x  %llu  ", escaped ? "\\" : "", stored[0], stored[1], len);
    for (const char *c = name; *c; c++) {
        if (escaped && (*c == '\\' || *c == '\n' || *c == '\r'))
            printf("\\%c", *c == '\n' ? 'n' : *c == '\r' ? 'r' : '\\');
        else
            putchar(*c);
    }
    putchar('\n');
    stdout_error_errno(); /* the next file's open may fail and set errno */
}

int cmd_sum(int argc, char **argv)
{
    int first = 1;
    for (; first < argc; first++) {
        const char *a = argv[first];
        if (!strcmp(a, "--")) {
            first++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("Usage: csum sum [FILE...|-]\n"
                   "Print the Internet checksum (RFC 1071) of each FILE, or of standard input\n"
                   "when there is none or FILE is '-': the 16-bit value as a protocol analyzer\n"
                   "shows a checksum field (network byte order, 0x-prefixed), the length in\n"
                   "bytes, and the name. A file that already contains its own correct checksum\n"
                   "gives 0x0000. A name with a backslash, newline or carriage return is written\n"
                   "with those as \\\\, \\n and \\r, its line starting with a backslash (as\n"
                   "sha256sum does). Exit 1 if any file could not be read.\n");
            return EXIT_OK;
        }
        if (a[0] == '-' && a[1] != '\0')
            return usage_error("sum: unknown option '%s'", a);
        break;
    }

    unsigned char *buf = malloc(CHUNK);
    if (!buf) {
        fprintf(stderr, "csum: sum: out of memory\n");
        return EXIT_FAILURE_FOUND;
    }
    static char *const stdin_only[] = { "-" };
    char *const *names = first < argc ? argv + first : stdin_only;
    int count = first < argc ? argc - first : 1;
    int status = EXIT_OK;

    for (int i = 0; i < count; i++) {
        const char *name = names[i];
        int is_stdin = !strcmp(name, "-");
        int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY);
        csum_wsum sum;
        unsigned long long len;
        if (fd < 0 || sum_fd(fd, buf, &sum, &len) != 0) {
            fprintf(stderr, "csum: %s: %s\n", name, strerror(errno));
            status = EXIT_FAILURE_FOUND;
        } else {
            csum_sum16 check = csum_fold(sum);
            unsigned char stored[2];
            memcpy(stored, &check, 2); /* the bytes a header would hold, in that order */
            print_result(stored, len, name);
        }
        if (fd >= 0 && !is_stdin)
            close(fd);
    }
    free(buf);
    return status; /* main() checks that the output was written */
}
