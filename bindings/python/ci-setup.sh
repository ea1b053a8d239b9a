#!/usr/bin/env bash
# What the Python binding's tests (make test-python) need on a fresh Debian
# machine, installed only when missing, so running it again does nothing:
#   - pytest for $PYTHON (pip, or Debian's python3-pytest where pip may not
#     install into the system Python);
#   - venv with ensurepip (Debian's python3-venv), for the test that
#     pip-installs the package into a fresh virtual environment.
# It prints nothing when nothing is missing. make runs it as setup-python,
# before test-python; cargo and a C compiler are make's setup-build's.
set -euo pipefail

PYTHON="${PYTHON:-python3}"
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

if ! "$PYTHON" -c 'import pytest' >/dev/null 2>&1; then
    echo "ci-setup: installing pytest for $PYTHON"
    if ! "$PYTHON" -m pip install --quiet 'pytest>=7' 2>/dev/null; then
        # A Debian system Python refuses pip (PEP 668): use its package.
        apt_install python3-pytest
    fi
fi

venv_works || { echo "ci-setup: $PYTHON -m venv still fails" >&2; exit 1; }
"$PYTHON" -c 'import pytest' || { echo "ci-setup: pytest still cannot be imported by $PYTHON" >&2; exit 1; }
