#!/usr/bin/env bash
# What the Go binding's tests (bindings/go/rules.mk) need on a fresh Debian
# machine: Go 1.24 or newer (preinstalled at /usr/local/go/bin) and a C
# compiler with the C library's headers, for cgo. Idempotent: it installs
# only what is missing, and prints nothing when nothing is. make runs it as
# setup-go, before test-go. No Go modules are fetched: the binding and the echo
# server use the standard library only.
set -euo pipefail
export PATH="$PATH:/usr/local/go/bin"

min_go=1.24

if ! command -v go >/dev/null 2>&1; then
    echo "bindings/go: no go command on PATH or in /usr/local/go/bin; install Go $min_go or newer" >&2
    exit 1
fi
have_go="$(go env GOVERSION)"   # such as go1.26.8
have_go="${have_go#go}"
if [ "$(printf '%s\n%s\n' "$min_go" "$have_go" | sort -V | head -n 1)" != "$min_go" ]; then
    echo "bindings/go: Go $have_go is too old; the binding needs Go $min_go or newer" >&2
    exit 1
fi

# cgo compiles with `go env CC` (gcc unless CC is set) and needs libc headers.
cc="$(go env CC)"
if ! command -v "$cc" >/dev/null 2>&1 ||
    ! printf '#include <stdlib.h>\n#include <stdint.h>\nint main(void){return 0;}\n' |
        "$cc" -x c -o /dev/null - >/dev/null 2>&1; then
    echo "bindings/go: installing a C compiler for cgo (gcc, libc6-dev)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends gcc libc6-dev
fi
