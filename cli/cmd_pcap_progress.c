/*
 * csum pcap verify|fix: the progress line on a terminal, for captures above 1 GB.
 */
#include "cmd_pcap.h"

#include <inttypes.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double seconds_since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) * 1e-9;
}

/* The progress line (a terminal on stderr, a file above 1 GB): at most 4 updates a second. */
void pcap_cli_on_progress(void *arg, uint64_t bytes_in, uint64_t packets)
{
    struct report *r = arg;
    if (!r->progress || seconds_since(&r->last) < 0.25)
        return;
    clock_gettime(CLOCK_MONOTONIC, &r->last);
    const double elapsed = seconds_since(&r->start);
    r->progress_shown = 1;
    fprintf(stderr, "\r\033[Kcsum pcap %s: %s: %.2f of %.2f GB (%.0f%%), %" PRIu64 " packets, "
            "%.2f GB/s", r->fixing ? "fix" : "verify", r->name, (double)bytes_in / 1e9,
            (double)r->total_bytes / 1e9, 100.0 * (double)bytes_in / (double)r->total_bytes,
            packets, elapsed > 0 ? (double)bytes_in / 1e9 / elapsed : 0.0);
}

void pcap_cli_progress_start(struct report *r, int fd, const char *name)
{
    struct stat st;
    r->name = name;
    if (isatty(STDERR_FILENO) && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size > 1000000000) {
        r->progress = 1;
        r->total_bytes = (uint64_t)st.st_size;
        clock_gettime(CLOCK_MONOTONIC, &r->start);
        r->last = r->start;
    }
}

/* Before a line on a terminal that may be the progress line's: clear it (the next update
 * draws it again). */
void pcap_cli_progress_clear(struct report *r)
{
    if (r->progress && r->progress_shown) {
        fputs("\r\033[K", stderr);
        r->progress_shown = 0;
    }
}

void pcap_cli_progress_end(struct report *r)
{
    pcap_cli_progress_clear(r);
    r->progress = 0;
}
