"""Drop-in stdio transports for the official MCP Python SDK (``mcp``), with
the envelope rules of SPEC section 9 where the SDK's own transports read
their pipes.

    pip install "jsonrpc-envelope[mcp]"

- ``stdio_server()``: the contract of ``mcp.server.stdio.stdio_server``;
  reads stdin as role ``server``. ``run(server)`` / ``run_async(server)``
  serve an ``MCPServer`` or a low-level ``Server`` on it, as
  ``server.run("stdio")`` does on the SDK's.
- ``stdio_client(params)``: the contract of ``mcp.client.stdio.stdio_client``;
  reads the server's stdout as role ``client``. ``Client(stdio_client(params))``
  instead of ``Client(params)``.

Both read by the MCP profile (SPEC section 10). Every decision about a
line is the library's: a ``jsonrpc_envelope.Relay`` says what to do with
each line read (SPEC sections 9 and 10.4), and is told of each line the
SDK writes; the transports do what it says. Lines not simply handed to the SDK
are logged on the ``jsonrpc_envelope.mcpstdio`` logger, with the library's word
for what was done and the line rendered with ``log_value``; a line the
SDK's own validation refuses never reaches it as an exception, and is
logged at error level.

Importing ``jsonrpc_envelope`` alone never imports this module or the SDK.
"""

from ._sdk import StdioServerParameters
from ._client import stdio_client
from ._server import run, run_async, stdio_server

__all__ = ["StdioServerParameters", "run", "run_async", "stdio_client", "stdio_server"]
