#!/usr/bin/env python3
"""A stdio MCP server with one planted fault, for the tests of the SDK
transports. It answers initialize and ping as a server should, and any other
request with -32601 and its own id, except where the fault says otherwise.
Standard library only.

    faulty_server.py --unattributed-initialize-error [--no-id]
    faulty_server.py --tools-list-array

--unattributed-initialize-error answers initialize with an error that names
no request, `{"jsonrpc":"2.0","id":null,"error":{...}}`, as a server does
that could not read its client's request (JSON-RPC 2.0 section 5), for the
handshake rule (SPEC section 9); --no-id leaves the id out instead of
writing null (MCP allows either).

--tools-list-array answers tools/list with a `result` that is an array, not
an object: not valid MCP (SPEC section 10.3), for the client transports'
substitutes.
"""

import json
import sys

ERROR = {"code": -32002, "message": "initialize refused: this server is read-only"}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def reply(message: dict, faults: set) -> dict:
    method, id_ = message["method"], message["id"]
    if method == "initialize" and "--unattributed-initialize-error" in faults:
        refusal = {"jsonrpc": "2.0", "error": ERROR}
        if "--no-id" not in faults:
            refusal["id"] = None
        return refusal
    if method == "initialize":
        result = {
            "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "faulty-server", "version": "0"},
        }
        return {"jsonrpc": "2.0", "id": id_, "result": result}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": id_, "result": {}}
    if method == "tools/list" and "--tools-list-array" in faults:
        return {"jsonrpc": "2.0", "id": id_, "result": [{"name": "echo"}]}
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32601, "message": "Method not found"}}


def main() -> None:
    faults = set(sys.argv[1:])
    known = {"--unattributed-initialize-error", "--no-id", "--tools-list-array"}
    if not faults <= known:
        sys.exit("faulty_server.py: unknown option(s) %s" % " ".join(sorted(faults - known)))
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue  # notifications and responses
        send(reply(message, faults))


if __name__ == "__main__":
    main()
