#!/usr/bin/env python3
"""A stdio MCP server that misbehaves in known ways, on known lines: the
probe's independent check (tests/probe/test_faulty_server.py).

It reads its stdin with the library's reader (the project's Python binding,
profile MCP) and answers every line as the library says a server must: the
line's `reply_server` byte for byte when it has one, a valid request (the
handshake's `initialize`, every `ping`) with a result and the request's own
id text, anything else with nothing. Except on the lines its flags plant a
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
    --unasked LINE      writes a response to a line that is owed nothing
    --batch LINE        after the line's answer, writes a batch (a line that
                        is not one message)

LINE is HEX@N: the line's bytes in hexadecimal (without its LF), and which
time this server, counted across its restarts in --state DIR, receives that
line (1 for the first). The probe sends some lines twice (every line of
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
import signal
import sys
import time
from pathlib import Path
from typing import Dict, Tuple

import jsonrpc_envelope as je

FAULTS = ("reencode-id", "exit", "kill", "hang", "missing", "unanswered", "wrong-text", "unasked", "batch")
BATCH = b'[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}}]'


def planted(text: str) -> Tuple[bytes, int]:
    line, _, nth = text.partition("@")
    return bytes.fromhex(line), int(nth or "1")


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--state", required=True, type=Path, help="a folder that counts the lines seen across restarts")
    parser.add_argument("--banner")
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
        return at.get(seen, "")


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


def main() -> None:
    args = options()
    faults = Faults(args)
    if args.banner is not None:
        write(args.banner.encode())
    for line, c in je.read_messages(sys.stdin.buffer, profile=je.Profile.MCP):
        if line is None:
            # Over the limit: owed what its first bytes name (SPEC 10.6 (d)).
            if c.reply_server is not None:
                write(c.reply_server.encode("utf-8", "surrogatepass"))
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
            if fault == "wrong-text":
                reply = reply.replace('"message":"', '"message":"worded otherwise: ', 1)
            if fault != "missing":
                write(reply.encode("utf-8", "surrogatepass"))
        elif c.kind == je.Kind.REQUEST:
            id_text = c.id
            if fault == "reencode-id":
                id_text = json.dumps(float(int(id_text)))
            if fault != "unanswered":
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
