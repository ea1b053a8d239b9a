#!/usr/bin/env python3
"""A stdio server that answers `initialize` with an error that names no
request, `{"jsonrpc":"2.0","id":null,"error":{...}}`, as a server does that
could not read its client's request (JSON-RPC 2.0 section 5); any other
request gets -32601 with its own id. Standard library only; for the tests of
the SDK transports' handshake rule (SPEC section 9).

    unattributed_error_server.py [--no-id]

--no-id leaves the id out instead of writing null (MCP allows either).
"""

import json
import sys

ERROR = {"code": -32002, "message": "initialize refused: this server is read-only"}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    no_id = "--no-id" in sys.argv[1:]
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue  # notifications and responses
        if message["method"] == "initialize":
            reply = {"jsonrpc": "2.0", "error": ERROR}
            if not no_id:
                reply["id"] = None
        else:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}
        send(reply)


if __name__ == "__main__":
    main()
