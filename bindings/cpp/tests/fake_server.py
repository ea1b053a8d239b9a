#!/usr/bin/env python3
"""Fake MCP servers on stdio, for the tests of examples/cpp/host.cpp.

    fake_server.py good     a banner and a JSON log line on stdout, then
                            answers initialize, tools/list and tools/call of
                            echo; sends the host a ping and a broken request,
                            and writes one answer in two pieces
    fake_server.py refuse   a banner, then answers initialize with an error
                            whose id is null, then hangs for 30 s: a host
                            that waits for its timeout is too slow
    fake_server.py invalid  a banner, then answers initialize with a result
                            that is not an object (no MCP SDK reads it), then
                            hangs for 30 s
    fake_server.py silent   reads and never answers
    fake_server.py exit     a banner, then exits without answering
"""

import json
import sys
import time


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write("fake-server: " + text + "\n")
    sys.stderr.flush()


def good():
    for raw in sys.stdin:
        message = json.loads(raw)
        method = message.get("method")
        if method is None:
            log("the host answered: " + raw.strip())
            continue
        if "id" not in message:
            log("notification " + method)
            continue
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        if method == "initialize":
            send({"level": "info", "msg": "initializing"})  # a JSON log line, not JSON-RPC
            version = message["params"]["protocolVersion"]
            reply["result"] = {
                "protocolVersion": version,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake-server", "version": "0.1"},
            }
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
            send({"jsonrpc": "2.0", "id": 99, "method": ["not", "a", "string"]})
            reply["result"] = {"tools": [{"name": "echo", "description": "Echoes its text",
                                          "inputSchema": {"type": "object"}}]}
        elif method == "tools/call":
            text = message["params"]["arguments"]["text"]
            reply["result"] = {"content": [{"type": "text", "text": text}]}
            whole = json.dumps(reply, separators=(",", ":")) + "\n"
            sys.stdout.write(whole[:20])  # one line in two writes
            sys.stdout.flush()
            time.sleep(0.05)
            sys.stdout.write(whole[20:])
            sys.stdout.flush()
            continue
        else:
            reply["error"] = {"code": -32601, "message": "Method not found"}
        send(reply)
    log("stdin closed, exiting")


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    say("fake-server 0.1 starting (a banner on stdout)")
    if mode == "good":
        good()
    elif mode == "refuse":
        sys.stdin.readline()
        send({"jsonrpc": "2.0", "id": None,
              "error": {"code": -32602, "message": "Unsupported protocol version: this server speaks 2024-11-05"}})
        time.sleep(30)
    elif mode == "invalid":
        request = json.loads(sys.stdin.readline())
        send({"jsonrpc": "2.0", "id": request["id"], "result": "2024-11-05"})
        time.sleep(30)
    elif mode == "silent":
        time.sleep(30)
    elif mode == "exit":
        sys.exit(3)
    else:
        sys.exit("fake_server.py: unknown mode " + mode)


if __name__ == "__main__":
    main()
