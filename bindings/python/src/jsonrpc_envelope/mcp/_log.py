"""The transports' log records: one per line that never reaches the SDK,
naming the stream, the line's number in it, its kind and what was done,
with the line as the library renders it for a log (SPEC section 5). Each
says it is jsonrpc-envelope's, since the SDK's own logging setup (that of
MCPServer) prints messages without their logger's name."""

from __future__ import annotations

import logging
from typing import Any

from .._api import log_value

logger = logging.getLogger("jsonrpc_envelope.mcp")


def line_record(stream: str, number: int, kind: Any, action: str, line: bytes) -> None:
    if logger.isEnabledFor(logging.WARNING):
        logger.warning("jsonrpc-envelope: %s line %d: %s, %s: %s", stream, number, kind, action, log_value(line))


def too_long_record(stream: str, number: int, length: int) -> None:
    logger.warning("jsonrpc-envelope: %s line %d: too_long (%d bytes), dropped", stream, number, length)
