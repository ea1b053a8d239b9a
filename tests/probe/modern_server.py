#!/usr/bin/env python3
"""A stdio MCP server of revision 2026-07-28 only (no `initialize`, no
`ping`; every request carries its version and capabilities in
`params._meta`), for the probe's tests of its eras (`--era`). Modelled on
faulty_server.py, without the faults.

It reads its stdin with the library's reader (the project's Python binding,
profile MCP) and answers every line as the library says a server must: the
line's `reply_server` byte for byte when it has one (a line over the limit
too), and a valid request (one with no `reply_server`) as a 2026-07-28 server
does, with the request's own id text (`c.id`):

- `initialize`: -32022 UnsupportedProtocolVersion, `data` {"supported":
  ["2026-07-28"], "requested": the `protocolVersion` it asked for} (the
  versioning page: a modern-only server "SHOULD name the protocol versions
  it supports in any error it returns to an `initialize` request"; the
  compatibility matrix leaves the code implementation-defined);
- any method it does not serve (`ping` among them, with or without `_meta`):
  -32601 Method not found;
- `server/discover`, `tools/list`, `tools/call`: first the request's
  `params._meta` (basic/index, "Per-request protocol fields"): a missing or
  mistyped `io.modelcontextprotocol/protocolVersion` (a string) or
  `io.modelcontextprotocol/clientCapabilities` (an object) is -32602 Invalid
  params ("A request missing any required field is malformed; the server
  MUST reject it with JSON-RPC error code -32602"); a version other than
  2026-07-28 is -32022 (naming the versions it supports). Then:
  - `server/discover`: a DiscoverResult (`resultType`, `supportedVersions`
    ["2026-07-28"], `capabilities` {"tools": {}}, `ttlMs`, `cacheScope`, and
    `_meta["io.modelcontextprotocol/serverInfo"]` {"name": "modern-server"});
  - `tools/list`: one tool, `echo` (`ttlMs` and `cacheScope` too);
  - `tools/call` of `echo`: its `text` as text content; another tool, or
    arguments without a string `text`: -32602.
  Every result carries `resultType: "complete"` and the serverInfo `_meta`.
- notifications and responses: nothing.

    PYTHONPATH=bindings/python/src \\
    JSONRPC_ENVELOPE_LIB=target/release/libjsonrpc_envelope.so \\
        python3 tests/probe/modern_server.py

Standard library and the binding only.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Optional

import jsonrpc_envelope as je

VERSION = "2026-07-28"
SUPPORTED = [VERSION]
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": "modern-server", "version": "1"}}
ECHO_TOOL = {
    "name": "echo",
    "description": "Returns the text it is given.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
# Served only with the modern `_meta`; anything else is -32601.
SERVED = ("server/discover", "tools/list", "tools/call")


def write(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def encode(value: Any) -> bytes:
    # ASCII only: a lone surrogate from the request comes back escaped.
    return json.dumps(value, separators=(",", ":")).encode()


def respond(id_text: str, member: str, value: Any) -> None:
    write(b'{"jsonrpc":"2.0","id":' + id_text.encode("utf-8", "surrogatepass") + b',"' + member.encode() + b'":' + encode(value) + b"}")


def result(id_text: str, body: dict) -> None:
    respond(id_text, "result", {"resultType": "complete", **body, "_meta": SERVER_INFO})


def error(id_text: str, code: int, message: str, data: Any = None) -> None:
    value: dict = {"code": code, "message": message}
    if data is not None:
        value["data"] = data
    respond(id_text, "error", value)


def unsupported(id_text: str, requested: Any) -> None:
    data: dict = {"supported": SUPPORTED}
    if isinstance(requested, str):
        data["requested"] = requested
    error(id_text, -32022, f"Unsupported protocol version (supported: {', '.join(SUPPORTED)})", data)


def params_of(c: Any) -> Optional[dict]:
    raw = c.params_bytes
    if raw is None:
        return {}
    try:
        params = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return params if isinstance(params, dict) else None


def meta_fault(params: Optional[dict]) -> Optional[str]:
    """What is wrong with the request's `_meta` (None: nothing)."""
    meta = (params or {}).get("_meta")
    if not isinstance(meta, dict):
        return "params._meta is missing"
    if not isinstance(meta.get(PROTOCOL_VERSION_KEY), str):
        return f'params._meta["{PROTOCOL_VERSION_KEY}"] is missing'
    if not isinstance(meta.get(CLIENT_CAPABILITIES_KEY), dict):
        return f'params._meta["{CLIENT_CAPABILITIES_KEY}"] is missing'
    return None


def serve(id_text: str, method: Optional[str], params: Optional[dict]) -> None:
    if method == "initialize":
        unsupported(id_text, (params or {}).get("protocolVersion"))
        return
    if method not in SERVED:
        error(id_text, -32601, "Method not found")
        return
    fault = meta_fault(params)
    if fault is not None:
        error(id_text, -32602, f"Invalid params: {fault}")
        return
    assert params is not None
    requested = params["_meta"][PROTOCOL_VERSION_KEY]
    if requested not in SUPPORTED:
        unsupported(id_text, requested)
    elif method == "server/discover":
        result(id_text, {"supportedVersions": SUPPORTED, "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "public"})
    elif method == "tools/list":
        result(id_text, {"tools": [ECHO_TOOL], "ttlMs": 0, "cacheScope": "public"})
    else:
        name = params.get("name")
        arguments = params.get("arguments")
        if name != "echo":
            error(id_text, -32602, f"Unknown tool: {name}" if isinstance(name, str) else "Invalid params: no tool name")
        elif not isinstance(arguments, dict) or not isinstance(arguments.get("text"), str):
            error(id_text, -32602, "Invalid arguments for tool echo: missing required property 'text'")
        else:
            result(id_text, {"content": [{"type": "text", "text": arguments["text"]}], "isError": False})


def main() -> None:
    # `modern_server.py [RECORD]`: each line read (under the limit) is
    # appended to RECORD, hex, one per line.
    record = open(sys.argv[1], "a", encoding="ascii") if len(sys.argv) > 1 else None
    for line, c in je.read_messages(sys.stdin.buffer, profile=je.Profile.MCP):
        if record is not None and line is not None:
            record.write(line.hex() + "\n")
            record.flush()
        reply = c.reply_server
        if reply is not None:
            # Over the limit too (line is None): owed what its first bytes
            # name (SPEC 10.6 (d)).
            write(reply.encode("utf-8", "surrogatepass"))
        elif line is not None and c.kind == je.Kind.REQUEST and c.id is not None:
            serve(c.id, c.method, params_of(c))


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        pass
