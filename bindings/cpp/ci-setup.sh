#!/usr/bin/env bash
# bindings/cpp/ci-setup.sh: installs, on a fresh Debian machine, what
# `make test-cpp` needs and lacks: cmake, g++, pkg-config (pkgconf),
# GoogleTest (libgtest-dev), valgrind, binutils (nm, readelf), and
# coreutils' timeout, with mk/apt-install.sh (the build's one installer of
# Debian packages). Idempotent: it installs only when something is
# missing, and prints nothing when nothing is. make runs it as setup-cpp,
# before test-cpp.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }

# GoogleTest counts as present when its CMake package is (find_package(GTest)).
have_gtest() {
    local dir
    for dir in /usr/lib/*/cmake/GTest /usr/lib/cmake/GTest /usr/lib64/cmake/GTest /usr/local/lib/cmake/GTest \
               /usr/local/lib/*/cmake/GTest /usr/share/cmake/GTest; do
        [ -e "$dir/GTestConfig.cmake" ] && return 0
    done
    return 1
}

missing=()
have cmake || missing+=(cmake)
have g++ || missing+=(g++)
have pkg-config || missing+=(pkgconf)
have valgrind || missing+=(valgrind)
have nm && have readelf || missing+=(binutils)
have timeout || missing+=(coreutils)
have ldd || missing+=(libc-bin)
have_gtest || missing+=(libgtest-dev)

((${#missing[@]})) || exit 0

"$(dirname "$0")/../../mk/apt-install.sh" bindings/cpp "${missing[@]}" || {
    echo "bindings/cpp: make test-cpp needs ${missing[*]}: install them (Debian: sudo apt-get install ${missing[*]})" >&2
    exit 1
}
