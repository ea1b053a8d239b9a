#!/usr/bin/env bash
# What the Python binding's tests (make test-python) need on a fresh Debian
# machine, installed only when missing, so running it again does nothing:
#   - venv with ensurepip for $PYTHON (Debian's python3-venv), for the
#     tests' own environment and for the test that pip-installs the package
#     into a fresh virtual environment;
#   - target/python-test, a virtual environment of $PYTHON with pytest from
#     PyPI, which runs the tests: nothing is installed into $PYTHON itself.
# It prints nothing when nothing is missing. make runs it as setup-python,
# before test-python; cargo and a C compiler are make's setup-build's.
set -euo pipefail

PYTHON="${PYTHON:-python3}"
TEST_ENV="$(cd "$(dirname "$0")/../.." && pwd)/target/python-test"
updated=""

apt_install() {
    command -v apt-get >/dev/null 2>&1 || { echo "ci-setup: cannot install $* (no apt-get)" >&2; return 1; }
    export DEBIAN_FRONTEND=noninteractive
    if [ -z "$updated" ]; then
        apt-get update -qq
        updated=1
    fi
    apt-get install -y -qq --no-install-recommends "$@"
}

venv_works() {
    # Debian's system Python has the venv module but, without python3-venv,
    # neither ensurepip's wheels nor a working `-m venv`: check both (fast:
    # no pip is installed here).
    "$PYTHON" -m ensurepip --version >/dev/null 2>&1 || return 1
    local dir status=0
    dir="$(mktemp -d)"
    "$PYTHON" -m venv --without-pip "$dir/venv" >/dev/null 2>&1 || status=1
    rm -rf "$dir"
    return $status
}

if ! venv_works; then
    version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    echo "ci-setup: installing venv for $PYTHON"
    apt_install "python${version}-venv" || apt_install python3-venv
fi

venv_works || { echo "ci-setup: $PYTHON -m venv still fails" >&2; exit 1; }

# The environment is $PYTHON's only if it runs the same interpreter.
which_python='import sys; print(sys.version, sys.base_prefix)'
if [ "$("$TEST_ENV/bin/python" -c "$which_python" 2>/dev/null)" != "$("$PYTHON" -c "$which_python")" ] ||
    ! "$TEST_ENV/bin/python" -c 'import pytest' >/dev/null 2>&1; then
    echo "ci-setup: installing pytest from PyPI into target/python-test, a virtual environment of $PYTHON"
    rm -rf "$TEST_ENV"
    "$PYTHON" -m venv "$TEST_ENV"
    "$TEST_ENV/bin/python" -m pip install --quiet --disable-pip-version-check 'pytest>=7' || {
        echo "test-python needs pytest, and pip could not install it from PyPI into target/python-test (is PyPI reachable?)" >&2
        exit 1
    }
fi
