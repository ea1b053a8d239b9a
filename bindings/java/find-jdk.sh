#!/usr/bin/env bash
# bindings/java/find-jdk.sh [MIN]: prints the home of a JDK of version MIN
# (default 22: java.lang.foreign is final there) or newer, with javac: the
# one JAVA_HOME names when it is new enough, else the newest under
# /usr/lib/jvm. Prints nothing and fails when there is none.
set -uo pipefail
min="${1:-22}"

# The feature version of the JDK at $1 (17, 22, 25, ...), or nothing.
feature() {
    [[ -x "$1/bin/java" && -x "$1/bin/javac" ]] || return 1
    "$1/bin/java" -XshowSettings:properties -version 2>&1 |
        sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

if [[ -n "${JAVA_HOME:-}" ]]; then
    v="$(feature "$JAVA_HOME")"
    if [[ -n "$v" && "$v" -ge "$min" ]]; then
        echo "$JAVA_HOME"
        exit 0
    fi
fi
best="" best_v=0
for home in /usr/lib/jvm/*; do
    [[ -d "$home" && ! -L "$home" ]] || continue
    v="$(feature "$home")"
    if [[ -n "$v" && "$v" -ge "$min" && "$v" -gt "$best_v" ]]; then
        best="$home" best_v="$v"
    fi
done
[[ -n "$best" ]] || exit 1
echo "$best"
