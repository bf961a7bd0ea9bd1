/*
 * Standalone driver: runs a fuzz target over files, without libFuzzer, so the targets build
 * with any compiler and `make test` replays the committed corpus (fuzz/corpus/<name>/).
 *
 *   fuzz-replay-<name> FILE|DIR...    every regular file given or inside a given directory
 *
 * Each input is passed in a heap block of exactly its size, as libFuzzer does, so that under
 * AddressSanitizer a target reading past its input is caught. A failed check or a crash names
 * the input; exit status 0 only if at least one input ran and all passed.
 */
#include "fuzz_common.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char current_input[4096];

static void on_fatal_signal(int sig)
{
    static const char head[] = "fuzz-replay: failed on input ";
    (void)!write(2, head, sizeof head - 1);
    (void)!write(2, current_input, strlen(current_input));
    (void)!write(2, "\n", 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz-replay: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    for (size_t n; data && (n = fread(data + size, 1, cap - size, f)) > 0;) {
        size += n;
        if (size == cap) {
            uint8_t *bigger = realloc(data, cap *= 2);
            if (!bigger)
                free(data);
            data = bigger;
        }
    }
    int read_error = ferror(f);
    fclose(f);
    if (!data || read_error) {
        fprintf(stderr, "fuzz-replay: cannot read %s\n", path);
        free(data);
        return -1;
    }
    uint8_t *exact = malloc(size ? size : 1); /* no slack after the input */
    if (!exact) {
        free(data);
        return -1;
    }
    memcpy(exact, data, size);
    free(data);
    snprintf(current_input, sizeof current_input, "%s", path);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

/* Runs one argument (a file, or every regular file in a directory); returns inputs run or -1. */
static long run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path) == 0 ? 1 : -1;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "fuzz-replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    long count = 0;
    char child[4096];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        if (e->d_name[0] == '.' || stat(child, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (run_file(child) != 0) {
            count = -1;
            break;
        }
        count++;
    }
    closedir(d);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "Usage: %s FILE|DIR...\nRuns the fuzz target over each input file.\n",
                argv[0]);
        return 2;
    }
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], on_fatal_signal);
    long total = 0;
    for (int i = 1; i < argc; i++) {
        long n = run_path(argv[i]);
        if (n < 0)
            return 2;
        total += n;
    }
    if (total == 0) {
        fprintf(stderr, "%s: no inputs found: nothing was checked\n", argv[0]);
        return 2;
    }
    printf("%s: %ld inputs, all checks passed\n", argv[0], total);
    return 0;
}
