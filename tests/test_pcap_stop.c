/*
 * csum_pcap_options.should_stop: a walk the caller asks to stop ends with -1 and an error of
 * kind CSUM_PCAP_ERROR_INTERRUPTED, after the packets it already read, from memory (asked
 * every CAPTURE_STOP_EVERY packets), from a descriptor (asked before each read), and from a
 * pipe whose read(2) blocks until a signal interrupts it; one that never asks to stop (or has
 * no should_stop) walks the whole capture as before.
 */
#define _GNU_SOURCE /* pipe2 */
#include "test.h"

#include "csum_pcap.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* Records of 616 bytes: a 1 MiB read holds fewer than 4096. */
enum { PACKETS = 10000, PAYLOAD = 558, FRAME = 14 + 20 + 8 + PAYLOAD, RECORD = 16 + FRAME,
       HEADER = 24 };

/* A pcap of n records: Ethernet, IPv4 (header checksum left 0: bad), UDP without checksum
 * (test.h). */
unsigned char *test_udp_capture(size_t n, size_t *len)
{
    *len = HEADER + n * RECORD;
    unsigned char *p = calloc(1, *len);
    if (!p)
        abort();
    static const unsigned char file_header[HEADER] = { 0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0,
                                                       0, 0, 0, 0, 0, 0, 0, 0,
                                                       0xff, 0xff, 0, 0, 1, 0, 0, 0 };
    memcpy(p, file_header, HEADER);
    for (size_t i = 0; i < n; i++) {
        unsigned char *r = p + HEADER + i * RECORD, *f = r + 16;
        r[8] = r[12] = FRAME & 0xff; /* caplen, wirelen (little-endian) */
        r[9] = r[13] = FRAME >> 8;
        f[12] = 0x08;         /* IPv4 */
        unsigned char *ip = f + 14;
        ip[0] = 0x45;
        ip[2] = (20 + 8 + PAYLOAD) >> 8;
        ip[3] = (20 + 8 + PAYLOAD) & 0xff;
        ip[8] = 64;
        ip[9] = 17;
        ip[15] = 1;
        ip[19] = 2;
        ip[24] = (8 + PAYLOAD) >> 8; /* UDP length */
        ip[25] = (8 + PAYLOAD) & 0xff;
    }
    return p;
}

struct stop {
    int stop_at_progress;  /* ask to stop from on_progress's n-th call (0: never) */
    uint64_t stop_at_frame; /* ask to stop from on_check at this frame (0: never) */
    int always;            /* stop from the start */
    volatile sig_atomic_t asked;
    int progress_calls, should_stop_calls;
    uint64_t checks, last_frame;
};

static int should_stop(void *ctx)
{
    struct stop *s = ctx;
    s->should_stop_calls++;
    return s->always || s->asked;
}

static void on_progress(void *ctx, uint64_t bytes_in, uint64_t packets)
{
    struct stop *s = ctx;
    (void)bytes_in;
    (void)packets;
    if (++s->progress_calls == s->stop_at_progress)
        s->asked = 1;
}

static void on_check(void *ctx, const struct csum_pcap_check *c)
{
    struct stop *s = ctx;
    s->checks++;
    s->last_frame = c->frame;
    if (c->frame == s->stop_at_frame)
        s->asked = 1;
}

static struct csum_pcap_options options(struct stop *s)
{
    return (struct csum_pcap_options){ .on_check = on_check, .on_progress = on_progress,
                                       .should_stop = should_stop, .ctx = s };
}

static struct stop *alarm_stop;

static void on_alarm_stop(int sig)
{
    (void)sig;
    alarm_stop->asked = 1;
}

/* The write end of a pipe, closed after 5 s unless the test says it is done first (by closing
 * `done`'s write end): a walk that missed the stop then ends (with 0, the file header alone
 * being a whole capture), and the test fails instead of hanging. Not pthread_cancel() on a
 * sleep: under qemu-x86_64 (make test-cpus) the cancellation crashed the test. */
struct closer {
    int data_w, done_r;
    _Atomic int closed;
};

static void *close_later(void *arg)
{
    struct closer *c = arg;
    struct pollfd done = { .fd = c->done_r, .events = POLLIN };
    if (poll(&done, 1, 5000) == 0) {
        c->closed = 1;
        close(c->data_w);
    }
    return NULL;
}

void test_pcap_stop(struct test_ctx *t)
{
    size_t len;
    unsigned char *cap = test_udp_capture(PACKETS, &len);
    struct csum_pcap_summary s;
    struct csum_pcap_error e;

    /* Without should_stop, and with one that never says stop: the whole capture. */
    struct stop never = { 0 };
    struct csum_pcap_options o = options(&never);
    o.should_stop = NULL;
    CHECK(t, csum_pcap_verify_buffer(cap, len, &o, &s, &e) == 0 && s.packets == PACKETS &&
          never.last_frame == PACKETS, "no should_stop: rc != 0 or %llu packets",
          (unsigned long long)s.packets);
    never = (struct stop){ 0 };
    o = options(&never);
    int fd = test_temp_file(t, cap, len);
    CHECK(t, csum_pcap_verify_buffer(cap, len, &o, &s, &e) == 0 && s.packets == PACKETS,
          "should_stop saying 0: %s", e.message);
    CHECK(t, never.should_stop_calls >= PACKETS / 4096, "should_stop asked %d times in memory",
          never.should_stop_calls);
    never.should_stop_calls = 0;
    CHECK(t, csum_pcap_verify_fd(fd, &o, &s, &e) == 0 && s.packets == PACKETS,
          "should_stop saying 0, from a file: %s", e.message);
    CHECK(t, never.should_stop_calls >= never.progress_calls, "should_stop asked %d times, "
          "%d reads", never.should_stop_calls, never.progress_calls);

    /* Stop asked before the walk: nothing read, nothing reported, nothing written. */
    struct stop always = { .always = 1 };
    o = options(&always);
    CHECK(t, csum_pcap_verify_buffer(cap, len, &o, &s, &e) == -1 &&
          e.kind == CSUM_PCAP_ERROR_INTERRUPTED && e.offset == 0 && !e.cut_short &&
          s.packets == 0 && always.checks == 0, "stopped from the start, in memory: kind %s at "
          "%llu, %llu packets", csum_pcap_error_kind_name(e.kind), (unsigned long long)e.offset,
          (unsigned long long)s.packets);
    CHECK(t, !strcmp(csum_pcap_error_kind_name(CSUM_PCAP_ERROR_INTERRUPTED), "interrupted"),
          "kind name %s", csum_pcap_error_kind_name(CSUM_PCAP_ERROR_INTERRUPTED));
    lseek(fd, 0, SEEK_SET);
    CHECK(t, csum_pcap_verify_fd(fd, &o, &s, &e) == -1 && e.kind == CSUM_PCAP_ERROR_INTERRUPTED &&
          e.offset == 0 && s.packets == 0 && always.progress_calls == 0 &&
          lseek(fd, 0, SEEK_CUR) == 0, "stopped from the start, from a file: kind %s, %d reads",
          csum_pcap_error_kind_name(e.kind), always.progress_calls);
    int out = test_temp_file(t, cap, 0);
    CHECK(t, csum_pcap_fix_fd(fd, out, &o, &s, &e) == -1 && e.kind == CSUM_PCAP_ERROR_INTERRUPTED &&
          !e.output && lseek(out, 0, SEEK_END) == 0, "fix stopped from the start wrote %lld bytes",
          (long long)lseek(out, 0, SEEK_END));

    /* Stop asked in memory from on_check: at the next multiple of 4096 packets, before that
     * record, every packet before it reported. */
    struct stop at = { .stop_at_frame = 100 };
    o = options(&at);
    CHECK(t, csum_pcap_verify_buffer(cap, len, &o, &s, &e) == -1 &&
          e.kind == CSUM_PCAP_ERROR_INTERRUPTED && s.packets == 4096 && at.last_frame == 4096 &&
          e.offset == HEADER + 4096ull * RECORD, "stopped at frame 100 in memory: kind %s at "
          "%llu, %llu packets", csum_pcap_error_kind_name(e.kind), (unsigned long long)e.offset,
          (unsigned long long)s.packets);

    /* Stop asked from on_progress after the first read (1 MiB of a 6 MiB file): the next
     * read is not made, and the records of the first are all walked. */
    struct stop first = { .stop_at_progress = 1 };
    o = options(&first);
    lseek(fd, 0, SEEK_SET);
    const int rc = csum_pcap_verify_fd(fd, &o, &s, &e);
    CHECK(t, rc == -1 && e.kind == CSUM_PCAP_ERROR_INTERRUPTED && !e.cut_short &&
          first.progress_calls == 1 && s.packets > 0 && s.packets < PACKETS &&
          first.last_frame == s.packets && e.offset == (uint64_t)lseek(fd, 0, SEEK_CUR) &&
          s.packets == (e.offset - HEADER) / RECORD, "stopped from on_progress: rc %d, kind %s "
          "at %llu, %llu packets, %d reads", rc, csum_pcap_error_kind_name(e.kind),
          (unsigned long long)e.offset, (unsigned long long)s.packets, first.progress_calls);
    first = (struct stop){ .stop_at_progress = 1 };
    lseek(fd, 0, SEEK_SET);
    CHECK(t, csum_pcap_fix_fd(fd, out, &o, &s, &e) == -1 && e.kind == CSUM_PCAP_ERROR_INTERRUPTED &&
          !e.output && !e.cut_short && s.packets < PACKETS, "fix stopped from on_progress: "
          "kind %s", csum_pcap_error_kind_name(e.kind));
    close(out);
    close(fd);

    /* A read(2) that blocks (a pipe with nothing more to read) until a signal interrupts it:
     * its handler's request is seen without waiting for data. */
    int p[2];
    CHECK(t, pipe2(p, O_CLOEXEC) == 0, "pipe: %s", strerror(errno));
    CHECK(t, write(p[1], cap, HEADER + 10 * RECORD) == HEADER + 10 * RECORD, "pipe write");
    struct stop by_signal = { 0 };
    alarm_stop = &by_signal;
    struct sigaction sa = { .sa_handler = on_alarm_stop }, old; /* no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    sigset_t alrm, saved;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alrm, &saved); /* the closing thread never takes it */
    int done[2] = { -1, -1 }; /* if pipe2 fails: poll() skips -1, and the closer waits 5 s */
    CHECK(t, pipe2(done, O_CLOEXEC) == 0, "pipe: %s", strerror(errno));
    struct closer c = { .data_w = p[1], .done_r = done[0] };
    pthread_t closer;
    const int started = pthread_create(&closer, NULL, close_later, &c) == 0;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    CHECK(t, started, "pthread_create");
    struct itimerval it = { .it_value = { .tv_usec = 100000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    o = options(&by_signal);
    CHECK(t, csum_pcap_verify_fd(p[0], &o, &s, &e) == -1 && e.kind == CSUM_PCAP_ERROR_INTERRUPTED &&
          s.packets == 10 && e.offset == HEADER + 10 * RECORD, "a blocked read, then a signal "
          "asking to stop: kind %s (%s) at %llu, %llu packets", csum_pcap_error_kind_name(e.kind),
          e.message, (unsigned long long)e.offset, (unsigned long long)s.packets);
    struct itimerval off = { 0 };
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &old, NULL);
    close(done[1]); /* the closer's poll() returns */
    if (started)
        pthread_join(closer, NULL);
    close(done[0]);
    close(p[0]);
    if (!c.closed)
        close(p[1]);
    free(cap);
}
