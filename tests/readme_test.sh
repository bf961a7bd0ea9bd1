#!/usr/bin/env bash
# README.md's C examples, as printed: the program of "Using the library" is saved as app.c and
# built and run with each `cc` line of the block after it that needs no install, and of the
# "Without installing" block (in a directory where include/ and build/ are the tree's, so the
# lines run verbatim), and must print what the README says it prints; it also builds warning-free as strict C11. The fragments of the next
# block must compile as a function body given their variables, and the packet stack's program
# (stack.c) must build and print what the README shows. "The `csum` tool" block must
# name every command and the lab's tables as the tool's --help does. (The Python blocks are run
# by python/tests/test_package.py.)
# Usage: tests/readme_test.sh BUILD_DIR
set -u
build=${1:?usage: readme_test.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
. "$root/tests/lib.sh"
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$root/include" "$tmp/include"
ln -s "$build" "$tmp/build"

# The fenced blocks after "## Using the library", in order, each as one file: 1.c, 2.sh, 3.txt, ...
awk -v dir="$tmp" '
    /^## Using the library/ { on = 1; next }
    on && /^## / { exit }
    on && !inblock && /^```/ { n++; ext = $0; sub(/^```/, "", ext); if (ext == "") ext = "txt"
                               file = dir "/" n "." ext; inblock = 1; printf "" > file; next }
    on && inblock && /^```$/ { inblock = 0; close(file); next }
    on && inblock { print > file }' "$root/README.md"

if [ ! -f "$tmp/1.c" ] || [ ! -f "$tmp/2.sh" ] || [ ! -f "$tmp/3.txt" ] || [ ! -f "$tmp/4.c" ]; then
    fail "readme: 'Using the library' does not start with a C program, its build lines, its output and a C block"
    finish readme_test
    exit 1
fi
cp "$tmp/1.c" "$tmp/app.c"

check "readme: the example is warning-free C11 (-pedantic -Wall -Wextra -Werror)" -- \
    "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -I "$root/include" -c "$tmp/app.c" -o "$tmp/strict.o"

lines=0
while IFS= read -r line; do
    cmd=${line%%#*}
    case $cmd in cc\ *) ;; *) continue ;; esac
    case $cmd in *pkg-config*) continue ;; esac # the install test builds through pkg-config
    lines=$((lines + 1))
    rm -f "$tmp/app"
    if out=$(cd "$tmp" && CC="$cc" sh -c "$cmd" 2>&1) && [ "$out" = "$(cat "$tmp/3.txt")" ]; then
        ok "readme: '${cmd%"${cmd##*[! ]}"}' prints what the README shows"
    else
        fail "readme: '${cmd%"${cmd##*[! ]}"}'"
        printf '%s\n' "$out" | head -n 20 | sed 's/^/        /'
    fi
done <"$tmp/2.sh"
[ "$lines" -gt 0 ] || fail "readme: no cc line without pkg-config after the example"

# Install's "Without installing" builds the same app.c, static and shared, from the tree.
lines=0
while IFS= read -r line; do
    cmd=${line%%#*}
    cmd=${cmd%"${cmd##*[! ]}"}
    lines=$((lines + 1))
    rm -f "$tmp/app"
    if out=$(cd "$tmp" && sh -c "$cmd && ./app" 2>&1) && [ "$out" = "$(cat "$tmp/3.txt")" ]; then
        ok "readme: '$cmd', then ./app, prints what the README shows"
    else
        fail "readme: '$cmd', then ./app"
        printf '%s\n' "$out" | head -n 20 | sed 's/^/        /'
    fi
done < <(awk '/^\*\*Without installing\.\*\*/ { on = 1 } on && /^```sh/ { inblock = 1; next }
              inblock && /^```/ { exit } inblock && /^cc / { print }' "$root/README.md")
[ "$lines" -gt 0 ] || fail "readme: no cc line under 'Without installing'"

# The fragments: compiled inside a function that declares what they use.
{
    echo '#include <csum.h>'
    echo 'void fragments(void *app_buf, const void *rx_payload, void *dst, const void *src,'
    echo '               void *flat, const struct iovec *iov, size_t iovcnt, size_t len);'
    echo 'void fragments(void *app_buf, const void *rx_payload, void *dst, const void *src,'
    echo '               void *flat, const struct iovec *iov, size_t iovcnt, size_t len)'
    echo '{'
    cat "$tmp/4.c"
    echo '    (void)s; (void)r; (void)t; (void)u; (void)v;'
    echo '}'
} >"$tmp/fragments.c"
check "readme: the copy and iovec fragments compile as a function body" -- \
    "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -I "$root/include" -c "$tmp/fragments.c" -o "$tmp/fragments.o"

# The packet stack's program (the block that starts "/* stack.c"): warning-free strict C11,
# and built from the tree and run it prints the block after it (its checksums are Wireshark's).
stack=$(grep -l '^/\* stack\.c' "$tmp"/*.c 2>/dev/null | head -n 1)
if [ -z "$stack" ]; then
    fail "readme: no stack.c program (a block starting '/* stack.c') after 'Using the library'"
else
    stack_out="$tmp/$(($(basename "$stack" .c) + 1)).txt"
    cp "$stack" "$tmp/stack.c"
    if [ ! -f "$stack_out" ]; then
        fail "readme: no output block after stack.c"
    elif out=$(cd "$tmp" && "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -I include stack.c \
                   build/libcsum.a -o stack 2>&1 && ./stack 2>&1) && [ "$out" = "$(cat "$stack_out")" ]; then
        ok "readme: stack.c builds warning-free and prints what the README shows"
    else
        fail "readme: stack.c"
        printf '%s\n' "$out" | head -n 20 | sed 's/^/        /'
    fi
fi

# "The `csum` tool" block names every command of `csum --help` (help aside) and, on its
# `csum bench` line, exactly the lab's tables in `csum bench --help`'s order.
tool_block=$(awk '/^## The `csum` tool/ { on = 1; next } on && /^```/ { if (inblock) exit; inblock = 1; next }
                  inblock' "$root/README.md")
want_cmds=$("$build/csum" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && $1 != "help" { print $1 }')
have_cmds=$(awk '$1 == "csum" { print ($2 == "--impl" ? "" : $2) }' <<<"$tool_block" | sort -u)
missing_cmds=$(comm -23 <(sort -u <<<"$want_cmds") <(printf '%s\n' "$have_cmds"))
want_tables=$("$build/csum" bench --help | awk '/^Tables/ { on = 1; next } on && /^$/ { exit } on && /^  [^ ]/ { print $1 }' | tr '\n' ' ')
have_tables=$(awk '$1 == "csum" && $2 == "bench" { sub(/.*the lab: /, ""); print; exit }' <<<"$tool_block")
if [ -z "$want_cmds" ] || [ -z "$want_tables" ]; then
    fail "readme: no commands or tables found in 'csum --help' and 'csum bench --help'"
elif [ -n "$missing_cmds" ]; then
    fail "readme: 'The csum tool' lacks: $(echo $missing_cmds)"
elif [ "$have_tables " != "$want_tables" ]; then
    fail "readme: 'csum bench [TABLE...]' lists '$have_tables', the lab has '${want_tables% }'"
else
    ok "readme: 'The csum tool' names every command and the lab's tables"
fi

# The members of `csum pcap verify --json`'s document, as the README lists them after "streams
# one document": every member the tool writes for a capture (here one without packets).
if command -v python3 >/dev/null 2>&1; then
    printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00' >"$tmp/empty.pcap"
    "$build/csum" pcap verify --json "$tmp/empty.pcap" >"$tmp/doc.json"
    if missing=$(python3 - "$root/README.md" "$tmp/doc.json" <<'PY'
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
at = text.find("streams one document,")
listed = text[at:text.find("}`", at)] if at >= 0 else ""
listed = re.sub(r"\[[^\]]*\]", "", listed)  # the members of each check aside
names = set(re.findall(r'"([a-z_]+)"', listed))
print(" ".join(k for k in json.load(open(sys.argv[2])) if k not in names))
PY
    ) && [ -z "$missing" ]; then
        ok "readme: the --json document's members are all listed"
    else
        fail "readme: the --json document's members not listed after 'streams one document': $missing"
    fi
else
    echo "SKIPPED readme: the --json document's members (python3 not found)"
fi
finish readme_test
