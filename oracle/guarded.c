/*
 * Buffers between inaccessible pages, for the tests and the fuzz targets: data placed flush
 * against either guard makes a read of one byte too many or too few crash at once, whether the
 * load is compiled C (which a sanitizer would also see) or inline assembly (which it would not).
 */
#include "csum_oracle.h"

#include <sys/mman.h>
#include <unistd.h>

int guarded_buffer_map(struct guarded_buffer *g, size_t min_len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    g->data_len = (min_len + page - 1) / page * page;
    g->map_len = g->data_len + 2 * page;
    g->base = mmap(NULL, g->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->base == MAP_FAILED)
        return -1;
    g->data = (unsigned char *)g->base + page;
    if (mprotect(g->data, g->data_len, PROT_READ | PROT_WRITE) != 0) {
        munmap(g->base, g->map_len);
        return -1;
    }
    return 0;
}

void guarded_buffer_unmap(struct guarded_buffer *g)
{
    munmap(g->base, g->map_len);
}
