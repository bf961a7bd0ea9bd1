/*
 * The copy table, built from src/copy_list.h, and the queries on it (src/table_queries.h, the
 * same code as the csum_partial table's).
 */
#include "table_queries.h"

static const struct csum_copy_impl_entry *const table[] = {
#define CSUM_COPY_ROW(id) &csum_copy_impl_##id,
#include "copy_list.h"
#undef CSUM_COPY_ROW
};

CSUM_DEFINE_TABLE_QUERIES(csum_copy_impl, struct csum_copy_impl_entry, struct csum_copy_impl, table)
