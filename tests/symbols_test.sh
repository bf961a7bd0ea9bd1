#!/usr/bin/env bash
# The shared library's surface: SONAME libcsum.so.1 and the version chain of file names, and
# exactly the functions the public headers declare CSUM_API exported, nothing else (no
# internal row such as csum_impl_generic, no helper of a compiler runtime). Every global symbol
# of the static library starts with csum_, so it cannot collide with a user's.
# Symbol versions (src/libcsum.map): every CSUM_API function is in exactly one node of the
# version script and every name there is declared; the nodes chain, each inheriting the one
# before; libcsum.so exports each function with its node's version as the default; and a
# program that needs a newer node than the library it is run with fails at load time, naming
# the version.
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

exported=$(dynamic_defined "$so")
declared=$(declared_api)
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
# ---- symbol versions ----------------------------------------------------------------------
map=$root/src/libcsum.map
# The script without its comments, one line.
map_text=$(sed -e ':a' -e '/\/\*/{' -e '/\*\//!{N;ba' -e '}' -e 's,/\*.*\*/,,' -e '}' "$map" | tr '\n' ' ')
# "NODE NAME" for every name of every node (`local: *` left out), in the script's order.
map_entries=$(printf '%s' "$map_text" | awk -v RS='}' '{
        if (!match($0, /[A-Za-z_][A-Za-z_0-9.]* *\{/)) next
        head = substr($0, RSTART, RLENGTH); sub(/ *\{/, "", head)
        body = substr($0, RSTART + RLENGTH)
        sub(/local:.*/, "", body); sub(/global:/, "", body)
        n = split(body, names, /[ ;]+/)
        for (i = 1; i <= n; i++) if (names[i] != "") print head, names[i]
    }')
# The parent each node after the first names ("} CSUM_1.0;").
parents=$(printf '%s' "$map_text" | grep -o '} *[A-Za-z_][A-Za-z_0-9.]* *;' | sed 's/[} ;]//g')
nodes=$(printf '%s\n' "$map_entries" | awk '{ print $1 }' | uniq)
versioned=$(printf '%s\n' "$map_entries" | awk '{ print $2 }' | sort)
if [ -z "$map_entries" ]; then
    fail "symbols: no node with functions found in src/libcsum.map"
else
    unversioned=$(comm -23 <(echo "$declared") <(echo "$versioned" | sort -u))
    undeclared=$(comm -13 <(echo "$declared") <(echo "$versioned" | sort -u))
    twice=$(echo "$versioned" | uniq -d)
    if [ -z "$unversioned$undeclared$twice" ]; then
        ok "symbols: src/libcsum.map gives each of the $(echo "$declared" | wc -l) CSUM_API functions one node ($(echo $nodes))"
    else
        [ -z "$unversioned" ] || fail "symbols: CSUM_API functions in no node of src/libcsum.map (add them to the newest): $(echo $unversioned)"
        [ -z "$undeclared" ] || fail "symbols: src/libcsum.map names functions no header declares CSUM_API: $(echo $undeclared)"
        [ -z "$twice" ] || fail "symbols: functions in more than one node of src/libcsum.map: $(echo $twice)"
    fi
fi
# Nodes are CSUM_<major>.<minor> of this major version, and each inherits the one before it.
want_parents=$(echo "$nodes" | head -n -1)
bad_names=$(echo "$nodes" | grep -v "^CSUM_${version%%.*}\.[0-9][0-9]*$")
if [ -n "$nodes" ] && [ -z "$bad_names" ] && [ "$parents" = "$want_parents" ]; then
    ok "symbols: version nodes $(echo $nodes), each inheriting the one before"
else
    fail "symbols: version nodes '$(echo $nodes)' (want CSUM_${version%%.*}.N), parents '$(echo $parents)', want '$(echo $want_parents)'"
fi

# What the linker made of it: each function's default version (name@@NODE) is its node's.
dyn=$(readelf --dyn-syms -W "$so" | awk '$5 == "GLOBAL" && $7 != "UND" && $8 ~ /^csum_/ { print $8 }' | sort)
want=$(printf '%s\n' "$map_entries" | awk '{ print $2 "@@" $1 }' | sort)
if [ "$dyn" = "$want" ]; then
    ok "symbols: readelf --dyn-syms: every function carries its node's version"
else
    fail "symbols: versions in libcsum.so differ from src/libcsum.map: $(diff <(echo "$want") <(echo "$dyn") | grep '^[<>]' | tr '\n' ' ')"
fi
defs=$(readelf -V "$so" | awk '/Version definition/ { on = 1 } /Version needs/ { on = 0 }
                              on && /Name: CSUM_/ { sub(/.*Name: /, ""); print }')
if [ "$defs" = "$nodes" ]; then
    ok "symbols: readelf -V: libcsum.so defines the versions $(echo $defs)"
else
    fail "symbols: readelf -V: libcsum.so defines '$(echo $defs)', want '$(echo $nodes)'"
fi

# The point of it all: a program that calls a function of the newest node, run with a
# libcsum.so.1 that has only the nodes before it, is refused by the loader, which names the
# version (without versions it would start, and die at the call).
newest=$(echo "$nodes" | tail -n 1)
older=$(echo "$nodes" | head -n -1)
cc=${CC:-cc}
if [ -z "$older" ] || ! command -v "$cc" >/dev/null; then
    printf 'SKIPPED symbols: load-time refusal (one version node, or no %s)\n' "$cc"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    fn=$(printf '%s\n' "$map_entries" | awk -v n="$newest" '$1 == n { print $2; exit }')
    # The older library: the older nodes, as the script has them, with empty functions.
    printf '%s\n' "$map_entries" | awk -v n="$newest" '
        $1 == n { next }
        $1 != node { if (node != "") print (parent == "" ? "  local:\n    *;\n};" : "} " parent ";")
                     parent = node; node = $1; print node " {\n  global:" }
        { print "    " $2 ";" }
        END { print (parent == "" ? "  local:\n    *;\n};" : "} " parent ";") }' > "$tmp/old.map"
    printf '%s\n' "$map_entries" | awk -v n="$newest" '$1 != n { print "void " $2 "(void) {}" }' > "$tmp/old.c"
    mkdir "$tmp/old"
    printf 'void %s(void);\nint main(void) { %s(); return 0; }\n' "$fn" "$fn" > "$tmp/new_user.c"
    machine() { readelf -h "$1" 2>/dev/null | sed -n 's/^ *Machine: *//p'; }
    # Linked against this libcsum.so; the call is never made: the loader refuses first.
    if ! "$cc" -shared -fPIC -o "$tmp/old/libcsum.so.1" -Wl,-soname,libcsum.so.1 \
             -Wl,--version-script="$tmp/old.map" "$tmp/old.c" 2>"$tmp/err"; then
        fail "symbols: could not build the older library: $(head -n 3 "$tmp/err")"
    elif [ "$(machine "$tmp/old/libcsum.so.1")" != "$(machine "$so")" ]; then
        printf 'SKIPPED symbols: load-time refusal (%s is for %s, %s builds for %s)\n' \
            "$so" "$(machine "$so")" "$cc" "$(machine "$tmp/old/libcsum.so.1")"
    elif "$cc" -o "$tmp/new_user" "$tmp/new_user.c" "$so" 2>"$tmp/err"; then
        needs=$(readelf -V "$tmp/new_user" | grep -o "Name: $newest" | head -n 1)
        out=$(LD_LIBRARY_PATH="$tmp/old" "$tmp/new_user" 2>&1)
        status=$?
        if [ -n "$needs" ] && [ "$status" -ne 0 ] && printf '%s' "$out" | grep -q "$newest"; then
            ok "symbols: a program calling $fn ($newest) is refused by an older libcsum.so.1: $(printf '%s' "$out" | grep -o "version .$newest' not found" | head -n 1)"
        else
            fail "symbols: a program calling $fn ($newest) with an older libcsum.so.1: needs '$needs', exit $status, '$out'"
        fi
    else
        fail "symbols: could not link a program with $so: $(head -n 3 "$tmp/err")"
    fi
fi
finish symbols_test
