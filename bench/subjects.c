/*
 * What the lab times: every implementation in the library's table that this CPU supports,
 * the public csum_partial entry point (so dispatch is measured as users call it), and peers
 * from other projects built in for comparison. Every subject passes the oracle self-check
 * before anything is timed; one that fails is refused and no number is printed for it.
 */
#include "lab.h"

#include <stdlib.h>
#include <string.h>

#include "csum_oracle.h"
#include "lab_build.h"

const char *lab_list_next(const char *p, char *name, size_t size)
{
    if (!p || !*p)
        return NULL;
    const size_t k = strcspn(p, ",");
    snprintf(name, size, "%.*s", (int)(k < size - 1 ? k : size - 1), p);
    return p + k + (p[k] == ',');
}

int lab_list_has(const char *list, size_t len, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; p < list + len;) {
        const size_t k = strcspn(p, ",");
        if (k == n && strncmp(p, name, n) == 0)
            return 1;
        p += k + (p[k] == ',');
    }
    return 0;
}

/* Empty itself, a comma first or last, or two in a row. */
static int has_empty_name(const char *list)
{
    const size_t n = strlen(list);
    return n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,") != NULL;
}

int lab_list_refuse(const char *command, const char *list)
{
    if (!list)
        return 0;
    if (has_empty_name(list)) {
        fprintf(stderr, "csum: %s: option -M: an empty name in '%s' (names are separated by "
                        "single commas)\nTry 'csum %s --help'.\n", command, list, command);
        return -1;
    }
    char name[LAB_NAME_SIZE];
    for (const char *p = list, *next; (next = lab_list_next(p, name, sizeof name)); p = next) {
        const int k = (int)strcspn(p, ",");
        if ((size_t)k >= sizeof name) { /* no name is that long: say it whole, not cut to fit */
            fprintf(stderr, "csum: %s: option -M: unknown implementation '%.*s' (see 'csum "
                            "impls')\nTry 'csum %s --help'.\n", command, k, p, command);
            return -1;
        }
        if (lab_list_has(list, (size_t)(p - list), name)) {
            fprintf(stderr, "csum: %s: option -M names '%s' twice in '%s'\nTry 'csum %s "
                            "--help'.\n", command, name, list, command);
            return -1;
        }
    }
    return 0;
}

int lab_wanted(const struct lab_options *o, const char *name)
{
    if (!o->only_impls || lab_list_has(o->only_impls, strlen(o->only_impls), name))
        return 1;
    /* The baseline of the % column is always measured. */
    return o->baseline && strcmp(o->baseline, name) == 0;
}

void lab_subject_init(struct lab_subject *s, const char *name, const char *origin,
                      csum_partial_fn fn)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->origin = origin;
    s->fn = fn;
    struct selfcheck_result r;
    if (oracle_selfcheck(fn, SELFCHECK_QUICK, &r) != 0) {
        s->refused = 1;
        snprintf(s->why, sizeof s->why,
                 "%zu of %zu oracle comparisons wrong, first at len %zu align %zu initial 0x%08x "
                 "(got 0x%04x, oracle 0x%04x)",
                 r.mismatches, r.checked, r.len, r.align, (unsigned)r.initial, r.got, r.want);
    }
}

const char *lab_build_compiler(void)
{
    return CSUM_LAB_COMPILER;
}

const char *lab_build_type(void)
{
    return CSUM_LAB_BUILD_TYPE[0] ? CSUM_LAB_BUILD_TYPE : "(none)";
}

const char *lab_build_lib_flags(void)
{
    return CSUM_LAB_LIB_FLAGS;
}

const char *lab_build_isa_flags(void)
{
    return "none: a row for an instruction set is compiled in a target region of exactly the "
           "features it requires (src/isa.h)";
}

/* A library row's flags: the build's, and its instruction set's target (its `requires`). */
static const char *row_flags(const struct csum_impl *impl)
{
    enum { MAX_ROWS = 64 };
    /* Sized by the build's flags, which distributions make long (Fedora's ~400 characters). */
    static char text[MAX_ROWS][sizeof CSUM_LAB_LIB_FLAGS + 160];
    static size_t used;
    if (!impl->requires[0] || used == MAX_ROWS)
        return CSUM_LAB_LIB_FLAGS;
    snprintf(text[used], sizeof text[used], "%s, target(%s)", CSUM_LAB_LIB_FLAGS, impl->requires);
    return text[used++];
}

static void add(struct lab_subject *list, size_t *n, const char *name, const char *origin,
                csum_partial_fn fn, const char *flags)
{
    lab_subject_init(&list[*n], name, origin, fn);
    list[(*n)++].flags = flags;
}

/* A peer is called only on a CPU that has every extension its object was compiled for. */
static void add_peer(struct lab_subject *list, size_t *n, const struct lab_subject *peer)
{
    char missing[120];
    if (!lab_cpu_lacks(peer->needs, missing, sizeof missing)) {
        add(list, n, peer->name, peer->origin, peer->fn, peer->flags);
        list[*n - 1].peer = 1;
        list[*n - 1].limit = peer->limit;
        return;
    }
    struct lab_subject *s = &list[(*n)++];
    *s = *peer;
    s->peer = 1;
    s->refused = 1;
    snprintf(s->why, sizeof s->why, "compiled for %s, which this CPU lacks", missing);
}

size_t lab_subjects(const struct lab_options *o, struct lab_subject **out)
{
    size_t cap = csum_impl_count() + 8, n = 0;
    struct lab_subject *list = calloc(cap, sizeof *list);
    if (!list) {
        *out = NULL;
        return 0;
    }
    for (size_t i = 0; i < csum_impl_count(); i++) {
        const struct csum_impl *impl = csum_impl_get(i);
        if (csum_impl_supported(impl) && lab_wanted(o, impl->name))
            add(list, &n, impl->name, impl->description, impl->partial, row_flags(impl));
    }
    if (lab_wanted(o, "csum_partial"))
        add(list, &n, "csum_partial", "the public entry point, through dispatch (what users call)",
            csum_partial, CSUM_LAB_LIB_FLAGS); /* the exported function, not an inline expansion */
    for (size_t i = 0; lab_peers[i] && n < cap; i++)
        if (lab_wanted(o, lab_peers[i]->name))
            add_peer(list, &n, lab_peers[i]);
    *out = list;
    return n;
}

struct lab_subject *lab_subject_find(struct lab_subject *s, size_t n, const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (!strcmp(s[i].name, name))
            return &s[i];
    return NULL;
}

static const csum_wsum check_sums[2] = { 0, 0xffffffffu };

void lab_expect_case(const unsigned char *p, size_t len, struct lab_expect *e)
{
    for (size_t i = 0; i < 2; i++)
        e->want[i] = oracle_checksum(p, len, check_sums[i]);
}

int lab_check_case(csum_partial_fn fn, const unsigned char *p, size_t len,
                   const struct lab_expect *e)
{
    struct lab_expect here;
    if (!e) {
        lab_expect_case(p, len, &here);
        e = &here;
    }
    for (size_t i = 0; i < 2; i++)
        if (csum16_network_value(csum_fold(fn(p, len, check_sums[i]))) != e->want[i])
            return -1;
    return 0;
}
