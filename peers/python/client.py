#!/usr/bin/env python3
"""The official Python MCP SDK's stdio client, driving one session against a
server command: connect (server/discover, or initialize on a server that
does not know it), list the tools, call `echo`. Prints one JSON line with
what it got and exits 0, or says what failed on stderr and exits 1. The
report counts the transport errors the SDK handed the session (lines from
the server it could not read), which it logs and otherwise survives.

    client.py [--timeout SECONDS] -- COMMAND [ARGS...]
"""

import argparse
import json
import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def session(command: list[str], timeout: float) -> dict:
    params = StdioServerParameters(command=command[0], args=command[1:])
    errors: list[str] = []

    async def on_message(message) -> None:
        if isinstance(message, Exception):
            errors.append(type(message).__name__)
            print(f"client.py: transport error: {type(message).__name__}", file=sys.stderr)

    with anyio.fail_after(timeout):
        async with Client(params, read_timeout_seconds=timeout, message_handler=on_message) as client:
            tools = await client.list_tools()
            result = await client.call_tool("echo", {"text": "hello through stdio"})
            texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
            return {
                "sdk": "python",
                "tools": [t.name for t in tools.tools],
                "echo": texts,
                "is_error": bool(result.is_error),
                "transport_errors": len(errors),
            }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no server command")
    try:
        report = anyio.run(session, command, args.timeout)
    except BaseException as error:  # the report is what failed, whatever it was
        print(f"client.py: session failed: {error!r}", file=sys.stderr)
        return 1
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
