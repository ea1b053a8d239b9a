#!/usr/bin/env python3
"""A minimal MCP server over stdio, on jsonrpc_envelope, with no MCP SDK.

It reads newline-delimited JSON-RPC from stdin with ``read_messages`` (role
server), and writes one line per reply to stdout; everything else (its log)
goes to stderr, with peer text passed through ``log_value`` so that no peer
can forge a log line. It offers one tool, ``echo``.

Every envelope decision is the library's: what each line is, and the error
reply it is owed (a parse error, a batch, a broken request). The server only
decides its own application answers: the MCP methods it implements, and -32601
for the others.

    python3 examples/python/echo_server.py          # with the package installed
    JSONRPC_ENVELOPE_LIB=target/release python3 examples/python/echo_server.py
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Optional

try:
    import jsonrpc_envelope as je
except ModuleNotFoundError:  # a checkout: use the package's source beside us
    sys.path.insert(
        0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bindings", "python", "src")
    )
    import jsonrpc_envelope as je

PROTOCOL_VERSION = "2025-11-25"
SERVER_INFO = {"name": "jsonrpc-envelope-echo", "version": je.__version__}
ECHO_TOOL = {
    "name": "echo",
    "description": "Returns the text it is given.",
    "inputSchema": {
        "type": "object",
        "properties": {"text": {"type": "string", "description": "The text to echo back."}},
        "required": ["text"],
    },
}

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602


def log(event: str, **fields: Any) -> None:
    """One log line on stderr; every peer value is rendered by log_value."""
    parts = [event]
    for name, value in fields.items():
        if value is None:
            continue
        text = value if isinstance(value, (bytes, str)) else str(value)
        parts.append(f"{name}={je.log_value(text)}")
    sys.stderr.write("echo_server: " + " ".join(parts) + "\n")
    sys.stderr.flush()


class Server:
    def __init__(self, out: Any) -> None:
        self.out = out

    def send(self, text: str) -> None:
        self.out.write(text.encode("utf-8") + b"\n")
        self.out.flush()

    def result(self, id_text: str, result: Any) -> None:
        # The id is echoed exactly as it stood in the request: 7, "a", null,
        # 12345678901234567890 all come back byte for byte.
        body = json.dumps(result, separators=(",", ":"))
        self.send('{"jsonrpc":"2.0","id":%s,"result":%s}' % (id_text, body))

    def error(self, id_text: str, code: int, message: str) -> None:
        body = json.dumps({"code": code, "message": message}, separators=(",", ":"))
        self.send('{"jsonrpc":"2.0","id":%s,"error":%s}' % (id_text, body))

    def handle(self, c: je.Classification) -> None:
        """Answers a request (the library said it is one, with an id)."""
        id_text = c.id
        assert id_text is not None
        method = c.method
        if method == "initialize":
            self.result(
                id_text,
                {
                    "protocolVersion": PROTOCOL_VERSION,
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": SERVER_INFO,
                },
            )
        elif method == "ping":
            self.result(id_text, {})
        elif method == "tools/list":
            self.result(id_text, {"tools": [ECHO_TOOL]})
        elif method == "tools/call":
            self.call_tool(id_text, c.params_bytes)
        else:
            log("unknown method", method=method, id=id_text)
            self.error(id_text, METHOD_NOT_FOUND, "Method not found")

    def call_tool(self, id_text: str, params_bytes: Optional[bytes]) -> None:
        params = parse(params_bytes)
        if not isinstance(params, dict):
            self.error(id_text, INVALID_PARAMS, "Invalid params: tools/call needs an object")
            return
        name = params.get("name")
        if name != "echo":
            log("unknown tool", name=name, id=id_text)
            self.error(id_text, INVALID_PARAMS, f"Unknown tool: {name}")
            return
        arguments = params.get("arguments")
        text = arguments.get("text") if isinstance(arguments, dict) else None
        if not isinstance(text, str):
            self.error(id_text, INVALID_PARAMS, "Invalid params: echo needs a string 'text'")
            return
        self.result(id_text, {"content": [{"type": "text", "text": text}], "isError": False})

    def serve(self, stream: Any) -> None:
        for line, c in je.read_messages(stream, role=je.Role.SERVER):
            if isinstance(c, je.TooLong):
                log("skipped a line too long to read", length=c.length)
                continue
            reply = c.reply()
            if reply is not None:
                # The library's reply for a line that owes one.
                log("answered a broken line", kind=c.kind, reason=c.reason, line=line)
                self.send(reply)
            elif c.kind == je.Kind.REQUEST:
                self.handle(c)
            elif c.kind == je.Kind.NOTIFICATION:
                if c.method != "notifications/initialized":
                    log("ignored a notification", method=c.method)
            elif c.kind == je.Kind.RESPONSE:
                log("ignored a response (this server sends no requests)", id=c.id)
            elif c.kind != je.Kind.EMPTY:
                log("ignored a line", kind=c.kind, line=line)


def parse(raw: Optional[bytes]) -> Any:
    """The params as Python values (the library has checked they are JSON)."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # nested deeper than Python's json reads
        return None


def main() -> int:
    log("started", version=je.__version__, protocol=PROTOCOL_VERSION)
    try:
        Server(sys.stdout.buffer).serve(sys.stdin.buffer)
    except BrokenPipeError:
        # The client went away; don't let Python complain at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
