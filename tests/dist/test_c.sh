#!/usr/bin/env bash
# The C and C++ archive, unpacked into a temporary prefix and then moved
# elsewhere (it must not care where it stands): the out-of-tree consumers of
# bindings/cpp/tests/consumers build against it alone (a C program through
# pkg-config, shared and static; C and C++ programs through CMake's
# find_package, shared and static) and run, each loading the library from
# the prefix. Its bin/jsonrpc-envelope (the CLI) runs from there, with
# nothing else on PATH from the checkout (tests/dist/cli_check.sh).
#
# Environment: DIST, VERSION, ABI; CC, CXX, CMAKE, PKG_CONFIG; NAIVE_SERVER.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
name=libjsonrpc_envelope-$VERSION-x86_64-linux-gnu

start=$SECONDS
mkdir "$work/unpacked" "$work/moved"
tar -xzf "$DIST/$name.tar.gz" -C "$work/unpacked"
mv "$work/unpacked/$name" "$work/moved/prefix"
prefix=$work/moved/prefix

lib=$prefix/lib
test "$(readlink "$lib/libjsonrpc_envelope.so")" = "libjsonrpc_envelope.so.$ABI"
readelf -d "$lib/libjsonrpc_envelope.so.$ABI" | grep -q "Library soname: \[libjsonrpc_envelope.so.$ABI\]"
grep -qx "Version: $VERSION" "$lib/pkgconfig/jsonrpc-envelope.pc"
# The shared library exports the C API and nothing else (zig links it).
others=$(nm -D --defined-only "$lib/libjsonrpc_envelope.so.$ABI" | awk '$3 !~ /^jsonrpc_/ { print $3 }')
[ -z "$others" ] || { echo "test-dist c: exported besides the C API: $others" >&2; exit 1; }
test "$(PKG_CONFIG_LIBDIR=$lib/pkgconfig ${PKG_CONFIG:-pkg-config} --variable=prefix jsonrpc-envelope | xargs realpath)" = "$(realpath "$prefix")"

"$here/../../bindings/cpp/tests/consumers/run.sh" "$prefix" "$work/consumers" "$ABI"
cp "$NAIVE_SERVER" "$work/naive_server.py"
(cd "$work" && "$here/cli_check.sh" "c bin/" "$work/naive_server.py" "$prefix/bin/jsonrpc-envelope")
echo "test-dist c: $name.tar.gz, unpacked and moved: ok ($((SECONDS - start)) s)"
