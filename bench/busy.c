/*
 * The busy load of Gerum 2021: a thread on another CPU copying 128 MiB back and forth, so the
 * shared cache and the memory bus are under pressure while the measured CPU works.
 */
#define _GNU_SOURCE
#include "lab.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { BUSY_BYTES = 128 << 20 };

static pthread_t busy_thread;
static atomic_int busy_stop;
static int busy_running;
static unsigned char *busy_a, *busy_b;

static void *busy_main(void *arg)
{
    int cpu = *(int *)arg;
    free(arg);
    if (cpu >= 0)
        lab_pin_cpu(cpu);
    while (!atomic_load_explicit(&busy_stop, memory_order_relaxed)) {
        memcpy(busy_b, busy_a, BUSY_BYTES);
        memcpy(busy_a, busy_b, BUSY_BYTES);
    }
    return NULL;
}

int lab_busy_start(int avoid_cpu)
{
    int n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    int *cpu = malloc(sizeof *cpu);
    if (!cpu)
        return -1;
    *cpu = n > 1 ? (avoid_cpu == 0 ? 1 : 0) : -1; /* another CPU, if there is one */
    busy_a = mmap(NULL, BUSY_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    busy_b = mmap(NULL, BUSY_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (busy_a == MAP_FAILED || busy_b == MAP_FAILED) {
        free(cpu);
        return -1;
    }
    memset(busy_a, 0x5a, BUSY_BYTES);
    atomic_store(&busy_stop, 0);
    if (pthread_create(&busy_thread, NULL, busy_main, cpu) != 0) {
        free(cpu);
        return -1;
    }
    busy_running = 1;
    return 0;
}

void lab_busy_stop(void)
{
    if (!busy_running)
        return;
    atomic_store(&busy_stop, 1);
    pthread_join(busy_thread, NULL);
    munmap(busy_a, BUSY_BYTES);
    munmap(busy_b, BUSY_BYTES);
    busy_running = 0;
}
