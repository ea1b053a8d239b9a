#!/usr/bin/env bash
# The Python artifacts, each installed into a fresh virtual environment in
# an empty directory, then held to the vectors by python_vectors.py (run with
# -I, so neither the checkout nor PYTHONPATH is on its path):
#   1. the wheel: pip install --no-index --find-links $DIST jsonrpc-envelope
#   2. the sdist: pip install --no-binary :all: of the archive, which builds
#      the library with cargo from the crate inside it (its build
#      dependencies come from PyPI, the crate's from crates.io)
# and the wheel's command-line tool (tests/dist/cli_check.sh) as MCP users
# run it: the venv's `jsonrpc-envelope` and `python -m jsonrpc_envelope`,
# `uvx --from WHEEL jsonrpc-envelope`, and `pipx install WHEEL` (uv and
# pipx from target/dist-tools, their homes and caches in the test's folder).
#
# Environment: DIST, VERSION, VECTORS (the copy to ship with the test),
# PYTHON, DIST_TOOLS, NAIVE_SERVER.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset JSONRPC_ENVELOPE_LIB PYTHONPATH PYTHONHOME || true
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

# The test's own copy: the script and the vectors, nothing else.
mkdir "$work/check"
cp "$here/python_vectors.py" "$VECTORS/envelope.jsonl" "$VECTORS/mcp.jsonl" "$VECTORS/log_value.jsonl" "$work/check/"
cp "$NAIVE_SERVER" "$work/check/naive_server.py"
cd "$work"

wheel=$(cd "$DIST" && ls jsonrpc_envelope-"$VERSION"-py3-none-*manylinux*.whl)
sdist=$DIST/jsonrpc_envelope-$VERSION.tar.gz

step() { echo "test-dist python: $*"; }

# 1. The wheel, from the dist directory alone.
start=$SECONDS
"$PYTHON" -m venv wheel-env
wheel-env/bin/python -m pip install --no-index --find-links "$DIST" jsonrpc-envelope > wheel-install.log 2>&1 ||
    { cat wheel-install.log; exit 1; }
grep -qF "$wheel" wheel-install.log || { cat wheel-install.log; echo "pip did not install $wheel" >&2; exit 1; }
grep -q 'Tag: py3-none-manylinux_2_17_x86_64' wheel-env/lib/python3*/site-packages/jsonrpc_envelope-"$VERSION".dist-info/WHEEL
wheel-env/bin/python -I check/python_vectors.py "$VERSION"
step "wheel $wheel: ok ($((SECONDS - start)) s)"

# The wheel's command, four ways.
start=$SECONDS
"$here/cli_check.sh" "wheel: jsonrpc-envelope" check/naive_server.py wheel-env/bin/jsonrpc-envelope
"$here/cli_check.sh" "wheel: python -m jsonrpc_envelope" check/naive_server.py wheel-env/bin/python -m jsonrpc_envelope
export UV_CACHE_DIR=$work/uv-cache UV_TOOL_DIR=$work/uv-tools UV_PYTHON_INSTALL_DIR=$work/uv-python UV_NO_CONFIG=1
"$here/cli_check.sh" "wheel: uvx" check/naive_server.py \
    "$DIST_TOOLS/bin/uvx" --offline --python "$PYTHON" --from "$DIST/$wheel" jsonrpc-envelope
export PIPX_HOME=$work/pipx-home PIPX_BIN_DIR=$work/pipx-bin PIPX_MAN_DIR=$work/pipx-man
"$DIST_TOOLS/bin/pipx" install --python "$PYTHON" "$DIST/$wheel" > pipx-install.log 2>&1 || { cat pipx-install.log; exit 1; }
step "\$ pipx install $wheel: $(grep -o 'installed package.*' pipx-install.log | head -1)"
"$here/cli_check.sh" "wheel: pipx" check/naive_server.py "$work/pipx-bin/jsonrpc-envelope"
step "the wheel's command, four ways: ok ($((SECONDS - start)) s)"

# 2. The sdist, built here by pip.
start=$SECONDS
"$PYTHON" -m venv sdist-env
sdist-env/bin/python -m pip install --no-binary :all: "$sdist" > sdist-install.log 2>&1 ||
    { cat sdist-install.log; exit 1; }
grep -q 'Building wheel for jsonrpc-envelope' sdist-install.log ||
    { cat sdist-install.log; echo "pip did not build the sdist" >&2; exit 1; }
sdist-env/bin/python -I check/python_vectors.py "$VERSION"
step "sdist $(basename "$sdist"), built by pip with cargo: ok ($((SECONDS - start)) s)"
# The sdist carries the library's crate alone: its command says where the
# tool comes from instead.
set +e
sdist-env/bin/jsonrpc-envelope --version > sdist-cli.log 2>&1
status=$?
set -e
[ "$status" = 2 ] && grep -q 'cargo install jsonrpc-envelope-cli' sdist-cli.log ||
    { cat sdist-cli.log; echo "test-dist python: the sdist's jsonrpc-envelope exited $status" >&2; exit 1; }
step "sdist's jsonrpc-envelope, without the tool: $(head -1 sdist-cli.log)"
