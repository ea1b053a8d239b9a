#!/usr/bin/env python3
"""A stdio peer for the handshake rule's other cases (SPEC section 9): it
reads two requests, then writes an error that names no request (two are
outstanding), answers both, writes another such error (none is
outstanding), and last sends a request with id "marker", so that its
reader knows every line before it has been read. Standard library only.
"""

import json
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    ids = []
    for line in sys.stdin:
        message = json.loads(line)
        if "method" in message and "id" in message:
            ids.append(message["id"])
        if len(ids) == 2:
            break
    send({"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": "two are outstanding"}})
    for id_ in ids:
        send({"jsonrpc": "2.0", "id": id_, "result": {}})
    send({"jsonrpc": "2.0", "error": {"code": -32000, "message": "none is outstanding"}})
    send({"jsonrpc": "2.0", "id": "marker", "method": "ping"})
    sys.stdin.read()  # until the client closes


if __name__ == "__main__":
    main()
