/*
 * The whole-lane/high-word summing loop, written for any vector width: x86_avx512_sum.h
 * instantiates it, and its loop serves both csum_partial (no stores) and csum_partial_copy
 * (temporal or streaming stores). The avx2 row has a loop of its own (x86_avx2_sum.h: the same
 * idea on 64-bit lanes, tuned to the AVX2 bound of docs/METHOD.md).
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
 * overflow for any size_t length. Up to 64 KiB no flush happens and the words' whole sum is
 * below 2^32, so the last reduction stays in 32-bit lanes. A head vector (has_head: the bytes
 * before the buffer's first 64-byte boundary) goes into the rest pair, which then takes three;
 * with it, 64 KiB after the head still sum to less than 2^32.
 *
 * Use: define the vector type and operations (V_*), LANES_BYTES (bytes per vector),
 * LANES_FUNCTION (the name of the function to define) and LANES_MOVE(dst, src, i, store) (the
 * vector at src + i, also stored at dst + i unless store is CSUM_STORE_NONE), then include this
 * file twice. The first inclusion declares struct lanes and its helpers; between the two, the
 * ISA's header defines
 *   uint64_t lanes_tail(struct lanes *l, unsigned char *dst, const unsigned char *src, size_t i,
 *                       size_t n, enum csum_store store): add (and move) the last
 *       n < LANES_BYTES bytes at src + i without touching a byte past them, returning what it
 *       sums in scalar code (or 0);
 *   uint64_t lanes_reduce(LANES_VEC wide): the sum of the 64-bit lanes;
 *   uint32_t lanes_reduce32(LANES_VEC v): the sum of the 32-bit lanes (known not to overflow);
 * the second inclusion defines LANES_FUNCTION(dst, src, len, sum, store, has_head, head).
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

#else /* second inclusion: the loop itself */

/* Each accumulator pair takes one vector per step: flush every 16384 steps (the bound). */
#define LANES_FLUSH_BYTES ((size_t)16384 * 4 * LANES_BYTES)
/* Up to 64 KiB the whole sum (at most 32768 words of 0xffff) stays below 2^32: no flush happens
 * and the lanes can be added and reduced in 32 bits. */
#define LANES_SHORT_BYTES ((size_t)65536)

/* L + H per 32-bit lane, in 32 bits: for buffers of at most LANES_SHORT_BYTES. */
static inline LANES_VEC lanes_reconstruct32(struct lanes l)
{
    return V_ADD32(V_SUB32(l.all, V_SLLI32(l.high, 16)), l.high);
}

/* With has_head, `head` is one more vector, summed with the buffer (in the rest pair, which
 * then takes three). The words' sum is exact either way, so the result does not depend on it. */
CSUM_ALWAYS_INLINE csum_wsum LANES_FUNCTION(unsigned char *dst, const unsigned char *p,
                                            size_t len, csum_wsum sum, enum csum_store store,
                                            int has_head, LANES_VEC head)
{
    const struct lanes zero = { V_ZERO(), V_ZERO() };
    const size_t B = LANES_BYTES;
    LANES_VEC wide = V_ZERO(); /* 64-bit lanes */
    struct lanes l0 = zero, l1 = zero, l2 = zero, l3 = zero;
    size_t i = 0;

#define LANES_STEP()                                                                           \
    do {                                                                                       \
        lanes_add(&l0, LANES_MOVE(dst, p, i, store));                                          \
        lanes_add(&l1, LANES_MOVE(dst, p, i + B, store));                                      \
        lanes_add(&l2, LANES_MOVE(dst, p, i + 2 * B, store));                                  \
        lanes_add(&l3, LANES_MOVE(dst, p, i + 3 * B, store));                                  \
    } while (0)

    /* Above LANES_FLUSH_BYTES: whole chunks of that size, each flushed into `wide`, until at
     * most that much is left. */
    if (__builtin_expect(len > LANES_FLUSH_BYTES, 0)) {
        do {
            for (const size_t end = i + LANES_FLUSH_BYTES; i < end; i += 4 * B)
                LANES_STEP();
            wide = V_ADD64(wide, V_ADD64(V_ADD64(lanes_reconstruct(l0), lanes_reconstruct(l1)),
                                         V_ADD64(lanes_reconstruct(l2), lanes_reconstruct(l3))));
            l0 = l1 = l2 = l3 = zero;
        } while (len - i > LANES_FLUSH_BYTES);
    }
    for (; len - i >= 4 * B; i += 4 * B)
        LANES_STEP();
#undef LANES_STEP
    /* The rest in pairs of their own: below 4 vectors the four above are never touched, and
     * their reconstruction is skipped. */
    struct lanes r0 = zero, r1 = zero;
    if (has_head)
        lanes_add(&r0, head);
    if (len & (2 * B)) {
        lanes_add(&r0, LANES_MOVE(dst, p, i, store));
        lanes_add(&r1, LANES_MOVE(dst, p, i + B, store));
        i += 2 * B;
    }
    if (len & B) {
        lanes_add(&r0, LANES_MOVE(dst, p, i, store));
        i += B;
    }
    uint64_t rest = (len & (B - 1)) ? lanes_tail(&r1, dst, p, i, len & (B - 1), store) : 0;
    if (__builtin_expect(len <= LANES_SHORT_BYTES, 1)) {
        /* A dozen instructions fewer than widening first: what a short call pays most for. */
        LANES_VEC s = V_ADD32(lanes_reconstruct32(r0), lanes_reconstruct32(r1));
        if (len >= 4 * B)
            s = V_ADD32(s, V_ADD32(V_ADD32(lanes_reconstruct32(l0), lanes_reconstruct32(l1)),
                                   V_ADD32(lanes_reconstruct32(l2), lanes_reconstruct32(l3))));
        return csum_fold64(lanes_reduce32(s) + rest + sum);
    }
    wide = V_ADD64(wide, V_ADD64(V_ADD64(lanes_reconstruct(l0), lanes_reconstruct(l1)),
                                 V_ADD64(lanes_reconstruct(l2), lanes_reconstruct(l3))));
    wide = V_ADD64(wide, V_ADD64(lanes_reconstruct(r0), lanes_reconstruct(r1)));
    return csum_fold64(csum_add64(csum_add64(lanes_reduce(wide), rest), sum));
}

#undef LANES_FLUSH_BYTES
#undef LANES_SHORT_BYTES
/* Done: one instantiation per translation unit. */
#undef LANES_VEC
#undef LANES_BYTES
#undef LANES_FUNCTION
#undef LANES_MOVE
#undef V_ZERO
#undef V_ADD32
#undef V_SUB32
#undef V_SRLI32
#undef V_SLLI32
#undef V_ADD64
#undef V_AND
#undef V_SRLI64
#undef V_SET1_64
#endif
