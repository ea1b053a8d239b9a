"""The lines that never reach the SDK, for both transports: which they are
(SPEC section 9) and their log records, one per line, naming the stream,
the line's number in it, its kind and what was done, with the line as the
library renders it for a log (SPEC section 5). Each record says it is
jsonrpc-envelope's, since the SDK's own logging setup (that of MCPServer)
prints messages without their logger's name."""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, Optional

from .._api import MESSAGE_KINDS, log_value

logger = logging.getLogger("jsonrpc_envelope.mcp")


def line_record(stream: str, number: int, kind: Any, action: str, line: bytes) -> None:
    if logger.isEnabledFor(logging.WARNING):
        logger.warning("jsonrpc-envelope: %s line %d: %s, %s: %s", stream, number, kind, action, log_value(line))


def too_long_record(stream: str, number: int, length: int) -> None:
    logger.warning("jsonrpc-envelope: %s line %d: too_long (%d bytes), dropped", stream, number, length)


async def kept_from_sdk(
    stream: str, number: int, line: Optional[bytes], c: Any, write_reply: Callable[[str], Awaitable[None]]
) -> bool:
    """SPEC section 9 for one line of the reader: a line too long, a line
    owed a reply (answered with ``write_reply``) and any other line that is
    not one of the library's messages stop here, each with its record; True
    for those, False for a message to hand to the SDK."""
    if line is None:
        too_long_record(stream, number, c.length)
        return True
    reply = c.reply()
    if reply is not None:
        line_record(stream, number, c.kind, "answered", line)
        await write_reply(reply)
        return True
    if c.kind not in MESSAGE_KINDS:
        line_record(stream, number, c.kind, "dropped", line)
        return True
    return False
