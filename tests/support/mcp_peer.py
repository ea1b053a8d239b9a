"""What the tests that drive an MCP server over pipes share: the handshake's
two messages and how a message is written as a line. Imported by
tests/guard and bindings/python/tests_mcp (each puts this folder on
sys.path); the dist tests stay self-contained, as they run from the
artifacts alone."""

from __future__ import annotations

import json

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "abuse", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def encode(message: dict) -> bytes:
    """`message` as one compact line with its LF."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"
