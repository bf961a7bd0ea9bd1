/*
 * The one implementation table, built from src/impl_list.h, and the queries on it
 * (src/table_queries.h, shared with the copy table).
 */
#include "table_queries.h"

static const struct csum_impl_entry *const table[] = {
#define CSUM_IMPL_ROW(id) &csum_impl_##id,
#include "impl_list.h"
#undef CSUM_IMPL_ROW
};

CSUM_DEFINE_TABLE_QUERIES(csum_impl, struct csum_impl_entry, struct csum_impl, table)
