#!/usr/bin/env python3
"""The official Python SDK's client (mcp.Client) on this project's
stdio_client (jsonrpc_envelope.mcpstdio), for one session against a server
command: initialize, list the tools, call echo once for each TEXT. Prints one
JSON line, {"tools": [...], "echo": [[texts of call 1], ...],
"transport_errors": N, "error_records": N}, and exits 0; or says what failed
on stderr and exits 1. transport_errors counts the exceptions the transport
handed the session; error_records the transport's log records at error level
(a line the SDK's own validation refused, SPEC 10.4).

    python_client.py [--timeout SECONDS] --text TEXT [--text TEXT ...] -- COMMAND [ARGS...]
"""

import argparse
import json
import logging
import os
import sys
from typing import Any, List

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from jsonrpc_envelope.mcpstdio import stdio_client


class Count(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


async def session(command: List[str], texts: List[str], timeout: float) -> dict:
    errors: List[Exception] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            errors.append(message)

    params = StdioServerParameters(command=command[0], args=command[1:], env=dict(os.environ))
    echoes = []
    with anyio.fail_after(timeout + 10):
        async with Client(stdio_client(params), read_timeout_seconds=timeout, message_handler=on_message) as client:
            tools = await client.list_tools()
            for text in texts:
                result = await client.call_tool("echo", {"text": text})
                echoes.append([c.text for c in result.content if getattr(c, "type", None) == "text"])
    return {"tools": [t.name for t in tools.tools], "echo": echoes, "transport_errors": len(errors)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--text", action="append", default=[])
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    count = Count()
    logging.getLogger("jsonrpc_envelope.mcpstdio").addHandler(count)
    try:
        report = anyio.run(session, args.command, args.text, args.timeout)
    except BaseException as error:  # noqa: BLE001 (an exception group, a timeout: all a failed session)
        sys.stderr.write(f"python_client: session failed: {error!r}\n")
        sys.exit(1)
    report["error_records"] = count.count
    print(json.dumps(report))


if __name__ == "__main__":
    main()
