"""What both transports do with each line their relay read (SPEC
sections 9 and 10.4), and their log records.

Every decision is the library's: a ``jsonrpc_envelope.Relay`` in the MCP
profile says, for each line read in the transport's direction, to hand it
to the SDK, to answer it, to hand on a text in its place, or to keep it
from everyone but the log (``goes`` says where its text goes); and, when
the SDK's own model validation refuses a line it handed on, what to do
instead (``Relay.refused``, settled by the second refusal). This module
does what it says, moves the bytes, and logs: one record per line that is not simply handed on, naming
the stream, the line's number in it, its kind and the library's word for
what was done and why, with the line as the library renders it for a log
(SPEC section 5). Each record says it is jsonrpc-envelope's, since the
SDK's own logging setup (that of MCPServer) prints messages without their
logger's name."""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable

from .. import Action, Direction, EnvelopeError, Relay, SessionLine, goes, log_value
from ._sdk import SessionMessage

logger = logging.getLogger("jsonrpc_envelope.mcpstdio")


def line_record(stream: str, d: SessionLine) -> None:
    """The WARNING record of a line the relay did not simply forward."""
    if not logger.isEnabledFor(logging.WARNING):
        return
    if d.line is None:
        # Too long: never held, so only its length is known, and the id the
        # library read in its first bytes, if any (SPEC 10.6 (d)).
        c = d.classification
        read = "" if c.id is None else ", id " + log_value(c.id)
        logger.warning(
            "jsonrpc-envelope: %s line %d: %s (%d bytes%s), %s (%s)",
            stream, d.number, d.kind, c.length, read, d.action, d.note,
        )
    else:
        logger.warning(
            "jsonrpc-envelope: %s line %d: %s, %s (%s): %s",
            stream, d.number, d.kind, d.action, d.note, log_value(d.line),
        )


class Lines:
    """One transport's reading side: does what ``relay`` decided for each
    line read in ``direction`` from ``stream``. ``validate`` is the SDK's
    own decoding of a line's bytes into a message (its model validation),
    ``deliver`` hands a ``SessionMessage`` to the SDK, ``answer`` writes a
    text back to the line's sender, whole: the library's answer to a batch
    is several replies joined by LF (SPEC 10.6 (b)). The relay notes its
    own answers; nobody tells it of them.

    A line too long to read has no bytes, but its action is carried out
    like any other: answered (a request whose id its first bytes hold) or
    substituted (a response whose id is outstanding), with the library's
    text (SPEC 10.6 (d))."""

    def __init__(
        self,
        stream: str,
        relay: Relay,
        direction: Direction,
        validate: Callable[[bytes], Any],
        deliver: Callable[[Any], Awaitable[None]],
        answer: Callable[[str], Awaitable[None]],
    ) -> None:
        self.stream = stream
        self.relay = relay
        self.direction = direction
        self.validate = validate
        self.deliver = deliver
        self.answer = answer

    async def act(self, d: SessionLine) -> None:
        """What the relay said to do with one line: its text (the line
        itself for a forward without one; the relay's normal form where it
        gives one, SPEC 10.5) goes where ``goes`` says."""
        if d.action is not Action.FORWARD:
            line_record(self.stream, d)
        where = goes(d.action, self.direction)
        if where is None:
            return  # dropped or diverted: the record is all
        if d.action_text is not None:
            text = d.action_text
        elif d.action is Action.FORWARD and d.line is not None:
            await self.hand_on(d.number, d.line)
            return
        else:
            raise EnvelopeError(f"the library's relay said {d.action} with no text")
        if where is self.direction:
            await self.hand_on(d.number, text.encode("utf-8"))
        else:
            await self.answer(text)

    async def hand_on(self, number: int, data: bytes) -> None:
        """Hands a line's bytes to the SDK, as the SDK's own transport
        decodes them. A line the SDK refuses never reaches it as an error
        (SPEC 10.4): the relay says what to do instead (write its text back,
        or hand it on instead, until the library settles it: by the second
        refusal), and the SDK's complaint is logged at error level."""
        refusal = "it"
        while True:
            try:
                message = self.validate(data)
            except Exception as error:
                d = self.relay.refused(self.direction, data)
                logger.error(
                    "jsonrpc-envelope: %s line %d: the SDK refused %s, %s (%s): %s; the SDK said: %s",
                    self.stream, number, refusal, d.action, d.note, log_value(data), log_value(str(error)),
                )
                where = goes(d.action, self.direction)
                if where is None or d.text is None:
                    return
                if where is not self.direction:
                    await self.answer(d.text)
                    return
                data = d.text.encode("utf-8")
                refusal = "its substitute too"
                continue
            await self.deliver(SessionMessage(message))
            return
