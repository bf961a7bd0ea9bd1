/*
 * Runtime dispatch: which implementation csum_partial() calls, by CPU and by length.
 *
 * A *plan* maps length ranges to table rows: e.g. x86-scalar below 128 bytes (no vector setup
 * to pay for), avx512-vnni from 128 on. Plans are immutable once published through one atomic
 * pointer, so the hot path is one load, at most three well-predicted compares and a tail call:
 * no lock, no reference counting.
 *
 * The active plan starts as a private "first use" plan whose function builds the real one —
 * CSUM_IMPL (one row for every length), else the "auto" plan — publishes it with a
 * compare-and-swap, and then calls it. Racing first callers compute the same plan; an explicit
 * csum_impl_select() or csum_dispatch_set() that happened first is never overwritten.
 *
 * The auto plan comes from, in order: the CSUM_DISPATCH environment variable, the file named by
 * CSUM_DISPATCH_FILE (default: $XDG_CONFIG_HOME/csum/dispatch, else ~/.config/csum/dispatch,
 * as written by `csum tune --write`), the compiled-in defaults (src/dispatch_defaults.h). Text
 * that is malformed or names a row this CPU cannot run is ignored: the next source is used.
 * Nothing is ever printed.
 */
#define _GNU_SOURCE
#include "csum_internal.h"
#include "dispatch_defaults.h"

#if defined(__x86_64__)
/* Short buffers are the common case (headers), and there a second indirect jump costs about
 * a tick: when the plan's first range is x86-scalar, its code runs right here instead. */
#  include "x86/x86_scalar.h"
#  define INLINE_FIRST_ROW csum_impl_scalar
#  define INLINE_FIRST_MAX 256 /* x86_scalar_partial_short's range */
#  define inline_first_partial x86_scalar_partial_short
#endif

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_RANGES = 4, MAX_PLAN_TEXT = 256 };

struct csum_plan {
    size_t from[MAX_RANGES];                  /* range k covers [from[k], from[k+1]); unused: SIZE_MAX */
    csum_partial_fn fn[MAX_RANGES];           /* unused ranges repeat the last function */
    const struct csum_impl_entry *impl[MAX_RANGES];
    unsigned n;                               /* ranges in use, 1..MAX_RANGES */
    size_t inline_below;                      /* lengths below this run inline_first_partial in
                                                 place (0: never) */
    const char *source;                       /* where it came from, for csum_dispatch_source() */
    struct csum_plan *next_allocated;         /* keeps every allocated plan reachable */
};

static csum_wsum partial_first_use(const void *buf, size_t len, csum_wsum sum);

static const struct csum_plan first_use = {
    .from = { 0, SIZE_MAX, SIZE_MAX, SIZE_MAX },
    .fn = { partial_first_use, partial_first_use, partial_first_use, partial_first_use },
    .n = 1,
    .source = "not chosen yet",
};

static _Atomic(const struct csum_plan *) active = &first_use;
static _Atomic(struct csum_plan *) allocated;       /* every plan ever made, never freed */
static _Atomic(struct csum_plan *) auto_plan;       /* built once */
static _Atomic(struct csum_plan *) single_plans[64]; /* one per table row, built on demand
                                                      (the table has far fewer rows) */

/* ---- building plans ------------------------------------------------------------------------ */

static const char *env(const char *name)
{
#if defined(__GLIBC__)
    return secure_getenv(name); /* not from the environment of a set-uid program's caller */
#else
    return getenv(name);
#endif
}

static void plan_init(struct csum_plan *p, const char *source)
{
    memset(p, 0, sizeof *p);
    for (unsigned k = 1; k < MAX_RANGES; k++)
        p->from[k] = SIZE_MAX;
    p->source = source;
}

/* Append a range; merges with the previous one when it is the same row. */
static int plan_add(struct csum_plan *p, size_t from, const struct csum_impl_entry *e)
{
    if (p->n && p->impl[p->n - 1] == e)
        return 0;
    if (p->n == MAX_RANGES || (p->n == 0 && from != 0) || (p->n && from <= p->from[p->n - 1]))
        return -1;
    p->from[p->n] = from;
    p->impl[p->n] = e;
    p->n++;
    return 0;
}

static void plan_finish(struct csum_plan *p)
{
#ifdef INLINE_FIRST_ROW
    if (p->impl[0] == &INLINE_FIRST_ROW)
        p->inline_below = p->from[1] < INLINE_FIRST_MAX + 1 ? p->from[1] : INLINE_FIRST_MAX + 1;
#endif
    for (unsigned k = 0; k < MAX_RANGES; k++) {
        const struct csum_impl_entry *e = p->impl[k < p->n ? k : p->n - 1];
        p->fn[k] = e->pub.partial;
        if (k >= p->n)
            p->impl[k] = e;
    }
}

/* A heap copy that lives forever (published plans may be in use by other threads). */
static struct csum_plan *plan_keep(const struct csum_plan *p)
{
    struct csum_plan *copy = malloc(sizeof *copy);
    if (!copy)
        return NULL;
    *copy = *p;
    struct csum_plan *head = atomic_load(&allocated);
    do
        copy->next_allocated = head;
    while (!atomic_compare_exchange_weak(&allocated, &head, copy));
    return copy;
}

/* A plan kept before with the same ranges and source, so that setting one plan again and again
 * (a configuration reload) allocates nothing. Kept plans are immutable once on the list. */
static struct csum_plan *plan_find_kept(const struct csum_plan *p)
{
    for (struct csum_plan *k = atomic_load(&allocated); k; k = k->next_allocated)
        if (k->n == p->n && k->source == p->source && !memcmp(k->from, p->from, sizeof p->from) &&
            !memcmp(k->impl, p->impl, sizeof p->impl))
            return k;
    return NULL;
}

static const struct csum_impl_entry *supported_row(const char *name, size_t len)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return NULL;
    memcpy(buf, name, len);
    buf[len] = '\0';
    const struct csum_impl_entry *e = csum_impl_entry_of(csum_impl_find(buf));
    return csum_impl_entry_supported(e) ? e : NULL;
}

/* Parse "name@from,name@from..." (a lone "name" means name@0). 0 on success. */
static int plan_parse(struct csum_plan *p, const char *text, const char *source)
{
    plan_init(p, source);
    const char *s = text;
    while (*s) {
        while (isspace((unsigned char)*s))
            s++;
        size_t name_len = strcspn(s, "@, \t\r\n");
        const struct csum_impl_entry *e = supported_row(s, name_len);
        if (!e)
            return -1;
        s += name_len;
        size_t from = 0;
        if (*s == '@') {
            char *end;
            unsigned long long v = strtoull(s + 1, &end, 10);
            if (end == s + 1 || !isdigit((unsigned char)s[1]))
                return -1;
            from = (size_t)v;
            s = end;
        }
        if (plan_add(p, from, e) != 0)
            return -1;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == ',') {
            s++;
            if (s[strspn(s, " \t\r\n")] == '\0')
                return -1; /* a comma promises another range */
        } else if (*s) {
            return -1;
        }
    }
    if (p->n == 0)
        return -1;
    plan_finish(p);
    return 0;
}

/* The first supported row (table order is priority order): the fallback of fallbacks. */
static const struct csum_impl_entry *best_supported(void)
{
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl_entry *e = csum_impl_entry_of(csum_impl_get(i));
        if (csum_impl_entry_supported(e))
            return e;
    }
    return &csum_impl_generic; /* needs nothing, so never reached in practice */
}

static void plan_from_defaults(struct csum_plan *p)
{
    for (size_t i = 0; i < sizeof csum_dispatch_defaults / sizeof csum_dispatch_defaults[0]; i++)
        if (plan_parse(p, csum_dispatch_defaults[i], "compiled-in defaults") == 0)
            return;
    plan_init(p, "compiled-in defaults"); /* unreachable: "generic@0" always parses */
    plan_add(p, 0, best_supported());
    plan_finish(p);
}

static int read_plan_file(char *text, size_t size, const char **source)
{
    static char path[1024];
    const char *named = env("CSUM_DISPATCH_FILE");
    if (named) {
        if (!*named)
            return -1; /* set but empty: no file */
        snprintf(path, sizeof path, "%s", named);
    } else if (env("XDG_CONFIG_HOME") && *env("XDG_CONFIG_HOME")) {
        snprintf(path, sizeof path, "%s/csum/dispatch", env("XDG_CONFIG_HOME"));
    } else if (env("HOME") && *env("HOME")) {
        snprintf(path, sizeof path, "%s/.config/csum/dispatch", env("HOME"));
    } else {
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    /* The first line that is not a comment. */
    int ok = -1;
    while (fgets(text, (int)size, f))
        if (text[0] != '#' && text[strspn(text, " \t\r\n")] != '\0') {
            text[strcspn(text, "\r\n")] = '\0';
            ok = 0;
            break;
        }
    fclose(f);
    *source = path;
    return ok;
}

static struct csum_plan *get_auto_plan(void)
{
    struct csum_plan *p = atomic_load_explicit(&auto_plan, memory_order_acquire);
    if (p)
        return p;
    struct csum_plan plan;
    char text[MAX_PLAN_TEXT];
    const char *from_env = env("CSUM_DISPATCH"), *file_source = NULL;
    if (!(from_env && plan_parse(&plan, from_env, "CSUM_DISPATCH") == 0) &&
        !(read_plan_file(text, sizeof text, &file_source) == 0 &&
          plan_parse(&plan, text, file_source) == 0))
        plan_from_defaults(&plan);
    struct csum_plan *made = plan_keep(&plan), *expected = NULL;
    if (!made) { /* out of memory: run the best row alone, from static storage */
        static struct csum_plan emergency;
        plan_init(&emergency, "fallback (out of memory)");
        plan_add(&emergency, 0, best_supported());
        plan_finish(&emergency);
        made = &emergency;
    }
    if (!atomic_compare_exchange_strong(&auto_plan, &expected, made))
        return expected; /* another thread won; ours stays on the allocated list */
    return made;
}

static const struct csum_plan *single_plan(const struct csum_impl_entry *e)
{
    size_t row = 0;
    while (row < csum_impl_count() && csum_impl_entry_of(csum_impl_get(row)) != e)
        row++;
    if (row >= sizeof single_plans / sizeof single_plans[0])
        return NULL;
    struct csum_plan *p = atomic_load_explicit(&single_plans[row], memory_order_acquire);
    if (p)
        return p;
    struct csum_plan plan;
    plan_init(&plan, "one implementation for all lengths");
    plan_add(&plan, 0, e);
    plan_finish(&plan);
    struct csum_plan *made = plan_keep(&plan), *expected = NULL;
    if (!made)
        return NULL;
    if (!atomic_compare_exchange_strong(&single_plans[row], &expected, made))
        return expected;
    return made;
}

/* ---- choosing and calling ------------------------------------------------------------------ */

static const struct csum_plan *initialize(void)
{
    const char *name = env("CSUM_IMPL");
    const struct csum_impl_entry *e = name && strcmp(name, "auto") != 0
                                          ? csum_impl_entry_of(csum_impl_find(name)) : NULL;
    const struct csum_plan *choice = csum_impl_entry_supported(e) ? single_plan(e) : NULL;
    if (!choice)
        choice = get_auto_plan(); /* unset, "auto", unknown or unsupported */
    const struct csum_plan *expected = &first_use;
    if (atomic_compare_exchange_strong_explicit(&active, &expected, choice, memory_order_acq_rel,
                                                memory_order_acquire))
        return choice;
    return expected; /* someone else decided first */
}

static const struct csum_plan *current(void)
{
    const struct csum_plan *p = atomic_load_explicit(&active, memory_order_acquire);
    return p == &first_use ? initialize() : p;
}

/* The first plan's only function: choose the real plan, then dispatch through it. */
static csum_wsum partial_first_use(const void *buf, size_t len, csum_wsum sum)
{
    initialize();
    return csum_partial(buf, len, sum);
}

csum_wsum csum_partial(const void *buf, size_t len, csum_wsum sum)
{
    const struct csum_plan *p = atomic_load_explicit(&active, memory_order_acquire);
    /* A NULL buffer with a nonzero length is a caller bug; treat it as empty, never crash. */
    if (__builtin_expect(buf == NULL, 0))
        return sum;
#ifdef INLINE_FIRST_ROW
    if (len < p->inline_below)
        return inline_first_partial(buf, len, sum);
#endif
    if (len < p->from[1])
        return p->fn[0](buf, len, sum);
    if (len < p->from[2])
        return p->fn[1](buf, len, sum);
    if (len < p->from[3])
        return p->fn[2](buf, len, sum);
    return p->fn[3](buf, len, sum);
}

const struct csum_impl *csum_impl_active(void)
{
    const struct csum_plan *p = current();
    return &p->impl[p->n - 1]->pub; /* the row that handles the longest buffers */
}

int csum_impl_select(const char *name)
{
    const struct csum_plan *p = NULL;
    if (name && strcmp(name, "auto") == 0) {
        p = get_auto_plan();
    } else {
        const struct csum_impl_entry *e = csum_impl_entry_of(csum_impl_find(name));
        if (csum_impl_entry_supported(e))
            p = single_plan(e);
    }
    if (!p)
        return -1;
    atomic_store_explicit(&active, p, memory_order_release);
    return 0;
}

int csum_dispatch_set(const char *text)
{
    if (!text)
        return -1;
    if (strcmp(text, "auto") == 0)
        return csum_impl_select("auto");
    struct csum_plan plan;
    if (plan_parse(&plan, text, "csum_dispatch_set") != 0)
        return -1;
    const struct csum_plan *p = plan.n == 1 ? single_plan(plan.impl[0]) : plan_find_kept(&plan);
    if (!p)
        p = plan_keep(&plan);
    if (!p)
        return -1;
    atomic_store_explicit(&active, p, memory_order_release);
    return 0;
}

size_t csum_dispatch_describe(char *buf, size_t size)
{
    const struct csum_plan *p = current();
    char text[MAX_PLAN_TEXT];
    size_t len = 0;
    text[0] = '\0';
    for (unsigned k = 0; k < p->n && len < sizeof text; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s@%zu", k ? "," : "",
                                p->impl[k]->pub.name, p->from[k]);
    if (size)
        snprintf(buf, size, "%s", text);
    return strlen(text);
}

const char *csum_dispatch_source(void)
{
    return current()->source;
}
