/*
 * Dispatch plans: building, parsing and formatting (src/plan.h). No state here: src/dispatch.c
 * owns which plan is current.
 */
#include "plan.h"

#include <stdio.h>

int csum_op_entry_at(enum csum_op op, size_t i, struct csum_op_entry *out)
{
    const struct csum_kernel *k;
    for (int pass = 0; pass < (op == CSUM_OP_COPY ? 2 : 1); pass++)
        for (size_t r = 0; (k = csum_kernel_at(r)) != NULL; r++) {
            struct csum_op_entry e = { .kernel = k };
            if (op == CSUM_OP_PARTIAL) {
                e.name = k->sum.name, e.view = &k->sum, e.fn.partial = k->sum.partial;
            } else if (op == CSUM_OP_COPY) {
                const struct csum_copy_impl *v = pass ? &k->copy_nt : &k->copy;
                e.name = v->name, e.view = v, e.fn.copy = v->copy;
            } else {
                e.name = k->sum.name, e.view = &k->sum, e.fn.batch = k->ipv4_batch;
            }
            if ((e.fn.partial || e.fn.copy || e.fn.batch) && i-- == 0) {
                *out = e;
                return 0;
            }
        }
    return -1;
}

void csum_plan_init(struct csum_plan *p, enum csum_op op)
{
    memset(p, 0, sizeof *p);
    p->op = op;
    for (unsigned k = 1; k < CSUM_PLAN_MAX_RANGES; k++)
        p->from[k] = SIZE_MAX;
}

int csum_plan_add(struct csum_plan *p, size_t from, const struct csum_op_entry *e)
{
    /* Order first: a range that repeats the previous one's row is merged only when it starts
     * later, so "a@0,b@64,b@32" is refused like any other plan whose starts do not increase. */
    if ((p->n == 0 && from != 0) || (p->n && from <= p->from[p->n - 1]))
        return -1;
    if (p->n && p->entry[p->n - 1].view == e->view)
        return 0;
    if (p->n == CSUM_PLAN_MAX_RANGES)
        return -1;
    p->from[p->n] = from;
    p->entry[p->n] = *e;
    p->n++;
    return 0;
}

void csum_plan_finish(struct csum_plan *p)
{
    for (unsigned k = 0; k < CSUM_PLAN_MAX_RANGES; k++) {
        if (k >= p->n)
            p->entry[k] = p->entry[p->n - 1];
        p->fn[k] = p->entry[k].fn;
    }
}

void csum_plan_single(struct csum_plan *p, enum csum_op op, const struct csum_op_entry *e)
{
    csum_plan_init(p, op);
    csum_plan_add(p, 0, e);
    csum_plan_finish(p);
}

/* The entry called name[0..len) of `op`, if any. */
static int find_entry(enum csum_op op, const char *name, size_t len, struct csum_op_entry *out)
{
    for (size_t i = 0; csum_op_entry_at(op, i, out) == 0; i++)
        if (strlen(out->name) == len && memcmp(out->name, name, len) == 0)
            return 0;
    return -1;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A decimal size_t at s (at least one digit). Returns the first character after it, or NULL
 * on a missing or too large number. */
static const char *parse_size(const char *s, size_t *out)
{
    size_t v = 0;
    const char *start = s;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (v > (SIZE_MAX - d) / 10)
            return NULL;
        v = v * 10 + d;
    }
    *out = v;
    return s == start ? NULL : s;
}

int csum_plan_parse(struct csum_plan *p, enum csum_op op, const char *text, int allow_reference,
                    char *why, size_t why_size)
{
    csum_plan_init(p, op);
    const char *s = text;
    size_t last_from = 0; /* the start written before, merged or not */
    for (unsigned written = 0; *s; written++) {
        while (is_space(*s))
            s++;
        const char *name = s;
        size_t name_len = strcspn(s, "@, \t\r\n");
        struct csum_op_entry e;
        if (name_len == 0) {
            snprintf(why, why_size, "a name is missing at '%.32s'", s);
            return -1;
        }
        if (find_entry(op, name, name_len, &e) != 0) {
            snprintf(why, why_size, "no implementation '%.*s'", (int)(name_len > 64 ? 64 : name_len), name);
            return -1;
        }
        if (e.kernel->sum.reference && !allow_reference) {
            snprintf(why, why_size, "'%s' is a reference implementation", e.name);
            return -1;
        }
        if (!csum_kernel_supported(e.kernel)) {
            snprintf(why, why_size, "this CPU cannot run '%s' (it needs %s)", e.name, e.kernel->sum.requires);
            return -1;
        }
        s += name_len;
        while (is_space(*s))
            s++;
        size_t from = 0;
        if (*s == '@') {
            for (s++; is_space(*s); s++)
                ;
            const char *end = parse_size(s, &from);
            if (!end) {
                snprintf(why, why_size, "%s@ needs a decimal size below 2^%zu, not '%.24s'",
                         e.name, sizeof(size_t) * 8, s);
                return -1;
            }
            s = end;
        }
        /* Each start as written is above the one before, merged or not: "a@0,b@64,b@32" and
         * "a@0,a@100,b@50" contradict themselves, and are refused rather than read one way. */
        if (written ? from <= last_from : from != 0) {
            snprintf(why, why_size, "ranges must start at 0 and increase (at %s@%zu)", e.name,
                     from);
            return -1;
        }
        last_from = from;
        if (csum_plan_add(p, from, &e) != 0) {
            snprintf(why, why_size, "more than %d ranges", CSUM_PLAN_MAX_RANGES);
            return -1;
        }
        while (is_space(*s))
            s++;
        if (*s == ',') {
            s++;
            while (is_space(*s))
                s++;
            if (*s == '\0') {
                snprintf(why, why_size, "a range is missing after the last comma");
                return -1;
            }
        } else if (*s) {
            snprintf(why, why_size, "unexpected '%.16s'", s);
            return -1;
        }
    }
    if (p->n == 0) {
        snprintf(why, why_size, "empty plan");
        return -1;
    }
    csum_plan_finish(p);
    return 0;
}

size_t csum_plan_format(const struct csum_plan *p, char *buf, size_t size)
{
    char text[CSUM_PLAN_TEXT_MAX];
    size_t len = 0;
    text[0] = '\0';
    for (unsigned k = 0; k < p->n && len < sizeof text; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s@%zu", k ? "," : "",
                                p->entry[k].name, p->from[k]);
    if (size)
        snprintf(buf, size, "%s", text);
    return strlen(text);
}
