"""What the transports take from the official MCP SDK, in one place.

Besides the SDK's public types, the transports reuse the helpers of the
SDK's own stdio transports (claiming fd 0 and 1, spawning the server,
stopping it), so that everything but the reading of lines behaves as the
SDK's does. Those helpers are private to the SDK: a version that renames
one fails here, at import, with a message that says so, rather than in the
middle of a session.
"""

from __future__ import annotations

try:
    import mcp
except ImportError as error:  # pragma: no cover - the extra is not installed
    raise ImportError(
        'jsonrpc_envelope.mcpstdio needs the official MCP SDK: pip install "jsonrpc-envelope[mcp]"'
    ) from error

try:
    import mcp_types as types
    from mcp.client.stdio import (
        _WRITER_FLUSH_TIMEOUT,
        StdioServerParameters,
        _aclose_all,
        _create_platform_compatible_process,
        _drain_stdout,
        _get_executable_command,
        _stop_server_process,
        get_default_environment,
    )
    from mcp.server.lowlevel.server import Server
    from mcp.server.mcpserver import MCPServer
    from mcp.server.stdio import (
        _claim_fd,
        _open_stdin_diversion,
        _open_stdout_diversion,
        _UnownedTextWrapper,
    )
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage
except ImportError as error:  # pragma: no cover - depends on the SDK's version
    from importlib.metadata import version

    raise ImportError(
        f"jsonrpc_envelope.mcpstdio was written against mcp 2.3; the installed mcp {version('mcp')} "
        f"lacks a part of its stdio transports that it reuses: {error}"
    ) from error

__all__ = [
    "_WRITER_FLUSH_TIMEOUT",
    "MCPServer",
    "Server",
    "SessionMessage",
    "StdioServerParameters",
    "_UnownedTextWrapper",
    "_aclose_all",
    "_claim_fd",
    "_create_platform_compatible_process",
    "_drain_stdout",
    "_get_executable_command",
    "_open_stdin_diversion",
    "_open_stdout_diversion",
    "_stop_server_process",
    "create_context_streams",
    "get_default_environment",
    "mcp",
    "types",
]
