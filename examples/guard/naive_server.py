#!/usr/bin/env python3
"""A deliberately naive MCP server over stdio, of the kind the guard is for
(`jsonrpc-envelope guard -- python3 naive_server.py`). Standard library only.

What makes it naive, on purpose:
- it writes to stdout what many servers write there: a banner, a JSON log
  line, plain log lines and print() debugging, between its messages;
- it trusts its input: a line it cannot parse (an empty one included), a
  message that is not an object, a method that is not a string, or an id
  that is not a string, a number or null makes it exit at once (status 3);
- asked to echo "send a broken request", it first sends its host a request
  whose method is a number.

It answers requests: initialize, ping, tools/list, tools/call of its one
tool `echo`; any other method is -32601. Notifications and responses are
read and ignored.

    naive_server.py [--log FILE]

--log appends every line it reads, exactly as read, to FILE: a test's proof
of what reached it.
"""

import json
import sys

TOOL = {
    "name": "echo",
    "description": "Returns the text it is given.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
BROKEN_REQUEST = b'{"jsonrpc":"2.0","id":"a","method":7}'


def say(data: bytes) -> None:
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def send(message: dict) -> None:
    say(json.dumps(message, separators=(",", ":")).encode())


def die(why: str) -> None:
    sys.stderr.write(f"naive-server: {why}; exiting\n")
    sys.exit(3)


def answer(method: str, params: dict):
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "naive-server", "version": "0.1"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call" and params.get("name") == "echo":
        text = params.get("arguments", {}).get("text", "")
        print(f"echo: {text}", flush=True)  # print() debugging, to stdout
        if text == "send a broken request":
            say(BROKEN_REQUEST)
        return {"content": [{"type": "text", "text": text}]}
    return None


def main() -> None:
    log = None
    if sys.argv[1:2] == ["--log"]:
        log = open(sys.argv[2], "ab")
    say(b"naive-server 0.1 listening on stdio")
    send({"level": "info", "msg": "ready", "tools": ["echo"]})
    for line in sys.stdin.buffer:
        if log:
            log.write(line)
            log.flush()
        try:
            message = json.loads(line)
        except ValueError as error:
            die(f"cannot parse a line ({error})")
        if not isinstance(message, dict):
            die(f"a message that is not an object: {type(message).__name__}")
        if "method" not in message:
            continue  # a response: read and ignored
        method, params = message["method"], message.get("params") or {}
        if not isinstance(method, str):
            die("a method that is not a string")
        if "id" not in message:
            continue  # a notification
        id_ = message["id"]
        if isinstance(id_, bool) or not isinstance(id_, (str, int, float, type(None))):
            die("an id that is not a string, a number or null")
        say(f"handling {method}".encode())  # a plain log line, to stdout
        result = answer(method, params)
        if result is None:
            send({"jsonrpc": "2.0", "id": id_, "error": {"code": -32601, "message": f"Method not found: {method}"}})
        else:
            send({"jsonrpc": "2.0", "id": id_, "result": result})


if __name__ == "__main__":
    main()
