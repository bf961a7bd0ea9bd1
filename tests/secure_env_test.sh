#!/usr/bin/env bash
# The library reads none of its environment variables in a set-uid program, whose caller
# chooses the environment (CSUM_DISPATCH_FILE names a file to read): every read goes through
# csum_getenv (src/env.c), and csum_getenv returns NULL there with each C library at hand: the
# host's (glibc: secure_getenv) and musl when musl-gcc is installed (the kernel's AT_SECURE
# flag, through getauxval). tests/secure_env/probe.c, built with src/env.c, is run once as is
# and once set-uid to another user. Needs root to hand the probe to another user, and a file
# system that honours set-uid: SKIPPED otherwise.
# Usage: tests/secure_env_test.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d)
chmod 755 "$tmp" # the probe's new owner must reach it
trap 'rm -rf "$tmp"' EXIT

stray=$(grep -rn 'getenv *(' "$root/src" | grep -v '^[^:]*/src/env\.c:' | grep -v 'csum_getenv *(')
if [ -z "$stray" ]; then
    ok "secure-env: the library reads its environment through csum_getenv alone"
else
    fail "secure-env: getenv outside src/env.c: $stray"
fi

compilers=("${CC:-cc}")
if command -v musl-gcc >/dev/null; then
    compilers+=(musl-gcc)
else
    printf 'SKIPPED secure-env: musl (musl-gcc not installed)\n'
fi
for compiler in "${compilers[@]}"; do
    name=$(basename "$compiler")
    probe=$tmp/probe-$name
    if "$compiler" -std=gnu11 -Wall -Wextra -Werror -I"$root/include" -I"$root/src" \
           "$root/tests/secure_env/probe.c" "$root/src/env.c" -o "$probe" 2>"$tmp/errors"; then
        ok "secure-env: $name builds the probe with src/env.c (-Wall -Wextra -Werror)"
    else
        fail "secure-env: $name builds the probe with src/env.c (-Wall -Wextra -Werror)"
        head -n 20 "$tmp/errors" | sed 's/^/        /'
        continue
    fi
    got=$(CSUM_DISPATCH=generic@0 "$probe")
    expect="secure=0 value=generic@0"
    if [ "$got" = "$expect" ]; then ok "secure-env: $name: read as is"; else fail "secure-env: $name: got '$got', want '$expect'"; fi
    if [ "$(id -u)" -ne 0 ] || ! chown 65534 "$probe" 2>/dev/null || ! chmod 4755 "$probe"; then
        printf 'SKIPPED secure-env: %s set-uid (needs root)\n' "$name"
        continue
    fi
    got=$(CSUM_DISPATCH=generic@0 "$probe")
    case $got in
        "secure=0 "*) printf 'SKIPPED secure-env: %s set-uid (set-uid has no effect here: nosuid?)\n' "$name" ;;
        "secure=1 value=(none)") ok "secure-env: $name: not read set-uid" ;;
        *) fail "secure-env: $name: set-uid, got '$got', want 'secure=1 value=(none)'" ;;
    esac
done
finish secure_env_test
