#!/usr/bin/env python3
"""The library's x86-64 object code uses only what its kernels' run-time gates check.

A row runs only on a CPU with every feature its ISA lists (src/isa.h), but the compiler may
emit, inside a target region, instructions of features the options imply rather than name:
GCC implies AVX2 from avx512f, and GCC 12 wrote the AVX512DQ instruction vextracti64x2 in the
avx512 batch tail while the gate checked F/BW/VL only. No CPU we run on lacks DQ, and qemu-user
has no AVX-512, so no run can show it; the disassembly can. For every object file of the
library, the features its instructions need (by register class, encoding and mnemonic, a
deliberately partial map of what GCC and clang emit from our code) must be in its file's ISA;
a file that names no ISA is the baseline (x86-64 with SSE2).

Also: every function with a non-temporal store (movnt*: the streaming copies) has an sfence.
Streaming stores are weakly ordered, so without it a caller that publishes the destination
(a flag, a ring index) may publish bytes not yet written; no single-threaded run can see the
difference, and a racing reader would see it too rarely to test for, but the disassembly can.

Usage: tests/isa_test.py BUILD_DIR
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Mnemonics of features the gates can check, beyond what the register classes already say.
# Not complete lists: the instructions a compiler plausibly emits from integer code.
NEEDS = {
    "bmi2": {"shlx", "shrx", "sarx", "rorx", "bzhi", "pdep", "pext", "mulx"},
    "adx": {"adcx", "adox"},
    "avx512dq": {"vextracti64x2", "vinserti64x2", "vextracti32x8", "vinserti32x8",
                 "vextractf64x2", "vinsertf64x2", "vextractf32x8", "vinsertf32x8",
                 "vbroadcasti64x2", "vbroadcasti32x8", "vbroadcasti32x2", "vpmullq",
                 "vpmovm2d", "vpmovm2q", "vpmovd2m", "vpmovq2m", "kmovb", "kandb", "korb",
                 "kxorb", "knotb", "kandnb", "kxnorb", "kortestb", "ktestb", "ktestw", "kaddb",
                 "kaddw", "kshiftlb", "kshiftrb"},
    "avx512vnni": {"vpdpwssd", "vpdpwssds", "vpdpbusd", "vpdpbusds"},
}
# Features no ISA of ours may use: the gates do not detect them (a CPU may lack them).
UNCHECKED = {
    "bmi1": {"andn", "bextr", "blsi", "blsmsk", "blsr", "tzcnt"},
    "lzcnt": {"lzcnt"},
    "popcnt": {"popcnt"},
    "movbe": {"movbe"},
    "ssse3": {"pshufb", "palignr", "pabsb", "pabsw", "pabsd", "phaddw", "phaddd", "phaddsw",
              "phsubw", "phsubd", "pmaddubsw", "pmulhrsw", "psignb", "psignw", "psignd"},
    "sse4.1": {"pblendw", "pblendvb", "blendps", "blendpd", "blendvps", "blendvpd", "pextrb",
               "pextrd", "pextrq", "pinsrb", "pinsrd", "pinsrq", "pminsb", "pminsd", "pminuw",
               "pminud", "pmaxsb", "pmaxsd", "pmaxuw", "pmaxud", "pmovsxbw", "pmovsxwd",
               "pmovsxdq", "pmovzxbw", "pmovzxwd", "pmovzxdq", "pmovzxbd", "pmovzxbq",
               "pmovzxwq", "ptest", "pmuldq", "pmulld", "pcmpeqq", "packusdw", "roundps",
               "roundpd", "roundss", "roundsd", "dpps", "dppd", "insertps", "extractps",
               "mpsadbw", "phminposuw", "movntdqa"},
    "sse4.2": {"pcmpgtq", "crc32", "pcmpestri", "pcmpestrm", "pcmpistri", "pcmpistrm"},
    "fma": set(),  # vfmadd* etc., matched by prefix below
}
# The VEX forms of the SSE4/SSSE3 mnemonics need AVX, which every vector ISA of ours has.


def isa_features():
    """{isa: set of features} from src/isa.h's CSUM_ISA_<name>(F) lines."""
    text = open(os.path.join(ROOT, "src", "isa.h")).read().replace("\\\n", " ")
    isas = {}
    for name, body in re.findall(r"#define CSUM_ISA_(\w+)\(F\)([^\n]*)", text):
        isas[name] = set(re.findall(r"F\((\w+)\)", body))
    return isas


def file_isa(source):
    """The ISA a source file's kernels are compiled for (CSUM_KERNEL_ISA), or baseline."""
    try:
        text = open(source).read()
    except OSError:
        return "baseline"
    m = re.search(r"^#define CSUM_KERNEL_ISA (\w+)", text, re.M)
    return m.group(1) if m else "baseline"


def needs(first_byte, mnemonic, operands, prefix):
    """The CPU features one instruction needs beyond the baseline (a partial map)."""
    out = set()
    if first_byte == "62" or re.search(r"%zmm|%k[0-7]", operands):
        out.add("avx512f")  # the EVEX encoding, or AVX-512's registers
    elif first_byte in ("c4", "c5") and mnemonic.startswith("v"):
        # VEX: on ymm, integer ops are AVX2 (the rows' float-free code has no AVX1-only ones)
        out.add("avx2" if "%ymm" in operands else "avx")
    if mnemonic.startswith(("vfmadd", "vfmsub", "vfnmadd", "vfnmsub")):
        out.add("fma")
    for feature, names in list(NEEDS.items()) + list(UNCHECKED.items()):
        if mnemonic in names or (mnemonic.startswith("v") and mnemonic[1:] in names
                                 and feature in UNCHECKED):
            out.add(feature)
    if mnemonic in NEEDS["avx512vnni"] and prefix == "{vex}":
        out.discard("avx512vnni")
        out.add("avxvnni")
    return out


def allowed(isa_set):
    """What an ISA's feature list permits: itself, and what every CPU with it has."""
    have = set(isa_set)
    if have & {"avx2", "avx512f", "avxvnni"}:
        # SSE3..SSE4.2 and AVX come with AVX2 on every CPU; their VEX forms are what we emit.
        have |= {"avx", "ssse3", "sse4.1", "sse4.2"}
    return have


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: isa_test.py BUILD_DIR")
    build = sys.argv[1]
    objdir = os.path.join(build, "CMakeFiles", "csum_objects.dir")
    objects = []
    for dirpath, _, files in os.walk(objdir):
        objects += [os.path.join(dirpath, f) for f in files if f.endswith(".o")]
    if not objects:
        print("FAIL    isa: no object files under %s\nisa_test: 0 passed, 1 failed" % objdir)
        return 1
    header = subprocess.run(["objdump", "-f", objects[0]], capture_output=True, text=True).stdout
    if "x86-64" not in header:
        print("isa: not an x86-64 build, nothing to check\nisa_test: 0 passed, 0 failed")
        return 0
    isas = isa_features()
    passed = failed = 0
    seen = {name: 0 for name in ("bmi2", "adx", "avx2", "avx512f", "avx512vnni")}
    seen_nt = [0]  # non-temporal stores found
    for obj in sorted(objects):
        rel = os.path.relpath(obj, objdir)
        source = os.path.join(ROOT, rel[:-2])  # src/x86/avx2.c.o -> src/x86/avx2.c
        isa = file_isa(source)
        permitted = allowed(isas.get(isa, set()))
        dump = subprocess.run(["objdump", "-d", "-w", obj], capture_output=True,
                              text=True, check=True).stdout
        bad = {}
        function = "?"
        streaming = {}  # function -> [has a movnt*, has an sfence]
        for line in dump.splitlines():
            m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
            if m:
                function = m.group(1)
                continue
            # "  addr:\tBYTES\t{prefix} mnemonic operands"; the first byte tells VEX from EVEX.
            m = re.match(r"^\s+[0-9a-f]+:\t([0-9a-f]{2})[0-9a-f ]*\t(\{\w+\}\s+)?([a-z][a-z0-9.]*)\s*(.*)$",
                         line)
            if not m:
                continue
            mnemonic = m.group(3)
            if mnemonic.startswith(("movnt", "vmovnt")) and not mnemonic.endswith("dqa"):
                streaming.setdefault(function, [False, False])[0] = True
                seen_nt[0] += 1
            elif mnemonic == "sfence":
                streaming.setdefault(function, [False, False])[1] = True
            need = needs(m.group(1), m.group(3), m.group(4), (m.group(2) or "").strip())
            for f in need:
                if f in seen:
                    seen[f] += 1
            for f in need - permitted:
                bad.setdefault(f, "%s in %s" % (m.group(3), function))
        for function, (nt, fence) in sorted(streaming.items()):
            if nt and not fence:
                bad.setdefault("no sfence", "after the streaming stores of %s" % function)
        what = "isa: %s (%s: %s)" % (rel[:-2], isa, " ".join(sorted(isas.get(isa, ()))) or "baseline")
        if bad:
            failed += 1
            print("FAIL    %s uses %s" % (what, "; ".join("%s (%s)" % kv for kv in sorted(bad.items()))))
        else:
            passed += 1
            print("PASS    %s" % what)
    # The check must see what it checks for: the kernels' own instructions of each kind.
    for feature, count in sorted(seen.items()):
        if count:
            passed += 1
            print("PASS    isa: %d instructions needing %s found (the map sees them)" % (count, feature))
        else:
            failed += 1
            print("FAIL    isa: no instruction needing %s found: is the map or the object list wrong?" % feature)
    if seen_nt[0]:
        passed += 1
        print("PASS    isa: %d non-temporal stores found, each function with some has an sfence" % seen_nt[0])
    else:
        failed += 1
        print("FAIL    isa: no non-temporal store found: is the object list wrong?")
    print("isa_test: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
