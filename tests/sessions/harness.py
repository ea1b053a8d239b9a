"""The session driver: a stdio MCP server, really initialized, sent probe
lines one at a time, each followed by a `ping`; what came back for each line,
checked against what the library says the line is owed.

    python3 tests/sessions/harness.py SDK MODE [COUNT]   # one server by hand (see conftest.py for the set-up)

For each probe line the driver asks the project's Python binding, with the
MCP profile, what each line the server's stream holds is (a probe may hold
LFs: a vector line with one is several lines on the pipe):
- its `reply_server`, the reply the library owes (the server's transport, or
  the guard, must write it byte for byte; a batch's, one line per request
  in it, SPEC 10.6 (b));
- whether it is a `request` (valid under the profile): the SDK must answer it
  with a response whose id equals the request's, compared as a JSON host
  compares ids (both parsed, value and type).
Then the driver writes the line and a `ping` with an id of its own ("drv-N",
a namespace no probe line uses), and reads the server's stdout until the
ping's response has come, and whatever else was expected, for a short GRACE
after it; up to PING_TIMEOUT seconds. What is still missing then is looked
for among the lines that come back for the next lines (an SDK may answer two
requests out of order; counted as late), and counted as missing
PING_TIMEOUT seconds later, or when the session ends. It counts sessions
that ended (stdout closed: the server exited; it is started again), pings
never answered (the server is then killed and started again), valid
requests unanswered, owed replies missing or wrong, valid requests answered
by the fallback of SPEC 10.4 (the SDK's own decoder refused them), and lines
that came back unasked.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Deque, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parents[2]
# The binding's source, and the library it loads, as the binding's own tests
# use them (rules.mk names the library).
sys.path.insert(0, str(ROOT / "bindings/python/src"))
os.environ.setdefault("JSONRPC_ENVELOPE_LIB", str(ROOT / "target/release/libjsonrpc_envelope.so"))

import jsonrpc_envelope as je  # noqa: E402

PING_TIMEOUT = float(os.environ.get("SESSIONS_PING_TIMEOUT", "5"))
# How long to wait, after the ping's answer, for what a line is still owed
# before the next line goes (what comes later is still matched, as late).
GRACE = float(os.environ.get("SESSIONS_GRACE", "0.05"))
START_TIMEOUT = 30.0
MCP = je.Profile.MCP
# SPEC 10.4: a transport's reply to a request the SDK's own decoder refused.
FALLBACK = "Invalid Request: the receiving MCP SDK cannot read this request"

INITIALIZE = {
    "jsonrpc": "2.0",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "sessions", "version": "1"}},
}
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'


def encode(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def vector_lines(*names: str) -> List[Tuple[str, bytes]]:
    """(label, bytes) of every line of the vector files named (in
    tests/vectors), in order."""
    out = []
    for name in names:
        with open(ROOT / "tests/vectors" / name, encoding="utf-8") as f:
            for record in map(json.loads, f):
                line = bytes.fromhex(record["line_hex"]) if "line_hex" in record else record["line"].encode("utf-8", "surrogatepass")
                out.append((f"{name}: {record['name']}", line))
    return out


def id_key(value: object) -> Tuple[str, object]:
    """A parsed JSON id as a JSON host compares it: its type and value (the
    harness's own comparison, independent of the library's)."""
    return (type(value).__name__, value)


def same_id(a: object, b: object) -> bool:
    """Two parsed JSON ids equal as a JSON host compares them."""
    return id_key(a) == id_key(b)


@dataclass
class Owed:
    """What the library says a probe is owed, line by line of the pipe."""

    replies: List[bytes]  # each reply_server, byte for byte
    requests: List[Tuple[str, object]]  # (id text, parsed id) of each valid request


def owed(probe: bytes) -> Owed:
    replies, requests = [], []
    for piece in probe.split(b"\n"):
        c = je.classify(piece, profile=MCP)
        if c.reply_server is not None:
            # A batch's reply is one line per request in it (SPEC 10.6 (b)).
            replies += [r.encode("utf-8", "surrogatepass") for r in c.reply_server.split("\n")]
        if c.kind == je.Kind.REQUEST:
            requests.append((c.id, json.loads(c.id)))
    return Owed(replies, requests)


@dataclass
class Probe:
    """One probe line's expectations, as they are met."""

    label: str
    line: bytes
    replies: Counter  # owed replies not yet seen
    requests: List[Tuple[str, object]]  # valid requests not yet answered
    got: List[bytes] = field(default_factory=list)
    until: float = 0.0

    def done(self) -> bool:
        return not self.replies and not self.requests

    def take(self, back: bytes, message: object, stats: "Stats") -> bool:
        """Whether the line `back` (parsed: `message`) is one this probe
        expects; if so it is expected no more."""
        if self.replies[back] > 0:
            self.replies[back] -= 1
            if not self.replies[back]:
                del self.replies[back]
            return True
        if not (isinstance(message, dict) and "method" not in message and "id" in message):
            return False
        match = next((i for i, (_, value) in enumerate(self.requests) if same_id(value, message["id"])), None)
        if match is None:
            return False
        del self.requests[match]
        error = message.get("error")
        if isinstance(error, dict) and error.get("code") == -32600 and error.get("message") == FALLBACK:
            stats.refused += 1
            stats.fail(Failure("valid request refused by the SDK's decoder (SPEC 10.4 fallback)", self.label, self.line, [], [back]))
        return True


@dataclass
class Failure:
    check: str  # which promise was broken
    label: str
    line: bytes
    expected: List[str]
    got: List[bytes]

    def render(self, limit: int = 300) -> str:
        def cut(b: bytes) -> str:
            text = repr(b)
            return text if len(text) <= limit else text[:limit] + f"... ({len(b)} bytes)"

        lines = [f"[{self.check}] {self.label}", f"  sent:     {cut(self.line)}"]
        lines += [f"  expected: {e[:limit]}" for e in self.expected]
        lines += [f"  got:      {cut(g)}" for g in self.got] or ["  got:      (nothing)"]
        return "\n".join(lines)


@dataclass
class Stats:
    name: str
    lines: int = 0
    starts: int = 0
    ended: int = 0
    pings_unanswered: int = 0
    requests: int = 0
    requests_unanswered: int = 0
    replies_owed: int = 0
    replies_wrong: int = 0
    refused: int = 0  # valid requests answered by the fallback of SPEC 10.4 (the SDK's decoder refused them)
    late: int = 0  # answers and replies that came after their probe's window
    unasked: int = 0  # lines back that nothing asked for
    seconds: float = 0.0
    failures: List[Failure] = field(default_factory=list)
    unasked_examples: List[Tuple[str, bytes]] = field(default_factory=list)
    stderr_tail: str = ""

    def fail(self, failure: Failure) -> None:
        if len(self.failures) < 200:
            self.failures.append(failure)

    def as_dict(self) -> dict:
        return {
            k: getattr(self, k)
            for k in ("name", "lines", "starts", "ended", "pings_unanswered", "requests", "requests_unanswered", "replies_owed", "replies_wrong", "refused", "late", "unasked", "seconds")
        }


class Process:
    """A program on pipes; its stdout read line by line on a thread, its
    stderr drained (the last lines kept)."""

    def __init__(self, command: Sequence[str], env: Optional[Dict[str, str]] = None) -> None:
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        self.stderr: Deque[bytes] = deque(maxlen=40)
        threading.Thread(target=self._stdout, daemon=True).start()
        self._err = threading.Thread(target=self._stderr, daemon=True)
        self._err.start()

    def _stdout(self) -> None:
        with self.process.stdout as out:
            for line in out:
                self.lines.put(line)
        self.lines.put(None)

    def _stderr(self) -> None:
        with self.process.stderr as err:
            for line in err:
                self.stderr.append(line[:2000])

    def send(self, data: bytes) -> bool:
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, ValueError, OSError):
            return False

    def stderr_text(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")

    def close(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        try:
            self.process.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._err.join(timeout=5)


class Driver:
    """One server configuration, started on first use and again after each
    death or silence, probed line by line."""

    def __init__(self, name: str, command: Sequence[str], env: Optional[Dict[str, str]] = None, grace: float = GRACE) -> None:
        self.stats = Stats(name)
        self.command = list(command)
        self.env = env
        self.grace = grace
        self.peer: Optional[Process] = None
        self.next_id = 0
        self.pending: List[Probe] = []

    def fresh_id(self) -> str:
        self.next_id += 1
        return f"drv-{self.next_id}"

    def start(self) -> None:
        self.stats.starts += 1
        self.peer = Process(self.command, self.env)
        init_id = self.fresh_id()
        self.peer.send(encode({"id": init_id, **INITIALIZE}))
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                line = self.peer.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                text = self.peer.stderr_text()
                self.peer.close(kill=True)
                raise RuntimeError(f"{self.stats.name}: {self.command} did not answer initialize:\n{text}")
            message = _json(line)
            if isinstance(message, dict) and message.get("id") == init_id:
                if "result" not in message:
                    raise RuntimeError(f"{self.stats.name}: initialize failed: {line!r}")
                break
        self.peer.send(INITIALIZED)

    def drain(self) -> None:
        """At the end: a last ping, to collect what pending probes still lack."""
        if self.pending:
            self.probe("(a last ping, for late answers)", None)

    def stop(self, kill: bool = False) -> None:
        if self.peer is not None:
            self.stats.stderr_tail = self.peer.stderr_text()
            self.peer.close(kill=kill)
            self.peer = None

    def probe(self, label: str, line: Optional[bytes]) -> None:
        """Sends `line` and a ping (None: the ping alone)."""
        if self.peer is None:
            self.start()
        stats = self.stats
        stats.lines += line is not None
        self.settle(time.monotonic())
        want = owed(line) if line is not None else Owed([], [])
        stats.requests += len(want.requests)
        stats.replies_owed += len(want.replies)
        probe = Probe(label, line or b"", Counter(want.replies), list(want.requests))
        ping = self.fresh_id()
        sent = self.peer.send((b"" if line is None else line + b"\n") + encode({"jsonrpc": "2.0", "id": ping, "method": "ping"}))

        answered = False
        state = "alive"
        deadline = time.monotonic() + PING_TIMEOUT
        while not (answered and probe.done()):
            try:
                back = self.peer.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                state = "silent" if not answered else "alive"
                break
            if back is None:
                state = "ended"
                break
            back = back[:-1] if back.endswith(b"\n") else back
            probe.got.append(back)
            message = _json(back)
            if isinstance(message, dict) and message.get("id") == ping and "method" not in message:
                answered = True
                deadline = min(deadline, time.monotonic() + self.grace)
                continue
            if probe.take(back, message, stats):
                continue
            if isinstance(message, dict) and isinstance(message.get("id"), str) and message["id"].startswith("drv-") and "method" not in message:
                continue  # a ping answered after its own window
            late = next((p for p in self.pending if p.take(back, message, stats)), None)
            if late is not None:
                stats.late += 1
                late.got.append(back)
                continue
            if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" in message:
                self.answer(message)  # the server's own request, answered as a client would
            stats.unasked += 1
            if len(stats.unasked_examples) < 50:
                stats.unasked_examples.append((label, back))
        if not sent and state == "alive":
            state = "ended"

        if state == "ended":
            stats.ended += 1
            stats.fail(Failure("session ended", label, line, [], probe.got))
        elif state == "silent":
            stats.pings_unanswered += 1
            stats.fail(Failure("ping unanswered", label, line, [], probe.got))
        if not probe.done():
            # What is still owed may come with a later line's answers (an
            # SDK may answer out of order): settled PING_TIMEOUT from now,
            # or when the session ends.
            probe.until = time.monotonic() + PING_TIMEOUT
            self.pending.append(probe)
        if state != "alive":
            self.settle(None)
            self.stop(kill=state == "silent")

    def answer(self, request: dict) -> None:
        """Answers a request the server sent (the Java SDK asks for
        roots/list when told the roots changed) as a client with no roots
        and nothing else to offer does, so that no request of the server's
        stays outstanding: an error that names no request would then be
        given to it (SPEC 9), and the Java SDK 2.2.0 ends its session on an
        error answer to its roots/list (on its own transport as on ours)."""
        method = request["method"]
        if method in ("roots/list", "ping"):
            reply = {"jsonrpc": "2.0", "id": request["id"], "result": {"roots": []} if method == "roots/list" else {}}
        else:
            reply = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}}
        self.peer.send(encode(reply))

    def settle(self, now: Optional[float]) -> None:
        """Counts as failures what pending probes still lack: those whose
        time is up, or all of them (now None)."""
        keep = []
        for probe in self.pending:
            if now is not None and probe.until > now:
                keep.append(probe)
                continue
            stats = self.stats
            if probe.replies:
                stats.replies_wrong += sum(probe.replies.values())
                expected = [r.decode("utf-8", "replace") for r in probe.replies.elements()]
                stats.fail(Failure("owed reply wrong or missing", probe.label, probe.line, expected, probe.got))
            if probe.requests:
                stats.requests_unanswered += len(probe.requests)
                expected = [f"a response with id {text}" for text, _ in probe.requests]
                stats.fail(Failure("valid request unanswered", probe.label, probe.line, expected, probe.got))
        self.pending = keep

    def run(self, probes: Sequence[Tuple[str, bytes]]) -> Stats:
        began = time.monotonic()
        try:
            for label, line in probes:
                self.probe(label, line)
            if self.peer is not None:
                self.drain()
        finally:
            self.settle(None)
            self.stop()
            self.stats.seconds = round(time.monotonic() - began, 1)
        return self.stats


def _json(line: bytes) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


COLUMNS = [
    ("lines sent", "lines"),
    ("sessions ended", "ended"),
    ("pings unanswered", "pings_unanswered"),
    ("valid requests unanswered", "requests_unanswered"),
    ("owed replies wrong/missing", "replies_wrong"),
    ("valid requests refused by the SDK's decoder (10.4)", "refused"),
    ("lines back unasked", "unasked"),
]


def table(results: Dict[Tuple[str, str], Stats], sdks: Sequence[str], modes: Sequence[Tuple[str, str]]) -> str:
    """A markdown table: one row per server and mode."""
    head = "| server | transport | " + " | ".join(title for title, _ in COLUMNS) + " | seconds |"
    rows = [head, "|---|---|" + "---:|" * (len(COLUMNS) + 1)]
    for sdk in sdks:
        for mode, description in modes:
            s = results.get((sdk, mode))
            if s is None:
                continue
            cells = []
            for title, attr in COLUMNS:
                value = getattr(s, attr)
                if attr == "requests_unanswered":
                    cells.append(f"{value} of {s.requests}")
                elif attr == "replies_wrong":
                    cells.append(f"{value} of {s.replies_owed}")
                else:
                    cells.append(str(value))
            rows.append(f"| {sdk} | {description} | " + " | ".join(cells) + f" | {s.seconds} |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import conftest  # noqa: E402  (the configurations)

    sdk, mode = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else conftest.RANDOM_LINES
    command, env = conftest.server(sdk, mode)
    probes = conftest.probes(mode, count)
    stats = Driver(f"{sdk}/{mode}", command, env).run(probes)
    print(json.dumps(stats.as_dict()))
    for f in stats.failures[: int(os.environ.get("SHOW", "20"))]:
        print(f.render())
    for label, u in stats.unasked_examples[:10]:
        print(f"[unasked] {label}: {u[:300]!r}")
