#!/usr/bin/env bash
# The Go module, as a Go user gets it: an empty module in a temporary
# directory fetches it from the module proxy directory of dist/ (GOPROXY=
# file://, no checksum database, a module cache of its own), then `go run`s
# tests/dist/go/main.go over the test's own copy of the vectors. The PATH
# holds Go and the C compiler but no Rust toolchain (cargo and rustc there
# only fail): the module must bring its library. Also `go mod vendor`: a vendored build finds the header and
# the library too.
#
# Environment: DIST, VERSION, VECTORS.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
cleanup() {
    chmod -R u+w "$work" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

go_bin=$(dirname "$(PATH="$PATH:/usr/local/go/bin" command -v go)")
module=$(sed -n 's/^module //p' "$here/../../bindings/go/go.mod")

# Go's own directory and the system's, not ~/.cargo/bin; and should the
# system have a Rust toolchain, commands of that name that fail come first.
mkdir "$work/no-rust"
for tool in cargo rustc rustup cargo-zigbuild; do
    printf '#!/bin/sh\necho "test-dist go: %s was run" >&2\nexit 1\n' "$tool" > "$work/no-rust/$tool"
    chmod +x "$work/no-rust/$tool"
done
export PATH="$work/no-rust:$go_bin:/usr/bin:/bin"
unset CARGO RUSTC CARGO_HOME RUSTUP_HOME || true
export GOPROXY="file://$DIST/goproxy" GOSUMDB=off GOFLAGS=-modcacherw GOTOOLCHAIN=local \
    GOMODCACHE="$work/modcache" CGO_ENABLED=1
unset GOPATH GOPRIVATE GONOPROXY GONOSUMDB GOWORK CGO_LDFLAGS CGO_CFLAGS || true

mkdir "$work/app"
cp "$here/go/main.go" "$VECTORS/envelope.jsonl" "$VECTORS/mcp.jsonl" "$VECTORS/log_value.jsonl" "$work/app/"
cd "$work/app"

start=$SECONDS
go mod init example.com/vectors > /dev/null 2>&1
go get "$module@v$VERSION"
go run . . "$VERSION"
echo "test-dist go: go get $module@v$VERSION and go run: ok ($((SECONDS - start)) s)"

# The released module links the library it carries, not a checkout's.
go list -f '{{.Dir}}' "$module" | grep -q "^$GOMODCACHE/" || { echo "the module does not come from the module cache" >&2; exit 1; }

start=$SECONDS
go mod vendor
test -f "vendor/$module/libjsonrpc_envelope_linux_amd64.a"
GOMODCACHE="$work/empty-modcache" go build -mod=vendor -o vectors-vendored .
./vectors-vendored . "$VERSION" | tail -n 1
echo "test-dist go: go mod vendor and go build -mod=vendor: ok ($((SECONDS - start)) s)"
