/*
 * The queries on an implementation table, written once for the csum_partial table
 * (impl_table.c) and the copy table (copy_table.c): count, get, find by name, the row behind a
 * public pointer, and whether this CPU supports it. `table` is a static array of pointers to
 * rows whose first member `pub` is the public struct (with a `name`) and which have a
 * `cpu_features` mask.
 */
#ifndef CSUM_TABLE_QUERIES_H
#define CSUM_TABLE_QUERIES_H

#include "csum_internal.h"

#define CSUM_DEFINE_TABLE_QUERIES(prefix, entry_t, pub_t, table)                          \
    size_t prefix##_count(void)                                                          \
    {                                                                                     \
        return sizeof table / sizeof table[0];                                            \
    }                                                                                     \
                                                                                          \
    const pub_t *prefix##_get(size_t i)                                                   \
    {                                                                                     \
        return i < prefix##_count() ? &table[i]->pub : NULL;                              \
    }                                                                                     \
                                                                                          \
    const pub_t *prefix##_find(const char *name)                                          \
    {                                                                                     \
        for (size_t i = 0; name && i < prefix##_count(); i++)                             \
            if (strcmp(table[i]->pub.name, name) == 0)                                    \
                return &table[i]->pub;                                                    \
        return NULL;                                                                      \
    }                                                                                     \
                                                                                          \
    /* Only pointers that came out of the table are accepted: anything else is not ours. */ \
    const entry_t *prefix##_entry_of(const pub_t *impl)                                   \
    {                                                                                     \
        for (size_t i = 0; impl && i < prefix##_count(); i++)                             \
            if (&table[i]->pub == impl)                                                   \
                return table[i];                                                          \
        return NULL;                                                                      \
    }                                                                                     \
                                                                                          \
    int prefix##_entry_supported(const entry_t *e)                                        \
    {                                                                                     \
        return e && (csum_cpu_features() & e->cpu_features) == e->cpu_features;           \
    }                                                                                     \
                                                                                          \
    int prefix##_supported(const pub_t *impl)                                             \
    {                                                                                     \
        return prefix##_entry_supported(prefix##_entry_of(impl));                         \
    }

#endif /* CSUM_TABLE_QUERIES_H */
