"""Issue #14's abuse lines against a stdio server, one at a time, each
followed by a ping: what came back for it, and whether the server lived.

    python3 tests/guard/abuse.py     # the table, for the official SDKs' servers
                                     # and the naive one, without and with the guard
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from peers import GUARD_PROFILE, SERVERS, guarded, vectors
from mcp_peer import Server  # tests/support, on the path by peers.py

LONG_LINE = 64 << 20


def abuse_lines(profile: str = GUARD_PROFILE) -> list[tuple[str, bytes, str | None]]:
    """(label, the bytes sent with their line ending, the vector's server
    reply by `profile`, or None). The vectors are the Rust test's
    (cli/tests/guard_naive.rs); the lines are the same in either profile."""
    v = vectors(profile)

    def line(name: str) -> bytes:
        text = v[name]["line"].encode()
        return text if text.endswith(b"\n") else text + b"\n"

    named = [
        ("id null", "request with id null is a request, answered with id null"),
        ("object id", "object id is an invalid request"),
        ("numeric method", "number method with a string id echoes the id"),
        ("batch", "batch of one request"),
        ("not JSON", "plain text"),
        ("bare string", "string"),
        ("empty line", "empty line"),
        ("JSON log object", "log line"),
        ("CRLF line", "CRLF line"),
    ]
    lines = [(label, line(name), v[name]["reply_server"]) for label, name in named]
    lines.append(("64 MiB line", b"x" * LONG_LINE + b"\n", None))
    return lines


@dataclass
class Outcome:
    label: str
    replies: list[str] = field(default_factory=list)
    # "alive": the ping after the line was answered; "exited": the server's
    # stdout ended; "silent": no answer to the ping within mcp_peer.PATIENCE.
    state: str = "alive"

    def cell(self) -> str:
        said = "; ".join(summary(r) for r in self.replies) or "no reply"
        return said if self.state == "alive" else f"{said}, server {self.state}"


def summary(reply: str) -> str:
    """A reply in a table cell: its error code, or its id for a result."""
    try:
        message = json.loads(reply)
    except ValueError:
        return "non-JSON: " + reply[:40]
    if isinstance(message, dict) and isinstance(message.get("error"), dict):
        return f"error {message['error'].get('code')} (id {json.dumps(message.get('id'))})"
    if isinstance(message, dict) and "result" in message:
        return f"result (id {json.dumps(message.get('id'))})"
    return reply[:60]


def run(command: list[str]) -> tuple[list[Outcome], Server]:
    """Every abuse line against `command`; the server is started again
    after each line that ends it."""
    server = Server(command)
    outcomes = []
    for label, line, _ in abuse_lines():
        replies, state = server.probe(line)
        outcomes.append(Outcome(label, [r.decode("utf-8", "replace") for r in replies], state))
    return outcomes, server


def main() -> None:
    names = [a for a in sys.argv[1:]] or list(SERVERS)
    labels = [label for label, _, _ in abuse_lines()]
    for name in names:
        without, plain = run(SERVERS[name])
        plain.close()
        with_guard, guarded_server = run(guarded(SERVERS[name], "--quiet"))
        guarded_server.close()
        print(f"\n{name} server: started {plain.starts} times without the guard, {guarded_server.starts} with it\n")
        print("| line | without the guard | with the guard |")
        print("|---|---|---|")
        for label, a, b in zip(labels, without, with_guard):
            print(f"| {label} | {a.cell()} | {b.cell()} |")


if __name__ == "__main__":
    main()
