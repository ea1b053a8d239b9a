"""``Classification``, what a line is and what it carries, and ``TooLong``,
the classification of a line over a reader's limit.

A Classification holds what it was made of and decodes a field only when
it is read: the line, a record of the library's result (its bytes before
``reason``, see ``_layout.RECORD_SIZE``), and the strings copied from the
library, when the line has any that the line's own bytes do not give.
"""

from __future__ import annotations

import json
from collections import namedtuple
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple, Union

from ._arguments import role_code
from ._enums import ID_KIND_BY_CODE, KIND_BY_CODE, IdKind, Kind, Role
from ._errors import EnvelopeError
from ._ffi import CONSTANTS
from ._layout import (
    ERROR_SPAN_AT,
    HAS_ERROR_AT,
    HAS_RESULT_AT,
    ID_KIND_AT,
    ID_SPAN_AT,
    JSONRPC_2_0_AT,
    METHOD_AT,
    NAMES_NO_REQUEST_AT,
    PARAMS_SPAN_AT,
    RESULT_SPAN_AT,
    SPAN_NAMES,
    SPANS_AT,
    read_id_kind,
    read_method,
    read_span,
    read_spans,
)

__all__ = ["Classification", "TooLong", "needs_strings"]

_ROLE_SERVER = CONSTANTS["JSONRPC_ROLE_SERVER"]

#: The kind of each C value a classification may have (None for the
#: others: no kind, and too_long, which only ``TooLong`` has).
KIND_OF_LINE: Tuple[Any, ...] = tuple(None if kind is Kind.TOO_LONG else kind for kind in KIND_BY_CODE)


def needs_strings(
    method_span_len: int,
    method_len: int,
    reason_ptr: int,
    reply_server_ptr: int,
    reply_client_ptr: int,
    substitute_ptr: int,
) -> bool:
    """Whether a result's strings are copied from the library, because its
    line's bytes may not give them all: it has a reason, a reply or a
    substitute, or a ``method`` member whose length is not the decoded
    method's plus two. The header, on ``method``: "Every escape shortens
    the text, so ``method.len + 2 == method_span.len`` exactly when the
    method has no escape, and then its bytes are the line's bytes between
    the quotes at ``method_span``." So a method that is a string and needs
    no copy is sliced from the line (``Classification.method``, which
    also reads ``method``'s pointer: NULL where the member is no string,
    whatever the lengths). The id never needs a copy: the header says it is
    "exactly the line's bytes at ``id_span``"."""
    return bool(
        reason_ptr
        or reply_server_ptr
        or reply_client_ptr
        or substitute_ptr
        or (method_span_len and method_len + 2 != method_span_len)
    )


#: The strings a Classification copied from the library are a plain tuple,
#: each a str or None, at these positions (a tuple subclass with named
#: fields costs a constructor call per line that has strings).
METHOD, REASON, REPLY_SERVER, REPLY_CLIENT, SUBSTITUTE = range(5)
Strings = Tuple[Optional[str], Optional[str], Optional[str], Optional[str], Optional[str]]

# A Classification is a tuple, so that one is built with tuple's own
# constructor, a single C-level call (read_messages makes them for a whole
# batch in C-level iterators); its fields are read by name, through the
# C-level field descriptors of a namedtuple.
_Fields = namedtuple("_Fields", ("kind", "line", "record", "strings", "role"))
_Fields.kind.__doc__ = "The line's kind."
_Fields.line.__doc__ = "The line this classification is of (spans count from its first byte)."
_Fields.role.__doc__ = "The role given to ``classify`` or ``read_messages``, if any."


class Classification(tuple):  # type: ignore[type-arg]
    """What a line is and what it carries (SPEC §3). Immutable.

    Attributes are named like the fields of ``tests/vectors/envelope.jsonl``
    and ``tests/vectors/mcp.jsonl``: ``kind``, ``id_kind``, ``id``,
    ``method``, ``jsonrpc_2_0``, ``has_result``, ``has_error``,
    ``names_no_request``, ``spans``, ``reason``, ``reply_server``,
    ``reply_client``, ``substitute``. Also: ``line`` (the bytes classified),
    ``id_value``, and ``params_bytes``/``result_bytes``/``error_bytes``.
    """

    # Built as Classification((kind, line, record, strings, role)), by the
    # binding alone: `record` is a bytes record of the library's result
    # (_layout.RECORD_SIZE), `strings` None or the Strings (None exactly
    # when needs_strings said no).

    __slots__ = ()

    if TYPE_CHECKING:  # pragma: no cover

        def __new__(cls, *args: Any) -> "Classification": ...

        @property
        def kind(self) -> Kind:
            """The line's kind."""

        @property
        def line(self) -> bytes:
            """The line this classification is of (spans count from its first byte)."""

        @property
        def role(self) -> Optional[Role]:
            """The role given to ``classify`` or ``read_messages``, if any."""

        _record: bytes
        _strings: Optional[Strings]

    else:
        kind = _Fields.kind
        line = _Fields.line
        role = _Fields.role
        _record = _Fields.record
        _strings = _Fields.strings

    @property
    def id_kind(self) -> IdKind:
        """What the ``id`` member holds (``IdKind.ABSENT`` when there is none)."""
        kind: Optional[IdKind] = ID_KIND_BY_CODE[read_id_kind(self._record, ID_KIND_AT)[0]]
        if kind is None:  # pragma: no cover - the library never gives one
            raise EnvelopeError("the library gave an unknown id kind")
        return kind

    @property
    def id(self) -> Optional[str]:
        """The id's exact JSON text as it stood in the line (``'7'``,
        ``'"a\\u0062"'``, ``'null'``, ``'12345678901234567890'``), or None when
        there is no ``id`` member. Never re-encoded, never rounded."""
        # The header: the id is "exactly the line's bytes at `id_span`".
        offset, length = read_span(self._record, ID_SPAN_AT)
        if not length:
            return None
        return self.line[offset : offset + length].decode("utf-8")

    @property
    def id_value(self) -> Union[int, float, str, None]:
        """The id as a Python value, for matching a response to a request: an
        ``int`` (of any size) or ``float`` for a number, a ``str`` for a
        string; None when the id is absent, null, or not a string or a number
        (a host can match no such id; see ``id_kind``). Note that ``1`` and
        ``1.0`` are equal in Python: ``id`` keeps the exact text."""
        kind = self.id_kind
        if kind is not IdKind.STRING and kind is not IdKind.NUMBER:
            return None
        value: Union[int, float, str] = json.loads(self.id or "")
        return value

    @property
    def method(self) -> Optional[str]:
        """The decoded method where ``method`` is a string, else None."""
        strings = self._strings
        if strings is not None:
            return strings[METHOD]
        offset, ptr, length = read_method(self._record, METHOD_AT)
        if not ptr:
            return None  # the header: absent where `method` is no string
        # A string, and no escape in it (see needs_strings): its bytes are
        # the line's bytes between the quotes at method_span.
        return self.line[offset + 1 : offset + 1 + length].decode("utf-8")

    @property
    def jsonrpc_2_0(self) -> bool:
        """A ``jsonrpc`` member is the string ``"2.0"``."""
        return self._record[JSONRPC_2_0_AT] != 0

    @property
    def has_result(self) -> bool:
        """A ``result`` member is present."""
        return self._record[HAS_RESULT_AT] != 0

    @property
    def has_error(self) -> bool:
        """An ``error`` member is present."""
        return self._record[HAS_ERROR_AT] != 0

    @property
    def names_no_request(self) -> bool:
        """A response that answers no request (an error with a null or no id
        in a ``"jsonrpc":"2.0"`` message): a host waiting on its one request
        can fail at once with this error."""
        return self._record[NAMES_NO_REQUEST_AT] != 0

    @property
    def spans(self) -> Dict[str, Tuple[int, int]]:
        """``{name: (offset, length)}`` in the line's bytes, for whichever of
        ``id``, ``method``, ``params``, ``result``, ``error`` are present."""
        words = iter(read_spans(self._record, SPANS_AT))
        return {name: (offset, length) for name, offset, length in zip(SPAN_NAMES, words, words) if length}

    def _member(self, at: int) -> Optional[bytes]:
        offset, length = read_span(self._record, at)
        if not length:
            return None
        line: bytes = self.line
        return line[offset : offset + length]

    @property
    def params_bytes(self) -> Optional[bytes]:
        """The raw JSON text of ``params`` from the line, or None."""
        return self._member(PARAMS_SPAN_AT)

    @property
    def result_bytes(self) -> Optional[bytes]:
        """The raw JSON text of ``result`` from the line, or None."""
        return self._member(RESULT_SPAN_AT)

    @property
    def error_bytes(self) -> Optional[bytes]:
        """The raw JSON text of ``error`` from the line, or None."""
        return self._member(ERROR_SPAN_AT)

    @property
    def reason(self) -> Optional[str]:
        """For ``invalid_request``, the reply's exact message; for
        ``invalid_response``, the MCP rule it breaks; for ``parse_error``,
        what is wrong and where; otherwise None."""
        strings = self._strings
        return None if strings is None else strings[REASON]

    @property
    def reply_server(self) -> Optional[str]:
        """The reply a server owes for this line, or None for none."""
        strings = self._strings
        return None if strings is None else strings[REPLY_SERVER]

    @property
    def reply_client(self) -> Optional[str]:
        """The reply a client owes for this line, or None for none."""
        strings = self._strings
        return None if strings is None else strings[REPLY_CLIENT]

    @property
    def substitute(self) -> Optional[str]:
        """For an ``invalid_response`` whose id is an MCP id (profile MCP),
        the error response to hand on in the line's place, so that the
        request it answers fails at once (SPEC §10.3); otherwise None."""
        strings = self._strings
        return None if strings is None else strings[SUBSTITUTE]

    def reply(self, role: Union[Role, str, None] = None) -> Optional[str]:
        """The reply the endpoint in ``role`` owes for this line, or None.

        ``role`` defaults to the role this line was read with (the ``role``
        argument of ``classify`` or ``read_messages``); with neither, a
        TypeError says a role is needed.
        """
        if role is None:
            role = self.role
            if role is None:
                raise TypeError("reply() needs a role: 'server' or 'client'")
        code = role_code(role)
        strings = self._strings
        if strings is None:
            return None
        reply: Optional[str] = strings[REPLY_SERVER if code == _ROLE_SERVER else REPLY_CLIENT]
        return reply

    def to_dict(self) -> Dict[str, Any]:
        """The fields of ``tests/vectors/mcp.jsonl`` (those of
        ``envelope.jsonl`` and ``substitute``), as JSON-ready values."""
        return {
            "kind": self.kind.value,
            "id_kind": self.id_kind.value,
            "id": self.id,
            "method": self.method,
            "jsonrpc_2_0": self.jsonrpc_2_0,
            "has_result": self.has_result,
            "has_error": self.has_error,
            "names_no_request": self.names_no_request,
            "spans": {name: list(span) for name, span in self.spans.items()},
            "reason": self.reason,
            "reply_server": self.reply_server,
            "reply_client": self.reply_client,
            "substitute": self.substitute,
        }

    def _key(self) -> Tuple[Any, ...]:
        fields = self.to_dict()
        fields["spans"] = tuple(sorted(self.spans.items()))
        return (self.line, *(fields[name] for name in sorted(fields)))

    def __eq__(self, other: object) -> bool:
        # Never equal to a plain tuple, whatever tuple's comparison would say.
        return isinstance(other, Classification) and self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        parts = [f"kind={self.kind.value!r}"]
        for name in ("id", "method", "reason"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        return f"Classification({', '.join(parts)})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Classification, (tuple(self),))


class TooLong:
    """A line longer than the reader's ``max_line``, never held whole (SPEC
    §6): ``length`` is its length in bytes.

    In the MCP profile the reader reads the line's first bytes (as many as
    its limit) as a damaged line (SPEC §10.6 (d)); where they hold a
    request's or a response's readable id, the library gives it here:
    ``id`` (its exact text), ``id_kind`` and its place in the line
    (``spans["id"]``), and for a request ``method`` (``spans["method"]``)
    and ``reply_server``, the reply that says the line is too long; for a
    response, ``substitute``. Otherwise these are None (``IdKind.ABSENT``,
    no spans): the line is owed no reply in either role. Every value is the
    library's, copied as it gave it."""

    __slots__ = ("length", "id", "id_kind", "method", "spans", "reply_server", "reply_client", "substitute", "role")
    kind = Kind.TOO_LONG

    length: int
    id: Optional[str]
    id_kind: IdKind
    method: Optional[str]
    spans: Dict[str, Tuple[int, int]]
    reply_server: Optional[str]
    reply_client: Optional[str]
    substitute: Optional[str]
    role: Optional[Role]

    def __init__(
        self,
        length: int,
        *,
        id: Optional[str] = None,
        id_kind: IdKind = IdKind.ABSENT,
        method: Optional[str] = None,
        spans: Optional[Dict[str, Tuple[int, int]]] = None,
        reply_server: Optional[str] = None,
        reply_client: Optional[str] = None,
        substitute: Optional[str] = None,
        role: Optional[Role] = None,
    ) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "length", length)
        setattr_(self, "id", id)
        setattr_(self, "id_kind", id_kind)
        setattr_(self, "method", method)
        setattr_(self, "spans", dict(spans or {}))
        setattr_(self, "reply_server", reply_server)
        setattr_(self, "reply_client", reply_client)
        setattr_(self, "substitute", substitute)
        setattr_(self, "role", role)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TooLong is immutable")

    def reply(self, role: Union[Role, str, None] = None) -> Optional[str]:
        """The reply the endpoint in ``role`` owes for this line, or None, as
        ``Classification.reply``: ``role`` defaults to the role the line was
        read with; with neither, a TypeError says a role is needed."""
        if role is None:
            role = self.role
            if role is None:
                raise TypeError("reply() needs a role: 'server' or 'client'")
        code = role_code(role)
        return self.reply_server if code == _ROLE_SERVER else self.reply_client

    def to_dict(self) -> Dict[str, Any]:
        """``kind`` and ``length``, and what the library read in the
        line's first bytes, as JSON-ready values."""
        return {
            "kind": self.kind.value,
            "length": self.length,
            "id_kind": self.id_kind.value,
            "id": self.id,
            "method": self.method,
            "spans": {name: list(span) for name, span in self.spans.items()},
            "reply_server": self.reply_server,
            "reply_client": self.reply_client,
            "substitute": self.substitute,
        }

    def _key(self) -> Tuple[Any, ...]:
        return (
            self.length, self.id, self.id_kind, self.method, tuple(sorted(self.spans.items())),
            self.reply_server, self.reply_client, self.substitute,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TooLong):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((TooLong, self._key()))

    def __repr__(self) -> str:
        parts = [f"length={self.length}"]
        for name in ("id", "method"):
            value = getattr(self, name)
            if value is not None:
                parts.append(f"{name}={value!r}")
        return f"TooLong({', '.join(parts)})"

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_too_long, (self.length, self.id, self.id_kind, self.method, self.spans,
                            self.reply_server, self.reply_client, self.substitute, self.role))


def _too_long(*fields: Any) -> TooLong:
    """A TooLong from its fields in ``__reduce__``'s order (for pickle)."""
    length, id_, id_kind, method, spans, reply_server, reply_client, substitute, role = fields
    return TooLong(
        length, id=id_, id_kind=id_kind, method=method, spans=spans,
        reply_server=reply_server, reply_client=reply_client, substitute=substitute, role=role,
    )
