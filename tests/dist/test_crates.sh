#!/usr/bin/env bash
# The crates, as crates.io would serve them: `cargo install` of the CLI's
# crate, unpacked in an empty directory with no checkout beside it, its
# dependency on the library resolved to the library's crate unpacked beside
# it (the one dependency crates.io does not have yet: a patch of crates-io,
# as a published pair would need none), then the command it installed
# (tests/dist/cli_check.sh). `--debug`: what is tested is the packages, not
# the optimizer, and a debug build takes a third of the time.
#
# Environment: DIST, VERSION, CARGO, NAIVE_SERVER.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
CARGO=${CARGO:-cargo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
start=$SECONDS
for crate in jsonrpc-envelope jsonrpc-envelope-cli; do
    tar -xzf "$DIST/crates/$crate-$VERSION.crate"
done
cp "$NAIVE_SERVER" naive_server.py
echo "test-dist crates: \$ cargo install jsonrpc-envelope-cli (from dist/crates/jsonrpc-envelope-cli-$VERSION.crate)"
CARGO_TARGET_DIR=$work/target nice "$CARGO" install --quiet --debug --path "jsonrpc-envelope-cli-$VERSION" --root "$work/root" \
    --config "patch.crates-io.jsonrpc-envelope.path=\"$work/jsonrpc-envelope-$VERSION\"" > install.log 2>&1 ||
    { cat install.log; exit 1; }
"$here/cli_check.sh" "crates: cargo install" "$work/naive_server.py" "$work/root/bin/jsonrpc-envelope"
echo "test-dist crates: jsonrpc-envelope-cli-$VERSION.crate, installed by cargo: ok ($((SECONDS - start)) s)"
