/*
 * The whole-lane/high-word algorithm, written once for any vector width (included by
 * partial_avx2.c and partial_avx512.c, each compiled for its ISA).
 *
 * Algorithm. Treat each 32-bit lane x = lo + 65536 * hi as a pair of 16-bit words. Keep two
 * 32-bit accumulators per lane: A += x (wraps mod 2^32) and H += x >> 16 (the high words). As
 * long as the true sum of the low words L = sum(lo) stays below 2^32, it is recovered exactly:
 * L = A - 65536 * H (mod 2^32). The lane's word sum is then L + H. Three simple vector ops per
 * vector (add, shift, add), all on the common integer pipes. We derived this from the usual
 * "mask, shift, widen, add", dropping the mask by letting the low words ride in A.
 *
 * Lane overflow bound. Each vector adds at most 0xffff to L and to H per lane, so they stay
 * below 2^32 for 65536 vectors. Each of the four accumulator pairs takes one vector per step and
 * is flushed (reconstructed and widened to 64-bit lanes) every 16384 steps; 64-bit lanes cannot
 * overflow for any size_t length.
 *
 * Use: define the vector type and operations (V_*), LANES_BYTES (bytes per vector) and
 * LANES_FUNCTION (the name of the function to define), then include this file twice. The first
 * inclusion declares struct lanes and its helpers; between the two, the ISA's file defines
 *   uint64_t lanes_tail(struct lanes *l, const unsigned char *p, size_t n): add the last
 *       n < LANES_BYTES bytes without reading past p + n, returning what it sums in scalar
 *       code (or 0);
 *   uint64_t lanes_reduce(LANES_VEC wide): the sum of the 64-bit lanes;
 * the second inclusion defines LANES_FUNCTION itself.
 */
#ifndef LANES_DECLARED
#define LANES_DECLARED

struct lanes {
    LANES_VEC all, high;
};

static inline void lanes_add(struct lanes *l, LANES_VEC v)
{
    l->all = V_ADD32(l->all, v);
    l->high = V_ADD32(l->high, V_SRLI32(v, 16));
}

static inline LANES_VEC lanes_widen_u32(LANES_VEC a)
{
    return V_ADD64(V_AND(a, V_SET1_64(0xffffffff)), V_SRLI64(a, 32));
}

/* L + H per 32-bit lane, as 64-bit lanes (exact: L and H are each below 2^32). */
static inline LANES_VEC lanes_reconstruct(struct lanes l)
{
    LANES_VEC low = V_SUB32(l.all, V_SLLI32(l.high, 16));
    return V_ADD64(lanes_widen_u32(low), lanes_widen_u32(l.high));
}

#else /* second inclusion: the function itself */

enum { LANES_STEPS_PER_FLUSH = 16384 };

static csum_wsum LANES_FUNCTION(const void *buf, size_t len, csum_wsum sum)
{
    const unsigned char *p = buf;
    const struct lanes zero = { V_ZERO(), V_ZERO() };
    const size_t B = LANES_BYTES;
    LANES_VEC wide = V_ZERO(); /* 64-bit lanes */

    while (len >= 4 * B) {
        size_t steps = len / (4 * B) < LANES_STEPS_PER_FLUSH ? len / (4 * B) : LANES_STEPS_PER_FLUSH;
        struct lanes l0 = zero, l1 = zero, l2 = zero, l3 = zero;
        for (size_t i = 0; i < steps; i++, p += 4 * B) {
            lanes_add(&l0, V_LOAD(p));
            lanes_add(&l1, V_LOAD(p + B));
            lanes_add(&l2, V_LOAD(p + 2 * B));
            lanes_add(&l3, V_LOAD(p + 3 * B));
        }
        len -= steps * 4 * B;
        wide = V_ADD64(wide, V_ADD64(V_ADD64(lanes_reconstruct(l0), lanes_reconstruct(l1)),
                                     V_ADD64(lanes_reconstruct(l2), lanes_reconstruct(l3))));
    }
    struct lanes r0 = zero, r1 = zero;
    if (len & (2 * B)) {
        lanes_add(&r0, V_LOAD(p));
        lanes_add(&r1, V_LOAD(p + B));
        p += 2 * B;
    }
    if (len & B) {
        lanes_add(&r0, V_LOAD(p));
        p += B;
    }
    uint64_t rest = (len & (B - 1)) ? lanes_tail(&r1, p, len & (B - 1)) : 0;
    wide = V_ADD64(wide, V_ADD64(lanes_reconstruct(r0), lanes_reconstruct(r1)));
    return csum_fold64(csum_add64(csum_add64(lanes_reduce(wide), rest), sum));
}

#endif
