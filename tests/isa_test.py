#!/usr/bin/env python3
"""The library's x86-64 object code uses only what its kernels' run-time gates check.

A row runs only on a CPU with every feature its ISA lists (src/isa.h), but the compiler may
emit, inside a target region, instructions of features the options imply rather than name:
GCC implies AVX2 from avx512f, and GCC 12 wrote the AVX512DQ instruction vextracti64x2 in the
avx512 batch tail while the gate checked F/BW/VL only. No CPU we run on lacks DQ, and qemu-user
has no AVX-512, so no run can show it; the disassembly can. For every object file of the
library, the features its instructions need (by register class, encoding and mnemonic, a
deliberately partial map of what GCC and clang emit from our code) must be in its file's ISA
or in the build's baseline; a file that names no ISA gets the baseline alone.

The baseline is what the build's own flags let the compiler assume everywhere: plain x86-64
(SSE2) by default, more where a distribution raises it (RHEL 9 builds with -march=x86-64-v2,
others with -march=x86-64-v3); the compiler's predefined macros under the build's compiler and
CMAKE_C_FLAGS (CMakeCache.txt) say which features that is. Above the baseline, only a gated
kernel may go. A control checks that the check still bites: an object compiled with the build's
flags and one ISA flag more (-mavx2, or -mavx512f where the baseline has AVX2) must fail it as
an ungated file.

Built by clang with link-time optimisation, an object holds LLVM bitcode alone: the check then
asks the build's compiler for the machine code of each object, one by one (clang -x ir -c), and
disassembles that. (GCC's objects of the library always carry machine code: -ffat-lto-objects.)

Also: every function with a non-temporal store (movnt*: the streaming copies) has an sfence.
Streaming stores are weakly ordered, so without it a caller that publishes the destination
(a flag, a ring index) may publish bytes not yet written; no single-threaded run can see the
difference, and a racing reader would see it too rarely to test for, but the disassembly can.

Usage: tests/isa_test.py BUILD_DIR
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

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


# The compiler's predefined macros for the features above, as GCC and clang name them.
BASELINE_MACROS = {
    "__SSSE3__": "ssse3", "__SSE4_1__": "sse4.1", "__SSE4_2__": "sse4.2", "__POPCNT__": "popcnt",
    "__AVX__": "avx", "__AVX2__": "avx2", "__FMA__": "fma", "__BMI__": "bmi1", "__BMI2__": "bmi2",
    "__LZCNT__": "lzcnt", "__MOVBE__": "movbe", "__ADX__": "adx", "__AVX512F__": "avx512f",
    "__AVX512DQ__": "avx512dq", "__AVX512VNNI__": "avx512vnni", "__AVXVNNI__": "avxvnni",
}


def cache_entries(build):
    """{name: value} of the build's CMakeCache.txt."""
    entries = {}
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
            if m:
                entries[m.group(1)] = m.group(2)
    return entries


def build_compiler(build):
    """The compiler command and the flags every file of the library is compiled with (no -c,
    no per-file or per-target options: a kernel's own flags are not the baseline)."""
    cache = cache_entries(build)
    compiler = [cache["CMAKE_C_COMPILER"]] + shlex.split(cache.get("CMAKE_C_COMPILER_ARG1", ""))
    build_type = cache.get("CMAKE_BUILD_TYPE", "").upper()
    flags = shlex.split(cache.get("CMAKE_C_FLAGS", ""))
    if build_type:
        flags += shlex.split(cache.get("CMAKE_C_FLAGS_" + build_type, ""))
    return compiler, flags


def baseline_features(compiler, flags):
    """The features the compiler may use in any file under these flags."""
    macros = subprocess.run(compiler + flags + ["-dM", "-E", "-x", "c", os.devnull],
                            capture_output=True, text=True, check=True).stdout
    defined = set(re.findall(r"^#define (\w+)", macros, re.M))
    return {feature for macro, feature in BASELINE_MACROS.items() if macro in defined}


def scan(obj, permitted, seen, seen_nt):
    """{feature or "no sfence": where} for what obj uses beyond permitted; counts into seen."""
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
    return bad


def lto_only(obj):
    """True for an object of LLVM bitcode (or its wrapper) without machine code: clang's under
    -flto. (GCC's objects of the library are always fat: CMakeLists.txt.)"""
    with open(obj, "rb") as f:
        return f.read(4) in (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")


def machine_code(obj, compiler, flags, tmp):
    """obj, or for an object of bitcode alone the machine code the compiler makes of it."""
    if not lto_only(obj):
        return obj
    out = os.path.join(tmp, "%d.o" % len(os.listdir(tmp)))
    subprocess.run(compiler + flags + ["-fno-lto", "-c", "-x", "ir", obj, "-o", out], check=True)
    return out


# The control: a loop the compiler vectorizes with the ISA flag, in a file that names no ISA.
CONTROL_SOURCE = """
void csum_isa_control(unsigned *a, const unsigned *b, unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        a[i] += b[i] * 3u;
}
"""


def control(compiler, flags, baseline, native):
    """(passed, text): an ungated object with instructions above the baseline must fail."""
    for feature, option in (("avx2", "-mavx2"), ("avx512f", "-mavx512f")):
        if feature not in baseline:
            break
    else:
        return None, "the baseline has AVX-512 already, no control above it"
    with tempfile.TemporaryDirectory() as tmp:
        source, obj = os.path.join(tmp, "control.c"), os.path.join(tmp, "control.o")
        with open(source, "w") as f:
            f.write(CONTROL_SOURCE)
        subprocess.run(compiler + flags + ["-O3", option, "-c", source, "-o", obj], check=True)
        bad = scan(native(obj), allowed(baseline), {}, [0])
    if feature in bad:
        return True, "an ungated object compiled with %s fails the check (%s: %s)" % (
            option, feature, bad[feature])
    return False, "an ungated object compiled with %s passes the check: it no longer sees %s" % (
        option, feature)


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
    compiler, flags = build_compiler(build)
    with tempfile.TemporaryDirectory() as tmp:
        return check(objdir, sorted(objects), compiler, flags,
                     lambda obj: machine_code(obj, compiler, flags, tmp))


def check(objdir, objects, compiler, flags, native):
    header = subprocess.run(["objdump", "-f", native(objects[0])], capture_output=True,
                            text=True).stdout
    if "x86-64" not in header:
        print("isa: not an x86-64 build, nothing to check\nisa_test: 0 passed, 0 failed")
        return 0
    isas = isa_features()
    baseline = baseline_features(compiler, flags)
    print("isa: the build's baseline (%s): x86-64%s" % (
        " ".join(flags) or "no flags", "".join(" " + f for f in sorted(baseline))))
    passed = failed = 0
    seen = {name: 0 for name in ("bmi2", "adx", "avx2", "avx512f", "avx512vnni")}
    seen_nt = [0]  # non-temporal stores found
    lto = [obj for obj in objects if lto_only(obj)]
    if lto:
        print("isa: %d of %d objects hold LTO code alone: checking the machine code the compiler "
              "makes of each" % (len(lto), len(objects)))
    for obj in objects:
        rel = os.path.relpath(obj, objdir)
        source = os.path.join(ROOT, rel[:-2])  # src/x86/avx2.c.o -> src/x86/avx2.c
        isa = file_isa(source)
        permitted = allowed(isas.get(isa, set()) | baseline)
        bad = scan(native(obj), permitted, seen, seen_nt)
        what = "isa: %s (%s: %s)" % (rel[:-2], isa, " ".join(sorted(isas.get(isa, ()))) or "baseline")
        if bad:
            failed += 1
            print("FAIL    %s uses %s" % (what, "; ".join("%s (%s)" % kv for kv in sorted(bad.items()))))
        else:
            passed += 1
            print("PASS    %s" % what)
    result, text = control(compiler, flags, baseline, native)
    if result is None:
        print("SKIPPED isa control: %s" % text)
    elif result:
        passed += 1
        print("PASS    isa control: %s" % text)
    else:
        failed += 1
        print("FAIL    isa control: %s" % text)
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
