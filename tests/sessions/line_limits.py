#!/usr/bin/env python3
"""The longest stdio line (one newline-delimited JSON-RPC message) each
official MCP SDK's own stdio server transport reads, and what it does with
one byte more: measured with the real server processes over real pipes.
Not part of `make test` (a full search takes minutes per SDK).

    python3 tests/sessions/line_limits.py --sdk python|node|go|java|rust [--sdk ...]
        [--resolution 1] [--max 67108864] [--shape text|text-utf8|members] [--together]
        [--sizes N,N,...] [-v]

Servers (what `make sdk`, `make rmcp-example` and `make java-example` build;
the same commands as tests/sessions/conftest.py's controls):
    python  target/sdk/python/bin/python peers/python/echo_server.py
    node    node peers/node/echo_server.mjs
    go      target/sdk/go/echo-server
    java    examples/java/sdk_server.sh --sdk-transport   (needs a JDK 22+; the script
            rebuilds the library and the Java example first when src/ changed)
    rust    target/debug/rmcp-sdk-server --sdk-transport  (SESSIONS_RMCP_SERVER overrides)

One trial of a size N (N counts every byte written for the line, the LF
included; the JSON text is N - 1 bytes): a fresh server, `initialize`,
`notifications/initialized`, a `ping` (answered: the server is ready and has
read everything before), then the line, a `tools/call` of the `echo` tool
with id "big" whose `text` is padded with "a" to make the line N bytes.
--shape text-utf8 pads with U+00E9 (two bytes, one character), for a cap
that counts characters; --shape members spreads the padding over many
short strings in params._meta, for a parser that caps one string's length
rather than the line. Once the server has read every byte of the line from
the pipe (FIONREAD on the pipe reads 0: the line ends a read, and what
follows comes in another), or has read nothing for LINGER seconds, a `ping`
with id "after" (--together: in the same write as the line, as
tests/sessions/harness.py sends them, so that it may share the line's last
read). Then the driver collects what comes back: the answer to "big"
(answered: a result whose echoed text has the length sent; error: an error
response), the answer to "after", and whether the process ended (stdout
closed; its exit status), until both answers came, the process ended, or it
used no CPU for IDLE seconds (at most 30 s + 4 s per MiB). The process is
killed at the end of each trial.

The search: N = 1 MiB, doubling, until a size is not answered (or --max is
answered), then a bisection to --resolution bytes between the largest size
answered and the smallest not answered. It prints one markdown table row per
SDK, and (-v) every trial.
"""

from __future__ import annotations

import argparse
import array
import fcntl
import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import termios
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Deque, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[2]
MIB = 1024 * 1024

SERVERS = {
    "python": [str(ROOT / "target/sdk/python/bin/python"), str(ROOT / "peers/python/echo_server.py")],
    "node": [os.environ.get("NODE", "node"), str(ROOT / "peers/node/echo_server.mjs")],
    "go": [str(ROOT / "target/sdk/go/echo-server")],
    "java": [str(ROOT / "examples/java/sdk_server.sh"), "--sdk-transport"],
    "rust": [os.environ.get("SESSIONS_RMCP_SERVER", str(ROOT / "target/debug/rmcp-sdk-server")), "--sdk-transport"],
}

# Where each SDK's stdio server transport caps what it reads, as read in the
# source of the version named (the version this checkout pins is printed
# beside it, measured; where they differ, read the source again).
SOURCE = {
    "python": ("2.3.0", "none: mcp/server/stdio.py:187 `async for line in stdin` (anyio.wrap_file over io.TextIOWrapper, stdio.py:176; readline unbounded)"),
    "node": ("1.32.2", "dist/esm/shared/stdio.js:2 STDIO_DEFAULT_MAX_BUFFER_SIZE = 10 MiB; ReadBuffer.append (stdio.js:10-15) throws when the bytes buffered + the chunk just read > 10 MiB; server/stdio.js:14-21 then closes the transport"),
    "go": ("v1.8.0", "mcp/transport.go:124 DefaultMaxLineLength = 16 MiB; frameLimitReader.Read (transport.go:574-583) caps the bytes json.Decoder reads per value (reset after each, :551), LF not in the value"),
    "java": ("2.2.0", "mcp-core StdioServerTransportProvider DEFAULT_INPUT_MAX_SIZE = 16777216 (javap; line 44 of the source); readLine (:335-360 by the 2.2.0 jar's line table) throws MaxSizeExceededException on a 16777217th char before the terminator (UTF-16 units, the LF or CR not counted; :353-354); the read loop then breaks (:256-258) and closes the session (finally :270-275)"),
    "rust": ("3.11.0", "rmcp src/transport/async_rw.rs:58 DEFAULT_MAX_LINE_LENGTH = 16 MiB; read_line (:157) drops a line whose bytes with the LF exceed it; receive logs and goes on (:283-289)"),
}

START_TIMEOUT = 60.0
LINGER = 5.0  # how long a server may read nothing before it counts as stopped
IDLE = 2.0  # how long a server may use no CPU time before it counts as done


def version(sdk: str) -> str:
    try:
        if sdk == "python":
            text = (ROOT / "peers/python/requirements.txt").read_text()
            return "mcp " + re.search(r"^mcp==(\S+)", text, re.M).group(1)
        if sdk == "node":
            pkg = ROOT / "peers/node/node_modules/@modelcontextprotocol/sdk/package.json"
            return "@modelcontextprotocol/sdk " + json.loads(pkg.read_text())["version"]
        if sdk == "go":
            text = (ROOT / "peers/go/go.mod").read_text()
            return "go-sdk " + re.search(r"github.com/modelcontextprotocol/go-sdk (\S+)", text).group(1)
        if sdk == "java":
            # the classpath the example runs with names the jar of the SDK it resolved
            classpath = ROOT / "target/java-example/classpath.txt"
            if classpath.exists():
                m = re.search(r"io/modelcontextprotocol/sdk/mcp-core/([^/]+)/", classpath.read_text())
                if m:
                    return "io.modelcontextprotocol.sdk:mcp " + m.group(1)
            for pom in sorted((ROOT / "bindings/java").glob("**/pom.xml")):
                m = re.search(r"<groupId>io\.modelcontextprotocol\.sdk</groupId>\s*<artifactId>mcp</artifactId>\s*<version>([^<]+)<", pom.read_text())
                if m:
                    return "io.modelcontextprotocol.sdk:mcp " + m.group(1)
            return "? (not in target/java-example/classpath.txt nor bindings/java/**/pom.xml)"
        if sdk == "rust":
            text = (ROOT / "Cargo.lock").read_text()
            return "rmcp " + re.search(r'name = "rmcp"\nversion = "([^"]+)"', text).group(1)
    except (OSError, AttributeError, KeyError, ValueError) as error:
        return f"? ({error})"
    return "?"


def encode(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


INITIALIZE = encode({
    "jsonrpc": "2.0", "id": "init", "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "line-limits", "version": "1"}},
})
INITIALIZED = encode({"jsonrpc": "2.0", "method": "notifications/initialized"})


def ping(id_: str) -> bytes:
    return encode({"jsonrpc": "2.0", "id": id_, "method": "ping"})


def big_line(n: int, shape: str) -> Tuple[bytes, int]:
    """A tools/call echo request of exactly n bytes, its LF included, and the
    length of the text the echo must return."""
    if shape in ("text", "text-utf8"):
        head = b'{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"echo","arguments":{"text":"'
        tail = b'"}}}\n'
        pad = n - len(head) - len(tail)
        if pad < 0:
            raise ValueError(f"{n} bytes is too short for the request")
        if shape == "text":
            return head + b"a" * pad + tail, pad
        # "\u00e9" as UTF-8 (2 bytes, 1 character), and one "a" if the count is odd
        return head + "\u00e9".encode() * (pad // 2) + b"a" * (pad % 2) + tail, pad // 2 + pad % 2
    # members: params._meta.pad is an array of strings of at most 1000 "a"s.
    head = b'{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"echo","arguments":{"text":"ok"},"_meta":{"pad":['
    tail = b']}}}\n'
    room = n - len(head) - len(tail)
    if room < 2:
        raise ValueError(f"{n} bytes is too short for the request")
    parts: List[bytes] = []
    # each element costs len+2 (quotes) and one comma between elements
    while room > 0:
        cost = room if not parts else room - 1  # the comma before it
        if cost < 2:
            # too little left for another element: lengthen the last one
            parts[-1] = parts[-1][:-1] + b"a" * room + b'"'
            room = 0
            break
        length = min(1000, cost - 2)
        parts.append(b'"' + b"a" * length + b'"')
        room -= length + 2 + (1 if len(parts) > 1 else 0)
    return head + b",".join(parts) + tail, 2


class Server:
    """A server on pipes: stdout read line by line on a thread, stderr drained
    (its last lines kept, each cut to 500 bytes)."""

    def __init__(self, command: List[str]) -> None:
        env = dict(os.environ)
        env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, bufsize=0)
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        self.stderr: Deque[bytes] = deque(maxlen=30)
        self.writer: Optional[threading.Thread] = None
        self.write_error: Optional[str] = None
        threading.Thread(target=self._stdout, daemon=True).start()
        threading.Thread(target=self._stderr, daemon=True).start()

    def _stdout(self) -> None:
        # bufsize=0 makes stdout a raw file, whose readline reads a byte at a time.
        try:
            for line in io.BufferedReader(self.process.stdout, 1 << 20):
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(None)

    def _stderr(self) -> None:
        try:
            for line in io.BufferedReader(self.process.stderr, 1 << 16):
                if line.strip():
                    self.stderr.append(line[:500].rstrip())
        except (OSError, ValueError):
            pass

    def write(self, data: bytes) -> None:
        """Writes on a thread (a server that stops reading must not block the
        driver); one write at a time."""
        if self.writer is not None:
            self.writer.join()

        def run() -> None:
            try:
                self.process.stdin.write(data)
            except (BrokenPipeError, OSError, ValueError) as error:
                self.write_error = type(error).__name__

        self.writer = threading.Thread(target=run, daemon=True)
        self.writer.start()

    def written(self) -> bool:
        return self.writer is None or not self.writer.is_alive()

    def unread(self) -> int:
        """Bytes in the stdin pipe the server has not read."""
        buf = array.array("i", [0])
        try:
            fcntl.ioctl(self.process.stdin.fileno(), termios.FIONREAD, buf, True)
        except (OSError, ValueError):
            return -1
        return buf[0]

    def cpu(self) -> int:
        """The CPU time (clock ticks, all threads) the server has used."""
        try:
            with open(f"/proc/{self.process.pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            return int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            return -1

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.process.stdin,):
            try:
                f.close()
            except (OSError, ValueError):
                pass


def parse(line: bytes) -> object:
    try:
        return json.loads(line)
    except ValueError:
        return None


@dataclass
class Trial:
    n: int
    answered: bool = False  # "big" got a result with the text sent back
    error: Optional[str] = None  # "big" (or id null) got an error response
    after_answered: bool = False  # the ping after it got its answer
    drained: bool = False  # the server read every byte of the line
    exited: Optional[int] = None  # exit status, if the process ended
    others: List[str] = field(default_factory=list)  # other lines back
    stderr: List[str] = field(default_factory=list)
    seconds: float = 0.0
    times: dict = field(default_factory=dict)  # when (seconds after the line's write began) it was read, answered, ...

    def outcome(self) -> str:
        if self.answered:
            what = "answered"
        elif self.error is not None:
            what = f"error response {self.error}"
        else:
            what = "no response (dropped)"
        if self.exited is not None:
            what += f"; the server exited (status {self.exited})"
        elif self.after_answered:
            what += "; the next ping answered (session goes on)"
        else:
            what += "; the next ping unanswered, process alive"
            if not self.drained:
                what += ", the server stopped reading stdin"
        return what

    def evidence(self) -> str:
        """The stderr line that names the cause, where one does (else the last two)."""
        keep = [s for s in self.stderr if "echo called with" not in s and not s.lstrip().startswith("at ")]
        named = [s for s in keep if re.search(r"exceed|maximum|too (large|long)|limit", s, re.I)]
        text = " / ".join(named[-1:] or keep[-2:])
        return text[:400] if text else "(stderr empty)"


def wait_for(server: Server, want: str, deadline: float, trial: Optional[Trial] = None) -> Optional[dict]:
    while True:
        try:
            line = server.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None
        if line is None:
            server.lines.put(None)  # stays ended
            return None
        message = parse(line)
        if isinstance(message, dict) and message.get("id") == want and "method" not in message:
            return message
        if trial is not None:
            trial.others.append(line[:300].decode("utf-8", "replace"))


def handshake(server: Server) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    server.write(INITIALIZE)
    if wait_for(server, "init", deadline) is None:
        raise RuntimeError(f"no answer to initialize: {' / '.join(s.decode('utf-8', 'replace') for s in server.stderr)}")
    server.write(INITIALIZED + ping("ready"))
    if wait_for(server, "ready", deadline) is None:
        raise RuntimeError(f"no answer to the first ping: {' / '.join(s.decode('utf-8', 'replace') for s in server.stderr)}")


def trial(sdk: str, n: int, shape: str, together: bool = False) -> Trial:
    began = time.monotonic()
    result = Trial(n)
    line, text_length = big_line(n, shape)
    server = Server(SERVERS[sdk])
    try:
        handshake(server)
        t0 = time.monotonic()
        server.write(line + ping("after") if together else line)
        # Until the server has read the whole line, or read nothing for LINGER seconds.
        last, still = server.unread(), time.monotonic()
        while True:
            unread = server.unread()
            if server.written() and unread == 0:
                result.drained = True
                break
            if server.process.poll() is not None:
                break
            if unread != last:
                last, still = unread, time.monotonic()
            elif time.monotonic() - still > LINGER:
                break
            time.sleep(0.005)
        result.times["read"] = round(time.monotonic() - t0, 2)
        if not together:
            server.write(ping("after"))
        # Collect: "big", "after", or the end of stdout.
        big_id, after_id = "big", "after"
        # Until both are answered, the process ends, or it has been idle
        # (no CPU time used) for IDLE seconds: an echo of many MiB takes
        # seconds of CPU in some SDKs. At most 30 s + 4 s per MiB.
        deadline = time.monotonic() + 30.0 + 4.0 * n / MIB
        cpu, idle_since = server.cpu(), time.monotonic()
        ended = False
        while not (result.answered or result.error) or not result.after_answered:
            now = time.monotonic()
            if now > deadline:
                break
            spent = server.cpu()
            if spent != cpu:
                cpu, idle_since = spent, now
            elif now - idle_since > IDLE:
                break
            try:
                back = server.lines.get(timeout=0.1)
            except queue.Empty:
                continue
            if back is None:
                ended = True
                break
            message = parse(back)
            if not isinstance(message, dict):
                result.others.append(back[:300].decode("utf-8", "replace"))
                continue
            if message.get("id") == after_id and "method" not in message:
                result.after_answered = True
                result.times["ping"] = round(time.monotonic() - t0, 2)
            elif message.get("id") in (big_id, None) and "error" in message:
                result.error = json.dumps(message["error"])[:300]
                result.times["error"] = round(time.monotonic() - t0, 2)
            elif message.get("id") == big_id and "result" in message:
                result.times["big"] = round(time.monotonic() - t0, 2)
                try:
                    got = message["result"]["content"][0]["text"]
                    result.answered = len(got) == text_length
                except (KeyError, IndexError, TypeError):
                    result.answered = False
                if not result.answered:
                    result.error = "a result without the text sent: " + back[:200].decode("utf-8", "replace")
            else:
                result.others.append(back[:300].decode("utf-8", "replace"))
        # Did it end? (stdout closed, or the process gone within a moment)
        if ended or server.process.poll() is not None:
            try:
                result.exited = server.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                result.exited = None
        else:
            time.sleep(0.3)
            result.exited = server.process.poll()
    finally:
        server.kill()
        time.sleep(0.1)  # the stderr thread's last lines
        result.stderr = [s.decode("utf-8", "replace") for s in server.stderr]
        result.seconds = round(time.monotonic() - began, 1)
    return result


def search(sdk: str, shape: str, together: bool, resolution: int, maximum: int, verbose: bool) -> Tuple[Optional[Trial], Optional[Trial]]:
    """(the largest size answered, the smallest not answered) found."""
    memo = {}

    def run(n: int) -> Trial:
        if n not in memo:
            memo[n] = trial(sdk, n, shape, together)
            if verbose:
                print(f"  {sdk} N={n} ({n / MIB:.6f} MiB) {memo[n].outcome()} [{memo[n].seconds}s {memo[n].times}] {memo[n].evidence()[:200]}", file=sys.stderr, flush=True)
        return memo[n]

    good: Optional[Trial] = None
    bad: Optional[Trial] = None
    n = MIB
    while True:
        t = run(min(n, maximum))
        if t.answered:
            good = t
            if t.n >= maximum:
                return good, None
            n *= 2
        else:
            bad = t
            break
    if good is None:
        # Not even 1 MiB: down from there.
        n = MIB // 2
        while n >= 1024:
            t = run(n)
            if t.answered:
                good = t
                break
            bad = t
            n //= 2
        if good is None:
            return None, bad
    while bad.n - good.n > resolution:
        mid = (good.n + bad.n) // 2
        if resolution > 1:
            mid -= mid % resolution
            if mid <= good.n:
                mid = good.n + resolution
            if mid >= bad.n:
                break
        t = run(mid)
        if t.answered:
            good = t
        else:
            bad = t
    return good, bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdk", action="append", choices=sorted(SERVERS), required=True)
    parser.add_argument("--resolution", type=int, default=1, help="bisect to this many bytes (default 1)")
    parser.add_argument("--max", type=int, default=64 * MIB, help="the largest size tried (default 64 MiB)")
    parser.add_argument("--shape", choices=("text", "text-utf8", "members"), default="text",
                        help="text: the echo text padded with 'a'; text-utf8: with U+00E9 (2 bytes, 1 character); members: many short strings in params._meta")
    parser.add_argument("--together", action="store_true", help="write the ping after the line in the same write (as tests/sessions/harness.py does), not once the line is read")
    parser.add_argument("--sizes", help="only these sizes (comma separated; bytes, the LF included): one line per trial")
    parser.add_argument("-v", "--verbose", action="store_true", help="every trial on stderr")
    args = parser.parse_args()

    for sdk in args.sdk:
        if not shutil.which(SERVERS[sdk][0]) and not Path(SERVERS[sdk][0]).exists():
            print(f"{sdk}: {SERVERS[sdk][0]} not found (build it: see this script's docstring)", file=sys.stderr)
            return 1

    if args.sizes:
        print("| SDK | N (bytes, LF included) | outcome | stderr (last lines) | seconds |")
        print("|---|---:|---|---|---:|")
        for sdk in args.sdk:
            for n in (int(s) for s in args.sizes.split(",")):
                t = trial(sdk, n, args.shape, args.together)
                print(f"| {sdk} | {n} | {t.outcome()} | {t.evidence()} | {t.seconds} {t.times} |", flush=True)
        return 0

    print(f"| SDK | version | limit in the source (as read for the version named) | largest line answered (bytes, LF included) | one byte above: what happens | evidence (stderr) |")
    print("|---|---|---|---:|---|---|")
    for sdk in args.sdk:
        good, bad = search(sdk, args.shape, args.together, args.resolution, args.max, args.verbose)
        read_for, where = SOURCE[sdk]
        largest = "none" if good is None else f"{good.n} (= {good.n / MIB:.6f} MiB; JSON text {good.n - 1})"
        if bad is None:
            above, evidence = f"every size up to {args.max} answered", "-"
        else:
            gap = "" if good is None or bad.n - good.n == 1 else f" (N={bad.n}, {bad.n - (good.n if good else 0)} bytes above)"
            above, evidence = bad.outcome() + gap, bad.evidence()
        print(f"| {sdk} | {version(sdk)} | {where} [read for {read_for}] | {largest} | {above} | {evidence} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
