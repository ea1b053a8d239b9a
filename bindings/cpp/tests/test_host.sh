#!/usr/bin/env bash
# test_host.sh HOST PYTHON WORKDIR: runs examples/cpp/host.cpp (built as HOST)
# against the fake servers of fake_server.py and checks what it does.
# VALGRIND_RUN, when set, is a valgrind command line for one more run of the
# well-behaved session; ECHO_SERVER_LIB, the library for a session with the
# default server examples/python/echo_server.py (when that file exists).
set -uo pipefail

host=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
python=$2
mkdir -p "$3"
work=$(cd "$3" && pwd)
fake="$(cd "$(dirname "$0")" && pwd)/fake_server.py"
failed=0
passed=0

pass() { echo "host: ok: $*"; passed=$((passed + 1)); }
fail() { echo "host: FAIL: $*"; failed=$((failed + 1)); }

# run NAME SECONDS CMD...: runs CMD with a hard time limit, capturing stdout
# and stderr together in $work/NAME.out; sets $status and $elapsed_ms.
run() {
    local name=$1 limit=$2 start end
    shift 2
    start=$(date +%s%N)
    timeout --kill-after=2 "$limit" "$@" >"$work/$name.out" 2>&1
    status=$?
    end=$(date +%s%N)
    elapsed_ms=$(((end - start) / 1000000))
    out=$(cat "$work/$name.out")
}

expect() {  # expect NAME TEXT: the output of NAME holds TEXT
    if grep -qF -- "$2" "$work/$1.out"; then pass "$1: says '$2'"; else fail "$1: no '$2' in its output"; fi
}

show() { sed 's/^/    | /' "$work/$1.out"; }

exited() {  # exited NAME STATUS [WHY]: the host of NAME exited with STATUS
    if [ "$status" -eq "$2" ]; then pass "$1: exit status $2"; else fail "$1: exit status $status${3:-}"; fi
}

within() {  # within NAME MS WHAT: the run of NAME took less than MS milliseconds
    if [ "$elapsed_ms" -lt "$2" ]; then pass "$1: $3 (${elapsed_ms} ms)"; else fail "$1: took ${elapsed_ms} ms"; fi
}

# 1. A well-behaved server, with a banner and a log line on its stdout.
run good 20 "$host" --timeout 10 "$python" "$fake" good
show good
exited "good" 0
expect good "<- diverted parse_error ("
expect good "): fake-server 0.1 starting"
expect good '<- diverted not_jsonrpc ('
expect good '): {"level":"info","msg":"initializing"}'
expect good '<- response to initialize (id 1): {"protocolVersion":"2025-11-25"'
expect good '<- request ping (id "srv-1")'
expect good '-> {"jsonrpc":"2.0","id":"srv-1","result":{}}'
expect good '<- answered invalid_request (Invalid Request: the method must be a string, not an array)'
expect good '-> {"jsonrpc":"2.0","id":99,"error":{"code":-32600'
expect good '<- response to tools/list (id 2): {"tools":[{"name":"echo"'
expect good '<- response to tools/call (id 3): {"content":[{"type":"text","text":"hello from the C++ host"}]}'
expect good 'fake-server: notification notifications/initialized'
expect good 'the server exited with status 0'

# 2. A server that refuses initialize with an error whose id is null, then
# hangs: the session gives the error our id (the one request outstanding),
# and the host must fail at once with the server's message.
run refuse 10 "$host" --timeout 20 "$python" "$fake" refuse
show refuse
exited "refuse" 1 " (124 = the host waited)"
within "refuse" 3000 "failed fast"
expect refuse "<- diverted parse_error ("
expect refuse "<- attributed response ("
expect refuse "<- error response to initialize (id 1): "
expect refuse "host: initialize failed: "
expect refuse "Unsupported protocol version: this server speaks 2024-11-05"

# 2b. A server that answers initialize with a result no MCP SDK reads (not an
# object), then hangs: the session hands on the substitute, an error for
# our request, and the host fails at once.
run invalid 10 "$host" --timeout 20 "$python" "$fake" invalid
show invalid
exited "invalid" 1 " (124 = the host waited)"
within "invalid" 3000 "failed fast"
expect invalid "<- substituted invalid_response ("
expect invalid "host: initialize failed: "
expect invalid '"code":-32603'

# 3. A server that never answers: the timeout.
run silent 10 "$host" --timeout 1 "$python" "$fake" silent
show silent
exited "silent" 1
within "silent" 4000 "gave up after the timeout"
expect silent "host: no answer to initialize within 1 s"

# 4. A server that exits without answering.
run exit 10 "$host" --timeout 10 "$python" "$fake" exit
show exit
exited "exit" 1
expect exit "host: the server closed its stdout before answering initialize"
expect exit "host: the server exited with status 3"

# 5. A server that cannot be started, and the default server, absent here.
run missing 10 "$host" /nonexistent/server
exited "missing" 2
expect missing "host: cannot start /nonexistent/server: No such file or directory"
mkdir -p "$work/empty"
(cd "$work/empty" && run default 10 "$host"; echo "$status" >"$work/default.status")
status=$(cat "$work/default.status")
show default
exited "default" 2
expect default "the default server examples/python/echo_server.py is not here"

# 6. The default server, examples/python/echo_server.py, when it exists,
# from the repository's top directory (its library: JSONRPC_ENVELOPE_LIB).
root=$(cd "$(dirname "$0")/../../.." && pwd)
if [ -e "$root/examples/python/echo_server.py" ] && [ -n "${ECHO_SERVER_LIB:-}" ]; then
    (cd "$root" && JSONRPC_ENVELOPE_LIB=$ECHO_SERVER_LIB run echo 30 "$host" --timeout 20
     echo "$status" >"$work/echo.status")
    status=$(cat "$work/echo.status")
    show echo
    exited "echo_server.py" 0
    expect echo "starting: python3 examples/python/echo_server.py"
    expect echo "<- response to tools/call (id 3): "
    expect echo '"text":"hello from the C++ host"'
else
    echo "host: (examples/python/echo_server.py or ECHO_SERVER_LIB absent: the default server is not tried)"
fi

# 7. The well-behaved session once more under valgrind (the host only).
if [ -n "${VALGRIND_RUN:-}" ]; then
    # shellcheck disable=SC2086 # VALGRIND_RUN is a command line
    run valgrind 120 $VALGRIND_RUN "$host" --timeout 30 "$python" "$fake" good
    [ "$status" -eq 0 ] && pass "valgrind: no errors, no leaks" || { show valgrind; fail "valgrind: exit status $status"; }
fi

echo "host: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
