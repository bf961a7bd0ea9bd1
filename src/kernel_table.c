/*
 * The kernel table (src/kernel_list.h) and the public views of it: csum_impl_* lists every
 * row's csum_partial, csum_copy_impl_* the rows' copies (normal stores first, in table order,
 * then streaming stores). A view is a struct inside the row, so a pointer handed to a user
 * leads back to its row.
 */
#include "kernel.h"

static const struct csum_kernel *const kernels[] = {
#define CSUM_KERNEL(id) &csum_kernel_##id,
#include "kernel_list.h"
#undef CSUM_KERNEL
};

enum { N_KERNELS = sizeof kernels / sizeof kernels[0] };

const struct csum_kernel *csum_kernel_at(size_t i)
{
    return i < N_KERNELS ? kernels[i] : NULL;
}

int csum_kernel_supported(const struct csum_kernel *k)
{
    return k && (csum_cpu_features() & k->features) == k->features;
}

/* ---- csum_partial's view ------------------------------------------------------------------- */

size_t csum_impl_count(void)
{
    return N_KERNELS;
}

const struct csum_impl *csum_impl_get(size_t i)
{
    return i < N_KERNELS ? &kernels[i]->sum : NULL;
}

const struct csum_impl *csum_impl_find(const char *name)
{
    for (size_t i = 0; name && i < N_KERNELS; i++)
        if (strcmp(kernels[i]->sum.name, name) == 0)
            return &kernels[i]->sum;
    return NULL;
}

const struct csum_kernel *csum_kernel_of_impl(const struct csum_impl *impl)
{
    for (size_t i = 0; impl && i < N_KERNELS; i++)
        if (&kernels[i]->sum == impl)
            return kernels[i];
    return NULL;
}

int csum_impl_supported(const struct csum_impl *impl)
{
    return csum_kernel_supported(csum_kernel_of_impl(impl));
}

/* ---- csum_partial_copy's view: every row's normal-store copy, then every streaming one ----- */

/* The i-th copy view, or NULL. */
static const struct csum_copy_impl *copy_view(size_t i)
{
    for (int nt = 0; nt < 2; nt++)
        for (size_t k = 0; k < N_KERNELS; k++) {
            const struct csum_copy_impl *v = nt ? &kernels[k]->copy_nt : &kernels[k]->copy;
            if (v->copy && i-- == 0)
                return v;
        }
    return NULL;
}

size_t csum_copy_impl_count(void)
{
    size_t n = 0;
    while (copy_view(n))
        n++;
    return n;
}

const struct csum_copy_impl *csum_copy_impl_get(size_t i)
{
    return copy_view(i);
}

const struct csum_copy_impl *csum_copy_impl_find(const char *name)
{
    /* 1.0 named the scalar x86 copy after its loop; it is x86-scalar's copy now. */
    if (name && strcmp(name, "x86-adc") == 0)
        name = "x86-scalar";
    const struct csum_copy_impl *v;
    for (size_t i = 0; name && (v = copy_view(i)) != NULL; i++)
        if (strcmp(v->name, name) == 0)
            return v;
    return NULL;
}

const struct csum_kernel *csum_kernel_of_copy(const struct csum_copy_impl *impl)
{
    /* The address first: a pointer not from the table is never read. A row's view without a
     * copy (a reference row's) is none that csum_copy_impl_get() hands out. */
    for (size_t k = 0; impl && k < N_KERNELS; k++)
        if (&kernels[k]->copy == impl || &kernels[k]->copy_nt == impl)
            return impl->copy ? kernels[k] : NULL;
    return NULL;
}

int csum_copy_impl_supported(const struct csum_copy_impl *impl)
{
    return csum_kernel_supported(csum_kernel_of_copy(impl));
}
