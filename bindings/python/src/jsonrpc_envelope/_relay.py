"""``Relay``, the library's relay (``jsonrpc_relay_*``): one object that
sees both directions of a session (h11's ``Connection`` shape), deciding
the lines of each as a ``Session`` does and keeping the bookkeeping
between them. Its lines and decisions are read as a Session's are
(``decided`` and ``decision_of``, shared with ``_session``)."""

from __future__ import annotations

import ctypes
import threading
from typing import Any, List, Optional, Union

from ._arguments import as_bytes, as_profile, direction_code, max_line_arg
from ._enums import DIRECTION_BY_CODE, Direction, Profile
from ._errors import check_status
from ._ffi import JsonRpcBatch, JsonRpcDecision, lib
from ._session import Decision, SessionLine, decided, decision_of

__all__ = ["Relay"]

_relay_new = lib.jsonrpc_relay_new
_relay_feed = lib.jsonrpc_relay_feed
_relay_end = lib.jsonrpc_relay_end
_relay_wrote = lib.jsonrpc_relay_wrote
_relay_refused = lib.jsonrpc_relay_refused
_relay_outstanding = lib.jsonrpc_relay_outstanding
_relay_free = lib.jsonrpc_relay_free

Bytes = Union[bytes, bytearray, memoryview, str]


class Relay:
    """Both directions of one session, the library's ``JsonRpcRelay``: the
    lines of each ``Direction`` read by ``profile`` in the role of their
    receiver (at most ``max_line`` bytes; None: the profile's default,
    ``profile_max_line(profile)``), and what ties the two together: a
    request handed on in one direction is outstanding for the other until
    a response read there names it.

    - ``feed(direction, data)`` hands it the next bytes read in
      ``direction`` and returns a ``SessionLine`` for each line they
      complete, exactly as ``Session.feed`` does: carry out its ``action``
      (``goes(action, direction)`` says where its text goes). ``end(direction)``
      says that direction's stream has ended.
    - ``wrote(direction, line)``: a line that went in ``direction`` not
      through the relay (an SDK's own message to the peer), before it
      leaves. The relay's own answers need no call.
    - ``refused(direction, line)``: the receiver of ``direction`` (the SDK's
      decoder) refused a line the relay handed on; returns a ``Decision``
      (log it at error level). A substitute refused in its turn is settled
      by the library: ``Action.DROP``, no text.
    - ``outstanding(direction)``: how many requests written toward the
      sender of ``direction``'s lines still wait for its response.

    A direction is a ``Direction`` or its name; any other raises ValueError
    (or TypeError for no string). The library's relay is freed by
    ``close()``, leaving a ``with`` block, or when the object is dropped;
    then every call raises ValueError. Calls from several threads are
    serialised by a lock.
    """

    __slots__ = ("_relay", "_batch", "_batch_ref", "_profile", "_lock")

    def __init__(self, profile: Union[Profile, str] = Profile.JSONRPC, *, max_line: Optional[int] = None) -> None:
        self._relay: Any = None
        self._profile = as_profile(profile)
        limit = max_line_arg(max_line)
        self._lock = threading.Lock()
        # One batch for both directions: each is copied out under the lock
        # before the next call.
        self._batch = JsonRpcBatch()
        self._batch_ref = ctypes.byref(self._batch)
        relay = _relay_new(self._profile.value, limit)
        if not relay:
            raise MemoryError("jsonrpc_relay_new: out of memory")
        self._relay = relay

    @property
    def profile(self) -> Profile:
        """The profile the relay reads both directions by."""
        return self._profile

    def _live(self) -> Any:
        relay = self._relay
        if relay is None:
            raise ValueError("the Relay is closed")
        return relay

    def feed(self, direction: Union[Direction, str], data: Union[bytes, bytearray, memoryview]) -> List[SessionLine]:
        """The lines that ``data``, read in ``direction``, completes, in
        order, each with its action."""
        code = direction_code(direction)
        raw = data if type(data) is bytes else as_bytes(data, "data")
        with self._lock:
            relay = self._live()
            if not raw:
                return []
            check_status(_relay_feed(relay, code, raw, len(raw), self._batch_ref), "jsonrpc_relay_feed")
            return decided(self._batch, DIRECTION_BY_CODE[code].role)

    def end(self, direction: Union[Direction, str]) -> List[SessionLine]:
        """The last line of ``direction``'s stream, when it had no LF, with
        its action; that direction then reads a new stream."""
        code = direction_code(direction)
        with self._lock:
            check_status(_relay_end(self._live(), code, self._batch_ref), "jsonrpc_relay_end")
            return decided(self._batch, DIRECTION_BY_CODE[code].role)

    def wrote(self, direction: Union[Direction, str], line: Bytes) -> None:
        """Tells the relay of a line written in ``direction`` not by it (an
        SDK's own message to the peer): a request's id is then outstanding
        until a line read the other way answers it. Call it before the line
        leaves."""
        code = direction_code(direction)
        raw = line if type(line) is bytes else as_bytes(line, "line")
        with self._lock:
            check_status(_relay_wrote(self._live(), code, raw, len(raw)), "jsonrpc_relay_wrote")

    def refused(self, direction: Union[Direction, str], line: Bytes) -> Decision:
        """What to do instead when the receiver of ``direction`` refused
        ``line``, which this relay handed on (SPEC §10.4): a fault of the
        profile, to be logged at error level."""
        code = direction_code(direction)
        raw = line if type(line) is bytes else as_bytes(line, "line")
        out = JsonRpcDecision()
        with self._lock:
            status = _relay_refused(self._live(), code, raw, len(raw), ctypes.byref(out))
        return decision_of(status, out, "jsonrpc_relay_refused")

    def outstanding(self, direction: Union[Direction, str]) -> int:
        """How many requests written toward the sender of ``direction``'s
        lines still wait for its response."""
        code = direction_code(direction)
        with self._lock:
            count: int = _relay_outstanding(self._live(), code)
            return count

    def close(self) -> None:
        """Frees the library's relay. Safe to call more than once."""
        with self._lock:
            relay, self._relay = self._relay, None
            if relay:
                _relay_free(relay)

    def __enter__(self) -> "Relay":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_lock", None) is not None:
            self.close()

    def __repr__(self) -> str:
        state = "closed" if self._relay is None else "open"
        return f"Relay(profile={str(self._profile)!r}, {state})"
