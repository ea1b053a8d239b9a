#!/usr/bin/env bash
# run.sh PREFIX WORKDIR ABI: builds and runs programs against a jsonrpc-envelope
# installed in PREFIX (by `make install PREFIX=...`), using nothing of the
# source tree: a C program through pkg-config (shared, then static) and
# C/C++ programs through CMake's find_package (shared and static targets).
# Each must compile, link, run, and load the library from PREFIX only.
#
# Environment: CC, CXX, CMAKE, PKG_CONFIG (defaults cc, c++, cmake, pkg-config).
set -euo pipefail

prefix=$1
work=$2
soname=libjsonrpc_envelope.so.$3
here=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
CXX=${CXX:-c++}
CMAKE=${CMAKE:-cmake}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}

case $prefix in /*) ;; *) echo "run.sh: PREFIX must be absolute" >&2; exit 2 ;; esac
rm -rf "$work"
mkdir -p "$work"
cd "$work"  # nowhere near the source tree's include/ or target/

# Only the installed .pc; no run-time path but the prefix's own.
export PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig
unset PKG_CONFIG_PATH LD_LIBRARY_PATH CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH LIBRARY_PATH || true

fail() { echo "consumers: FAIL: $*" >&2; exit 1; }
step() { echo "consumers: $*"; }

# The shared library each dynamic program loads must be the installed one.
loads_from_prefix() {
    local program=$1 resolved
    resolved=$(ldd "$program" | awk -v soname="$soname" '$1 == soname { print $3 }')
    # A relocatable .pc gives libdir as <prefix>/lib/pkgconfig/../../lib.
    [ -n "$resolved" ] && [ "$(realpath "$resolved")" = "$(realpath "$prefix/lib/$soname")" ] ||
        fail "$program loads $soname from '${resolved:-nowhere}', not $prefix/lib"
}

# A statically linked program has no libjsonrpc_envelope in its NEEDED list.
is_static() {
    local program=$1
    if readelf -d "$program" | grep -q 'NEEDED.*libjsonrpc_envelope'; then
        fail "$program needs the shared library: it was not linked statically"
    fi
}

step "pkg-config: $($PKG_CONFIG --modversion jsonrpc-envelope), cflags '$($PKG_CONFIG --cflags jsonrpc-envelope)'"
step "  libs          '$($PKG_CONFIG --libs jsonrpc-envelope)'"
step "  libs --static '$($PKG_CONFIG --static --libs jsonrpc-envelope)'"

# 1. C, shared: the link line pkg-config gives, plus a run path to libdir.
# shellcheck disable=SC2046 # pkg-config output is meant to be word-split
"$CC" -std=c11 -Wall -Wextra -Werror "$here/consumer.c" -o consumer_c \
    $($PKG_CONFIG --cflags --libs jsonrpc-envelope) \
    -Wl,-rpath,"$($PKG_CONFIG --variable=libdir jsonrpc-envelope)"
loads_from_prefix ./consumer_c
./consumer_c
step "C, pkg-config, shared: ok"

# 2. C, static: pkg-config --static (Libs + Libs.private), with the linker
# told to take the archive: both libjsonrpc_envelope.so and .a are in
# libdir, and -l alone would pick the .so.
# shellcheck disable=SC2046
"$CC" -std=c11 -Wall -Wextra -Werror "$here/consumer.c" -o consumer_c_static \
    $($PKG_CONFIG --cflags jsonrpc-envelope) \
    $($PKG_CONFIG --static --libs jsonrpc-envelope | sed 's/-ljsonrpc_envelope\b/-l:libjsonrpc_envelope.a/')
is_static ./consumer_c_static
./consumer_c_static
step "C, pkg-config --static: ok"

# 3. CMake: find_package(jsonrpc_envelope) through CMAKE_PREFIX_PATH; the
# cache must show that the package came from the prefix.
"$CMAKE" -S "$here" -B cmake-build -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" >cmake-configure.log ||
    { cat cmake-configure.log; fail "cmake configure"; }
found=$(sed -n 's/^jsonrpc_envelope_DIR:PATH=//p' cmake-build/CMakeCache.txt)
[ "$found" = "$prefix/lib/cmake/jsonrpc_envelope" ] || fail "find_package found '$found'"
"$CMAKE" --build cmake-build >cmake-build.log || { cat cmake-build.log; fail "cmake build"; }
loads_from_prefix cmake-build/consumer_cpp
loads_from_prefix cmake-build/consumer_c_cmake
is_static cmake-build/consumer_cpp_static
cmake-build/consumer_cpp
cmake-build/consumer_cpp_static
cmake-build/consumer_c_cmake
step "CMake find_package: jsonrpc_envelope::jsonrpc_envelope (C and C++) and jsonrpc_envelope::static: ok"

# A version the package does not offer is refused.
if "$CMAKE" -S "$here" -B cmake-too-new -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DJSONRPC_ENVELOPE_WANT=99 >cmake-too-new.log 2>&1; then
    fail "find_package(jsonrpc_envelope 99) was accepted"
fi
grep -q 'jsonrpc_envelope' cmake-too-new.log || { cat cmake-too-new.log; fail "no version message"; }
step "CMake ConfigVersion: refuses version 99: ok"
