/*
 * Exported versions of the small arithmetic helpers. The logic lives once, in the
 * csum_inline_* functions of csum.h; callers that include the header normally inline it.
 */
#include "csum_internal.h"

csum_sum16 csum_fold(csum_wsum sum)
{
    return csum_inline_fold(sum);
}

csum_wsum csum_add(csum_wsum a, csum_wsum b)
{
    return csum_inline_add(a, b);
}

csum_wsum csum_sub(csum_wsum a, csum_wsum b)
{
    return csum_inline_sub(a, b);
}

csum_wsum csum_block_add(csum_wsum sum, csum_wsum block, size_t offset)
{
    return csum_inline_block_add(sum, block, offset);
}

csum_wsum csum_block_sub(csum_wsum sum, csum_wsum block, size_t offset)
{
    return csum_inline_block_sub(sum, block, offset);
}

csum_wsum csum_unfold(csum_sum16 n)
{
    return csum_inline_unfold(n);
}
