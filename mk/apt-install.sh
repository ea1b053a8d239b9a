#!/usr/bin/env bash
# mk/apt-install.sh WHO PACKAGE...
#
# The one place the build installs Debian packages: with apt-get, as root
# or through sudo without a password (never a prompt), saying what it
# installs. Exits 0 when they are installed, and otherwise 1 with one line
# saying why, so that the caller can name what it still lacks.
#
#   mk/apt-install.sh test-c valgrind binutils
set -euo pipefail

who="$1"
shift
(($#)) || exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo=(sudo -n)
    else
        echo "$who: cannot install $* (not root, and no sudo without a password)" >&2
        exit 1
    fi
fi
command -v apt-get >/dev/null 2>&1 || {
    echo "$who: cannot install $* (no apt-get here)" >&2
    exit 1
}
echo "$who: installing $* with apt-get"
export DEBIAN_FRONTEND=noninteractive
if "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null; then
    exit 0
fi
echo "$who: apt-get could not install $*" >&2
exit 1
