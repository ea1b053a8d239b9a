#!/usr/bin/env python3
"""A stdio MCP server whose answer to tools/list is not valid MCP: its
`result` is an array, not an object (SPEC section 10.3). It answers
initialize and ping as it should, and any other request with -32601.
Standard library only; for the substitutes of the client transport."""

import json
import sys


def send(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message or "method" not in message:
            continue  # notifications and responses
        id_text = json.dumps(message["id"])
        method = message["method"]
        if method == "initialize":
            result = {
                "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "invalid-response-server", "version": "0"},
            }
            send('{"jsonrpc":"2.0","id":%s,"result":%s}' % (id_text, json.dumps(result)))
        elif method == "ping":
            send('{"jsonrpc":"2.0","id":%s,"result":{}}' % id_text)
        elif method == "tools/list":
            send('{"jsonrpc":"2.0","id":%s,"result":[{"name":"echo"}]}' % id_text)
        else:
            send('{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}' % id_text)


if __name__ == "__main__":
    main()
