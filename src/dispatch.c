/*
 * Runtime dispatch: which implementation csum_partial() calls.
 *
 * One atomic pointer to the active table row. It starts at a private "first use" row whose
 * function picks the implementation (CSUM_IMPL from the environment, else the best supported
 * row), publishes it with a compare-and-swap, and then runs it. Racing first callers compute
 * the same choice; an explicit csum_impl_select() that happened first is never overwritten.
 * After that, every call is one atomic load (a plain load on x86 and arm64) and an indirect
 * call: no lock on the hot path.
 */
#include "csum_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

static csum_wsum partial_first_use(const void *buf, size_t len, csum_wsum sum);

static const struct csum_impl_entry first_use = {
    .pub = { "first-use", "chooses the implementation, then calls it", partial_first_use, "" },
};

static _Atomic(const struct csum_impl_entry *) active = &first_use;

static const struct csum_impl_entry *best_supported(void)
{
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl_entry *e = csum_impl_entry_of(csum_impl_get(i));
        if (csum_impl_entry_supported(e))
            return e;
    }
    return &csum_impl_generic; /* needs nothing, so never reached in practice */
}

/* The row a name asks for: "auto" is the best one; NULL if unknown or unsupported. */
static const struct csum_impl_entry *entry_for_name(const char *name)
{
    if (name && strcmp(name, "auto") == 0)
        return best_supported();
    const struct csum_impl_entry *e = csum_impl_entry_of(csum_impl_find(name));
    return csum_impl_entry_supported(e) ? e : NULL;
}

static const struct csum_impl_entry *initialize(void)
{
    const struct csum_impl_entry *choice = entry_for_name(getenv("CSUM_IMPL"));
    if (!choice)
        choice = best_supported(); /* unset, unknown or unsupported: fall back to auto */
    const struct csum_impl_entry *expected = &first_use;
    if (atomic_compare_exchange_strong_explicit(&active, &expected, choice,
                                                memory_order_acq_rel, memory_order_acquire))
        return choice;
    return expected; /* someone else decided first */
}

static const struct csum_impl_entry *current(void)
{
    const struct csum_impl_entry *e = atomic_load_explicit(&active, memory_order_acquire);
    return e == &first_use ? initialize() : e;
}

static csum_wsum partial_first_use(const void *buf, size_t len, csum_wsum sum)
{
    return current()->pub.partial(buf, len, sum);
}

csum_wsum csum_partial(const void *buf, size_t len, csum_wsum sum)
{
    /* A NULL buffer with a nonzero length is a caller bug; treat it as empty, never crash. */
    if (__builtin_expect(buf == NULL, 0))
        return sum;
    return atomic_load_explicit(&active, memory_order_acquire)->pub.partial(buf, len, sum);
}

const struct csum_impl *csum_impl_active(void)
{
    return &current()->pub;
}

int csum_impl_select(const char *name)
{
    const struct csum_impl_entry *e = entry_for_name(name);
    if (!e)
        return -1;
    atomic_store_explicit(&active, e, memory_order_release);
    return 0;
}
