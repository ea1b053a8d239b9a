#!/usr/bin/env python3
"""One session of the official Python MCP SDK's stdio client against the
command line of a recipe in docs/MCP-CONFIGS.md, as an MCP host would run
it: spawn the command, connect (the SDK's default negotiation, which on a
server of the 2025 protocol versions is the initialize handshake), list the
tools, call `echo` with a message. Prints one JSON line with what it got and
exits 0, or says what failed on stderr and exits 1. Run with the SDK's venv
(target/sdk/python/bin/python) by tests/recipes/test_recipes.py.

    recipe_client.py [--timeout S] [--cwd DIR] [--env NAME=VALUE]... [--message TEXT] -- COMMAND [ARGS...]

The command gets the environment the SDK gives a server (its short list of
safe variables: PATH, HOME, ...), plus each --env.
"""

import argparse
import json
import sys

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def session(command: list[str], cwd: str | None, env: dict[str, str], message: str, timeout: float) -> dict:
    params = StdioServerParameters(command=command[0], args=command[1:], cwd=cwd, env=env or None)
    errors: list[str] = []

    async def on_message(incoming) -> None:
        if isinstance(incoming, Exception):
            errors.append(type(incoming).__name__)
            print(f"recipe_client.py: transport error: {incoming!r}", file=sys.stderr)

    with anyio.fail_after(timeout):
        async with Client(params, read_timeout_seconds=timeout, message_handler=on_message) as client:
            info = client.server_info
            tools = await client.list_tools()
            result = await client.call_tool("echo", {"message": message})
            return {
                "protocol_version": client.protocol_version,
                "server": info.name if info else None,
                "tools": [t.name for t in tools.tools],
                "echo": [c.text for c in result.content if getattr(c, "type", None) == "text"],
                "is_error": bool(result.is_error),
                "transport_errors": errors,
            }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--cwd")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--message", default="hello through the guard")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no server command")
    env = dict(item.split("=", 1) for item in args.env)
    try:
        report = anyio.run(session, command, args.cwd, env, args.message, args.timeout)
    except BaseException as error:  # the report is what failed, whatever it was
        print(f"recipe_client.py: session failed: {error!r}", file=sys.stderr)
        return 1
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
