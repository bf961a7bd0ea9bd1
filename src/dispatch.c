/*
 * Runtime dispatch, one engine for the three dispatched operations: csum_partial (by length),
 * csum_partial_copy (by length) and csum_ipv4_header_batch (by number of headers).
 *
 * A plan (src/plan.h) maps size ranges to kernel entry points: e.g. x86-scalar below 256 bytes
 * (no vector set-up to pay for), avx512-vnni from 256 on. Plans are immutable once published
 * through one atomic pointer per operation, so a call is one load, at most three
 * well-predicted compares and a tail call: no lock, no reference counting. The hottest ranges
 * (the inline short path, csum_partial's last range, csum_partial_copy's main range) are also
 * copied to fixed addresses, so those calls take one compare and no plan pointer. Published
 * plans are kept for the life of the process (another thread may still be using one);
 * publishing a plan equal to one kept before reuses it, so re-setting a configuration
 * allocates nothing.
 *
 * Each operation starts at a private "first use" plan whose functions choose the real plan —
 * the operation's force variable (CSUM_IMPL, CSUM_COPY_IMPL, CSUM_BATCH_IMPL: one entry for
 * every size), else the automatic plan — publish it with a compare-and-swap and then run it.
 * Racing first callers compute the same plan; an explicit choice (csum_impl_select(),
 * csum_dispatch_set(), csum_copy_impl_select()) made before is never overwritten.
 *
 * The automatic plans:
 *  - csum_partial: CSUM_DISPATCH, else the plan file (csum_dispatch_file(), written by
 *    `csum tune --write`), else the compiled-in plan for this CPU (src/dispatch_defaults.c).
 *    Text that is malformed or names a row this CPU cannot run is ignored (the next source is
 *    used) and the reason is kept in csum_dispatch_source() (an unusable CSUM_IMPL's too);
 *  - csum_partial_copy: the first supported product row with normal stores, and from
 *    csum_copy_nontemporal_threshold() bytes up the first with streaming stores;
 *  - csum_ipv4_header_batch: header by header (generic) below BATCH_MIN headers, the first
 *    supported product row with a batch entry from there; why an unusable CSUM_BATCH_IMPL was
 *    ignored is kept in its source (csum_ipv4_batch_source());
 *  the "first" rows of both among those no wider than the rows of this CPU's compiled-in
 *  csum_partial plan (default_plan_features).
 * Environment variables are read with csum_getenv (src/env.c: not in set-uid programs).
 * Nothing is ever printed.
 */
#define _GNU_SOURCE
#include "plan.h"
#include "arch_hooks.h" /* the architecture's inline short path, if it has one */

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* Below this many headers the batch runs header by header: a SIMD step costs more (the lab's
 * batch table: about 12 ticks for a batch of one through the AVX-512 kernel, 4 alone). */
enum { BATCH_MIN = 8 };
/* Streaming copies never below this, whatever the cache: our own floor (glibc has none at
 * this size). A copy this small fits in one core's private L2 (1 MiB on Zen 4 and Zen 5),
 * which a small share of the last-level cache says nothing about (csum.h). */
enum { NONTEMPORAL_MIN = 1 << 20 };

/* ---- first use ----------------------------------------------------------------------------- */

static csum_wsum partial_first_use(const void *buf, size_t len, csum_wsum sum);
static csum_wsum copy_first_use(void *dst, const void *src, size_t len, csum_wsum sum);
static void batch_first_use(const void *const *hdrs, size_t n, csum_sum16 *out);

#define FIRST_USE(member, function)                                                          \
    {                                                                                        \
        .from = { 0, SIZE_MAX, SIZE_MAX, SIZE_MAX },                                         \
        .fn = { { .member = function }, { .member = function }, { .member = function },      \
                { .member = function } },                                                    \
        .n = 1, .source = "not chosen yet",                                                  \
    }
static const struct csum_plan first_use[CSUM_OP_COUNT] = {
    [CSUM_OP_PARTIAL] = FIRST_USE(partial, partial_first_use),
    [CSUM_OP_COPY] = FIRST_USE(copy, copy_first_use),
    [CSUM_OP_IPV4_BATCH] = FIRST_USE(batch, batch_first_use),
};

static _Atomic(const struct csum_plan *) active[CSUM_OP_COUNT] = {
    &first_use[CSUM_OP_PARTIAL], &first_use[CSUM_OP_COPY], &first_use[CSUM_OP_IPV4_BATCH],
};
static _Atomic(const struct csum_plan *) auto_plans[CSUM_OP_COUNT]; /* built once each */

/* ---- keeping plans --------------------------------------------------------------------------- */

struct kept_plan {
    struct csum_plan plan;
    char source[]; /* plan.source points here */
};

static _Atomic(struct csum_plan *) kept; /* every plan ever published, never freed */

static int same_plan(const struct csum_plan *a, const struct csum_plan *b, const char *source)
{
    if (a->op != b->op || a->n != b->n || a->inline_below != b->inline_below ||
        strcmp(a->source, source) != 0)
        return 0;
    for (unsigned k = 0; k < a->n; k++)
        if (a->from[k] != b->from[k] || a->entry[k].view != b->entry[k].view)
            return 0;
    return 1;
}

/* Where the arch's inline short path may stand in for a plan's first range: below this
 * length, when the range is the arch's short kernel (its sum, or its copy with normal stores);
 * 0 for every other plan. */
static size_t arch_inline_limit(const struct csum_plan *p)
{
#ifdef CSUM_ARCH_SHORT_KERNEL
    if (p->entry[0].kernel == &CSUM_ARCH_SHORT_KERNEL) {
        if (p->op == CSUM_OP_PARTIAL)
            return CSUM_ARCH_SHORT_MAX + 1;
        if (p->op == CSUM_OP_COPY && p->entry[0].view == &CSUM_ARCH_SHORT_KERNEL.copy)
            return CSUM_ARCH_SHORT_COPY_MAX + 1;
    }
#endif
    (void)p;
    return 0;
}

/*
 * A plan equal to p with this source that lives forever: one kept before, or a new heap copy.
 * The arch's inline short path is set here, for every plan that starts with its kernel. NULL
 * when out of memory.
 */
static const struct csum_plan *keep(struct csum_plan *p, const char *source)
{
    const size_t limit = arch_inline_limit(p);
    p->inline_below = p->from[1] < limit ? p->from[1] : limit;
    for (struct csum_plan *k = atomic_load(&kept); k; k = k->next_kept)
        if (same_plan(k, p, source))
            return k;
    size_t source_size = strlen(source) + 1;
    struct kept_plan *copy = malloc(sizeof *copy + source_size);
    if (!copy)
        return NULL;
    copy->plan = *p;
    memcpy(copy->source, source, source_size);
    copy->plan.source = copy->source;
    struct csum_plan *head = atomic_load(&kept);
    do
        copy->plan.next_kept = head;
    while (!atomic_compare_exchange_weak(&kept, &head, &copy->plan));
    return &copy->plan;
}

/* The plan that runs one entry for every size. */
static const struct csum_plan *single_plan(enum csum_op op, const struct csum_op_entry *e,
                                           const char *source)
{
    struct csum_plan p;
    csum_plan_single(&p, op, e);
    return keep(&p, source);
}

/* The supported entry of `op` called `name`, reference rows included (an explicit choice);
 * for copies also by a 1.0 name that csum_copy_impl_find still knows. */
static int supported_entry(enum csum_op op, const char *name, struct csum_op_entry *e)
{
    const struct csum_copy_impl *renamed = op == CSUM_OP_COPY ? csum_copy_impl_find(name) : NULL;
    if (renamed)
        name = renamed->name;
    for (size_t i = 0; name && csum_op_entry_at(op, i, e) == 0; i++)
        if (strcmp(e->name, name) == 0)
            return csum_kernel_supported(e->kernel) ? 0 : -1;
    return -1;
}

/* The features of the rows in this CPU's compiled-in csum_partial plan, and in `why` (may be
 * NULL with why_size 0) why that plan, for the copy and batch plans' source text. The
 * automatic copy and batch plans use no row that needs more: where the compiled-in plan keeps
 * to 256-bit rows on an AVX-512 CPU (Intel Skylake-SP, whose clock drops for 512-bit code:
 * src/dispatch_defaults.c), copies and batches do too; on every other CPU its plan already
 * names the widest rows the CPU runs. */
static uint32_t default_plan_features(char *why, size_t why_size)
{
    struct csum_plan p;
    char parse_why[160];
    const char *text = csum_dispatch_default_plan(why, why_size);
    if (csum_plan_parse(&p, CSUM_OP_PARTIAL, text, 0, parse_why, sizeof parse_why) != 0)
        return ~0u; /* unreachable (the tests parse every compiled-in plan): no limit */
    uint32_t features = 0;
    for (unsigned k = 0; k < p.n; k++)
        features |= p.entry[k].kernel->features;
    return features;
}

/* A product row (not a reference row) that this CPU runs. */
static int runs_product(const struct csum_op_entry *e)
{
    return !e->kernel->sum.reference && csum_kernel_supported(e->kernel);
}

/* The first product row of `op` this CPU runs that `accept` likes, in table order (widest ISA
 * first), among those within the compiled-in csum_partial plan's features
 * (default_plan_features); -1 when there is none. */
static int first_product(enum csum_op op, int (*accept)(const struct csum_op_entry *),
                         struct csum_op_entry *e)
{
    const uint32_t allowed = default_plan_features(NULL, 0);
    for (size_t i = 0; csum_op_entry_at(op, i, e) == 0; i++)
        if (runs_product(e) && !(e->kernel->features & ~allowed) && accept(e))
            return 0;
    return -1;
}

static int normal_stores(const struct csum_op_entry *e)
{
    return !((const struct csum_copy_impl *)e->view)->nontemporal;
}

static int streaming_stores(const struct csum_op_entry *e)
{
    return ((const struct csum_copy_impl *)e->view)->nontemporal;
}

static int not_generic(const struct csum_op_entry *e)
{
    return e->kernel != &csum_kernel_generic;
}

/* The source text of an automatic copy or batch plan: "compiled-in defaults", with the
 * compiled-in csum_partial plan's reason when its features changed a choice: for one of the
 * plan's kinds of row (`accepts`), the first product row this CPU runs is one they leave out.
 * (A row they leave out further down the table, such as avx-vnni on a CPU with AVX-512 VNNI
 * too, changes nothing: the table lists the widest rows first.) */
static void auto_source(enum csum_op op, int (*const accepts[])(const struct csum_op_entry *),
                        size_t n_accepts, char *source, size_t size)
{
    char why[160];
    const uint32_t allowed = default_plan_features(why, sizeof why);
    struct csum_op_entry e;
    snprintf(source, size, "compiled-in defaults");
    for (size_t a = 0; a < n_accepts; a++)
        for (size_t i = 0; csum_op_entry_at(op, i, &e) == 0; i++)
            if (runs_product(&e) && accepts[a](&e)) {
                if (e.kernel->features & ~allowed) {
                    snprintf(source, size,
                             "compiled-in defaults, rows no wider than csum_partial's: %s", why);
                    return;
                }
                break; /* this kind's choice is the row it would be anyway */
            }
}

/* ---- the automatic plans --------------------------------------------------------------------- */

/* Appends " (WHAT ignored: WHY)" to a source text. */
static void note_ignored(char *source, size_t size, const char *what, const char *why)
{
    size_t len = strlen(source);
    if (len < size)
        snprintf(source + len, size - len, " (%.256s ignored: %.200s)", what, why);
}

static const char *const force_variable[CSUM_OP_COUNT] = {
    [CSUM_OP_PARTIAL] = "CSUM_IMPL",
    [CSUM_OP_COPY] = "CSUM_COPY_IMPL",
    [CSUM_OP_IPV4_BATCH] = "CSUM_BATCH_IMPL",
};

/* Appends why the force variable of `op` is not used, when it names something other than a
 * row this CPU runs: the automatic plan is used instead. */
static void note_ignored_force(enum csum_op op, char *notes, size_t size)
{
    const char *name = csum_getenv(force_variable[op]);
    struct csum_op_entry e;
    if (!name || !*name || strcmp(name, "auto") == 0 || supported_entry(op, name, &e) == 0)
        return;
    size_t i = 0;
    while (csum_op_entry_at(op, i, &e) == 0 && strcmp(e.name, name) != 0)
        i++;
    /* a csum_partial row without an entry for op: reference rows have no copy, and rows
     * without a vector path no batch */
    static const char *const lacks[CSUM_OP_COUNT] = {
        [CSUM_OP_PARTIAL] = "'%.64s' has no csum_partial", /* unreachable: all rows have one */
        [CSUM_OP_COPY] = "'%.64s' has no csum_partial_copy",
        [CSUM_OP_IPV4_BATCH] = "'%.64s' has no IPv4 header batch",
    };
    char why[160];
    snprintf(why, sizeof why,
             csum_op_entry_at(op, i, &e) == 0 ? "this CPU cannot run '%.64s'"
             : csum_impl_find(name)           ? lacks[op]
                                              : "no implementation '%.64s'",
             name);
    note_ignored(notes, size, force_variable[op], why);
}

/* CSUM_DISPATCH, or NULL when it is unset, empty or "auto": what the automatic plan is asked
 * for with (csum_dispatch_set("auto"), and an empty or "auto" CSUM_IMPL), which the variable
 * leads to when it names none (the plan file, else the compiled-in plan), so it is no plan to
 * ignore or to put after CSUM_IMPL. */
static const char *dispatch_variable(void)
{
    const char *text = csum_getenv("CSUM_DISPATCH");
    return text && *text && strcmp(text, "auto") != 0 ? text : NULL;
}

static const struct csum_plan *build_auto_partial(void)
{
    struct csum_plan p;
    char why[160], notes[512] = "", source[4096 + 600];
    struct csum_op_entry e;
    note_ignored_force(CSUM_OP_PARTIAL, notes, sizeof notes);

    const char *from_env = dispatch_variable();
    if (from_env) {
        if (csum_plan_parse(&p, CSUM_OP_PARTIAL, from_env, 1, why, sizeof why) == 0) {
            snprintf(source, sizeof source, "CSUM_DISPATCH%s", notes);
            return keep(&p, source);
        }
        note_ignored(notes, sizeof notes, "CSUM_DISPATCH", why);
    }

    char path[4096], text[CSUM_PLAN_TEXT_MAX];
    size_t path_len = csum_dispatch_file(path, sizeof path);
    if (path_len > 0 && path_len < sizeof path) {
        why[0] = '\0';
        if (csum_plan_file_read(path, text, sizeof text, why, sizeof why) == 0 &&
            csum_plan_parse(&p, CSUM_OP_PARTIAL, text, 1, why, sizeof why) == 0) {
            snprintf(source, sizeof source, "%s%s", path, notes);
            return keep(&p, source);
        }
        if (why[0])
            note_ignored(notes, sizeof notes, path, why);
    }

    char measured[160];
    const char *plan_text = csum_dispatch_default_plan(measured, sizeof measured);
    if (csum_plan_parse(&p, CSUM_OP_PARTIAL, plan_text, 0, why, sizeof why) != 0) {
        /* Unreachable unless a compiled-in plan is wrong (the tests parse them all): generic
         * for every length. */
        supported_entry(CSUM_OP_PARTIAL, "generic", &e);
        csum_plan_single(&p, CSUM_OP_PARTIAL, &e);
        note_ignored(notes, sizeof notes, plan_text, why);
    }
    snprintf(source, sizeof source, "compiled-in defaults%s%s%s", measured[0] ? ": " : "",
             measured, notes);
    return keep(&p, source);
}

/* The threshold of the automatic copy plan (see csum.h). */
size_t csum_copy_nontemporal_threshold(void)
{
    struct csum_op_entry e;
    if (first_product(CSUM_OP_COPY, streaming_stores, &e) != 0)
        return SIZE_MAX;
    size_t t = csum_llc_share() / 4 * 3;
    return t < NONTEMPORAL_MIN ? NONTEMPORAL_MIN : t;
}

/* Normal stores below the streaming threshold, streaming stores from it; where the arch has
 * an inline short copy, that below its limit (x86: the vector rows' set-up and reduction cost
 * more than a copy of fewer than 64 bytes, docs/METHOD.md). The rows with normal stores are
 * those measured for this kind of CPU (src/dispatch_defaults.c), else the widest it runs. */
static const struct csum_plan *build_auto_copy(void)
{
    struct csum_plan p, measured;
    struct csum_op_entry widest, above;
    char why[160], measured_on[160];
    const char *rows = csum_dispatch_default_copy(measured_on, sizeof measured_on);
    const int by_length =
        rows && csum_plan_parse(&measured, CSUM_OP_COPY, rows, 0, why, sizeof why) == 0;
    if (!by_length) {
        /* no rows measured here (a wrong one is unreachable: the tests parse them all) */
        first_product(CSUM_OP_COPY, normal_stores, &widest); /* generic runs anywhere */
        csum_plan_single(&measured, CSUM_OP_COPY, &widest);
    }
    const size_t streaming_from = csum_copy_nontemporal_threshold();
    size_t first = 0;
    csum_plan_init(&p, CSUM_OP_COPY);
#ifdef CSUM_ARCH_SHORT_COPY_MAX
    struct csum_op_entry shortest;
    if (supported_entry(CSUM_OP_COPY, CSUM_ARCH_SHORT_KERNEL.copy.name, &shortest) == 0) {
        csum_plan_add(&p, 0, &shortest);
        first = CSUM_ARCH_SHORT_COPY_MAX + 1;
    }
#endif
    /* The measured ranges from there (the first moved up to it; the tests keep the others
     * above it) to the streaming threshold; csum_plan_add merges a range with the same row. */
    for (unsigned k = 0; k < measured.n && measured.from[k] < streaming_from; k++)
        csum_plan_add(&p, k ? measured.from[k] : first, &measured.entry[k]);
    if (first_product(CSUM_OP_COPY, streaming_stores, &above) == 0)
        csum_plan_add(&p, streaming_from, &above);
    csum_plan_finish(&p);
    char source[512];
    static int (*const kinds[])(const struct csum_op_entry *) = { normal_stores, streaming_stores };
    auto_source(CSUM_OP_COPY, kinds, 2, source, sizeof source);
    if (by_length) {
        const size_t used = strlen(source);
        snprintf(source + used, sizeof source - used, ": %s (%s)", measured_on, rows);
    }
    note_ignored_force(CSUM_OP_COPY, source, sizeof source);
    return keep(&p, source);
}

static const struct csum_plan *build_auto_batch(void)
{
    struct csum_plan p;
    struct csum_op_entry e;
    char source[512];
    static int (*const kinds[])(const struct csum_op_entry *) = { not_generic };
    auto_source(CSUM_OP_IPV4_BATCH, kinds, 1, source, sizeof source);
    note_ignored_force(CSUM_OP_IPV4_BATCH, source, sizeof source);
    csum_plan_init(&p, CSUM_OP_IPV4_BATCH);
    supported_entry(CSUM_OP_IPV4_BATCH, "generic", &e);
    csum_plan_add(&p, 0, &e);
    if (first_product(CSUM_OP_IPV4_BATCH, not_generic, &e) == 0)
        csum_plan_add(&p, BATCH_MIN, &e);
    csum_plan_finish(&p);
    return keep(&p, source);
}

static const struct csum_plan *(*const build_auto[CSUM_OP_COUNT])(void) = {
    [CSUM_OP_PARTIAL] = build_auto_partial,
    [CSUM_OP_COPY] = build_auto_copy,
    [CSUM_OP_IPV4_BATCH] = build_auto_batch,
};

/* The last resort when the automatic plan cannot be kept (out of memory at first use, where
 * some plan must run): generic for every size, from static storage, written once. The first
 * thread to claim it builds it; a thread that loses the claim yields until it is built, so no
 * two threads ever write it and none reads it half written. */
static const struct csum_plan *emergency_plan(enum csum_op op)
{
    enum { UNBUILT, BUILDING, BUILT };
    static struct csum_plan plans[CSUM_OP_COUNT];
    static _Atomic int state[CSUM_OP_COUNT];
    int expected = UNBUILT;
    if (atomic_load_explicit(&state[op], memory_order_acquire) == BUILT)
        return &plans[op];
    if (atomic_compare_exchange_strong(&state[op], &expected, BUILDING)) {
        struct csum_op_entry e;
        supported_entry(op, "generic", &e);
        csum_plan_single(&plans[op], op, &e);
        plans[op].source = "generic (out of memory)";
        atomic_store_explicit(&state[op], BUILT, memory_order_release);
    }
    while (atomic_load_explicit(&state[op], memory_order_acquire) != BUILT)
        sched_yield(); /* the builder may have been descheduled */
    return &plans[op];
}

/* The automatic plan, built once; NULL when out of memory (only first use falls back to the
 * emergency plan: "auto" named by a caller fails then, as any other name does). */
static const struct csum_plan *auto_plan(enum csum_op op)
{
    const struct csum_plan *p = atomic_load_explicit(&auto_plans[op], memory_order_acquire);
    if (p)
        return p;
    p = build_auto[op]();
    if (!p)
        return NULL;
    const struct csum_plan *expected = NULL;
    if (!atomic_compare_exchange_strong(&auto_plans[op], &expected, p))
        return expected; /* another thread won; ours stays on the kept list */
    return p;
}

/* ---- choosing ----------------------------------------------------------------------------- */

/* The plan a name asks for: "auto", or one supported entry for every size; NULL otherwise,
 * and when out of memory (a caller who named a row gets an error, not silently generic). */
static const struct csum_plan *plan_for_name(enum csum_op op, const char *name, const char *source)
{
    struct csum_op_entry e;
    if (name && strcmp(name, "auto") == 0)
        return auto_plan(op);
    if (supported_entry(op, name, &e) != 0)
        return NULL;
    return single_plan(op, &e, source);
}

/*
 * Copies of the active plans' hot ranges where the entry points read them directly, one load
 * each from a fixed address, with no plan pointer to follow first: the inline bounds; for
 * csum_partial the last range (the longest buffers) and where it starts; for
 * csum_partial_copy the row of the range the inline path ends in (or the first range) and
 * where that range ends. Until a plan is chosen the bounds send every call to the plan path
 * (inline bounds 0, csum_partial's last range from SIZE_MAX), which chooses.
 */
static _Atomic size_t partial_inline_below;
static _Atomic size_t partial_top_from = SIZE_MAX;
/* Before the choice a len of SIZE_MAX reaches the top row too: it chooses, never a NULL call. */
static _Atomic(csum_partial_fn) partial_top_fn = partial_first_use;
static _Atomic size_t copy_inline_below;
static _Atomic size_t copy_main_below;
static _Atomic(csum_partial_copy_fn) copy_main_fn = copy_first_use;

/* Bring the copies up to date after active[op] changed. Racing publishers each store the values
 * of the plan they read and check it is still the active one afterwards, so the last stores are
 * always those of the plan that stays active. Until then a call may use a value of the plan
 * before (even a row of one plan with the bound of another): just as correct, as every row is
 * for every length, and so are the first-use functions the rows start as. So the entry points
 * read them with relaxed loads: no order between a bound and its row is needed (on arm64 an
 * acquire load is an ldar, ordered before every later load, on every call). */
static void plan_changed(enum csum_op op)
{
    const struct csum_plan *p;
    do {
        p = atomic_load(&active[op]);
        if (op == CSUM_OP_PARTIAL) {
            atomic_store(&partial_inline_below, p->inline_below);
            atomic_store(&partial_top_fn, p->fn[p->n - 1].partial);
            atomic_store(&partial_top_from, p->from[p->n - 1]);
        } else if (op == CSUM_OP_COPY) {
            unsigned k = 0; /* the range that holds inline_below */
            while (k + 1 < p->n && p->from[k + 1] <= p->inline_below)
                k++;
            atomic_store(&copy_inline_below, p->inline_below);
            atomic_store(&copy_main_fn, p->fn[k].copy);
            atomic_store(&copy_main_below, k + 1 < CSUM_PLAN_MAX_RANGES ? p->from[k + 1] : SIZE_MAX);
        }
    } while (atomic_load(&active[op]) != p);
}

static const struct csum_plan *initialize(enum csum_op op)
{
    /* The source of the force variable's plan; csum_partial's notes a CSUM_DISPATCH that this
     * plan overrides (the automatic plan, when it is used instead, notes its own reasons). */
    char partial_source[128] = "one implementation for all lengths";
    if (op == CSUM_OP_PARTIAL && dispatch_variable())
        note_ignored(partial_source, sizeof partial_source, "CSUM_DISPATCH", "CSUM_IMPL comes first");
    const struct csum_plan *choice =
        plan_for_name(op, csum_getenv(force_variable[op]),
                      op == CSUM_OP_PARTIAL ? partial_source : force_variable[op]);
    if (!choice)
        choice = auto_plan(op); /* unset, "auto", unknown or unsupported */
    if (!choice)
        choice = emergency_plan(op); /* out of memory: some plan must run */
    const struct csum_plan *expected = &first_use[op];
    if (atomic_compare_exchange_strong_explicit(&active[op], &expected, choice,
                                                memory_order_acq_rel, memory_order_acquire)) {
        plan_changed(op);
        return choice;
    }
    return expected; /* someone else decided first */
}

/* The operation's plan, decided. */
static const struct csum_plan *current(enum csum_op op)
{
    const struct csum_plan *p = atomic_load_explicit(&active[op], memory_order_acquire);
    return p == &first_use[op] ? initialize(op) : p;
}

static int publish(enum csum_op op, const struct csum_plan *p)
{
    if (!p)
        return -1;
    atomic_store_explicit(&active[op], p, memory_order_release);
    plan_changed(op);
    return 0;
}

/* ---- csum_partial ---------------------------------------------------------------------------- */

/* The row of plan `p` for `len` bytes. */
static inline csum_partial_fn partial_fn(const struct csum_plan *p, size_t len)
{
    return len < p->from[1]   ? p->fn[0].partial
           : len < p->from[2] ? p->fn[1].partial
           : len < p->from[3] ? p->fn[2].partial
                              : p->fn[3].partial;
}

/* The top row until a plan is chosen (then too, for a caller whose relaxed loads still see it
 * after the choice): chooses, then runs the plan's row, never csum_partial again. */
static csum_wsum partial_first_use(const void *buf, size_t len, csum_wsum sum)
{
    return partial_fn(current(CSUM_OP_PARTIAL), len)(buf, len, sum);
}

__attribute__((aligned(64))) csum_wsum csum_partial(const void *buf, size_t len, csum_wsum sum)
{
#ifdef CSUM_ARCH_SHORT_KERNEL
    /* Short buffers first, as the fall-through: the row's own code, in place. */
    if (__builtin_expect(len < atomic_load_explicit(&partial_inline_below, memory_order_relaxed), 1)) {
        /* A NULL buffer with a nonzero length is a caller bug; treat it as empty, never crash. */
        if (__builtin_expect(buf == NULL, 0))
            return sum;
        return csum_arch_short_partial(buf, len, sum);
    }
#endif
    if (__builtin_expect(buf == NULL, 0))
        return sum;
    /* Then the longest buffers: one compare and a jump to the last range's row, not the plan's
     * compare chain behind a pointer (relaxed: see plan_changed). */
    if (__builtin_expect(len >= atomic_load_explicit(&partial_top_from, memory_order_relaxed), 1))
        return atomic_load_explicit(&partial_top_fn, memory_order_relaxed)(buf, len, sum);
    /* A tail jump from each test (partial_fn's one indirect jump moved the short path's code,
     * whose layout its speed depends on: docs/METHOD.md) */
    const struct csum_plan *p = atomic_load_explicit(&active[CSUM_OP_PARTIAL], memory_order_acquire);
    if (len < p->from[1])
        return p->fn[0].partial(buf, len, sum);
    if (len < p->from[2])
        return p->fn[1].partial(buf, len, sum);
    if (len < p->from[3])
        return p->fn[2].partial(buf, len, sum);
    return p->fn[3].partial(buf, len, sum);
}

const struct csum_impl *csum_impl_active(void)
{
    const struct csum_plan *p = current(CSUM_OP_PARTIAL);
    return p->entry[p->n - 1].view; /* the row that handles the longest buffers */
}

int csum_impl_select(const char *name)
{
    return publish(CSUM_OP_PARTIAL,
                   plan_for_name(CSUM_OP_PARTIAL, name, "one implementation for all lengths"));
}

int csum_dispatch_set(const char *text)
{
    if (!text)
        return -1;
    if (strcmp(text, "auto") == 0)
        return csum_impl_select("auto");
    struct csum_plan p;
    char why[160];
    if (csum_plan_parse(&p, CSUM_OP_PARTIAL, text, 1, why, sizeof why) != 0)
        return -1;
    return publish(CSUM_OP_PARTIAL, keep(&p, "csum_dispatch_set"));
}

size_t csum_dispatch_describe(char *buf, size_t size)
{
    return csum_plan_format(current(CSUM_OP_PARTIAL), buf, size);
}

const char *csum_dispatch_source(void)
{
    return current(CSUM_OP_PARTIAL)->source;
}

/* ---- csum_partial_copy ------------------------------------------------------------------------ */

/* The row of plan `p` for `len` bytes. */
static inline csum_partial_copy_fn copy_fn(const struct csum_plan *p, size_t len)
{
    return len < p->from[1]   ? p->fn[0].copy
           : len < p->from[2] ? p->fn[1].copy
           : len < p->from[3] ? p->fn[2].copy
                              : p->fn[3].copy;
}

/* As partial_first_use, for the copy's main range. */
static csum_wsum copy_first_use(void *dst, const void *src, size_t len, csum_wsum sum)
{
    return copy_fn(current(CSUM_OP_COPY), len)(dst, src, len, sum);
}

csum_wsum csum_partial_copy(void *dst, const void *src, size_t len, csum_wsum sum)
{
    /* NULL buffers are a caller bug; copy nothing and never crash, as csum_partial does. */
    if (__builtin_expect((dst == NULL) | (src == NULL), 0))
        return sum;
#ifdef CSUM_ARCH_SHORT_COPY_MAX
    /* Short copies: the plan's first row's own code, in place (as in csum_partial). */
    if (len < atomic_load_explicit(&copy_inline_below, memory_order_relaxed))
        return csum_arch_short_copy(dst, src, len, sum);
#endif
    /* Then the range that follows (normal stores, up to the streaming threshold) as the
     * fall-through, its bound and row read from fixed addresses, not through the plan pointer
     * (relaxed, as for csum_partial's last range). */
    if (__builtin_expect(len < atomic_load_explicit(&copy_main_below, memory_order_relaxed), 1))
        return atomic_load_explicit(&copy_main_fn, memory_order_relaxed)(dst, src, len, sum);
    const struct csum_plan *p = atomic_load_explicit(&active[CSUM_OP_COPY], memory_order_acquire);
    return copy_fn(p, len)(dst, src, len, sum);
}

csum_partial_copy_fn csum_copy_fn_for(size_t len)
{
    return copy_fn(current(CSUM_OP_COPY), len);
}

const struct csum_copy_impl *csum_copy_impl_active(size_t len)
{
    const struct csum_plan *p = current(CSUM_OP_COPY);
    unsigned k = 0;
    while (k + 1 < p->n && len >= p->from[k + 1])
        k++;
    return p->entry[k].view;
}

int csum_copy_impl_select(const char *name)
{
    return publish(CSUM_OP_COPY, plan_for_name(CSUM_OP_COPY, name, "csum_copy_impl_select"));
}

/* ---- csum_ipv4_header_batch ------------------------------------------------------------------ */

static void batch_first_use(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    current(CSUM_OP_IPV4_BATCH);
    csum_ipv4_header_batch(hdrs, n, out);
}

void csum_ipv4_header_batch(const void *const *hdrs, size_t n, csum_sum16 *out)
{
    /* NULL arrays are a caller bug: no header is read and nothing written, never a crash. The
     * call still goes through the plan as one of 0 headers, so a first call of (NULL, 0, NULL)
     * still chooses the plan (README: warming up a data-plane thread). */
    if (__builtin_expect((hdrs == NULL) | (out == NULL), 0))
        n = 0;
    const struct csum_plan *p = atomic_load_explicit(&active[CSUM_OP_IPV4_BATCH], memory_order_acquire);
    if (n < p->from[1])
        p->fn[0].batch(hdrs, n, out);
    else if (n < p->from[2])
        p->fn[1].batch(hdrs, n, out);
    else if (n < p->from[3])
        p->fn[2].batch(hdrs, n, out);
    else
        p->fn[3].batch(hdrs, n, out);
}

const char *csum_ipv4_batch_describe(char *buf, size_t size)
{
    csum_plan_format(current(CSUM_OP_IPV4_BATCH), buf, size);
    return buf;
}

const char *csum_ipv4_batch_source(void)
{
    return current(CSUM_OP_IPV4_BATCH)->source;
}

const char *csum_copy_describe(char *buf, size_t size)
{
    csum_plan_format(current(CSUM_OP_COPY), buf, size);
    return buf;
}

const char *csum_copy_source(void)
{
    return current(CSUM_OP_COPY)->source;
}
