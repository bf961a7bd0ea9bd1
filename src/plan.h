/*
 * Dispatch plans: which kernel entry point runs for which sizes, for one operation
 * (csum_partial by length, csum_partial_copy by length, csum_ipv4_header_batch by number of
 * headers). The text form, "name@from,name@from,...", is the one CSUM_DISPATCH, the plan file,
 * csum_dispatch_set() and `csum tune` use; this is its only parser and formatter.
 */
#ifndef CSUM_PLAN_H
#define CSUM_PLAN_H

#include "kernel.h"

enum csum_op { CSUM_OP_PARTIAL, CSUM_OP_COPY, CSUM_OP_IPV4_BATCH, CSUM_OP_COUNT };

union csum_op_fn {
    csum_partial_fn partial;
    csum_partial_copy_fn copy;
    csum_ipv4_batch_fn batch;
};

/* One thing a range of a plan can run: a kernel's entry point for the operation. */
struct csum_op_entry {
    const struct csum_kernel *kernel;
    const char *name;       /* its public name for this operation ("avx2-nt" for a copy) */
    const void *view;       /* its struct csum_impl or struct csum_copy_impl */
    union csum_op_fn fn;
};

/* The i-th entry of an operation, in table order (copies: normal stores, then streaming);
 * 0 when there is one, -1 past the end. */
int csum_op_entry_at(enum csum_op op, size_t i, struct csum_op_entry *out);

enum { CSUM_PLAN_MAX_RANGES = CSUM_DISPATCH_MAX_RANGES, CSUM_PLAN_TEXT_MAX = 256 };

/* The plan file's comment naming the CPU it was tuned on (csum_cpu_class()): `csum tune
 * --write` writes it before the plan, and the library ignores a file tuned on another kind of
 * CPU. A file without it (or from a CPU that does not say what it is) applies anywhere. */
#define CSUM_PLAN_FILE_CPU "# cpu: "
/* The first line of every plan file `csum tune --write` writes; `--reset` removes only a file
 * that starts with it. */
#define CSUM_PLAN_FILE_HEADER "# csum dispatch plan, written by 'csum tune'"
/* The largest plan file the library reads (and `--reset` removes); `--write` writes about 150
 * bytes. Bigger files are refused unread, so that a wrong CSUM_DISPATCH_FILE cannot make the
 * first csum_partial() of a program read megabytes into memory. */
enum { CSUM_PLAN_FILE_MAX = 65536 };

struct csum_plan {
    /* Hot fields first: range k covers [from[k], from[k + 1]); unused ranges start at
     * SIZE_MAX and repeat the last function, so a dispatcher can compare without a count. */
    size_t from[CSUM_PLAN_MAX_RANGES];
    union csum_op_fn fn[CSUM_PLAN_MAX_RANGES];
    size_t inline_below;    /* lengths below this take the arch's inline path (csum_partial, copy) */
    struct csum_op_entry entry[CSUM_PLAN_MAX_RANGES];
    unsigned n;             /* ranges in use, 1..CSUM_PLAN_MAX_RANGES */
    enum csum_op op;
    const char *source;     /* where it came from, and why (csum_dispatch_source) */
    struct csum_plan *next_kept; /* src/dispatch.c keeps every published plan on a list */
};

/* An empty plan for `op`. */
void csum_plan_init(struct csum_plan *p, enum csum_op op);

/* Append a range; merges with the previous range when it is the same entry. 0, or -1 when the
 * plan is full, the first range does not start at 0, or starts do not increase. */
int csum_plan_add(struct csum_plan *p, size_t from, const struct csum_op_entry *e);

/* Fill the unused ranges; call once all ranges are added (the plan must have one). */
void csum_plan_finish(struct csum_plan *p);

/* The finished plan for `op` that runs entry e for every size. */
void csum_plan_single(struct csum_plan *p, enum csum_op op, const struct csum_op_entry *e);

/*
 * Parse plan text for `op` into p (finished). Every name must be an entry of the operation
 * that this CPU supports; numbers are decimal, without overflow. Returns 0, or -1 with a reason
 * in `why` ("no implementation 'avx3'", "'avx2@99999999999999999999' is too large", ...).
 * Reference rows are accepted only when `allow_reference` is set (explicit choices).
 */
int csum_plan_parse(struct csum_plan *p, enum csum_op op, const char *text, int allow_reference,
                    char *why, size_t why_size);

/* The plan as text, like snprintf: at most `size` bytes, returns the whole length. */
size_t csum_plan_format(const struct csum_plan *p, char *buf, size_t size);

/* The plan line of a plan file (csum_dispatch_file(), `csum tune --write`) into text: 0, or -1
 * when there is no file, or (with the reason in `why`) it cannot be opened or read or holds no
 * plan for this CPU (see src/plan_file.c). */
int csum_plan_file_read(const char *path, char *text, size_t size, char *why, size_t why_size);

/* The compiled-in csum_partial plan for this CPU (src/dispatch_defaults.c), and in `why` the
 * class of CPU it was measured on or why it applies; the copy rows measured for that class
 * (csum_partial_copy's rows with normal stores by length) with how in `why`, or NULL where none
 * were. The table's plans, for the tests, with the CSUM_CPU_* features a CPU must have for
 * plan i (in *features) and its copy rows (in *copy), each when not NULL. */
const char *csum_dispatch_default_plan(char *why, size_t why_size);
const char *csum_dispatch_default_copy(char *why, size_t why_size);
/* The same for any CPU (vendor, family, model; its CSUM_CPU_* features): what the table gives
 * a CPU the tests do not run on. */
struct csum_cpu_id;
const char *csum_dispatch_default_plan_for(const struct csum_cpu_id *id, uint32_t have, char *why,
                                          size_t why_size);
const char *csum_dispatch_default_copy_for(const struct csum_cpu_id *id, uint32_t have);
size_t csum_dispatch_default_count(void);
const char *csum_dispatch_default_at(size_t i, uint32_t *features, const char **copy);

/* Internal entry points of src/dispatch.c beside the public ones. */
/* The copy function csum_partial_copy() would call now for `len` bytes (csum_iov_copy). */
csum_partial_copy_fn csum_copy_fn_for(size_t len);
/* csum_ipv4_header_batch's current plan as text in buf (returned). */
const char *csum_ipv4_batch_describe(char *buf, size_t size);
/* Where the batch's plan came from, as csum_dispatch_source() says it for csum_partial's:
 * "compiled-in defaults" (with "(CSUM_BATCH_IMPL ignored: why)" when that was set but not
 * usable) or "CSUM_BATCH_IMPL". For `csum impls`. */
const char *csum_ipv4_batch_source(void);
/* The same for csum_partial_copy's plan ("compiled-in defaults" with the rows by length when
 * they were measured for this kind of CPU, "CSUM_COPY_IMPL", "csum_copy_impl_select"), and
 * the plan as text in buf (the lab's report says what the copies it times ran). */
const char *csum_copy_source(void);
const char *csum_copy_describe(char *buf, size_t size);

#endif /* CSUM_PLAN_H */
