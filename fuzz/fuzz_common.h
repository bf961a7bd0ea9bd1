/*
 * What every fuzz target shares: checks that are always on, and a reader that turns the
 * fuzzer's bytes into parameters.
 *
 * FUZZ_CHECK is not assert(): it stays in every build (NDEBUG included), prints what failed
 * with the values that matter, and calls abort(), which libFuzzer records as a crash (saving
 * the input) and the replay driver reports with the input's file name.
 */
#ifndef CSUM_FUZZ_COMMON_H
#define CSUM_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The libFuzzer entry point each fuzz_<name>.c defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond, ...)                                                             \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s\n    ", __FILE__, __LINE__, #cond);  \
            fprintf(stderr, __VA_ARGS__);                                                 \
            fputc('\n', stderr);                                                          \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

/*
 * Parameters come off the front of the input, little-endian; an input too short for them
 * reads zeros, so every input is valid and the fuzzer never wastes runs on rejected ones.
 */
struct fuzz_input {
    const uint8_t *p;
    size_t left;
};

static inline uint64_t fuzz_take(struct fuzz_input *in, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        if (in->left) {
            v |= (uint64_t)*in->p++ << (8 * i);
            in->left--;
        }
    return v;
}

#endif /* CSUM_FUZZ_COMMON_H */
