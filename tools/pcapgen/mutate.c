/*
 * Damaged copies of captures, to check that the reader survives hostile bytes: random byte
 * changes, 32-bit length-like fields set to extreme values, and truncation.
 */
#include "pcapgen.h"

#include "csum_oracle.h"

#include <stdlib.h>

int mutate_file(const char *in, const char *out, uint64_t seed)
{
    FILE *f = fopen(in, "rb");
    if (!f) {
        perror(in);
        return 2;
    }
    static unsigned char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint64_t rng = seed * 0x9e3779b97f4a7c15u + 1;
    if (n > 0) {
        int edits = 1 + (int)(testdata_next(&rng) % 8);
        for (int i = 0; i < edits; i++) {
            size_t at = (size_t)(testdata_next(&rng) % n);
            switch (testdata_next(&rng) % 4) {
            case 0:
                buf[at] ^= (unsigned char)(1 + testdata_next(&rng) % 255);
                break;
            case 1: /* a length-like field: 0, tiny, huge, or just past the end */
                if (at + 4 <= n) {
                    static const uint32_t extremes[] = { 0, 1, 7, 12, 0x7fffffff, 0xffffffff, 0xfffffff0 };
                    put32(buf + at, extremes[testdata_next(&rng) % 7], testdata_next(&rng) & 1);
                }
                break;
            case 2:
                buf[at] = 0xff;
                break;
            default:
                n = at; /* cut the file here */
                break;
            }
            if (n == 0)
                break;
        }
    }
    f = fopen(out, "wb");
    if (!f || fwrite(buf, 1, n, f) != n || fclose(f) != 0) {
        perror(out);
        return 2;
    }
    return 0;
}
