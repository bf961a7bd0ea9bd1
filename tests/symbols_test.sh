#!/usr/bin/env bash
# The shared library's surface: SONAME libcsum.so.1 and the version chain of file names, and
# exactly the functions the public headers declare CSUM_API exported, nothing else (no
# internal row such as csum_impl_generic, no helper of a compiler runtime). Every global symbol
# of the static library starts with csum_, so it cannot collide with a user's.
# Usage: tests/symbols_test.sh BUILD_DIR
set -u
build=${1:?usage: symbols_test.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
so=$build/libcsum.so
version=$(csum_source_version)

soname=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
if [ "$soname" = libcsum.so.1 ]; then ok "symbols: SONAME $soname"; else fail "symbols: SONAME is '$soname', want libcsum.so.1"; fi
chain="$(readlink "$so") -> $(readlink "$build/libcsum.so.1")"
if [ "$chain" = "libcsum.so.1 -> libcsum.so.$version" ] && [ -f "$build/libcsum.so.$version" ]; then
    ok "symbols: libcsum.so -> $chain"
else
    fail "symbols: libcsum.so -> $chain, want libcsum.so.1 -> libcsum.so.$version"
fi

exported=$(nm -D --defined-only "$so" | awk '{ print $3 }' | sort)
# Declarations may span lines: join them, then take the name before each CSUM_API's "(".
declared=$(cat "$root"/include/*.h | grep -v '^ *# *define CSUM_API' |
           tr '\n' ' ' | grep -o 'CSUM_API [^;(]*(' | sed 's/.*[ *]\([A-Za-z_0-9]*\) *($/\1/' | sort)
if [ -z "$declared" ]; then
    fail "symbols: found no CSUM_API declarations in include/*.h"
elif [ "$exported" = "$declared" ]; then
    ok "symbols: libcsum.so exports exactly the $(echo "$declared" | wc -l) CSUM_API functions"
else
    fail "symbols: exported but not declared CSUM_API: $(comm -23 <(echo "$exported") <(echo "$declared") | tr '\n' ' ')"
    fail "symbols: declared CSUM_API but not exported: $(comm -13 <(echo "$exported") <(echo "$declared") | tr '\n' ' ')"
fi
stray=$(echo "$exported" | grep -v '^csum_')
if [ -z "$stray" ]; then ok "symbols: every dynamic symbol is csum_*"; else fail "symbols: exported, not csum_*: $(echo $stray)"; fi

stray=$(nm -g --defined-only "$build/libcsum.a" | awk 'NF == 3 { print $3 }' | grep -v '^csum_' | sort -u)
if [ -z "$stray" ]; then ok "symbols: every global of libcsum.a is csum_*"; else fail "symbols: libcsum.a globals not csum_*: $(echo $stray)"; fi
finish symbols_test
