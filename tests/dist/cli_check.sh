#!/usr/bin/env bash
# The command-line tool as an artifact installs it, from outside any
# checkout: `cli_check.sh WHAT SERVER COMMAND...` runs COMMAND (the tool as
# the artifact gives it: a path, `python -m jsonrpc_envelope`, `npx
# jsonrpc-envelope`, ...) three ways and prints what a user would see:
#   1. `--version`: the workspace's version;
#   2. `guard -- python3 SERVER` over a pipe: a line the server cannot read
#      is answered -32700 by the guard (the naive server would exit on it),
#      and the initialize behind it is answered by the server;
#   3. `probe --lines 20 --fail-on strict -- COMMAND guard -- python3
#      SERVER`: exit status 0, every grade empty.
# SERVER is examples/guard/naive_server.py, copied beside the test.
# Environment: VERSION, PYTHON.
set -euo pipefail
what=$1
server=$2
shift 2
PYTHON=${PYTHON:-python3}
say() { echo "test-dist $what: $*"; }

version=$("$@" --version)
say "\$ $* --version"
say "  $version"
[ "$version" = "jsonrpc-envelope $VERSION" ] || { echo "test-dist $what: the tool says '$version', not version $VERSION" >&2; exit 1; }

initialize='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test-dist","version":"1"}}}'
out=$(printf 'not json\n%s\n' "$initialize" | timeout 60 "$@" guard --quiet -- "$PYTHON" "$server")
say "\$ printf 'not json\\n{... initialize ...}\\n' | $* guard --quiet -- python3 naive_server.py"
while IFS= read -r line; do say "  ${line:0:160}"; done <<< "$out"
grep -qF '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' <<< "$out" ||
    { echo "test-dist $what: the guard did not answer the bad line" >&2; exit 1; }
grep -q '"id":1,"result":{' <<< "$out" || { echo "test-dist $what: initialize was not answered through the guard" >&2; exit 1; }

set +e
report=$(timeout 300 "$@" probe --lines 20 --fail-on strict -- "$@" guard --quiet -- "$PYTHON" "$server" 2>/dev/null)
status=$?
set -e
say "\$ $* probe --lines 20 --fail-on strict -- $* guard -- python3 naive_server.py"
{ grep -E '^(harmful|nonconforming|strict) |^(PASSED|FAILED)' <<< "$report" || true; } | while IFS= read -r line; do say "  ${line:0:110}"; done
[ "$status" = 0 ] || { echo "$report"; echo "test-dist $what: the probe exited $status" >&2; exit 1; }
