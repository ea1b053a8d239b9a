#!/usr/bin/env python3
"""A stdio MCP server that misbehaves in known ways, on known lines: the
probe's independent check (tests/probe/test_faulty_server.py).

It reads its stdin with the library's reader (the project's Python binding,
profile MCP) and answers every line as the library says a server must: the
line's `reply_server` byte for byte when it has one, a valid request (the
handshake's `initialize`, every `ping`) with a result and the request's own
id text, anything else with nothing. It is a server of the handshake era
only: `server/discover` gets -32601. Except on the lines its flags plant a
fault on:

    --banner TEXT       writes TEXT as a line on stdout when it starts
    --reencode-id LINE  answers the request with its integer id re-encoded
                        as a float (7 -> 7.0)
    --exit LINE         exits with status 3 (before answering)
    --kill LINE         kills itself with SIGKILL
    --hang LINE         stops reading and answering (sleeps until killed)
    --missing LINE      never writes the reply the line is owed
    --unanswered LINE   never answers the (valid) request
    --wrong-text LINE   writes the reply owed with its error message changed
    --wrong-code LINE   writes the reply owed with another error code
    --unasked LINE      writes a response to a line that is owed nothing
    --batch LINE        after the line's answer, writes a batch (a line that
                        is not one message)
    --null-result LINE  answers the (valid) request with `"result":null`, a
                        response MCP refuses (its result is not an object)

And on every line, by these flags:

    --spaced            writes each error reply owed re-encoded by Python's
                        json.dumps (a space after each `:` and `,`): the
                        same meaning, other bytes
    --jsonrpc-messages  writes each error reply owed with JSON-RPC's own
                        message for its code ("Invalid Request", ...)
    --max-line N        reads lines up to N bytes (the library's reader's
                        limit; the MCP profile's by default)

LINE is HEX@N: the line's bytes in hexadecimal (without its LF), and which
time this server, counted across its restarts in --state DIR, receives that
line (1 for the first; `*` for every time). The probe sends some lines twice (every line of
envelope.jsonl is in mcp.jsonl too), and restarts a server that died or
hung, so a line is told apart by what it is and when it comes, not by its
place in one process's input.

Standard library and the binding only; the binding's library is the one
JSONRPC_ENVELOPE_LIB names (PYTHONPATH must hold bindings/python/src).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Dict, Tuple

import jsonrpc_envelope as je

FAULTS = (
    "reencode-id",
    "exit",
    "kill",
    "hang",
    "missing",
    "unanswered",
    "wrong-text",
    "wrong-code",
    "unasked",
    "batch",
    "null-result",
)
# JSON-RPC 2.0's messages for its codes (section 5.1).
JSONRPC_MESSAGES = {
    -32700: "Parse error",
    -32600: "Invalid Request",
    -32601: "Method not found",
    -32602: "Invalid params",
    -32603: "Internal error",
}
BATCH = b'[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}}]'


def planted(text: str) -> Tuple[bytes, int]:
    line, _, nth = text.partition("@")
    return bytes.fromhex(line), 0 if nth == "*" else int(nth or "1")


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--state", required=True, type=Path, help="a folder that counts the lines seen across restarts")
    parser.add_argument("--banner")
    parser.add_argument("--spaced", action="store_true")
    parser.add_argument("--jsonrpc-messages", action="store_true")
    parser.add_argument("--max-line", type=int)
    for fault in FAULTS:
        parser.add_argument(f"--{fault}", type=planted, action="append", default=[], metavar="HEX@N")
    return parser.parse_args()


class Faults:
    """Which fault, if any, is planted on this arrival of a line."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.state: Path = args.state
        self.state.mkdir(parents=True, exist_ok=True)
        self.planted: Dict[bytes, Dict[int, str]] = {}
        for fault in FAULTS:
            for line, nth in getattr(args, fault.replace("-", "_")):
                self.planted.setdefault(line, {})[nth] = fault

    def on(self, line: bytes) -> str:
        at = self.planted.get(line)
        if at is None:
            return ""
        # The count survives the process: written before the fault acts.
        counter = self.state / hashlib.sha256(line).hexdigest()
        seen = int(counter.read_text()) + 1 if counter.exists() else 1
        counter.write_text(str(seen))
        return at.get(seen, at.get(0, ""))


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def result(id_text: str, method: str) -> bytes:
    value = {"ok": True}
    if method == "initialize":
        value = {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "faulty-server", "version": "1"},
        }
    return b'{"jsonrpc":"2.0","id":' + id_text.encode("utf-8", "surrogatepass") + b',"result":' + json.dumps(value).encode() + b"}"


def reworded(reply: str, args: argparse.Namespace) -> str:
    """The reply owed, as --spaced and --jsonrpc-messages have it written
    (each line of a batch's reply on its own)."""
    if not (args.spaced or args.jsonrpc_messages):
        return reply
    out = []
    for one in reply.split("\n"):
        if args.jsonrpc_messages:
            code = json.loads(one)["error"]["code"]
            head, _, _ = one.rpartition(',"message":')
            one = head + ',"message":' + json.dumps(JSONRPC_MESSAGES.get(code, "Server error")) + "}}"
        out.append(spaced(one) if args.spaced else one)
    return "\n".join(out)


def spaced(text: str) -> str:
    """`text` with a space after each `:` and `,` outside its strings, as
    Python's json.dumps writes them; its numbers and strings as they were
    (a re-encoding would change an id's text: 1E+2 becomes 100.0)."""
    out = []
    in_string = escaped = False
    for ch in text:
        out.append(ch)
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in ",:":
            out.append(" ")
    return "".join(out)


def main() -> None:
    args = options()
    faults = Faults(args)
    if args.banner is not None:
        write(args.banner.encode())
    for line, c in je.read_messages(sys.stdin.buffer, profile=je.Profile.MCP, max_line=args.max_line):
        if line is None:
            # Over the limit: owed what its first bytes name (SPEC 10.6 (d)).
            if c.reply_server is not None:
                write(reworded(c.reply_server, args).encode("utf-8", "surrogatepass"))
            continue
        fault = faults.on(line)
        if fault == "exit":
            os._exit(3)
        if fault == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if fault == "hang":
            while True:
                time.sleep(60)
        reply = c.reply_server
        if reply is not None:
            reply = reworded(reply, args)
            if fault == "wrong-code":
                reply = re.sub(
                    r'"code":(-?[0-9]+)', lambda m: '"code":' + ("-32602" if m.group(1) == "-32603" else "-32603"), reply, 1
                )
            if fault == "wrong-text":
                reply = reply.replace('"message":"', '"message":"worded otherwise: ', 1)
            if fault != "missing":
                write(reply.encode("utf-8", "surrogatepass"))
        elif c.kind == je.Kind.REQUEST:
            id_text = c.id
            if fault == "reencode-id":
                id_text = json.dumps(float(int(id_text)))
            if c.method == "server/discover":
                write(b'{"jsonrpc":"2.0","id":' + id_text.encode("utf-8", "surrogatepass") + b',"error":{"code":-32601,"message":"Method not found"}}')
            elif fault == "null-result":
                write(b'{"jsonrpc":"2.0","id":' + id_text.encode("utf-8", "surrogatepass") + b',"result":null}')
            elif fault != "unanswered":
                write(result(id_text, c.method))
        elif fault == "unasked":
            write(b'{"jsonrpc":"2.0","id":"faulty-unasked","result":{}}')
        if fault == "batch":
            write(BATCH)


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
