#!/usr/bin/env bash
# What `make install` gives an outside user, checked from outside: install BUILD_DIR into a
# temporary prefix (and once more staged under DESTDIR), then check the files, the installed
# library's SONAME and exports, and build and run tests/consumer/consumer.c against the
# installed copy through pkg-config (shared and static) and through CMake's find_package
# (csum::csum and csum::csum_static), out of tree. Then `make uninstall`: it leaves nothing of
# ours, keeps the directories it did not create, and refuses a DESTDIR not the install's; both
# with a BUILD whose path has a space.
# The build tree's record of a real install (install_manifest.txt, install_dirs.cmake) is put
# back at the end, so that make uninstall still removes that one.
# Usage: tests/install_test.sh BUILD_DIR
set -u
build=${1:?usage: install_test.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tests/lib.sh"
tmp=$(mktemp -d)
records=(install_manifest.txt install_dirs.cmake)
mkdir "$tmp/records"
for f in "${records[@]}"; do [ -e "$build/$f" ] && cp -p "$build/$f" "$tmp/records/"; done
restore_records() {
    for f in "${records[@]}"; do
        rm -f "$build/$f"
        [ -e "$tmp/records/$f" ] && cp -p "$tmp/records/$f" "$build/"
    done
    rm -rf "$tmp"
}
trap restore_records EXIT
unset CSUM_IMPL CSUM_DISPATCH CSUM_CPU_DISABLE PKG_CONFIG_PATH
export CSUM_DISPATCH_FILE=
version=$(csum_source_version)
prefix=$tmp/prefix

build=$(cd "$build" && pwd)
check "install: make install PREFIX=<fresh directory>" -- \
    make --no-print-directory -C "$root" BUILD="$build" PREFIX="$prefix" install
libdir=$(dirname "$(find "$prefix" -name libcsum.a | head -n 1)")
absent=()
for f in include/csum.h include/csum_version.h bin/csum share/man/man1/csum.1 \
         "${libdir#"$prefix"/}"/{libcsum.a,libcsum.so,libcsum.so.1,libcsum.so."$version"} \
         "${libdir#"$prefix"/}"/pkgconfig/csum.pc \
         "${libdir#"$prefix"/}"/cmake/csum/{csumConfig.cmake,csumConfigVersion.cmake,csumTargets.cmake,csumStaticTargets.cmake}; do
    [ -e "$prefix/$f" ] || absent+=("$f")
done
if [ -z "${absent[*]:-}" ]; then
    ok "install: headers, libraries, tool, manual, csum.pc, CMake package"
else
    fail "install: missing ${absent[*]}"
fi
check "install: the installed csum runs (csum $version)" -- \
    sh -c "'$prefix/bin/csum' --version | grep -qx 'csum $version'"
soname=$(readelf -d "$libdir/libcsum.so.$version" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
stray=$(dynamic_defined "$libdir/libcsum.so" | grep -v '^csum_')
if [ "$soname" = libcsum.so.1 ] && [ -z "$stray" ]; then
    ok "install: SONAME libcsum.so.1, only csum_* exported"
else
    fail "install: SONAME '$soname' (want libcsum.so.1), non-csum_ exports: '$stray'"
fi

# What a distribution's checks (lintian, rpmlint, Fedora's check-rpaths) read of the installed
# binaries: no RPATH or RUNPATH (into the build tree or anywhere), libcsum.so.1 needing libc
# alone, and no executable stack (GNU_STACK RW, not RWE).
installed_elf() {
    local f bad=
    for f in "$libdir/libcsum.so.$version" "$prefix/bin/csum"; do
        readelf -d "$f" | grep -E '\((RPATH|RUNPATH)\)' && bad=1
        readelf -lW "$f" | grep 'GNU_STACK' | grep -q ' RW ' || { echo "$f: stack not RW"; bad=1; }
    done
    # glibc's libc.so.6, or musl's libc.so (it has no version in its name)
    readelf -d "$libdir/libcsum.so.$version" | grep 'NEEDED' | grep -vE '\[libc\.so(\.[0-9]+)?\]' && bad=1
    [ -z "$bad" ]
}
check "install: no RPATH/RUNPATH, libcsum.so.1 needs libc alone, stacks not executable" -- \
    installed_elf

# ---- pkg-config -----------------------------------------------------------------------------
if command -v pkg-config >/dev/null; then
    export PKG_CONFIG_PATH=$libdir/pkgconfig
    check "pkg-config: csum $version found, prefix $prefix" -- \
        sh -c "[ \"\$(pkg-config --modversion csum)\" = '$version' ] &&
               [ \"\$(pkg-config --variable=prefix csum)\" = '$prefix' ]"
    cflags=$(pkg-config --cflags csum) libs=$(echo $(pkg-config --libs csum))
    check "pkg-config: consumer linked with $libs (shared) builds and runs" -- \
        sh -c "cc $cflags '$root/tests/consumer/consumer.c' $libs -Wl,-rpath,'$libdir' \
                  -o '$tmp/pc-shared' && '$tmp/pc-shared' &&
               readelf -d '$tmp/pc-shared' | grep -q 'NEEDED.*libcsum.so.1'"
    check "pkg-config: consumer linked statically builds and runs" -- \
        sh -c "cc $cflags '$root/tests/consumer/consumer.c' -Wl,-Bstatic $libs -Wl,-Bdynamic \
                  \$(pkg-config --libs-only-other --static csum) -o '$tmp/pc-static' &&
               '$tmp/pc-static' && ! readelf -d '$tmp/pc-static' | grep -q 'NEEDED.*libcsum'"
    unset PKG_CONFIG_PATH
    # pkg-config's output is shell words, as make's $(shell ...) and eval read it: a prefix
    # with a space must come back escaped, or -I and -L name two wrong directories.
    spaced_consumer() {
        local spaced="$tmp/csum prefix" pc
        make --no-print-directory -C "$root" BUILD="$build" PREFIX="$spaced" install >/dev/null &&
            pc=$(find "$spaced" -name csum.pc) &&
            eval "set -- $(PKG_CONFIG_PATH=${pc%/*} pkg-config --cflags --libs csum)" &&
            cc "$root/tests/consumer/consumer.c" "$@" -Wl,-rpath,"${pc%/pkgconfig/csum.pc}" \
               -o "$tmp/pc-spaced" && "$tmp/pc-spaced"
    }
    check "pkg-config: PREFIX with a space: consumer builds with its flags and runs" -- spaced_consumer
    # A tree moved after installing: csum.pc keeps the prefix it was installed with (system
    # paths stay system paths, which pkg-config leaves out), and pkg-config --define-prefix
    # takes the prefix from where the file now is.
    # Moved, not copied, so that a path into the old place cannot pass; moved back after.
    moved_consumer() {
        local moved="$tmp/moved" pc status
        mv "$prefix" "$moved" || return 1
        pc=$(find "$moved" -name csum.pc) &&
            [ "$(PKG_CONFIG_PATH=${pc%/*} pkg-config --define-prefix --variable=prefix csum)" = \
              "$moved" ] &&
            eval "set -- $(PKG_CONFIG_PATH=${pc%/*} pkg-config --define-prefix --cflags --libs csum)" &&
            cc "$root/tests/consumer/consumer.c" "$@" -Wl,-rpath,"${pc%/pkgconfig/csum.pc}" \
               -o "$tmp/pc-moved" && "$tmp/pc-moved"
        status=$?
        mv "$moved" "$prefix" && return $status
    }
    check "pkg-config --define-prefix: a moved install tree builds a consumer" -- moved_consumer
else
    fail "pkg-config: not installed"
fi

# ---- CMake find_package -----------------------------------------------------------------------
check "cmake: find_package(csum 1.0) configures an outside project" -- \
    cmake -S "$root/tests/consumer" -B "$tmp/cmake-consumer" -DCMAKE_PREFIX_PATH="$prefix"
check "cmake: csum::csum and csum::csum_static consumers build" -- \
    cmake --build "$tmp/cmake-consumer"
check "cmake: consumer_shared runs, linked to libcsum.so.1" -- \
    sh -c "'$tmp/cmake-consumer/consumer_shared' &&
           readelf -d '$tmp/cmake-consumer/consumer_shared' | grep -q 'NEEDED.*libcsum.so.1'"
check "cmake: consumer_static runs, with no libcsum.so dependency" -- \
    sh -c "'$tmp/cmake-consumer/consumer_static' &&
           ! readelf -d '$tmp/cmake-consumer/consumer_static' | grep -q 'NEEDED.*libcsum'"
check "cmake: find_package(csum 2) is refused (SameMajorVersion)" -- \
    sh -c "! cmake -S '$root/tests/consumer' -B '$tmp/cmake-v2' -DCMAKE_PREFIX_PATH='$prefix' \
              -DCSUM_MIN_VERSION=2 >/dev/null 2>&1"

# A component csum does not have: refused, and named.
unknown_component() {
    mkdir -p "$tmp/unknown-component" &&
        printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(u LANGUAGES C)' \
            'find_package(csum REQUIRED COMPONENTS static sharred)' \
            >"$tmp/unknown-component/CMakeLists.txt" || return 1
    if cmake -S "$tmp/unknown-component" -B "$tmp/unknown-component/b" \
             -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/unknown-component.log" 2>&1; then
        echo "find_package(csum COMPONENTS sharred) succeeded"; return 1
    fi
    grep -q "no component 'sharred': csum has shared and" "$tmp/unknown-component.log" ||
        { echo "the refusal does not name the component:"; tail -n 20 "$tmp/unknown-component.log"; return 1; }
}
check "cmake: find_package(csum COMPONENTS sharred) is refused, naming the component" -- \
    unknown_component

# A distribution that leaves the static library out of its package, or ships it in one of its
# own (Fedora's -static), removes libcsum.a and csumStaticTargets*.cmake: find_package(csum)
# must still give csum::csum (it failed: one export file named both libraries), and refuse
# COMPONENTS static. In a copy of the prefix (the CMake package is relocatable).
without_static() {
    local p="$tmp/without-static"
    cp -a "$prefix" "$p" &&
        rm "$p/${libdir#"$prefix"/}"/libcsum.a "$p/${libdir#"$prefix"/}"/cmake/csum/csumStaticTargets*.cmake &&
        cmake -S "$root/tests/consumer" -B "$tmp/cmake-shared-only" -DCMAKE_PREFIX_PATH="$p" \
              -DCSUM_CONSUMER_STATIC=OFF >"$tmp/shared-only.log" 2>&1 &&
        cmake --build "$tmp/cmake-shared-only" >>"$tmp/shared-only.log" 2>&1 &&
        "$tmp/cmake-shared-only/consumer_shared" || { tail -n 20 "$tmp/shared-only.log"; return 1; }
    if cmake -S "$root/tests/consumer" -B "$tmp/cmake-static-missing" -DCMAKE_PREFIX_PATH="$p" \
             >"$tmp/static-missing.log" 2>&1; then
        echo "find_package(csum COMPONENTS static) found no libcsum.a and succeeded"; return 1
    fi
    grep -q "component static: libcsum.a was not installed" "$tmp/static-missing.log" ||
        { echo "the refusal does not say why:"; tail -n 20 "$tmp/static-missing.log"; return 1; }
}
check "cmake: without libcsum.a and csumStaticTargets*.cmake, csum::csum works, COMPONENTS static is refused" -- \
    without_static

# ---- DESTDIR staging ----------------------------------------------------------------------------
check "install: make install DESTDIR= stages under DESTDIR/PREFIX; csum.pc names PREFIX" -- \
    sh -c "make --no-print-directory -C '$root' BUILD='$build' PREFIX=/opt/csum \
                DESTDIR='$tmp/stage' install >/dev/null &&
           [ -f '$tmp/stage/opt/csum/bin/csum' ] &&
           grep -qx 'prefix=/opt/csum' \$(find '$tmp/stage' -name csum.pc)"

# ---- make uninstall ---------------------------------------------------------------------------
# Into a prefix that does not exist yet: afterwards, not even the prefix is left.
uninstall_fresh() {
    local parent="$tmp/uninstall-fresh" left
    mkdir "$parent" &&
        make --no-print-directory -C "$root" BUILD="$build" PREFIX="$parent/prefix" install >/dev/null &&
        [ -f "$parent/prefix/bin/csum" ] &&
        make --no-print-directory -C "$root" BUILD="$build" uninstall &&
        left=$(find "$parent" -mindepth 1) && [ -z "$left" ] || { echo "left: $left"; return 1; }
}
check "uninstall: make uninstall after make install into a fresh PREFIX leaves nothing" -- uninstall_fresh
# Into a prefix that has other packages' files and (empty) directories: those stay.
uninstall_shared() {
    local p="$tmp/uninstall-shared" before after
    mkdir -p "$p/include" "$p/lib/pkgconfig" "$p/share/man/man1" "$p/bin" &&
        touch "$p/include/other.h" "$p/bin/.keep" &&
        before=$(cd "$p" && find . | sort) &&
        make --no-print-directory -C "$root" BUILD="$build" PREFIX="$p" install >/dev/null &&
        [ -f "$p/include/csum.h" ] &&
        make --no-print-directory -C "$root" BUILD="$build" uninstall >/dev/null &&
        after=$(cd "$p" && find . | sort) &&
        [ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); return 1; }
}
check "uninstall: other files and directories that were there before (empty ones too) stay" -- \
    uninstall_shared
# Staged: the same DESTDIR, or nothing is removed (without it, the paths are the system's).
uninstall_destdir() {
    local stage="$tmp/uninstall-stage" out left
    make --no-print-directory -C "$root" BUILD="$build" PREFIX=/usr DESTDIR="$stage" install \
        >/dev/null || return 1
    if out=$(make --no-print-directory -C "$root" BUILD="$build" uninstall 2>&1); then
        echo "make uninstall without DESTDIR succeeded: $out"; return 1
    fi
    # (CMake wraps the message's lines)
    tr -s ' \n' ' ' <<<"$out" | grep -q 'staged under DESTDIR=.*same DESTDIR' || { echo "$out"; return 1; }
    [ -f "$stage/usr/bin/csum" ] || { echo "files went before the refusal"; return 1; }
    make --no-print-directory -C "$root" BUILD="$build" DESTDIR="$stage/" uninstall >/dev/null &&
        left=$(find "$stage" -mindepth 1) && [ -z "$left" ] || { echo "left: $left"; return 1; }
}
check "uninstall: DESTDIR: refused without it, removes the staged tree (all but DESTDIR) with it" -- \
    uninstall_destdir
# A build directory whose path has a space (here a link to this one): the Makefile split it in
# two words, and make install rebuilt and installed from neither.
spaced_build() {
    local link="$tmp/the build" p="$tmp/spaced-build-prefix" left
    ln -s "$build" "$link" &&
        make --no-print-directory -C "$root" BUILD="$link" PREFIX="$p" install >/dev/null &&
        [ -x "$p/bin/csum" ] &&
        make --no-print-directory -C "$root" BUILD="$link" uninstall >/dev/null &&
        left=$(find "$tmp" -path "$p*") && [ -z "$left" ] || { echo "left: $left"; return 1; }
}
check "install: BUILD with a space in its path: make install, then make uninstall" -- spaced_build
check "uninstall: once more, make uninstall says there is nothing to uninstall" -- \
    sh -c "make --no-print-directory -C '$root' BUILD='$build' uninstall 2>&1 | grep 'nothing to uninstall'"
finish install_test
