#!/usr/bin/env python3
"""The official Python SDK's client (mcp.Client) in one protocol era, for
one session against a server command: connect, list the tools, call echo
once for each TEXT. Prints one JSON line, {"mode": ..., "protocol_version":
..., "tools": [...], "echo": [[texts of call 1], ...], "is_error": [...],
"transport_errors": N}, and exits 0; or says what failed on stderr and
exits 1.

    era_client.py --mode legacy|auto|2026-07-28 [--transport sdk|ours]
        [--timeout SECONDS] --text TEXT [--text TEXT ...] -- COMMAND [ARGS...]

--mode is the Client's `mode`: `legacy` (the initialize handshake and
ping-era requests), `auto` (the SDK's default: a `server/discover` probe,
then the 2026-07-28 era where the server answers it, the handshake where it
does not), or a modern version (that era adopted at once, no probe: every
request with its `_meta`). --transport picks the client's stdio transport:
the SDK's own (`mcp.client.stdio.stdio_client`, the default) or this
project's (`jsonrpc_envelope.mcpstdio.stdio_client`).
"""

import argparse
import json
import os
import sys
from typing import Any, List

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def session(command: List[str], mode: str, transport: str, texts: List[str], timeout: float) -> dict:
    errors: List[str] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            errors.append(type(message).__name__)
            print(f"era_client: transport error: {message!r}", file=sys.stderr)

    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    if transport == "ours":
        from jsonrpc_envelope.mcpstdio import stdio_client

        server: Any = stdio_client(params)
    else:
        server = params
    echoes, is_error = [], []
    with anyio.fail_after(timeout + 10):
        async with Client(server, mode=mode, read_timeout_seconds=timeout, message_handler=on_message) as client:
            version = client.protocol_version
            tools = await client.list_tools()
            for text in texts:
                result = await client.call_tool("echo", {"text": text})
                echoes.append([c.text for c in result.content if getattr(c, "type", None) == "text"])
                is_error.append(bool(result.is_error))
    return {
        "mode": mode,
        "transport": transport,
        "protocol_version": version,
        "tools": [t.name for t in tools.tools],
        "echo": echoes,
        "is_error": is_error,
        "transport_errors": len(errors),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--transport", choices=("sdk", "ours"), default="sdk")
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--text", action="append", default=[])
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    try:
        report = anyio.run(session, command, args.mode, args.transport, args.text, args.timeout)
    except BaseException as error:  # noqa: BLE001 (an exception group, a timeout: all a failed session)
        sys.stderr.write(f"era_client: session failed: {error!r}\n")
        sys.exit(1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
