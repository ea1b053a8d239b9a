#!/usr/bin/env bash
# mk/need.sh WHO COMMAND[=PACKAGE]...
#
# Makes sure each COMMAND is on PATH, for the make target WHO. When some are
# missing it installs their Debian packages (PACKAGE, or the command's own
# name) with mk/apt-install.sh, saying what it installs; where it cannot, it
# prints one line per missing command naming it and the package that has
# it, and fails. Prints nothing when all are
# there, so make runs it before every use.
#
#   mk/need.sh test-c valgrind nm=binutils python3
set -euo pipefail

who="$1"
shift

missing_commands=()
missing_packages=()
for need in "$@"; do
    command="${need%%=*}"
    package="${need#*=}"
    command -v "$command" >/dev/null 2>&1 && continue
    missing_commands+=("$command")
    # One package may provide several commands (nm, readelf: binutils).
    [[ " ${missing_packages[*]-} " == *" $package "* ]] || missing_packages+=("$package")
done
((${#missing_commands[@]})) || exit 0

"$(dirname "$0")/apt-install.sh" "$who" "${missing_packages[@]}" && exit 0
for need in "$@"; do
    command="${need%%=*}"
    package="${need#*=}"
    command -v "$command" >/dev/null 2>&1 ||
        echo "$who needs $command, which is not installed: install the package $package (Debian: sudo apt-get install $package)" >&2
done
exit 1
