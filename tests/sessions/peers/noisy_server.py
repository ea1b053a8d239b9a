#!/usr/bin/env python3
"""A stdio MCP server with one tool, echo, that writes noise to its stdout
between its real answers: before each answer, the next share of the lines of
NOISE_FILE (every line of it, LF-terminated, in order, spread over the first
SHARES answers). Plain Python (no SDK, no library): the clients under test
must make their way through the noise on their own transports.

    noisy_server.py NOISE_FILE [SHARES]

NOISE_FILE holds the lines the tests chose (tests/sessions/test_clients.py:
every vector line and random lines, leaving out responses, which could
answer the client's own requests). What the client sends back (its answers
to the noise's requests, the library's replies to broken ones) is read and
ignored; only requests are answered: initialize (with the client's protocol
version), ping, tools/list, tools/call of echo, and -32601 for the rest.
When the last share has gone, it says so on stderr ("all N noise lines
sent"), before the answer that follows it.
"""

import json
import sys

ECHO_TOOL = {
    "name": "echo",
    "description": "Returns the text it is given.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}


def main() -> None:
    with open(sys.argv[1], "rb") as f:
        noise = f.read().split(b"\n")
    if noise and noise[-1] == b"":
        noise.pop()
    shares = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    size = -(-len(noise) // shares) if noise else 0
    chunks = [noise[i : i + size] for i in range(0, len(noise), size)] if size else []
    out = sys.stdout.buffer

    def answer(message: dict) -> None:
        if chunks:
            out.write(b"".join(line + b"\n" for line in chunks.pop(0)))
            if not chunks:
                sys.stderr.write(f"noisy_server: all {len(noise)} noise lines sent\n")
                sys.stderr.flush()
        out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        out.flush()

    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict) or not isinstance(message.get("method"), str) or "id" not in message:
            continue  # a notification, a response, the library's reply to a broken request
        id_, method = message["id"], message["method"]
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        if method == "initialize":
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "noisy-server", "version": "1.0.0"},
            }
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": [ECHO_TOOL]}
        elif method == "tools/call" and params.get("name") == "echo":
            text = (params.get("arguments") or {}).get("text", "")
            result = {"content": [{"type": "text", "text": text}], "isError": False}
        else:
            answer({"jsonrpc": "2.0", "id": id_, "error": {"code": -32601, "message": "Method not found"}})
            continue
        answer({"jsonrpc": "2.0", "id": id_, "result": result})


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
