"""What both transports do with each line their session read (SPEC
sections 9 and 10.4), and their log records.

Every decision is the library's: a ``jsonrpc_envelope.Session`` in the MCP
profile says, for each line, to hand it to the SDK, to answer it, to hand
on a text in its place, or to keep it from everyone but the log; and, when
the SDK's own model validation refuses a line it handed on, what to do
instead (``Session.refused``). This module does what it says, moves the
bytes, and logs: one record per line that is not simply handed on, naming
the stream, the line's number in it, its kind and the library's word for
what was done and why, with the line as the library renders it for a log
(SPEC section 5). Each record says it is jsonrpc-envelope's, since the
SDK's own logging setup (that of MCPServer) prints messages without their
logger's name."""

from __future__ import annotations

import logging
from typing import Any, Awaitable, Callable, List

from .. import Action, EnvelopeError, Session, SessionLine, log_value
from ._sdk import SessionMessage

logger = logging.getLogger("jsonrpc_envelope.mcpstdio")

_HANDED_ON_IN_ITS_PLACE = (Action.SUBSTITUTE, Action.ATTRIBUTE)


def line_record(stream: str, d: SessionLine) -> None:
    """The WARNING record of a line the session did not simply forward."""
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


def lines_of(text: str) -> List[str]:
    """The lines of a text the library gave to write: one, or, for the
    answer to a batch, several joined by LF (each one reply)."""
    return text.split("\n")


class Lines:
    """One transport's reading side: does what ``session`` decided for each
    line read from ``stream``. ``validate`` is the SDK's own decoding of a
    line's bytes into a message (its model validation), ``deliver`` hands a
    ``SessionMessage`` to the SDK, ``answer`` writes a text back to the
    line's sender, whole (and tells the session of it): the library's
    answer to a batch is several replies joined by LF (SPEC 10.6 (b)).

    A line too long to read has no bytes, but its action is carried out
    like any other: answered (a request whose id its first bytes hold) or
    substituted (a response whose id is outstanding), with the library's
    text (SPEC 10.6 (d))."""

    def __init__(
        self,
        stream: str,
        session: Session,
        validate: Callable[[bytes], Any],
        deliver: Callable[[Any], Awaitable[None]],
        answer: Callable[[str], Awaitable[None]],
    ) -> None:
        self.stream = stream
        self.session = session
        self.validate = validate
        self.deliver = deliver
        self.answer = answer

    async def act(self, d: SessionLine) -> None:
        """What the session said to do with one line."""
        action = d.action
        if action is Action.FORWARD:
            # The session's form of the line where it gives one (SPEC 10.5).
            await self.hand_on(d.number, d.line if d.action_text is None else d.action_text.encode("utf-8"))
            return
        line_record(self.stream, d)
        if action is Action.ANSWER:
            await self.answer(self._text(d))
        elif action in _HANDED_ON_IN_ITS_PLACE:
            await self.hand_on(d.number, self._text(d).encode("utf-8"))
        # Action.DROP, Action.DIVERT: the record is all.

    @staticmethod
    def _text(d: SessionLine) -> str:
        if d.action_text is None:
            raise EnvelopeError(f"the library's session said {d.action} with no text")
        return d.action_text

    async def hand_on(self, number: int, data: bytes) -> None:
        """Hands a line's bytes to the SDK, as the SDK's own transport
        decodes them. A line the SDK refuses never reaches it as an error
        (SPEC 10.4): the session says what to do instead, and the SDK's
        complaint is logged at error level."""
        try:
            message = self.validate(data)
        except Exception as error:
            decision = self.session.refused(data)
            logger.error(
                "jsonrpc-envelope: %s line %d: the SDK refused it, %s (%s): %s; the SDK said: %s",
                self.stream, number, decision.action, decision.note, log_value(data), log_value(str(error)),
            )
            if decision.action is Action.ANSWER:
                await self.answer(decision.text or "")
                return
            if decision.action is not Action.SUBSTITUTE or decision.text is None:
                return
            try:
                message = self.validate(decision.text.encode("utf-8"))
            except Exception as again:
                logger.error(
                    "jsonrpc-envelope: %s line %d: the SDK refused its substitute too, %s: %s",
                    self.stream, number, Action.DROP, log_value(str(again)),
                )
                return
        await self.deliver(SessionMessage(message))
