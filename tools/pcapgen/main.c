/*
 * csum-pcapgen DIR                      the test corpus (see corpus.c), MANIFEST included
 * csum-pcapgen --bulk FILE MIB [SEED]   one large capture with correct checksums, for timing
 * csum-pcapgen --mutate IN OUT SEED     IN with a few random bytes changed, some lengths
 *                                       damaged, or cut short: hostile input for robustness tests
 */
#include "pcapgen.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "--bulk")) {
        uint64_t mib = strtoull(argv[3], NULL, 10);
        uint64_t seed = argc > 4 ? strtoull(argv[4], NULL, 10) : 1;
        if (mib == 0) {
            fprintf(stderr, "csum-pcapgen: --bulk needs a size in MiB\n");
            return 2;
        }
        return write_bulk(argv[2], mib << 20, seed);
    }
    if (argc == 5 && !strcmp(argv[1], "--mutate"))
        return mutate_file(argv[2], argv[3], strtoull(argv[4], NULL, 10));
    if (argc == 2 && argv[1][0] != '-')
        return write_corpus(argv[1]);
    fprintf(stderr, "Usage: csum-pcapgen DIR | --bulk FILE MIB [SEED] | --mutate IN OUT SEED\n"
                    "Writes test captures whose checksums come from the reference oracle.\n");
    return 2;
}
