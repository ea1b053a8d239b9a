#!/usr/bin/env python3
"""The official Python MCP SDK's stdio server with one tool, `echo`, as a
program written on the SDK would be: for tests that put the SDK's own
transport in front of other peers (peers/README.md).

    echo_server.py [--pollute]

--pollute writes what real servers write to stdout before the SDK takes it
over: a banner and a JSON log line. (While it serves, the SDK points fd 1 at
stderr, so a print() in a tool lands there; the banner cannot.)
"""

import json
import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("sdk-python-echo")


@server.tool()
def echo(text: str) -> str:
    """Returns the text it is given."""
    print(f"echo called with {text!r}", flush=True)
    return text


if __name__ == "__main__":
    if "--pollute" in sys.argv[1:]:
        print("sdk-python-echo 1.0 starting on stdio", flush=True)
        print(json.dumps({"level": "info", "msg": "tools registered", "tools": ["echo"]}), flush=True)
    server.run("stdio")
