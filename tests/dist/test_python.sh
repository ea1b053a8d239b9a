#!/usr/bin/env bash
# The Python artifacts, each installed into a fresh virtual environment in
# an empty directory, then held to the vectors by python_vectors.py (run with
# -I, so neither the checkout nor PYTHONPATH is on its path):
#   1. the wheel: pip install --no-index --find-links $DIST jsonrpc-envelope
#   2. the sdist: pip install --no-binary :all: of the archive, which builds
#      the library with cargo from the crate inside it (its build
#      dependencies come from PyPI, the crate's from crates.io)
#
# Environment: DIST, VERSION, VECTORS (the copy to ship with the test), PYTHON.
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

# 2. The sdist, built here by pip.
start=$SECONDS
"$PYTHON" -m venv sdist-env
sdist-env/bin/python -m pip install --no-binary :all: "$sdist" > sdist-install.log 2>&1 ||
    { cat sdist-install.log; exit 1; }
grep -q 'Building wheel for jsonrpc-envelope' sdist-install.log ||
    { cat sdist-install.log; echo "pip did not build the sdist" >&2; exit 1; }
sdist-env/bin/python -I check/python_vectors.py "$VERSION"
step "sdist $(basename "$sdist"), built by pip with cargo: ok ($((SECONDS - start)) s)"
