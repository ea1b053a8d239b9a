#!/usr/bin/env python3
"""A 2026-07-28 MCP server on stdio (the standard library only, no SDK)
that breaks one rule of its era on purpose: before it answers a
`tools/call`, it writes requests of its own to stdout (`ping`, `roots/list`,
`sampling/createMessage`, `elicitation/create`), which a 2026-07-28 server
must not write on stdio (the stdio page: "The server MUST NOT write JSON-RPC
requests to stdout"; server-to-client interactions ride in
`InputRequiredResult`s). Everything the client writes back is recorded, one
JSON object per line, to RECORD: {"kind": "response"|"request"|
"notification"|"other", "line": TEXT}.

    modern_server.py RECORD

It answers `server/discover` (2026-07-28 only), `tools/list` (one tool,
`echo`) and `tools/call` of echo, each with `resultType: complete`;
`initialize` with the error a modern-only server gives (-32022, naming the
versions it supports); anything else with -32601. It answers the tools/call
PAUSE seconds after its own requests, without waiting for the client's
answers to them, then keeps reading until stdin ends.
"""

import json
import sys
import time

PAUSE = 0.3
SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": "modern-rule-breaker", "version": "1"}}
ECHO_TOOL = {
    "name": "echo",
    "description": "Returns the text it is given.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
# The server's own requests, which its era forbids on stdio.
OWN_REQUESTS = [
    {"jsonrpc": "2.0", "id": "srv-ping", "method": "ping"},
    {"jsonrpc": "2.0", "id": "srv-roots", "method": "roots/list"},
    {
        "jsonrpc": "2.0",
        "id": "srv-sampling",
        "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10},
    },
    {
        "jsonrpc": "2.0",
        "id": "srv-elicit",
        "method": "elicitation/create",
        "params": {"message": "a question", "requestedSchema": {"type": "object", "properties": {}}},
    },
]


def write(message: dict) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def result(id: object, body: dict) -> None:
    write({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", **body, "_meta": SERVER_INFO}})


def error(id: object, code: int, message: str, data: object = None) -> None:
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    write({"jsonrpc": "2.0", "id": id, "error": err})


def main() -> None:
    record = open(sys.argv[1], "a", encoding="utf-8")
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\n").decode("utf-8", "replace")
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            kind = "other"
        elif isinstance(message.get("method"), str):
            kind = "request" if "id" in message else "notification"
        else:
            kind = "response"
        record.write(json.dumps({"kind": kind, "line": line}) + "\n")
        record.flush()
        if kind != "request":
            continue
        id, method = message["id"], message["method"]
        if method == "server/discover":
            result(id, {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}, "ttlMs": 0, "cacheScope": "private"})
        elif method == "initialize":
            error(id, -32022, "Unsupported protocol version", {"supported": ["2026-07-28"], "requested": (message.get("params") or {}).get("protocolVersion")})
        elif method == "tools/list":
            result(id, {"tools": [ECHO_TOOL], "ttlMs": 0, "cacheScope": "private"})
        elif method == "tools/call":
            for own in OWN_REQUESTS:
                write(own)
            time.sleep(PAUSE)  # the client's answers to them, if any, come before it may close
            text = ((message.get("params") or {}).get("arguments") or {}).get("text", "")
            result(id, {"content": [{"type": "text", "text": text}], "isError": False})
        else:
            error(id, -32601, "Method not found", method)


if __name__ == "__main__":
    main()
