"""The shapes of SPEC 10.6, in both protocol eras: a raw host (bytes to a
server's stdin, lines from its stdout, as harness.py's driver) that opens a
session in one era and writes, one shape at a time, a line whose request ids
are readable but which is not one readable message, each followed by a
request it waits for. It counts, for each shape, the requests whose id is
readable and how many of them got a response with that id (a result or an
error, compared as a JSON host compares ids: value and type), and whether
the session ended (stdout closed) or went silent (the request waited for is
not answered in time; the server is then killed). After either, the server
is started again for the next shape.

    python3 tests/sessions/eras.py SDK MODE ERA   # one server by hand (conftest.py's set-up)

The eras (MCP's versioning page, revision 2026-07-28):
- legacy: `initialize` (2025-11-25) and `notifications/initialized` first;
  requests carry no `_meta`; the request waited for is `ping`.
- modern: no `initialize`, no `ping`; every request carries
  `_meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"` and
  `_meta["io.modelcontextprotocol/clientCapabilities"]`; the session opens
  with `server/discover`, which is also the request waited for.

The shapes (SPEC 10.6 (a) to (d)); every request is built in the era's way:
- batch: `[tools/list, tools/call echo]`, one string id and one integer id;
- bom: the UTF-8 byte order mark, then a `tools/call` of echo (modern:
  a `server/discover`, see reaching_the_sdk);
- ff: a `tools/call` of echo whose `params.arguments.text` holds a byte FF;
- cut: a `tools/call` of echo cut short inside `params.arguments`;
- after: a `tools/call` of echo with data after the object (` x`);
- comma: a `tools/list` with a trailing comma before its last `}`;
- long: a `tools/list` (modern: a `server/discover`) of TOO_LONG bytes
  (over the MCP profile's line limit), padded inside `params._meta`; its id
  and method come first.
And three lines that owe nothing back, in the rules of the modern era (a
2026-07-28 client writes no responses on stdio, and its server wrote no
request such a response could answer): a result response and an error
response whose ids name no request, and an error with a null id. Counted:
the lines that came back for them (and, behind the guard, the action its
recording gives each of them).
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from harness import Process, id_key, je  # noqa: E402  (the binding, from the source)

MIB = 1 << 20
MODERN_VERSION = "2026-07-28"
LEGACY_VERSION = "2025-11-25"
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
CLIENT_INFO = {"name": "sessions-eras", "version": "1"}
BOM = b"\xef\xbb\xbf"

ERAS = ("legacy", "modern")


def mcp_max_line() -> int:
    """The MCP profile's default line limit (SPEC 10.7), as the library has
    it (SESSIONS_MCP_MAX_LINE overrides), so that the long shape stays over
    it when it changes."""
    if os.environ.get("SESSIONS_MCP_MAX_LINE"):
        return int(os.environ["SESSIONS_MCP_MAX_LINE"])
    return int(je.profile_max_line(je.Profile.MCP))


MAX_LINE = mcp_max_line()
# 12 MiB, or more where the limit has grown past it.
TOO_LONG = max(12 * MIB, MAX_LINE + MIB)

WAIT_TIMEOUT = float(os.environ.get("SESSIONS_ERAS_TIMEOUT", "5"))
LONG_TIMEOUT = 30.0  # the long shape: 12 MiB through a pipe and a parser
GRACE = 0.3  # after the awaited answer, for the shape's answers still on their way
START_TIMEOUT = 30.0


def encode(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


class Era:
    """How one era writes its requests, opens a session and keeps it alive."""

    def __init__(self, name: str) -> None:
        assert name in ERAS
        self.name = name

    def request(self, id: object, method: str, params: Optional[dict] = None) -> dict:
        params = dict(params or {})
        if self.name == "modern":
            # The envelope first: a pad the long shape adds comes after it.
            params["_meta"] = {
                PROTOCOL_VERSION_KEY: MODERN_VERSION,
                CLIENT_CAPABILITIES_KEY: {},
                CLIENT_INFO_KEY: CLIENT_INFO,
                **params.get("_meta", {}),
            }
        message: dict = {"jsonrpc": "2.0", "id": id, "method": method}
        if params:
            message["params"] = params
        return message

    def opening(self, id: str) -> bytes:
        if self.name == "modern":
            return encode(self.request(id, "server/discover"))
        init = {"protocolVersion": LEGACY_VERSION, "capabilities": {}, "clientInfo": CLIENT_INFO}
        return encode(self.request(id, "initialize", init))

    def opened(self) -> bytes:
        return b"" if self.name == "modern" else b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'

    def wait(self, id: str) -> bytes:
        """The request a shape is followed by, and waited for."""
        return encode(self.request(id, "server/discover" if self.name == "modern" else "ping"))


def echo(era: Era, id: object, text: str = "shape") -> dict:
    return era.request(id, "tools/call", {"name": "echo", "arguments": {"text": text}})


def shape_batch(era: Era, n: int) -> Tuple[bytes, List[object]]:
    ids: List[object] = [f"batch-{n}", 700000 + n]
    items = [era.request(ids[0], "tools/list"), echo(era, ids[1])]
    return json.dumps(items, separators=(",", ":")).encode(), ids


def reaching_the_sdk(era: Era, id: object, params: Optional[dict] = None) -> dict:
    """A request for the shapes a transport hands on to the SDK (bom, and
    long where a transport's limit is over it): in the modern era
    `server/discover`, which every server answers (a 2026-07-28 server with
    its result, a handshake-only one with -32601), where a handshake-only
    server may leave any other request before `initialize` unanswered (the
    Java SDK 2.2.0's does, on its own transport as on ours)."""
    if era.name == "modern":
        return era.request(id, "server/discover", params)
    return echo(era, id) if params is None else era.request(id, "tools/list", params)


def shape_bom(era: Era, n: int) -> Tuple[bytes, List[object]]:
    id = f"bom-{n}"
    return BOM + encode(reaching_the_sdk(era, id))[:-1], [id]


def shape_ff(era: Era, n: int) -> Tuple[bytes, List[object]]:
    id = f"ff-{n}"
    line = encode(echo(era, id, "a@FF@b"))[:-1]
    return line.replace(b"@FF@", b"\xff"), [id]


def shape_cut(era: Era, n: int) -> Tuple[bytes, List[object]]:
    id = f"cut-{n}"
    line = encode(echo(era, id, "cut short here"))[:-1]
    return line[: line.index(b"short")], [id]


def shape_after(era: Era, n: int) -> Tuple[bytes, List[object]]:
    id = f"after-{n}"
    return encode(echo(era, id))[:-1] + b" x", [id]


def shape_comma(era: Era, n: int) -> Tuple[bytes, List[object]]:
    id = f"comma-{n}"
    line = encode(era.request(id, "tools/list"))[:-1]
    assert line.endswith(b"}")
    return line[:-1] + b",}", [id]


def shape_long(era: Era, n: int) -> Tuple[bytes, List[object]]:
    id = f"long-{n}"
    bare = encode(reaching_the_sdk(era, id, {"_meta": {"com.example/pad": ""}}))[:-1]
    line = bare.replace(b'"com.example/pad":""', b'"com.example/pad":"' + b"a" * (TOO_LONG - len(bare)) + b'"')
    assert len(line) == TOO_LONG and line.index(b'"method"') < 100
    return line, [id]


# A client's responses to requests nobody made (SPEC proposal, the modern
# era's rules: a 2026-07-28 server writes no requests on stdio, so no
# response of the client's answers one). Nothing is owed back for them.
def shape_stray_result(era: Era, n: int) -> Tuple[bytes, List[object]]:
    return encode({"jsonrpc": "2.0", "id": f"stray-result-{n}", "result": {}})[:-1], []


def shape_stray_error(era: Era, n: int) -> Tuple[bytes, List[object]]:
    error = {"code": -32601, "message": "Method not found"}
    return encode({"jsonrpc": "2.0", "id": f"stray-error-{n}", "error": error})[:-1], []


STRAY_NULL_MESSAGE = "stray: an error that names no request"


def shape_stray_null(era: Era, n: int) -> Tuple[bytes, List[object]]:
    error = {"code": -32700, "message": STRAY_NULL_MESSAGE}
    return encode({"jsonrpc": "2.0", "id": None, "error": error})[:-1], []


# (name, title, builder): the table's columns, in this order. The shapes
# with requests in them count requests answered; the stray responses (the
# last three) count lines back.
SHAPES = (
    ("batch", "batch of 2", shape_batch),
    ("bom", "after a BOM", shape_bom),
    ("ff", "FF in arguments", shape_ff),
    ("cut", "cut short", shape_cut),
    ("after", "data after", shape_after),
    ("comma", "trailing comma", shape_comma),
    ("long", f"{TOO_LONG // MIB} MiB", shape_long),
    ("stray-result", "stray result", shape_stray_result),
    ("stray-error", "stray error", shape_stray_error),
    ("stray-null", "error, id null", shape_stray_null),
)
STRAY = ("stray-result", "stray-error", "stray-null")


@dataclass
class ShapeResult:
    sent: int = 0
    answered: int = 0
    how: List[str] = field(default_factory=list)  # each answer: "r" (a result) or its error code
    back: int = 0  # lines back that answered nothing of this shape's (nor the awaited request)
    stray: bool = False  # a stray response: nothing is owed back
    recorded: str = ""  # the guard's recorded action for the line (guard only)
    ended: bool = False  # the session ended after this shape was written
    silent: bool = False  # the request waited for was not answered
    sent_bytes: bytes = b""  # what was written (the long shape: its head)
    got: List[bytes] = field(default_factory=list)  # what came back meanwhile (each line's head)

    def ok(self) -> bool:
        """What ours and the guard promise: every readable id answered, no
        session ended or silent, and nothing back for a stray response."""
        return self.answered == self.sent and not self.ended and not self.silent and not (self.stray and self.back)

    def cell(self, how: bool = False) -> str:
        mark = " ended" if self.ended else " silent" if self.silent else ""
        if self.stray:
            recorded = f" ({self.recorded})" if how and self.recorded else ""
            return f"{self.back} back{recorded}{mark}"
        detail = f" ({','.join(self.how)})" if how and self.how else ""
        extra = f" +{self.back} back" if self.back else ""
        return f"{self.answered}/{self.sent}{detail}{extra}{mark}"


@dataclass
class EraStats:
    name: str
    era: str
    shapes: Dict[str, ShapeResult] = field(default_factory=dict)
    starts: int = 0
    server_era: str = ""  # what the opening request's answer says the server speaks
    server_requests: List[bytes] = field(default_factory=list)  # requests the server wrote
    seconds: float = 0.0
    stderr_tail: str = ""

    @property
    def ended(self) -> int:
        return sum(r.ended for r in self.shapes.values())

    @property
    def silent(self) -> int:
        return sum(r.silent for r in self.shapes.values())

    def unanswered(self) -> List[str]:
        return [name for name, r in self.shapes.items() if r.answered < r.sent]

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "era": self.era,
            "starts": self.starts,
            "server_era": self.server_era,
            "shapes": {
                k: {"sent": r.sent, "answered": r.answered, "how": r.how, "back": r.back, "recorded": r.recorded, "ended": r.ended, "silent": r.silent}
                for k, r in self.shapes.items()
            },
            "server_requests": len(self.server_requests),
            "seconds": self.seconds,
        }


class Sender:
    """Writes to a process's stdin on a thread, so that a server that stops
    reading (without exiting) cannot block the driver: the write is given up
    after a timeout and the caller kills the server."""

    def __init__(self, peer: Process) -> None:
        self.peer = peer

    def send(self, data: bytes, timeout: float) -> bool:
        done: "queue.Queue[bool]" = queue.Queue()
        threading.Thread(target=lambda: done.put(self.peer.send(data)), daemon=True).start()
        try:
            return done.get(timeout=timeout)
        except queue.Empty:
            return False


class EraDriver:
    """One server configuration in one era, sent every shape."""

    def __init__(self, name: str, command: Sequence[str], env: Optional[Dict[str, str]], era: str, record: Optional[Path] = None) -> None:
        self.stats = EraStats(name, era)
        self.record = record  # the guard's recording (--record), read at the end
        self.command = list(command)
        self.env = env
        self.era = Era(era)
        self.peer: Optional[Process] = None
        self.next = 0
        # id key -> the shape whose request it is, while unanswered
        self.waiting: Dict[Tuple[str, object], str] = {}

    def fresh(self, what: str) -> str:
        self.next += 1
        return f"{what}-{self.next}"

    def start(self) -> None:
        self.stats.starts += 1
        self.peer = Process(self.command, self.env)
        opening = self.fresh("open")
        self.peer.send(self.era.opening(opening))
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                line = self.peer.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                text = self.peer.stderr_text()
                self.peer.close(kill=True)
                self.peer = None
                raise RuntimeError(f"{self.stats.name} ({self.era.name}): {self.command} did not answer its opening request:\n{text}")
            message = _json(line)
            if isinstance(message, dict) and message.get("id") == opening and "method" not in message:
                # A modern request to a server that only knows the handshake
                # is answered with an error: the session still goes on (the
                # shapes count answers, whatever they say).
                if not self.stats.server_era:
                    self.stats.server_era = server_era(message)
                break
            self.seen(line, message, None)
        self.peer.send(self.era.opened())

    def stop(self, kill: bool = False) -> None:
        if self.peer is not None:
            self.stats.stderr_tail = self.peer.stderr_text()
            self.peer.close(kill=kill)
            self.peer = None
        self.waiting.clear()  # what a dead server owed, it owes no more

    def seen(self, line: bytes, message: object, result: Optional[ShapeResult]) -> Optional[object]:
        """Takes one line back; returns the response's id if it answered a
        request some shape is waiting for."""
        if result is not None and len(result.got) < 20:
            result.got.append(line[:300])
        if not isinstance(message, dict):
            return None
        if isinstance(message.get("method"), str):
            if "id" in message:
                self.stats.server_requests.append(line[:300])
                if self.era.name == "legacy":
                    self.answer(message)
            return None
        if "id" not in message or not isinstance(message["id"], (str, int)) or isinstance(message["id"], bool):
            return None
        shape = self.waiting.pop(id_key(message["id"]), None)
        if shape is not None:
            r = self.stats.shapes[shape]
            r.answered += 1
            error = message.get("error")
            r.how.append(str(error.get("code")) if isinstance(error, dict) else "r")
            return message["id"]
        return None

    def answer(self, request: dict) -> None:
        """A legacy server's own request, answered as a client with nothing
        to offer (as harness.Driver.answer does). A modern server writes no
        requests on stdio (and a modern client no responses): counted,
        never answered."""
        method = request["method"]
        if method in ("roots/list", "ping"):
            reply = {"jsonrpc": "2.0", "id": request["id"], "result": {"roots": []} if method == "roots/list" else {}}
        else:
            reply = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}}
        if self.peer is not None:
            self.peer.send(encode(reply))

    def shape(self, name: str, build) -> None:
        if self.peer is None:
            self.start()
        assert self.peer is not None
        self.next += 1
        line, ids = build(self.era, self.next)
        result = ShapeResult(sent=len(ids), sent_bytes=line[:400], stray=name in STRAY)
        self.stats.shapes[name] = result
        mine = {id_key(i) for i in ids}
        for key in mine:
            self.waiting[key] = name
        wait = self.fresh("wait")
        timeout = LONG_TIMEOUT if len(line) > MIB else WAIT_TIMEOUT
        sent = Sender(self.peer).send(line + b"\n" + self.era.wait(wait), timeout)

        state = "alive" if sent else "ended"
        answered = False
        deadline = time.monotonic() + timeout
        while sent:
            if answered and not (mine & self.waiting.keys()):
                break
            try:
                back = self.peer.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                state = "alive" if answered else "silent"
                break
            if back is None:
                state = "ended"
                break
            back = back[:-1] if back.endswith(b"\n") else back
            message = _json(back)
            if isinstance(message, dict) and message.get("id") == wait and "method" not in message:
                answered = True
                deadline = min(deadline, time.monotonic() + GRACE)
                continue
            if self.seen(back, message, result) is None:
                result.back += 1
        if state == "ended" and sent is False and self.peer.process.poll() is None:
            state = "silent"  # the write never finished: the server stopped reading
        result.ended = state == "ended"
        result.silent = state == "silent"
        if state != "alive":
            self.stop(kill=True)

    def run(self, shapes: Sequence = SHAPES) -> EraStats:
        began = time.monotonic()
        try:
            for name, _, build in shapes:
                self.shape(name, build)
            if self.peer is not None and self.waiting:
                # What is still owed may come after a last awaited answer.
                self.shape_wait()
        finally:
            self.stop()
            self.stats.seconds = round(time.monotonic() - began, 1)
            if self.record is not None:
                self.read_record()
        return self.stats

    def read_record(self) -> None:
        """The guard's action for each stray response, from its recording."""
        marks = {"stray-result": b'"stray-result-', "stray-error": b'"stray-error-', "stray-null": STRAY_NULL_MESSAGE.encode()}
        try:
            lines = self.record.read_bytes().splitlines()
        except OSError:
            return
        for raw in lines:
            if not any(mark in raw for mark in marks.values()):
                continue
            entry = _json(raw)
            if not isinstance(entry, dict) or entry.get("dir") != "to_server":
                continue
            for name, mark in marks.items():
                if mark.decode() in str(entry.get("line", "")) and name in self.stats.shapes:
                    actions = self.stats.shapes[name].recorded.split("+") if self.stats.shapes[name].recorded else []
                    self.stats.shapes[name].recorded = "+".join(actions + [str(entry.get("action"))])

    def shape_wait(self) -> None:
        assert self.peer is not None
        wait = self.fresh("wait")
        if not self.peer.send(self.era.wait(wait)):
            return
        deadline = time.monotonic() + WAIT_TIMEOUT
        while self.waiting:
            try:
                back = self.peer.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return
            if back is None:
                return
            message = _json(back)
            if isinstance(message, dict) and message.get("id") == wait and "method" not in message:
                deadline = min(deadline, time.monotonic() + GRACE)
                continue
            self.seen(back.rstrip(b"\n"), message, None)


def server_era(answer: dict) -> str:
    """The era the server's answer to the opening request says it speaks."""
    result = answer.get("result")
    if isinstance(result, dict):
        if isinstance(result.get("supportedVersions"), list):
            return "2026-07-28" if MODERN_VERSION in result["supportedVersions"] else "versions " + ",".join(map(str, result["supportedVersions"]))
        return str(result.get("protocolVersion"))
    error = answer.get("error")
    return f"error {error.get('code')}" if isinstance(error, dict) else "?"


def _json(line: bytes) -> object:
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return None


def table(results: Dict[Tuple[str, str, str], EraStats], sdks: Sequence[str], modes: Sequence[Tuple[str, str]], how: bool = False) -> str:
    """A markdown table: one row per server, transport and era; a cell per
    shape, requests answered with their id / requests with a readable id
    (how: and each answer, r for a result or the error's code), marked
    `ended` when the session ended on it, `silent` when the request after
    it went unanswered."""
    head = "| server | transport | era | server speaks | " + " | ".join(title for _, title, _ in SHAPES) + " | sessions ended | awaited requests unanswered | seconds |"
    rows = [head, "|---|---|---|---|" + "---:|" * (len(SHAPES) + 3)]
    for sdk in sdks:
        for mode, description in modes:
            for era in ERAS:
                s = results.get((sdk, mode, era))
                if s is None:
                    continue
                cells = [s.shapes[name].cell(how) if name in s.shapes else "-" for name, _, _ in SHAPES]
                rows.append(f"| {sdk} | {description} | {era} | {s.server_era} | " + " | ".join(cells) + f" | {s.ended} | {s.silent} | {s.seconds} |")
    return "\n".join(rows)


def failures_text(s: EraStats) -> str:
    """Each shape not fully answered: what was sent and what came back."""
    out = []
    for name, r in s.shapes.items():
        if r.ok() and not r.back:
            continue
        out.append(f"[{s.name} {s.era}] {name}: {r.cell()}")
        sent = r.sent_bytes if len(r.sent_bytes) < 400 else r.sent_bytes[:200] + b"..."
        out.append(f"  sent:  {sent!r}")
        out += [f"  got:   {g!r}" for g in r.got] or ["  got:   (nothing" + (")" if r.ended or r.silent else " but the awaited answer)")]
    if s.server_requests:
        out.append(f"[{s.name} {s.era}] requests the server wrote: {len(s.server_requests)}")
        out += [f"  {r!r}" for r in s.server_requests[:5]]
    return "\n".join(out)


def era_server(sdk: str, mode: str, record: Optional[Path] = None) -> Tuple[List[str], Dict[str, str]]:
    """conftest.py's servers (ours, guard, control), the guard told the MCP
    profile's line limit (its own default is the JSON-RPC profile's) and,
    with `record`, to record every line there."""
    import conftest

    command, env = conftest.server(sdk, mode)
    if mode == "guard":
        recording = ["--record", str(record)] if record is not None else []
        command = [conftest.GUARD, "guard", "--max-line", str(MAX_LINE), *recording, "--", *conftest.SDK_SERVERS[sdk]]
    return command, env


if __name__ == "__main__":
    sdk, mode, era = sys.argv[1], sys.argv[2], sys.argv[3]
    command, env = era_server(sdk, mode)
    stats = EraDriver(f"{sdk}/{mode}", command, env, era).run()
    print(json.dumps(stats.as_dict()))
    print(failures_text(stats))
    print(stats.stderr_tail[-3000:])
