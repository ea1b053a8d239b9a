"""``Session``, the library's session (``jsonrpc_session_*``): a stream
reader that also decides what to do with each line; ``SessionLine``, a line
with what to do with it; ``Decision``, what to do with a line the receiving
SDK's own decoder refused; and the reading of both from the library's
results (``decided``, ``decision_of``), which ``Relay`` shares."""

from __future__ import annotations

import ctypes
import threading
from ctypes import string_at
from typing import Any, Dict, List, NamedTuple, Optional, Union

from ._arguments import as_bytes, as_profile, max_line_arg, role_code
from ._batch import items_of, messages
from ._classification import Classification, TooLong
from ._enums import ACTION_BY_CODE, Kind, Profile, Role
from ._errors import EnvelopeError, check_status
from ._ffi import JsonRpcBatch, JsonRpcDecision, lib
from ._layout import DECISION_AT, ITEM, read_decision
from ._strings import take_string

__all__ = ["Decision", "Session", "SessionLine"]

_session_new = lib.jsonrpc_session_new
_session_feed = lib.jsonrpc_session_feed
_session_end = lib.jsonrpc_session_end
_session_sent = lib.jsonrpc_session_sent
_session_refused = lib.jsonrpc_session_refused
_session_outstanding = lib.jsonrpc_session_outstanding
_session_free = lib.jsonrpc_session_free


class SessionLine(NamedTuple):
    """One line a ``Session`` read, with what to do with it (SPEC §8 to
    §10), as the library decided it.

    - ``number``: the line's number in the stream, from 1 (too-long lines
      counted);
    - ``line``: its bytes without the LF, or None for a line over the
      limit (never held whole);
    - ``classification``: a ``Classification``, or ``TooLong``;
    - ``action``: an ``Action``; what it asks:
      ``FORWARD``, hand ``line`` on, with an LF;
      ``ANSWER``, write ``action_text`` and an LF back to the line's sender,
      whole (for an MCP batch it is several replies joined by LF; a
      too-long line may be answered too: SPEC 10.6);
      ``SUBSTITUTE`` and ``ATTRIBUTE``, hand ``action_text`` on in the
      line's place;
      ``DROP`` and ``DIVERT``, nobody sees the line: log ``note``, with the
      line rendered by ``log_value``;
    - ``action_text``: the text of ``ANSWER``, ``SUBSTITUTE`` and
      ``ATTRIBUTE``, else None;
    - ``note``: why, for every action but ``FORWARD`` (a fixed text of the
      library's, for a log record), else None.
    """

    number: int
    line: Optional[bytes]
    classification: Union[Classification, TooLong]
    action: Any
    action_text: Optional[str]
    note: Optional[str]

    @property
    def kind(self) -> Kind:
        """The line's kind (``Kind.TOO_LONG`` for a line over the limit)."""
        return self.classification.kind


class Decision(NamedTuple):
    """What ``Session.refused`` or ``Relay.refused`` says to do with a line
    the receiving SDK's own decoder refused (SPEC §10.4): ``action`` is
    ``Action.ANSWER`` (write ``text`` back to the line's sender),
    ``Action.SUBSTITUTE`` (hand ``text`` to the SDK instead) or
    ``Action.DROP``; ``note`` says why."""

    action: Any
    text: Optional[str]
    note: Optional[str]


def _action(code: int, call: str) -> Any:
    action = ACTION_BY_CODE[code] if code < len(ACTION_BY_CODE) else None
    if action is None:
        raise EnvelopeError(f"{call} gave a line no action ({code})")
    return action


# A note is a static text of the library's: read once per address.
_NOTES: Dict[int, str] = {}


def _note(ptr: Optional[int]) -> Optional[str]:
    if not ptr:
        return None
    note = _NOTES.get(ptr)
    if note is None:
        note = _NOTES[ptr] = string_at(ptr).decode("utf-8")
    return note


def decided(batch: JsonRpcBatch, role: Role) -> List[SessionLine]:
    """A session's or a relay's batch as SessionLines (read in ``role``),
    copied out before its next call: the messages as a Reader makes them,
    and each item's number, action, action text (in the batch's texts, or a
    string of the session's own: read where it is) and note."""
    if not batch.count:
        return []
    items = items_of(batch)
    found = []
    for base, (line, c) in zip(range(0, len(items), ITEM), messages(batch, items, role)):
        number, code, text_ptr, text_len, note = read_decision(items, base + DECISION_AT)
        found.append(
            SessionLine(
                number,
                line,
                c,
                _action(code, "the library's session"),
                string_at(text_ptr, text_len).decode("utf-8") if text_ptr else None,
                _note(note),
            )
        )
    return found


def decision_of(status: int, out: JsonRpcDecision, call: str) -> Decision:
    """The Decision a ``*_refused`` call gave in ``out``, its text copied
    and freed whatever ``status`` says; then the status checked."""
    text = take_string(out.text)
    check_status(status, call)
    return Decision(_action(out.action, call), text, _note(out.note))


class Session:
    """One endpoint's session (SPEC §8 to §10), the library's
    ``JsonRpcSession``: a stream reader that also decides what to do with
    each line it reads, in ``role`` and by ``profile`` (its lines at most
    ``max_line`` bytes; None: the profile's default,
    ``profile_max_line(profile)``), and keeps the ids of
    the requests written the other way that are still outstanding (for
    substitutes and the handshake rule, in the MCP profile).

    - ``feed(data)`` hands it the next bytes read and returns a
      ``SessionLine`` for each line they complete, in order: do what its
      ``action`` says. ``end()`` says the stream has ended and returns the
      last line without LF, if any; the session stays usable (the library's
      reader is as new, and the outstanding requests are kept).
    - ``sent(line)``: call it with every line written to the peer whose
      lines the session reads, before it leaves.
    - ``refused(line)``: the receiving SDK's own decoder refused a line the
      session handed on; returns a ``Decision`` (log it at error level).
    - ``outstanding``: how many requests written the other way still wait.

    The library's session is freed by ``close()``, leaving a ``with``
    block, or when the object is dropped; then every call raises
    ValueError. Calls from several threads are serialised by a lock.
    """

    __slots__ = ("_session", "_batch", "_batch_ref", "_role", "_profile", "_lock")

    def __init__(
        self,
        role: Union[Role, str],
        *,
        profile: Union[Profile, str] = Profile.JSONRPC,
        max_line: Optional[int] = None,
    ) -> None:
        self._session: Any = None
        code = role_code(role)
        limit = max_line_arg(max_line)
        self._role = Role(role)
        self._profile = as_profile(profile)
        self._lock = threading.Lock()
        self._batch = JsonRpcBatch()
        self._batch_ref = ctypes.byref(self._batch)
        session = _session_new(code, self._profile.value, limit)
        if not session:
            raise MemoryError("jsonrpc_session_new: out of memory")
        self._session = session

    @property
    def role(self) -> Role:
        """The role the session reads its stream in."""
        return self._role

    @property
    def profile(self) -> Profile:
        """The profile the session reads its stream by."""
        return self._profile

    def _live(self) -> Any:
        session = self._session
        if session is None:
            raise ValueError("the Session is closed")
        return session

    def feed(self, data: Union[bytes, bytearray, memoryview]) -> List[SessionLine]:
        """The lines that ``data`` completes, in order, each with its action."""
        raw = data if type(data) is bytes else as_bytes(data, "data")
        with self._lock:
            session = self._live()
            if not raw:
                return []
            check_status(_session_feed(session, raw, len(raw), self._batch_ref), "jsonrpc_session_feed")
            return self._lines()

    def end(self) -> List[SessionLine]:
        """The last line of the stream, when it had no LF, with its action;
        the session then reads a new stream (its outstanding requests kept)."""
        with self._lock:
            check_status(_session_end(self._live(), self._batch_ref), "jsonrpc_session_end")
            return self._lines()

    def _lines(self) -> List[SessionLine]:
        return decided(self._batch, self._role)

    def sent(self, line: Union[bytes, bytearray, memoryview, str]) -> None:
        """Tells the session of a line written to the peer whose lines it
        reads (in the MCP profile a request's id is then outstanding until
        a response names it). Call it before the line leaves."""
        raw = line if type(line) is bytes else as_bytes(line, "line")
        with self._lock:
            check_status(_session_sent(self._live(), raw, len(raw)), "jsonrpc_session_sent")

    def refused(self, line: Union[bytes, bytearray, memoryview, str]) -> Decision:
        """What to do instead when the receiving SDK's own decoder refused
        ``line``, which this session handed on (SPEC §10.4): a fault of the
        profile, to be logged at error level."""
        raw = line if type(line) is bytes else as_bytes(line, "line")
        out = JsonRpcDecision()
        with self._lock:
            status = _session_refused(self._live(), raw, len(raw), ctypes.byref(out))
        return decision_of(status, out, "jsonrpc_session_refused")

    @property
    def outstanding(self) -> int:
        """How many requests written the other way (``sent``) still wait
        for a response."""
        with self._lock:
            count: int = _session_outstanding(self._live())
            return count

    def close(self) -> None:
        """Frees the library's session. Safe to call more than once."""
        with self._lock:
            session, self._session = self._session, None
            if session:
                _session_free(session)

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_lock", None) is not None:
            self.close()

    def __repr__(self) -> str:
        state = "closed" if self._session is None else "open"
        return f"Session(role={self._role.value!r}, profile={str(self._profile)!r}, {state})"
