#!/usr/bin/env python3
"""An MCP server on the official Python SDK, with one tool, `echo`, served
over stdio by jsonrpc_envelope.mcpstdio in place of the SDK's own transport. The
only change from the SDK's way is the last line: `run(server)` instead of
`server.run("stdio")`.

    pip install "./bindings/python[mcp]"
    python examples/python/sdk_server.py [--sdk-transport]

--sdk-transport serves the same server on the SDK's own transport, for
comparison (the tests' control, the benchmark's other half).

The transport reads by the MCP profile, with the library's session: a line
it says is owed a reply (not JSON, a batch, a bare value, a request that is
not valid MCP) is answered with it and never reaches the SDK; an empty line
or a JSON log line is dropped; each of them is logged on stderr (MCPServer
sets up Python's logging there).
"""

import sys

from mcp.server.mcpserver import MCPServer

from jsonrpc_envelope.mcpstdio import run

server = MCPServer("sdk-python-echo")


@server.tool()
def echo(text: str) -> str:
    """Returns the text it is given."""
    return text


if __name__ == "__main__":
    if "--sdk-transport" in sys.argv[1:]:
        server.run("stdio")  # the SDK's own transport
    else:
        run(server)
