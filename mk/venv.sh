#!/usr/bin/env bash
# mk/venv.sh WHO [DIR REQUIREMENT...]
#
# Makes sure $PYTHON (python3 by default) can make virtual environments:
# Debian's system Python has the venv module but, without its python3-venv
# package, neither ensurepip nor a working `-m venv`; that package is
# installed with mk/apt-install.sh when missing. With DIR, also
# makes sure DIR is a virtual environment of $PYTHON holding exactly the
# REQUIREMENTs (pip's syntax, from PyPI); it is made again when $PYTHON or
# the requirements change. Prints nothing when there is nothing to do.
#
#   mk/venv.sh test-python target/pytest 'pytest>=7'
set -euo pipefail

who="$1"
shift
PYTHON="${PYTHON:-python3}"
here="$(dirname "$0")"

"$here/need.sh" "$who" "$PYTHON=python3"

venv_works() {
    "$PYTHON" -m ensurepip --version >/dev/null 2>&1 || return 1
    local dir status=0
    dir="$(mktemp -d)"
    "$PYTHON" -m venv --without-pip "$dir/venv" >/dev/null 2>&1 || status=1
    rm -rf "$dir"
    return $status
}

if ! venv_works; then
    version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    # python3.11-venv where Debian has it, else python3-venv.
    "$here/apt-install.sh" "$who" "python$version-venv" || "$here/apt-install.sh" "$who" python3-venv || true
    venv_works || {
        echo "$who needs $PYTHON -m venv, which does not work: install the package python$version-venv (Debian: sudo apt-get install python$version-venv)" >&2
        exit 1
    }
fi

(($#)) || exit 0
dir="$1"
shift
# What the environment must be: $PYTHON's interpreter, these requirements.
want="$("$PYTHON" -c 'import sys; print(sys.version, sys.base_prefix)') $*"
[ "$(cat "$dir/.requirements" 2>/dev/null)" = "$want" ] && exit 0
echo "$who: installing $* from PyPI into $dir, a virtual environment of $PYTHON"
rm -rf "$dir"
"$PYTHON" -m venv "$dir"
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@" || {
    rm -rf "$dir"
    echo "$who needs $* in $dir, and pip could not install it from PyPI (is PyPI reachable?)" >&2
    exit 1
}
printf '%s\n' "$want" >"$dir/.requirements"
