/*
 * Dispatch of csum_partial_copy: which row copies, by CPU and by length.
 *
 * A plan names the row for copies below a threshold and the row for copies from it up. Under
 * "auto" these are the first supported row with normal stores and the first supported
 * non-temporal row, and the threshold is glibc's memcpy rule (2.33 to 2.37): 3/4 of one CPU's
 * share of the last-level cache. Below that the copy's destination is likely to be read again
 * soon and to fit in the cache, so it should stay there; above it, streaming stores save the
 * read-for-ownership traffic and leave the cache to other data (seed 002's trade-off).
 * A selected row gets a plan with that row for every length.
 *
 * The current plan is one atomic pointer. It starts at a "first use" plan whose function builds
 * the real one (from CSUM_COPY_IMPL, else auto), publishes it with a compare-and-swap and then
 * copies, as src/dispatch.c does for csum_partial. Plans live in static storage and are only ever rewritten with the same
 * values, with atomic stores, so racing first callers are harmless. Hot path: the plan, its
 * threshold and one function pointer, a compare, an indirect call. The library never prints
 * or aborts.
 */
#include "csum_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

struct copy_plan {
    _Atomic size_t threshold; /* copies of at least this many bytes use `above` */
    _Atomic(csum_partial_copy_fn) below_fn, above_fn; /* the rows' functions: one load less */
    _Atomic(const struct csum_copy_impl_entry *) below, above;
};

enum {
    COPY_ROWS = 0
#define CSUM_COPY_ROW(id) +1
#include "copy_list.h"
#undef CSUM_COPY_ROW
};

static csum_wsum copy_first_use(void *dst, const void *src, size_t len, csum_wsum sum);

/* Until the first call decides, every length goes to copy_first_use. */
static struct copy_plan first_use = { SIZE_MAX, copy_first_use, copy_first_use, NULL, NULL };
static struct copy_plan auto_plan, forced_plan[COPY_ROWS];
static _Atomic(struct copy_plan *) current_plan = &first_use;

enum { MIN_THRESHOLD = 1 << 20 };

static const struct csum_copy_impl_entry *first_supported(int nontemporal)
{
    for (size_t i = 0; i < csum_copy_impl_count(); i++) {
        const struct csum_copy_impl_entry *e = csum_copy_impl_entry_of(csum_copy_impl_get(i));
        if (e->pub.nontemporal == nontemporal && csum_copy_impl_entry_supported(e))
            return e;
    }
    return NULL;
}

size_t csum_copy_nontemporal_threshold(void)
{
    if (!first_supported(1))
        return SIZE_MAX;
    size_t t = csum_llc_share() / 4 * 3;
    return t < MIN_THRESHOLD ? MIN_THRESHOLD : t;
}

static void fill(struct copy_plan *p, const struct csum_copy_impl_entry *below,
                 const struct csum_copy_impl_entry *above, size_t threshold)
{
    atomic_store_explicit(&p->below, below, memory_order_relaxed);
    atomic_store_explicit(&p->above, above, memory_order_relaxed);
    atomic_store_explicit(&p->below_fn, below->pub.copy, memory_order_relaxed);
    atomic_store_explicit(&p->above_fn, above->pub.copy, memory_order_relaxed);
    atomic_store_explicit(&p->threshold, threshold, memory_order_relaxed);
}

static struct copy_plan *build_auto(void)
{
    const struct csum_copy_impl_entry *below = first_supported(0); /* generic runs anywhere */
    const struct csum_copy_impl_entry *above = first_supported(1);
    fill(&auto_plan, below, above ? above : below, csum_copy_nontemporal_threshold());
    return &auto_plan;
}

/* The plan a name asks for: "auto", or one supported row for every length; NULL otherwise. */
static struct copy_plan *plan_for_name(const char *name)
{
    if (name && strcmp(name, "auto") == 0)
        return build_auto();
    const struct csum_copy_impl *impl = csum_copy_impl_find(name);
    if (!csum_copy_impl_supported(impl))
        return NULL;
    for (size_t i = 0; i < COPY_ROWS; i++)
        if (csum_copy_impl_get(i) == impl) {
            const struct csum_copy_impl_entry *e = csum_copy_impl_entry_of(impl);
            fill(&forced_plan[i], e, e, SIZE_MAX);
            return &forced_plan[i];
        }
    return NULL;
}

static struct copy_plan *initialize(void)
{
    struct copy_plan *choice = plan_for_name(getenv("CSUM_COPY_IMPL"));
    if (!choice)
        choice = build_auto(); /* unset, unknown or unsupported: fall back to auto */
    struct copy_plan *expected = &first_use;
    if (atomic_compare_exchange_strong_explicit(&current_plan, &expected, choice,
                                                memory_order_acq_rel, memory_order_acquire))
        return choice;
    return expected; /* someone else decided first */
}

/* The current plan, decided (not first_use). */
static struct copy_plan *plan(void)
{
    struct copy_plan *p = atomic_load_explicit(&current_plan, memory_order_acquire);
    return p != &first_use ? p : initialize();
}

static inline csum_partial_copy_fn fn_in(struct copy_plan *p, size_t len)
{
    return len < atomic_load_explicit(&p->threshold, memory_order_relaxed)
               ? atomic_load_explicit(&p->below_fn, memory_order_relaxed)
               : atomic_load_explicit(&p->above_fn, memory_order_relaxed);
}

static csum_wsum copy_first_use(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return fn_in(plan(), len)(dst, src, len, sum);
}

csum_partial_copy_fn csum_copy_fn_for(size_t len)
{
    return fn_in(plan(), len);
}

csum_wsum csum_partial_copy(void *dst, const void *src, size_t len, csum_wsum sum)
{
    /* NULL buffers are a caller bug; copy nothing and never crash, as csum_partial does. */
    if (__builtin_expect(dst == NULL || src == NULL, 0))
        return sum;
    return fn_in(atomic_load_explicit(&current_plan, memory_order_acquire), len)(dst, src, len, sum);
}

const struct csum_copy_impl *csum_copy_impl_active(size_t len)
{
    struct copy_plan *p = plan();
    return len < atomic_load_explicit(&p->threshold, memory_order_relaxed)
               ? &atomic_load_explicit(&p->below, memory_order_relaxed)->pub
               : &atomic_load_explicit(&p->above, memory_order_relaxed)->pub;
}

int csum_copy_impl_select(const char *name)
{
    struct copy_plan *p = plan_for_name(name);
    if (!p)
        return -1;
    atomic_store_explicit(&current_plan, p, memory_order_release);
    return 0;
}
