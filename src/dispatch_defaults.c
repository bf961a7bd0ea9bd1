/*
 * The compiled-in dispatch plans: which product row handles which lengths when nothing else
 * was asked for. This is the one place these thresholds live.
 *
 * Plans are keyed by what the CPU is (vendor, family, model) and what it has (features): the
 * first row that matches is used. A row with a vendor was measured on a machine of that class,
 * and says when and with which command; the rows without one are for CPUs never measured and
 * follow from the features alone. `csum impls` shows which row applies and why (it is the text
 * csum_dispatch_source() gives after "compiled-in defaults: ").
 *
 * The arm64 plan is not measured on hardware (the arm64 suite runs under qemu): NEON handles
 * every length, with scalar loads for short tails.
 */
#include "isa.h"
#include "plan.h"

#include <stdio.h>

struct default_plan {
    const char *vendor;     /* CPUID vendor string; NULL: any CPU */
    unsigned family;        /* display family; 0: any */
    unsigned model_lo, model_hi; /* display model range (inclusive), when family is set */
    uint32_t features;      /* CSUM_CPU_* bits that must all be present: the gate of the
                             * plan's rows (src/isa.h), so a plan never names a row the CPU
                             * cannot run */
    const char *plan;       /* CSUM_DISPATCH syntax */
    const char *why;        /* the class and how it was measured, or why this plan */
    /* csum_partial_copy's rows with normal stores by length, in the same syntax (the short
     * copy below 64 bytes and the streaming row for copies larger than the cache are added
     * around them, src/dispatch.c); NULL: not measured, the widest such row the CPU runs for
     * every length. Set where the copy rows were measured, even when the widest row won, so
     * that `csum impls` can say how they were chosen. */
    const char *copy;
    const char *copy_why;   /* the class and how its copy rows were measured */
};

static const struct default_plan plans[] = {
#if defined(__x86_64__)
    /* AMD Zen 5 (EPYC 9005, family 26), 2-vCPU KVM guests (family 26 model 2). First measured
     * 2026-11-23 (`csum tune`, both modes, and the lab's `short` table): x86-scalar to 191
     * bytes, avx512 at 192..255, avx512-vnni from 256. Remeasured 2026-11-26 with `make
     * tune-results` (csum_partial's dispatch and both rows had changed since): avx512 at 192
     * bytes took 9.7-10.1 ticks against x86-scalar's 7.3-8.3 (both modes, both tune runs), and
     * over 192..255 the `short` table (min of two) gave csum_partial through avx512 9.0-10.2
     * ticks, the x86-scalar row 7.3-10.1: faster at all 64 lengths in both modes. Both tune runs
     * dropped the avx512 range; of the plans they proposed, x86-scalar@0,avx512-vnni@256 had the
     * fewest lengths slower than linux-6.8 on the short table (31, against 88 for the old
     * plan). The copy keeps the widest row: avx512-vnni 19.8 ns at 4 KiB and 65 ns at 16 KiB,
     * avx2 31.4 and 118 (the lab's `copy` table, 2026-11-26); at 64 KiB, L2-bound, the four
     * vector rows are within 2.3 % of each other. Raw results:
     * docs/results/amd-epyc-family-26-model-2/tune/ (*-2026-11-26-185309-*). */
    { "AuthenticAMD", 26, 0x00, 0xff,
      CSUM_ISA_MASK(avx512_vnni),
      "x86-scalar@0,avx512-vnni@256",
      "AMD Zen 5 (family 26), measured 2026-11-26 with csum tune and csum bench short",
      "avx512-vnni@0",
      "AMD Zen 5: avx512-vnni at every length, measured 2026-11-26 with csum bench copy" },
    /* AMD Zen 4 (EPYC 9004, Ryzen 7000: family 25 with AVX-512; Zen 3, also family 25, has no
     * AVX-512 and never matches): `csum tune`, twice, and the lab's `short` table, 2026-11-25
     * on a 2-vCPU KVM guest (family 25 model 17). Zen 4 runs 512-bit operations as two 256-bit
     * halves, and the avx512 row's set-up does not pay: at 192..255 bytes it measured a median
     * 0.2-0.3 ticks slower than x86-scalar (the short table, both modes; up to 7 at single
     * lengths), its worst throughput ratio to linux-6.8 there 1.29 against 1.09, and tune chose
     * x86-scalar to 255 both times; from 256 avx512-vnni. Rechecked 2026-11-26 with `make
     * tune-results` (tune twice, the same plan both times; *-2026-11-26-141025-*). Raw results:
     * docs/results/amd-epyc-family-25-model-17/tune/. */
    { "AuthenticAMD", 25, 0x00, 0xff,
      CSUM_ISA_MASK(avx512_vnni),
      "x86-scalar@0,avx512-vnni@256",
      "AMD Zen 4 (family 25 with AVX-512), measured 2026-11-25 with csum tune and csum bench short",
      /* Copies from 4 KiB take avx2: its three simple ops per 32 bytes leave the core's one
       * 256-bit store a cycle as the limit, where avx512-vnni's dot products hold the stores
       * back. 4-16 KiB: 1-17 % faster wherever the destination is at another offset in its
       * page than the source, up to 18 % slower at a few offset pairs where it is at the same
       * one (probes through the library and the lab's copy table, 2026-11-26; docs/METHOD.md,
       * "Copies: avx2 from 4 KiB"). Below 4 KiB neither row wins everywhere. */
      "avx512-vnni@0,avx2@4096",
      "AMD Zen 4: avx2 from 4 KiB, measured 2026-11-26 with csum bench copy and probes through the "
      "library over source and destination offsets" },
    /* Intel Skylake-SP/X/W, Cascade Lake and Cooper Lake (family 6 model 85), not measured
     * here: on these cores any 512-bit instruction, even an add, caps the clock of the whole
     * core at a lower "license" level for about a millisecond, and multiplies such as
     * vpdpwssd cap it lower still, slowing whatever else runs there (Vlad Krasnov, "On the
     * dangers of Intel's frequency scaling", Cloudflare blog, 2017; Travis Downs, "Gathering
     * Intel on Intel AVX-512 Transitions", 2020). A checksum timed alone cannot see that cost,
     * so csum tune cannot either. DPDK leaves AVX-512 off by default on x86 for this reason
     * (its max SIMD bitwidth is 256 unless the application asks; "Using AVX-512 with DPDK"):
     * these cores get 256-bit rows, as on AVX2-only CPUs. On Ice Lake and Rocket Lake the
     * downclocking is small (Downs, "Ice Lake AVX-512 Downclocking", 2020), so those and later
     * Intel cores keep the AVX-512 rows below. The automatic copy and batch plans keep to the
     * ISAs of this plan's rows too (src/dispatch.c); CSUM_DISPATCH (or a tuned plan file),
     * CSUM_COPY_IMPL and CSUM_BATCH_IMPL opt in. */
    { "GenuineIntel", 6, 0x55, 0x55,
      CSUM_ISA_MASK(avx512),
      "x86-scalar@0,avx2@256",
      "Intel Skylake-SP/X, Cascade Lake, Cooper Lake (family 6 model 85): 256-bit rows, as "
      "512-bit instructions lower the core's clock there; not measured here", NULL, NULL },
    /* Never measured: the threshold both AMD cores measured, for any other CPU with AVX-512
     * VNNI. */
    { NULL, 0, 0, 0,
      CSUM_ISA_MASK(avx512_vnni),
      "x86-scalar@0,avx512-vnni@256",
      "by features (AVX-512 VNNI): the threshold measured on AMD Zen 4 and Zen 5", NULL, NULL },
    /* AVX-512BW without VNNI: `csum tune` on Zen 5 with both VNNIs hidden
     * (CSUM_CPU_DISABLE=avx512vnni,avxvnni), twice, 2026-11-26: avx512 from 320 bytes
     * (tune/tune-avx512-no-vnni-2026-11-26-run*.txt). */
    { NULL, 0, 0, 0, CSUM_ISA_MASK(avx512),
      "x86-scalar@0,avx512@320",
      "by features (AVX-512BW without VNNI): measured on AMD Zen 5 with VNNI hidden", NULL, NULL },
    /* AVX-VNNI without AVX-512 (Intel Alder Lake and later client cores, Sierra Forest): no
     * such CPU measured yet; `csum tune` on Zen 5 with AVX-512 hidden (CSUM_CPU_DISABLE=avx512f).
     * 2026-11-23: avx2 at 320..511, avx-vnni from 512. Remeasured 2026-11-26, three runs: avx-vnni
     * from 256 every time, faster than avx2 at every ladder length from 256 (320: 9.5-9.9 ticks
     * against 10.6-10.7; 512: 10.7-10.8 against 12.2-12.3); and with 257 in tune's ladder, the
     * old plan's x86-scalar at 257..319 (its out-of-line loop) showed: 12.0 ticks at 257
     * against avx-vnni's 7.6. Raw results: docs/results/amd-epyc-family-26-model-2/tune/
     * tune-avx-vnni-2026-11-2[36]*.txt. */
    { NULL, 0, 0, 0, CSUM_ISA_MASK(avx_vnni), "x86-scalar@0,avx-vnni@256",
      "by features (AVX-VNNI, no AVX-512): measured on AMD Zen 5 with AVX-512 hidden; no such CPU "
      "measured", NULL, NULL },
    /* No AVX2-only machine measured yet: `csum tune` on Zen 5 with AVX-512 hidden
     * (CSUM_CPU_DISABLE=avx512f, before the avx-vnni row existed; =avx512f,avxvnni hides both now),
     * 2026-11-23, docs/results/amd-epyc-family-26-model-2/tune/. Rechecked 2026-11-26: with 320
     * the ladder's next point after 256, tune proposed avx2 from 320 twice, but at 257..319
     * avx2 took 8.9-10.1 ticks and x86-scalar 10.4-13.7 (the lab's sizes table); with 257 in
     * the ladder it proposed avx2 from 257 twice, x86-scalar 0.1-0.6 ticks faster at exactly
     * 256, which is within noise (the first run's check called the plan slower at 320, where
     * both plans run avx2), so the cut stays at 256 (tune-avx2-only-2026-11-26-*.txt). */
    { NULL, 0, 0, 0, CSUM_ISA_MASK(avx2), "x86-scalar@0,avx2@256",
      "by features (AVX2): measured on AMD Zen 5 with AVX-512 hidden; no AVX2-only CPU measured",
      NULL, NULL },
    { NULL, 0, 0, 0, 0, "x86-scalar@0", "by features (x86-64 baseline)", NULL, NULL },
#endif
#if defined(__aarch64__)
    { NULL, 0, 0, 0, CSUM_ISA_MASK(neon), "neon@0",
      "by features (arm64 NEON), not measured on hardware", NULL, NULL },
#endif
    { NULL, 0, 0, 0, 0, "generic@0", "portable C", NULL, NULL },
};

static int matches(const struct default_plan *d, const struct csum_cpu_id *id, uint32_t have)
{
    if ((have & d->features) != d->features)
        return 0;
    if (d->vendor && strcmp(d->vendor, id->vendor) != 0)
        return 0;
    return d->family == 0 ||
           (d->family == id->family && id->model >= d->model_lo && id->model <= d->model_hi);
}

/* The first row that matches; the last row matches any CPU. */
static const struct default_plan *plan_for(const struct csum_cpu_id *id, uint32_t have)
{
    size_t i = 0;
    while (i + 1 < sizeof plans / sizeof plans[0] && !matches(&plans[i], id, have))
        i++;
    return &plans[i];
}

void (*csum_cpu_identify_for_defaults)(struct csum_cpu_id *id) = csum_cpu_identify;

static const struct default_plan *plan_here(void)
{
    struct csum_cpu_id id;
    csum_cpu_identify_for_defaults(&id);
    return plan_for(&id, csum_cpu_features());
}

/* The row's plan, its reason copied to `why`. */
static const char *plan_and_why(const struct default_plan *d, char *why, size_t why_size)
{
    snprintf(why, why_size, "%s", d->why);
    return d->plan;
}

const char *csum_dispatch_default_plan_for(const struct csum_cpu_id *id, uint32_t have, char *why,
                                          size_t why_size)
{
    return plan_and_why(plan_for(id, have), why, why_size);
}

const char *csum_dispatch_default_plan(char *why, size_t why_size)
{
    return plan_and_why(plan_here(), why, why_size);
}

const char *csum_dispatch_default_copy_for(const struct csum_cpu_id *id, uint32_t have)
{
    return plan_for(id, have)->copy;
}

const char *csum_dispatch_default_copy(char *why, size_t why_size)
{
    const struct default_plan *d = plan_here();
    snprintf(why, why_size, "%s", d->copy_why ? d->copy_why : "");
    return d->copy;
}

size_t csum_dispatch_default_count(void)
{
    return sizeof plans / sizeof plans[0];
}

const char *csum_dispatch_default_at(size_t i, uint32_t *features, const char **copy)
{
    if (i >= csum_dispatch_default_count())
        return NULL;
    if (features)
        *features = plans[i].features;
    if (copy)
        *copy = plans[i].copy;
    return plans[i].plan;
}
