/*
 * The one implementation table, built from src/impl_list.h, and the queries on it.
 */
#include "csum_internal.h"

static const struct csum_impl_entry *const table[] = {
#define CSUM_IMPL_ROW(id) &csum_impl_##id,
#include "impl_list.h"
#undef CSUM_IMPL_ROW
};

#define TABLE_SIZE (sizeof table / sizeof table[0])

size_t csum_impl_count(void)
{
    return TABLE_SIZE;
}

const struct csum_impl *csum_impl_get(size_t i)
{
    return i < TABLE_SIZE ? &table[i]->pub : NULL;
}

const struct csum_impl *csum_impl_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (strcmp(table[i]->pub.name, name) == 0)
            return &table[i]->pub;
    return NULL;
}

/* Only pointers that came out of the table are accepted: anything else is "not ours". */
const struct csum_impl_entry *csum_impl_entry_of(const struct csum_impl *impl)
{
    for (size_t i = 0; impl && i < TABLE_SIZE; i++)
        if (&table[i]->pub == impl)
            return table[i];
    return NULL;
}

int csum_impl_entry_supported(const struct csum_impl_entry *e)
{
    return e && (csum_cpu_features() & e->cpu_features) == e->cpu_features;
}

int csum_impl_supported(const struct csum_impl *impl)
{
    return csum_impl_entry_supported(csum_impl_entry_of(impl));
}
