#!/usr/bin/env python3
"""Peak memory of the echo servers (issue #12): each runs as a real process
over pipes with its default line limit (the library's), and is sent a 20 MiB line,
then a normal request, which it must still answer. Its peak RSS (VmHWM of
/proc/PID/status, read before its stdin closes: the exec'd program's own
peak, nothing of this process's) is reported beside its peak when sent the
request alone.

    echo_memory.py NAME=COMMAND ...

COMMAND is split as a shell would; the servers inherit this environment.
Exits 1 if a server does not answer the request after the long line."""
import json
import os
import select
import shlex
import subprocess
import sys
import tempfile
import time

# The binding, on the library that JSONRPC_ENVELOPE_LIB names (make sets it).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bindings", "python", "src"))
from jsonrpc_envelope import DEFAULT_MAX_LINE as LIMIT  # noqa: E402  (the library's, not restated)

LINE = 20 << 20
assert LINE > LIMIT, "the long line must be over the servers' default limit"
TIMEOUT = 120.0
REQUEST = b'{"jsonrpc":"2.0","id":"after","method":"ping"}\n'


def long_line_pieces():
    """A 20 MiB request line, without its LF, a MiB at a time (this
    process's own memory stays small)."""
    head = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"'
    tail = b'"}}}'
    piece = b"x" * (1 << 20)
    body = LINE - len(head) - len(tail)
    yield head
    while body > 0:
        yield piece[: min(body, len(piece))]
        body -= len(piece)
    yield tail


def peak_kib(pid):
    """The process's peak RSS in KiB, or None once it has exited."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def read_line(stream, deadline):
    """One line of the server's stdout, or None at its end or the deadline."""
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stream], [], [], left)[0]:
            return None
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            return None
        data += chunk
    return data


def run(command, long_line):
    """Sends the long line (or not), then the request; returns (peak KiB,
    None) or (None, what went wrong)."""
    with tempfile.TemporaryFile() as stderr:
        server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        try:
            deadline = time.monotonic() + TIMEOUT
            try:
                if long_line:
                    for piece in long_line_pieces():
                        server.stdin.write(piece)
                    server.stdin.write(b"\n")
                server.stdin.write(REQUEST)
                server.stdin.flush()
            except BrokenPipeError:
                pass
            reply = read_line(server.stdout, deadline)
            # Still running, its stdin open: the peak is the whole run's.
            peak = peak_kib(server.pid)
            try:
                answer = json.loads(reply) if reply else None
            except ValueError:
                answer = None
            if peak is None or not isinstance(answer, dict) or answer.get("id") != "after" or "result" not in answer:
                stderr.seek(0)
                log = stderr.read().decode(errors="replace").strip().splitlines()[-3:]
                return None, f"no answer to the request (got {reply!r:.100}; stderr: {' | '.join(log)})"
            return peak, None
        finally:
            try:
                server.stdin.close()
            except BrokenPipeError:
                pass
            try:
                server.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            server.stdout.close()


def main():
    servers = [arg.split("=", 1) for arg in sys.argv[1:]]
    if not servers or any(len(s) != 2 for s in servers):
        sys.exit(__doc__)
    print(f"Echo servers, default line limit {LIMIT >> 20} MiB: a {LINE >> 20} MiB line, then a request"
          " (which must still be answered); peak RSS (VmHWM) against the request alone.")
    failed = False
    for name, command in servers:
        argv = shlex.split(command)
        alone, error = run(argv, long_line=False)
        peak, error = (None, error) if error else run(argv, long_line=True)
        if error:
            failed = True
            print(f"{name}: FAILED: {error}")
            continue
        print(f"{name}: peak RSS {peak / 1024:.1f} MiB with the {LINE >> 20} MiB line, {alone / 1024:.1f} MiB"
              f" with the request alone (the line cost {(peak - alone) / 1024:.1f} MiB; the limit is {LIMIT >> 20} MiB)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
