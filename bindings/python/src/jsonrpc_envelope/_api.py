"""The Python API over the C ABI: conversions and memory, no rules.

Every decision (a line's kind, the reply it is owed, the reason, the log
text) is the library's. This module converts Python values to
``(pointer, length)`` pairs, copies what the library returns into Python
objects, and frees every owned result exactly once, in a ``finally``.

Speed notes, since a host reads pipes through this:

* ``classify`` makes one call into the library, ``jsonrpc_classify_into``,
  with a result structure and a 1 KiB scratch buffer that are reused (a
  slot per call in progress, see ``_free_slots``): the library then
  allocates nothing unless a line's strings outgrow the scratch, and only
  then is the result freed. The call goes through a function object whose
  arguments are ready-made ctypes argument objects (``_ffi.classify_into``,
  ``_length``), which spares a conversion and an allocation per argument.
* A classification is copied out of the library as one ``bytes`` image of
  its C structure (``rec``, by ``tobytes()`` of a memoryview over the
  reused result); fields are decoded from it only when asked for.
* The id text is sliced from the line (the header: "exactly the line's bytes
  at ``id_span``"). The method is sliced from the line too when the library's
  decoded method is as long as the raw string without its quotes (the
  header: ``method.len + 2 == method_span.len`` exactly when the method has
  no escape, and then its bytes are the line's bytes inside the quotes).
  Otherwise, and for every reason and reply text, the library's own string
  is copied before the result is freed or its scratch reused.
* A ``Session`` (``jsonrpc_session_*``) hands back batches of the same
  layout, whose items also carry an action, its text and a note: its lines
  are built as ``read_messages`` builds them, and each action read per item.
* ``read_messages`` copies the whole items array of a reader's batch
  (``jsonrpc_reader_feed``) with one ``ctypes.string_at`` and reads its
  columns through strided
  ``memoryview`` casts, so that per line Python makes only the line's bytes,
  a copy of its record (kept per line, so that holding one classification
  never holds a whole chunk) and the Classification, in C-level loops.
"""

from __future__ import annotations

import ctypes
import json
import struct
import threading
from ctypes import sizeof, string_at
from enum import Enum, IntEnum
from itertools import repeat
from operator import itemgetter
from typing import (
    TYPE_CHECKING,
    Any,
    BinaryIO,
    Dict,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Tuple,
    Union,
)

from ._ffi import (
    CONSTANTS,
    JsonRpcClassification,
    JsonRpcDecision,
    JsonRpcLine,
    JsonRpcBatch,
    JsonRpcSpan,
    JsonRpcStr,
    classify_into,
    lib,
)

__all__ = [
    "DEFAULT_MAX_LINE",
    "Action",
    "Classification",
    "Decision",
    "EnvelopeError",
    "IdKind",
    "Kind",
    "Profile",
    "Role",
    "Reader",
    "Session",
    "SessionLine",
    "TooLong",
    "classify",
    "invalid_reply",
    "library_version",
    "log_value",
    "read_messages",
]

#: The library's default line limit.
DEFAULT_MAX_LINE: int = lib.jsonrpc_default_max_line()

#: How much ``read_messages`` asks its stream for at a time.
DEFAULT_CHUNK_SIZE = 64 * 1024

#: The scratch buffer of ``classify``, per call: the header says 1 KiB
#: holds the strings of almost every line; longer ones get an allocation.
SCRATCH_SIZE = 1024


class EnvelopeError(RuntimeError):
    """The library reported a failure of its own (out of memory, an internal
    fault it caught, an unexpected status). Never raised for any input line:
    every line, however broken, has a classification."""


class _Name(str, Enum):
    """An enum whose members are the library's names, as strings:
    ``Kind.REQUEST == "request"``, ``str(Kind.REQUEST) == "request"``."""

    def __str__(self) -> str:
        return str(self.value)


def _library_names(name_of: Any) -> Dict[int, str]:
    """Every value the library names, with its name (an enum's values are
    small, and the library says NULL for a value that is no member)."""
    names = {}
    for code in range(256):
        name = name_of(code)
        if name is not None:
            names[code] = name.decode("ascii")
    return names


def _enum(name: str, doc: str, names: Dict[int, str]) -> Any:
    enum = _Name(name, [(text.upper(), text) for text in names.values()], module=__name__)
    enum.__doc__ = doc
    return enum


_KIND_NAMES = _library_names(lib.jsonrpc_kind_name)
_ID_KIND_NAMES = _library_names(lib.jsonrpc_id_kind_name)
_ROLE_NAMES = _library_names(lib.jsonrpc_role_name)

#: What a line is (SPEC §2), as the library names it: ``Kind.REQUEST``,
#: ``Kind.PARSE_ERROR``, ... and ``Kind.TOO_LONG``, the kind of a line over
#: ``read_messages``' limit.
Kind: Any = _enum("Kind", "What a line is (SPEC §2). Members are strings.", _KIND_NAMES)
#: What the ``id`` member holds (SPEC §3): ``IdKind.NUMBER``, ...
IdKind: Any = _enum("IdKind", "What the ``id`` member holds (SPEC §3). Members are strings.", _ID_KIND_NAMES)
#: Which endpoint reads a line (SPEC §4): ``Role.SERVER`` reads its client's
#: input (an MCP server's stdin); ``Role.CLIENT`` reads a server's output (a
#: host reading a server's stdout).
Role: Any = _enum("Role", "Which endpoint reads a line (SPEC §4). Members are strings.", _ROLE_NAMES)


def _codes(names: Dict[int, str], enum: Any) -> Tuple[Any, ...]:
    """A table from the C value to the member (None where the value has none)."""
    return tuple(enum(names[code]) if code in names else None for code in range(max(names) + 1))


_KIND_BY_CODE: Tuple[Any, ...] = _codes(_KIND_NAMES, Kind)
#: The kinds of the messages a peer acts on (request, notification,
#: response): what a transport hands on (SPEC §8, §9), as the library says.
MESSAGE_KINDS = frozenset(Kind(name) for code, name in _KIND_NAMES.items() if lib.jsonrpc_kind_is_message(code))
_ID_KIND_BY_CODE: Tuple[Any, ...] = _codes(_ID_KIND_NAMES, IdKind)
_KIND_CODES = len(_KIND_BY_CODE)
_TOO_LONG_CODE = CONSTANTS["JSONRPC_KIND_TOO_LONG"]
# The kind of each code a classification may have (never too_long: only
# TooLong has it).
_KIND_OF_LINE: Tuple[Any, ...] = tuple(
    None if code == _TOO_LONG_CODE else kind for code, kind in enumerate(_KIND_BY_CODE)
)
_ROLE_CODE: Dict[str, int] = {name: code for code, name in _ROLE_NAMES.items()}
_ROLE_SERVER = CONSTANTS["JSONRPC_ROLE_SERVER"]
_STATUS_NAME: Dict[int, str] = _library_names(lib.jsonrpc_status_name)
_STATUS_OK = CONSTANTS["JSONRPC_STATUS_OK"]
_STATUS_OUT_OF_MEMORY = CONSTANTS["JSONRPC_STATUS_OUT_OF_MEMORY"]
_STATUS_UNKNOWN_ROLE = CONSTANTS["JSONRPC_STATUS_UNKNOWN_ROLE"]
_STATUS_UNKNOWN_PROFILE = CONSTANTS["JSONRPC_STATUS_UNKNOWN_PROFILE"]
_PROFILE_NAMES: Dict[int, str] = _library_names(lib.jsonrpc_profile_name)


class Profile(IntEnum):
    """The rule set a line is read by (SPEC §10), passed to the library as
    the header's number: ``Profile.JSONRPC``, JSON-RPC 2.0 alone (SPEC
    sections 1 to 7, the default everywhere), or ``Profile.MCP``, which adds
    the rules of section 10 so that what it calls a message every official
    MCP SDK reads. ``str()`` of a member is the library's name for it
    (``"jsonrpc"``, ``"mcp"``), and those names are accepted wherever a
    profile is."""

    JSONRPC = CONSTANTS["JSONRPC_PROFILE_JSONRPC"]
    MCP = CONSTANTS["JSONRPC_PROFILE_MCP"]

    def __str__(self) -> str:
        return _PROFILE_NAMES.get(int(self), self.name.lower())

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_PROFILE_BY_NAME: Dict[str, Profile] = {
    name: Profile(code) for code, name in _PROFILE_NAMES.items() if code in Profile._value2member_map_
}
# The profile as classify() hands it to jsonrpc_classify_into (see _length).
_PROFILE_ARG: Dict[Profile, Any] = {p: ctypes.c_uint32.from_param(p.value) for p in Profile}


def _profile(profile: Any) -> Profile:
    """A Profile from a Profile, its number, or the library's name for it."""
    if type(profile) is Profile:
        return profile
    if isinstance(profile, bool) or not isinstance(profile, (int, str)):
        raise TypeError(f"profile must be a Profile (or 'jsonrpc' or 'mcp'), not {type(profile).__name__}")
    found = _PROFILE_BY_NAME.get(profile) if isinstance(profile, str) else Profile._value2member_map_.get(profile)
    if found is None:
        raise ValueError(f"profile must be Profile.JSONRPC or Profile.MCP ('jsonrpc' or 'mcp'), not {profile!r}")
    return found  # type: ignore[return-value]


_ACTION_NAMES: Dict[int, str] = _library_names(lib.jsonrpc_action_name)
_ACTION_PREFIX = "JSONRPC_ACTION_"
#: What a ``Session`` says to do with a line (SPEC §8 to §10): members
#: named as the header names the values (``Action.FORWARD``,
#: ``Action.ANSWER``, ``Action.SUBSTITUTE``, ``Action.ATTRIBUTE``,
#: ``Action.DROP``, ``Action.DIVERT``), each the library's word for it, the
#: one that log records use: ``Action.FORWARD == "forwarded"``.
Action: Any = _Name(
    "Action",
    [
        (name[len(_ACTION_PREFIX) :], _ACTION_NAMES[code])
        for name, code in sorted(CONSTANTS.items(), key=lambda item: item[1])
        if name.startswith(_ACTION_PREFIX) and code in _ACTION_NAMES
    ],
    module=__name__,
)
Action.__doc__ = (
    "What to do with a line (SPEC §8 to §10), as a Session decides it. Members "
    "are the library's words for the actions: Action.FORWARD == 'forwarded'."
)
_ACTION_BY_CODE: Tuple[Any, ...] = _codes(_ACTION_NAMES, Action)

# ---- the layout of the C structures, from ctypes (never hard-coded) --------

_WORD = sizeof(ctypes.c_size_t)
# Pointers and sizes are both read as words ("P" columns of a memoryview).
assert sizeof(ctypes.c_void_p) == _WORD, "pointers and size_t differ in size"
_WORD_CODE = {8: "Q", 4: "I"}[_WORD]
_C = JsonRpcClassification
_CLS_SIZE = sizeof(_C)
_ITEM = sizeof(JsonRpcLine)
_CLS_IN_ITEM = JsonRpcLine.classification.offset


def _offset(path: str) -> int:
    """Byte offset of a (dotted) field inside JsonRpcClassification."""
    cls: Any = _C
    total = 0
    for name in path.split("."):
        field = getattr(cls, name)
        total += field.offset
        cls = dict(cls._fields_)[name]
    return total


def _picker(*paths: str, codes: Optional[str] = None) -> Tuple[struct.Struct, int]:
    """A struct that reads the given fields (in increasing offset order) from a
    classification image, and the offset to read it at."""
    fields = [(_offset(p), p) for p in paths]
    assert fields == sorted(fields), paths
    start = fields[0][0]
    fmt, at = "=", start
    for i, (off, _) in enumerate(fields):
        fmt += "%dx" % (off - at) if off > at else ""
        code = codes[i] if codes else _WORD_CODE
        fmt += code
        at = off + struct.calcsize("=" + code)
    return struct.Struct(fmt), start


# What classify() and read_messages() look at before the result is freed:
# whether any string must be copied from the library: a reason, a reply or
# a substitute, or a method with an escape (decoded shorter than its raw text). The
# method's pointer is not read here (a pointer makes a new int object): a
# method that is a string has a span that starts with a quote, which
# `Classification.method` reads from the line.
_PICK, _PICK_AT = _picker(
    "kind",
    "method_span.len",
    "method.len",
    "reason.ptr",
    "reply_server.ptr",
    "reply_client.ptr",
    "substitute.ptr",
    codes="I" + _WORD_CODE * 6,
)
# The same, and the storage of a jsonrpc_classify_into result.
_PICK_OUT, _ = _picker(
    "kind",
    "method_span.len",
    "method.len",
    "reason.ptr",
    "reply_server.ptr",
    "reply_client.ptr",
    "substitute.ptr",
    "storage",
    codes="I" + _WORD_CODE * 7,
)
# The five strings that are copied from the library when needed.
_STRS, _STRS_AT = _picker(
    "method.ptr",
    "method.len",
    "reason.ptr",
    "reason.len",
    "reply_server.ptr",
    "reply_server.len",
    "reply_client.ptr",
    "reply_client.len",
    "substitute.ptr",
    "substitute.len",
)
_ID_KIND_AT = _offset("id_kind")
_U32 = struct.Struct("=I")
_WORD1 = struct.Struct("=" + _WORD_CODE)
_SPAN = struct.Struct("=" + _WORD_CODE * 2)
_SPANS = struct.Struct("=" + _WORD_CODE * 10)
_SPANS_AT = _offset("id_span")
assert _offset("error_span") == _SPANS_AT + 4 * sizeof(JsonRpcSpan)
_ID_AT = _offset("id_span")
_METHOD_AT = _offset("method_span")
# What a Classification keeps of the C result: the part before its strings
# (kinds, flags, spans), which the header puts first for this.
_REC_SIZE = _offset("id")
assert _offset("error_span") + sizeof(JsonRpcSpan) == _REC_SIZE
_JSONRPC_2_0_AT = _offset("jsonrpc_2_0")
_HAS_RESULT_AT = _offset("has_result")
_HAS_ERROR_AT = _offset("has_error")
_NAMES_NO_REQUEST_AT = _offset("names_no_request")
_SPAN_NAMES = ("id", "method", "params", "result", "error")
_QUOTE = ord('"')
assert sizeof(JsonRpcStr) == 2 * _WORD and sizeof(JsonRpcSpan) == 2 * _WORD

# The reusable results and scratch buffers of classify() (see _new_slot)
# that no call is using. A call takes one for itself and gives it back:
# list.pop and list.append are atomic, so threads in classify() at once
# never share a slot, nor does a call that interrupts another on its own
# thread (a signal handler, a finalizer). There are as many slots as calls
# ever ran at once.
# (Slots per thread, in a threading.local, would be as safe, but its lookup
# costs about 60 ns more per call, some 5% of classify.)
_free_slots: List[Tuple[Any, ...]] = []
_take_slot = _free_slots.pop
_give_slot = _free_slots.append

_classify_into = classify_into
_classification_free = lib.jsonrpc_classification_free
_reader_new = lib.jsonrpc_reader_new
_reader_feed = lib.jsonrpc_reader_feed
_reader_end = lib.jsonrpc_reader_end
_reader_free = lib.jsonrpc_reader_free
_session_new = lib.jsonrpc_session_new
_session_feed = lib.jsonrpc_session_feed
_session_end = lib.jsonrpc_session_end
_session_sent = lib.jsonrpc_session_sent
_session_refused = lib.jsonrpc_session_refused
_session_outstanding = lib.jsonrpc_session_outstanding
_session_free = lib.jsonrpc_session_free
_log_value = lib.jsonrpc_log_value
_invalid_reply = lib.jsonrpc_invalid_reply
_string_free = lib.jsonrpc_string_free


def library_version() -> str:
    """The loaded library's version, such as ``"0.1.0"``."""
    version: bytes = lib.jsonrpc_version()
    return version.decode("ascii")


# ---- conversions -----------------------------------------------------------


def _as_bytes(data: Any, what: str) -> bytes:
    """The bytes to hand to the library; a str is UTF-8 encoded (a lone
    surrogate is encoded as such, and the library then sees invalid UTF-8)."""
    if isinstance(data, bytes):
        return data if type(data) is bytes else bytes(data)
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(
        f"{what} must be bytes, bytearray, memoryview or str, not {type(data).__name__}"
    )


def _role_code(role: Any) -> int:
    if isinstance(role, str):
        code = _ROLE_CODE.get(role)
        if code is None:
            raise ValueError(f"role must be 'server' or 'client', not {role!r}")
        return code
    raise TypeError(f"role must be a Role or 'server' or 'client', not {type(role).__name__}")


def _role(role: Any) -> Optional[Role]:
    if role is None:
        return None
    _role_code(role)
    return Role(role)


def _text(ptr: int, length: int) -> Optional[str]:
    """A library string (pointer, length) as str, or None when absent."""
    if not ptr:
        return None
    return string_at(ptr, length).decode("utf-8")


def _copy_strings(rec: bytes) -> Tuple[Optional[str], ...]:
    """Copies method, reason, both replies and the substitute out of a live
    result."""
    mp, ml, rp, rl, sp, sl, cp, cl, up, ul = _STRS.unpack_from(rec, _STRS_AT)
    return (_text(mp, ml), _text(rp, rl), _text(sp, sl), _text(cp, cl), _text(up, ul))


def _batch_text(texts: bytes, texts_at: int, ptr: int, length: int) -> Optional[str]:
    """A string of a batch item (pointer, length) as str, or None when absent,
    read from the batch's texts copied to ``texts`` from address ``texts_at``."""
    if not ptr:
        return None
    at = ptr - texts_at
    return str(texts[at : at + length], "utf-8")


# ---- the classification ----------------------------------------------------

# A Classification is a tuple (kind, line, rec, strings, role), opaque to
# callers: building one is a single C-level call, Classification(fields)
# (tuple's own constructor; a third faster than tuple.__new__(cls, fields),
# which parses its arguments in Python's slot wrapper), which read_messages
# makes for a whole chunk at once. `rec` is the bytes image of the C result
# (its pointers are dangling and never followed); `strings` is None, or the
# (method, reason, reply_server, reply_client, substitute) copied from the
# library.


class Classification(tuple):  # type: ignore[type-arg]
    """What a line is and what it carries (SPEC §3). Immutable.

    Attributes are named like the fields of ``tests/vectors/envelope.jsonl``
    and ``tests/vectors/mcp.jsonl``: ``kind``, ``id_kind``, ``id``,
    ``method``, ``jsonrpc_2_0``, ``has_result``, ``has_error``,
    ``names_no_request``, ``spans``, ``reason``, ``reply_server``,
    ``reply_client``, ``substitute``. Also: ``line`` (the bytes classified),
    ``id_value``, and ``params_bytes``/``result_bytes``/``error_bytes``.
    """

    __slots__ = ()

    if TYPE_CHECKING:  # pragma: no cover

        def __new__(cls, *args: Any) -> "Classification": ...

    if TYPE_CHECKING:  # pragma: no cover

        @property
        def kind(self) -> Kind:
            """The line's kind."""

        @property
        def line(self) -> bytes:
            """The line this classification is of (spans count from its first byte)."""

        @property
        def role(self) -> Optional[Role]:
            """The role given to ``classify`` or ``read_messages``, if any."""

    else:
        # The most read fields, as C-level getters (no Python frame per read).
        kind = property(itemgetter(0), doc="The line's kind.")
        line = property(
            itemgetter(1),
            doc="The line this classification is of (spans count from its first byte).",
        )
        role = property(
            itemgetter(4),
            doc="The role given to ``classify`` or ``read_messages``, if any.",
        )

    @property
    def id_kind(self) -> IdKind:
        """What the ``id`` member holds (``IdKind.ABSENT`` when there is none)."""
        rec: bytes = self[2]
        kind: Optional[IdKind] = _ID_KIND_BY_CODE[_U32.unpack_from(rec, _ID_KIND_AT)[0]]
        if kind is None:  # pragma: no cover - the library never gives one
            raise EnvelopeError("the library gave an unknown id kind")
        return kind

    @property
    def id(self) -> Optional[str]:
        """The id's exact JSON text as it stood in the line (``'7'``,
        ``'"a\\u0062"'``, ``'null'``, ``'12345678901234567890'``), or None when
        there is no ``id`` member. Never re-encoded, never rounded."""
        offset, length = _SPAN.unpack_from(self[2], _ID_AT)
        if not length:
            return None
        line: bytes = self[1]
        return line[offset : offset + length].decode("utf-8")

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
        strings = self[3]
        if strings is not None:
            method: Optional[str] = strings[0]
            return method
        offset, length = _SPAN.unpack_from(self[2], _METHOD_AT)
        line: bytes = self[1]
        if not length or line[offset] != _QUOTE:
            return None  # no method, or one that is not a string
        # No escape in it (see the module's notes): the raw text is the text.
        return line[offset + 1 : offset + length - 1].decode("utf-8")

    @property
    def jsonrpc_2_0(self) -> bool:
        """A ``jsonrpc`` member is the string ``"2.0"``."""
        rec: bytes = self[2]
        return rec[_JSONRPC_2_0_AT] != 0

    @property
    def has_result(self) -> bool:
        """A ``result`` member is present."""
        rec: bytes = self[2]
        return rec[_HAS_RESULT_AT] != 0

    @property
    def has_error(self) -> bool:
        """An ``error`` member is present."""
        rec: bytes = self[2]
        return rec[_HAS_ERROR_AT] != 0

    @property
    def names_no_request(self) -> bool:
        """A response that answers no request (an error with a null or no id
        in a ``"jsonrpc":"2.0"`` message): a host waiting on its one request
        can fail at once with this error."""
        rec: bytes = self[2]
        return rec[_NAMES_NO_REQUEST_AT] != 0

    @property
    def spans(self) -> Dict[str, Tuple[int, int]]:
        """``{name: (offset, length)}`` in the line's bytes, for whichever of
        ``id``, ``method``, ``params``, ``result``, ``error`` are present."""
        words = _SPANS.unpack_from(self[2], _SPANS_AT)
        return {
            name: (words[2 * i], words[2 * i + 1])
            for i, name in enumerate(_SPAN_NAMES)
            if words[2 * i + 1]
        }

    def _member(self, index: int) -> Optional[bytes]:
        offset, length = _SPAN.unpack_from(
            self[2], _SPANS_AT + index * 2 * _WORD
        )
        if not length:
            return None
        line: bytes = self[1]
        return line[offset : offset + length]

    @property
    def params_bytes(self) -> Optional[bytes]:
        """The raw JSON text of ``params`` from the line, or None."""
        return self._member(2)

    @property
    def result_bytes(self) -> Optional[bytes]:
        """The raw JSON text of ``result`` from the line, or None."""
        return self._member(3)

    @property
    def error_bytes(self) -> Optional[bytes]:
        """The raw JSON text of ``error`` from the line, or None."""
        return self._member(4)

    @property
    def reason(self) -> Optional[str]:
        """For ``invalid_request``, the reply's exact message; for
        ``invalid_response``, the MCP rule it breaks; for ``parse_error``,
        what is wrong and where; otherwise None."""
        strings = self[3]
        return None if strings is None else strings[1]

    @property
    def reply_server(self) -> Optional[str]:
        """The reply a server owes for this line, or None for none."""
        strings = self[3]
        return None if strings is None else strings[2]

    @property
    def reply_client(self) -> Optional[str]:
        """The reply a client owes for this line, or None for none."""
        strings = self[3]
        return None if strings is None else strings[3]

    @property
    def substitute(self) -> Optional[str]:
        """For an ``invalid_response`` whose id is an MCP id (profile MCP),
        the error response to hand on in the line's place, so that the
        request it answers fails at once (SPEC §10.3); otherwise None."""
        strings = self[3]
        return None if strings is None else strings[4]

    def reply(self, role: Union[Role, str, None] = None) -> Optional[str]:
        """The reply the endpoint in ``role`` owes for this line, or None.

        ``role`` defaults to the role this line was read with (the ``role``
        argument of ``classify`` or ``read_messages``); with neither, a
        TypeError says a role is needed.
        """
        if role is None:
            role = self[4]
            if role is None:
                raise TypeError("reply() needs a role: 'server' or 'client'")
        code = _role_code(role)
        strings = self[3]
        if strings is None:
            return None
        reply: Optional[str] = strings[2] if code == _ROLE_SERVER else strings[3]
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


def _from_rec(
    rec: bytes, line: bytes, role: Optional[Role], texts: Optional[bytes] = None, texts_at: int = 0
) -> Classification:
    """A Classification from a result's image: a batch item's, whose strings
    are read from the batch's copied ``texts``, or (without ``texts``) a
    live result's, whose strings are copied now, before it is freed."""
    code, m_span, m_len, r_ptr, s_ptr, c_ptr, u_ptr = _PICK.unpack_from(rec, _PICK_AT)
    strings = None
    if r_ptr or s_ptr or c_ptr or u_ptr or (m_span and m_len + 2 != m_span):
        if texts is None:
            strings = _copy_strings(rec)
        else:
            mp, ml, rp, rl, sp, sl, cp, cl, up, ul = _STRS.unpack_from(rec, _STRS_AT)
            strings = tuple(
                _batch_text(texts, texts_at, p, n) for p, n in ((mp, ml), (rp, rl), (sp, sl), (cp, cl), (up, ul))
            )
    kind = _KIND_OF_LINE[code] if code < _KIND_CODES else None
    if kind is None:
        reason = strings[1] if strings else None
        raise EnvelopeError(
            f"the library could not classify the line (kind {code}): {reason or 'no reason given'}"
        )
    return Classification((kind, line, rec[:_REC_SIZE], strings, role))


def _new_slot() -> Tuple[Any, ...]:
    """A result and a scratch buffer for one ``jsonrpc_classify_into`` call at
    a time: the result's bytes as a memoryview, and its part before the
    strings (whose ``tobytes()`` is what a Classification keeps; faster than
    ``bytes()`` of the structure, which asks ctypes for a buffer at every
    call), then &out and &scratch as the call is given them (see
    _ffi.classify_into), then the scratch's bytes as a memoryview and its
    address, for reading strings back."""
    out = JsonRpcClassification()
    scratch = (ctypes.c_ubyte * SCRATCH_SIZE)()
    image = memoryview(out).cast("B")
    return (
        image,
        image[:_REC_SIZE],
        ctypes.byref(out),
        ctypes.byref(scratch),  # a uint8_t * to its first byte
        memoryview(scratch).cast("B"),
        ctypes.addressof(scratch),
    )


# Sizes as classify_into is given them: the argument objects that ctypes'
# own conversion makes (c_size_t.from_param), which ctypes passes as they
# are, with no conversion or allocation per call. They are immutable, so
# one serves every thread; a line's length is looked up (made once per
# length below _LENGTHS_CACHED, and per call above it).
_SCRATCH_LEN = ctypes.c_size_t.from_param(SCRATCH_SIZE)
_LENGTHS_CACHED = 16384
_LENGTHS: List[Any] = [None] * _LENGTHS_CACHED


def _length(n: int) -> Any:
    """The argument object for a line of n bytes."""
    arg = ctypes.c_size_t.from_param(n)
    if n < _LENGTHS_CACHED:
        _LENGTHS[n] = arg
    return arg


def _scratch_text(view: memoryview, base: int, ptr: int, length: int) -> Optional[str]:
    """A string of a classify_into result (pointer, length) as str, or None:
    read from the scratch buffer when it lies there (no ctypes call), else
    from where it is (the result's storage, or a static text)."""
    if not ptr:
        return None
    at = ptr - base
    if 0 <= at and at + length <= len(view):
        return str(view[at : at + length], "utf-8")
    return string_at(ptr, length).decode("utf-8")


def classify(
    line: Union[bytes, bytearray, memoryview, str],
    role: Union[Role, str, None] = None,
    *,
    profile: Union[Profile, str] = Profile.JSONRPC,
) -> Classification:
    """Classifies one line (SPEC §2, §3) by ``profile`` (SPEC §10 for
    ``Profile.MCP``; JSON-RPC 2.0 alone by default).

    ``line`` is bytes-like, or a str (UTF-8 encoded). It normally has no line
    break; surrounding JSON whitespace is allowed. ``role``, if given, is
    the default of ``Classification.reply()``. Every input has a
    classification; TypeError for a wrong type.
    """
    data = line if type(line) is bytes else _as_bytes(line, "line")
    if role is not None:
        role = _role(role)
    profile_arg = _PROFILE_ARG[profile if type(profile) is Profile else _profile(profile)]
    # A slot of its own for this call (see _free_slots), given back after.
    try:
        slot = _take_slot()
    except IndexError:
        slot = _new_slot()
    image, head, out_ref, scratch, view, base = slot
    n = len(data)
    length = (_LENGTHS[n] if n < _LENGTHS_CACHED else None) or _length(n)
    storage = True  # until read: jsonrpc_classification_free is always correct
    try:
        # One crossing, and mostly no allocation: the result's strings are in
        # the slot's scratch, or (when they did not fit) in its storage.
        # What is needed is copied out before the slot is given back.
        _classify_into(data, length, profile_arg, out_ref, scratch, _SCRATCH_LEN)
        code, m_span, m_len, r_ptr, s_ptr, c_ptr, u_ptr, storage = _PICK_OUT.unpack_from(image, _PICK_AT)
        rec = head.tobytes()
        strings = None
        if r_ptr or s_ptr or c_ptr or u_ptr or (m_span and m_len + 2 != m_span):
            mp, ml, rp, rl, sp, sl, cp, cl, up, ul = _STRS.unpack_from(image, _STRS_AT)
            strings = (
                _scratch_text(view, base, mp, ml),
                _scratch_text(view, base, rp, rl),
                _scratch_text(view, base, sp, sl),
                _scratch_text(view, base, cp, cl),
                _scratch_text(view, base, up, ul),
            )
    finally:
        if storage:
            _classification_free(out_ref)
        _give_slot(slot)
    kind = _KIND_OF_LINE[code] if code < _KIND_CODES else None
    if kind is None:
        raise EnvelopeError(
            f"the library could not classify the line: {strings and strings[1] or 'no reason given'}"
        )
    return Classification((kind, data, rec, strings, role))


# ---- the single-string calls -------------------------------------------------


def invalid_reply(
    line: Union[bytes, bytearray, memoryview, str],
    role: Union[Role, str] = Role.SERVER,
    *,
    profile: Union[Profile, str] = Profile.JSONRPC,
) -> Optional[str]:
    """The one reply the endpoint in ``role`` owes for ``line`` (SPEC §4) by
    ``profile`` (SPEC §10 for ``Profile.MCP``): a JSON-RPC error response,
    byte for byte, without a line break; or None."""
    data = line if type(line) is bytes else _as_bytes(line, "line")
    code = _role_code(role)
    profile = _profile(profile)
    reply = _invalid_reply(data, len(data), code, profile.value)
    try:
        status = reply.status
        text = reply.text
        ptr, length = text.ptr, text.len
        value = string_at(ptr, length).decode("utf-8") if ptr else None
    finally:
        _string_free(reply.text)
    if status != _STATUS_OK:
        if status == _STATUS_UNKNOWN_ROLE:
            raise ValueError(f"the library refused role {role!r}")
        if status == _STATUS_UNKNOWN_PROFILE:
            raise ValueError(f"the library refused profile {profile!r}")
        raise EnvelopeError(f"jsonrpc_invalid_reply failed: {_STATUS_NAME.get(status, status)}")
    return value


def log_value(data: Union[bytes, bytearray, memoryview, str]) -> str:
    """A peer's bytes rendered for one log line (SPEC §5): compact JSON or
    UTF-8 with invalid sequences replaced; control, line-separator and bidi
    characters escaped; at most 256 UTF-16 units, then ``…``."""
    raw = data if type(data) is bytes else _as_bytes(data, "data")
    text = _log_value(raw, len(raw))
    try:
        ptr, length = text.ptr, text.len
        value = string_at(ptr, length).decode("utf-8") if ptr else None
    finally:
        _string_free(text)
    if value is None:
        raise EnvelopeError("jsonrpc_log_value failed (out of memory or an internal fault)")
    return value


# ---- many lines from a stream ----------------------------------------------


class TooLong:
    """A line longer than ``max_line``, which ``read_messages`` skipped without
    holding it (SPEC §6). It is owed no reply in either role."""

    __slots__ = ("length",)
    kind = Kind(_KIND_NAMES[_TOO_LONG_CODE])
    reply_server = None
    reply_client = None
    substitute = None

    length: int

    def __init__(self, length: int) -> None:
        object.__setattr__(self, "length", length)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TooLong is immutable")

    def reply(self, role: Union[Role, str, None] = None) -> None:
        """No reply is owed for a line too long to read."""
        if role is not None:
            _role_code(role)
        return None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TooLong):
            return NotImplemented
        return self.length == other.length

    def __hash__(self) -> int:
        return hash((TooLong, self.length))

    def __repr__(self) -> str:
        return f"TooLong(length={self.length})"


Message = Union[Tuple[bytes, Classification], Tuple[None, TooLong]]


def _check_max_line(max_line: Any) -> None:
    if isinstance(max_line, bool) or not isinstance(max_line, int):
        raise TypeError(f"max_line must be an int, not {type(max_line).__name__}")
    if not 0 < max_line <= ctypes.c_size_t(-1).value:
        raise ValueError(f"max_line must be a positive number of bytes, not {max_line}")


def read_messages(
    stream: BinaryIO,
    *,
    max_line: int = DEFAULT_MAX_LINE,
    role: Union[Role, str, None] = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    profile: Union[Profile, str] = Profile.JSONRPC,
) -> Iterator[Message]:
    """Reads a binary stream line by line (lines end at LF) and yields
    ``(line, classification)`` for each line, in order, each line classified
    by ``profile`` (JSON-RPC 2.0 alone by default).

    A line longer than ``max_line`` bytes is never held whole: it is yielded
    once, when its end is seen, as ``(None, TooLong(length))``. At the end of
    the stream a last line without LF is yielded too.

    The stream is read ``chunk_size`` bytes at a time (with ``read1`` where
    the stream has it, so a pipe's lines come as soon as they arrive), and
    handed to the library's stream reader (a ``Reader``), which classifies
    the lines each chunk completes in the same call. ``role``, if given, is
    the default of ``Classification.reply()``. Memory stays within about
    ``max_line + chunk_size`` bytes plus the lines of one chunk. The
    library's reader is freed when the iteration ends, fails, or is closed
    or dropped.
    """
    _check_max_line(max_line)
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int):
        raise TypeError(f"chunk_size must be an int, not {type(chunk_size).__name__}")
    if chunk_size <= 0:
        raise ValueError(f"chunk_size must be positive, not {chunk_size}")
    read = getattr(stream, "read1", None) or getattr(stream, "read", None)
    if read is None:
        raise TypeError(f"stream must be a binary stream, not {type(stream).__name__}")
    return _read_messages(read, Reader(max_line=max_line, role=role, profile=profile), chunk_size)


def _read_messages(read: Any, reader: "Reader", chunk_size: int) -> Iterator[Message]:
    with reader:
        while True:
            chunk = read(chunk_size)
            if type(chunk) is not bytes:
                if chunk is None:
                    raise ValueError("read_messages needs a blocking stream (read returned None)")
                if not isinstance(chunk, (bytes, bytearray, memoryview)):
                    raise TypeError(
                        f"read_messages needs a binary stream (read returned {type(chunk).__name__})"
                    )
                chunk = bytes(chunk)
            yield from reader._step(chunk)
            if not chunk:
                return


class Reader:
    """The library's stream reader (SPEC §6), fed by the caller: for bytes
    that do not come from a blocking stream (an event loop's pipe, a
    socket's callback). ``read_messages`` is this, fed from ``stream.read1``.

    ``feed(data)`` hands the library the next bytes of the stream and
    returns the messages of the lines they completed, in order, classified
    by ``profile`` (JSON-RPC 2.0 alone by default), as ``read_messages``
    yields them: ``(line, Classification)``, or ``(None,
    TooLong(length))`` for a line over ``max_line``, which is never held
    whole. ``end()`` says the stream has ended and returns the message of a
    last line without LF, if there is one. The library keeps the partial
    line between calls; this object holds no bytes of its own.

    The library's reader is freed by ``end()``, ``close()``, leaving a
    ``with`` block, or when the object is dropped; then ``feed`` raises
    ValueError. One Reader is used by one thread at a time.
    """

    __slots__ = ("_reader", "_batch", "_batch_ref", "_role")

    def __init__(
        self,
        *,
        max_line: int = DEFAULT_MAX_LINE,
        role: Union[Role, str, None] = None,
        profile: Union[Profile, str] = Profile.JSONRPC,
    ) -> None:
        self._reader: Any = None
        _check_max_line(max_line)
        self._role = _role(role)
        code = _profile(profile).value
        self._batch = JsonRpcBatch()
        self._batch_ref = ctypes.byref(self._batch)
        reader = _reader_new(max_line, code)
        if not reader:
            raise MemoryError("jsonrpc_reader_new: out of memory")
        self._reader = reader

    def feed(self, data: Union[bytes, bytearray, memoryview]) -> List[Message]:
        """The messages of the lines that ``data`` completes, in order."""
        raw = data if type(data) is bytes else _as_bytes(data, "data")
        if not raw:
            # b"" would read as the end of the stream in _step.
            if self._reader is None:
                raise ValueError("feed on a Reader that has ended or is closed")
            return []
        return list(self._step(raw))

    def end(self) -> List[Message]:
        """The message of a last line without LF, if any; then the Reader
        is closed."""
        try:
            return list(self._step(b""))
        finally:
            self.close()

    def close(self) -> None:
        """Frees the library's reader (a partial line is dropped). Safe to
        call more than once."""
        reader, self._reader = self._reader, None
        if reader:
            _reader_free(reader)

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def _step(self, chunk: bytes) -> Any:
        """One library call: feed ``chunk``, or end the stream when it is
        empty; the messages, copied out of the library's batch (valid only
        until the reader's next call) before this returns."""
        reader = self._reader
        if reader is None:
            raise ValueError("feed on a Reader that has ended or is closed")
        if chunk:
            status = _reader_feed(reader, chunk, len(chunk), self._batch_ref)
        else:
            status = _reader_end(reader, self._batch_ref)
        if status != _STATUS_OK:
            if status == _STATUS_OUT_OF_MEMORY:
                raise MemoryError("the library's reader ran out of memory")
            raise EnvelopeError(f"the library's reader failed: {_STATUS_NAME.get(status, status)}")
        count = self._batch.count
        if not count:
            return ()
        return _messages(self._batch, string_at(self._batch.items, count * _ITEM), self._role)


def _messages(batch: JsonRpcBatch, raw: bytes, role: Optional[Role]) -> Any:
    """A batch's messages, copied out of the reader in three pieces (items,
    ``raw``, copied by the caller; line bytes; strings) and built column by
    column where no item needs a string of the library's own, item by item
    otherwise."""
    count: int = batch.count
    if count == 1:
        # One line a read, as in a conversation: the columns cost more than
        # they save.
        return (_one_item(raw, batch, role),)
    data = string_at(batch.bytes, batch.bytes_len) if batch.bytes_len else b""
    codes = _column(memoryview(raw).cast("I"), _COL_KIND).tolist()
    if not _strings_needed(raw, codes, data):
        return _fast_items(raw, codes, data, role)
    texts = string_at(batch.texts, batch.texts_len) if batch.texts_len else b""
    return _slow_items(raw, count, data, texts, batch.texts or 0, role)


def _one_item(raw: bytes, batch: JsonRpcBatch, role: Optional[Role]) -> Message:
    """The message of a batch's only item, its strings copied from the batch
    (still the reader's) only where they are needed."""
    offset, length = _SPAN.unpack_from(raw, _COL_OFFSET)
    if _U32.unpack_from(raw, _COL_KIND)[0] == _TOO_LONG_CODE:
        return (None, TooLong(length))
    line = string_at(batch.bytes + offset, length)
    return (line, _from_rec(raw[_CLS_IN_ITEM : _CLS_IN_ITEM + _CLS_SIZE], line, role))


# Where the columns of the items array start (bytes into the array); each
# column is read as a strided memoryview, one entry every _ITEM bytes.
_COL_OFFSET = JsonRpcLine.offset.offset
_COL_LEN = JsonRpcLine.len.offset
_COL_KIND = _CLS_IN_ITEM + _offset("kind")
_COL_OWNED = tuple(
    _CLS_IN_ITEM + _offset(name)
    for name in ("reason.ptr", "reply_server.ptr", "reply_client.ptr", "substitute.ptr")
)
_COL_METHOD_PTR = _CLS_IN_ITEM + _offset("method.ptr")
_COL_METHOD_LEN = _CLS_IN_ITEM + _offset("method.len")
_COL_METHOD_SPAN_LEN = _CLS_IN_ITEM + _offset("method_span.len")
assert _ITEM % _WORD == 0 and _COL_KIND % 4 == 0
# The codes of the kinds a classification may have.
_LINE_CODES = frozenset(code for code, kind in enumerate(_KIND_OF_LINE) if kind is not None)
_FIRST = itemgetter(0)
# Each item's classification image, as bytes, item after item.
_RECS = struct.Struct("=%dx%ds%dx" % (_CLS_IN_ITEM, _REC_SIZE, _ITEM - _CLS_IN_ITEM - _REC_SIZE))
assert _RECS.size == _ITEM


def _column(view: memoryview, byte_offset: int) -> memoryview:
    """Entry `byte_offset` of every item, from a view cast to one C type."""
    size = view.itemsize
    assert byte_offset % size == 0
    return view[byte_offset // size :: _ITEM // size]


def _strings_needed(raw: bytes, codes: List[int], data: bytes) -> bool:
    """Whether some item cannot be built from its image and its line alone:
    a too-long line, a reason or reply text, or a method with an escape.
    Decided from whole columns (``codes`` is the kind column) at C speed."""
    if _TOO_LONG_CODE in codes:
        return True
    count = len(codes)
    words = memoryview(raw).cast("P")
    zero = bytes(_WORD * count)
    for column in _COL_OWNED:
        if _column(words, column).tobytes() != zero:
            return True
    if b"\\" in data:
        # A method may hold an escape: each escape makes the decoded method
        # shorter than its raw text, so the totals tell.
        present = count - _column(words, _COL_METHOD_PTR).tolist().count(0)
        decoded = sum(_column(words, _COL_METHOD_LEN).tolist())
        raw_text = sum(_column(words, _COL_METHOD_SPAN_LEN).tolist())
        if raw_text - decoded != 2 * present:
            return True
    return False


def _fast_items(raw: bytes, codes: List[int], data: bytes, role: Optional[Role]) -> Any:
    """The batch's messages, built column by column (see _strings_needed).
    With no too-long line among them, the batch's bytes are its lines, each
    with its LF but perhaps the last: one split makes them all."""
    count = len(codes)
    if not _LINE_CODES.issuperset(codes):
        raise EnvelopeError("the library could not classify a line (kind none)")
    lines = data.split(b"\n", count)
    if len(lines) > count:
        del lines[count:]
    # Every per-line step below is a C-level iterator: no Python frame runs
    # per line until the caller's.
    kinds = map(_KIND_OF_LINE.__getitem__, codes)
    recs = map(_FIRST, _RECS.iter_unpack(raw))
    return zip(
        lines,
        map(Classification, zip(kinds, lines, recs, repeat(None), repeat(role))),
    )


def _slow_items(
    raw: bytes, count: int, data: bytes, texts: bytes, texts_at: int, role: Optional[Role]
) -> List[Message]:
    """The batch's messages, item by item, strings read from the batch's
    copied texts."""
    messages: List[Message] = []
    for i in range(count):
        base = i * _ITEM
        offset = _WORD1.unpack_from(raw, base + _COL_OFFSET)[0]
        length = _WORD1.unpack_from(raw, base + _COL_LEN)[0]
        if _U32.unpack_from(raw, base + _COL_KIND)[0] == _TOO_LONG_CODE:
            messages.append((None, TooLong(length)))
            continue
        line = data[offset : offset + length]
        rec = raw[base + _CLS_IN_ITEM : base + _CLS_IN_ITEM + _CLS_SIZE]
        messages.append((line, _from_rec(rec, line, role, texts, texts_at)))
    return messages


# ---- the session: each line with what to do with it ---------------------------


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
      ``ANSWER``, write ``action_text`` and an LF back to the line's sender;
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
    """What ``Session.refused`` says to do with a line the receiving SDK's
    own decoder refused (SPEC §10.4): ``action`` is ``Action.ANSWER``
    (write ``text`` back to the line's sender), ``Action.SUBSTITUTE`` (hand
    ``text`` to the SDK instead) or ``Action.DROP``; ``note`` says why."""

    action: Any
    text: Optional[str]
    note: Optional[str]


# The parts of a batch item that only a session fills, read per item.
_COL_NUMBER = JsonRpcLine.number.offset
_COL_ACTION = JsonRpcLine.action.offset
_COL_ACTION_TEXT = JsonRpcLine.action_text.offset
_COL_NOTE = JsonRpcLine.note.offset
_U64 = struct.Struct("=Q")
assert JsonRpcLine.number.size == 8 and JsonRpcLine.action.size == 4
# A note is a static text of the library: read once per address.
_NOTES: Dict[int, str] = {}


def _note(ptr: int) -> Optional[str]:
    if not ptr:
        return None
    note = _NOTES.get(ptr)
    if note is None:
        note = _NOTES[ptr] = string_at(ptr).decode("utf-8")
    return note


def _decided(batch: JsonRpcBatch, role: Role) -> List[SessionLine]:
    """A session's batch as SessionLines, copied out before the session's
    next call: the messages as a Reader makes them, and each item's action,
    its text (in the batch's texts, or a string of the session's own) and
    its note."""
    count: int = batch.count
    raw = string_at(batch.items, count * _ITEM)
    decided = []
    for i, (line, c) in enumerate(_messages(batch, raw, role)):
        base = i * _ITEM
        code = _U32.unpack_from(raw, base + _COL_ACTION)[0]
        action = _ACTION_BY_CODE[code] if code < len(_ACTION_BY_CODE) else None
        if action is None:
            raise EnvelopeError(f"the library's session gave a line no action ({code})")
        ptr, length = _SPAN.unpack_from(raw, base + _COL_ACTION_TEXT)
        decided.append(
            SessionLine(
                _U64.unpack_from(raw, base + _COL_NUMBER)[0],
                line,
                c,
                action,
                string_at(ptr, length).decode("utf-8") if ptr else None,
                _note(_WORD1.unpack_from(raw, base + _COL_NOTE)[0]),
            )
        )
    return decided


class Session:
    """One endpoint's session (SPEC §8 to §10), the library's
    ``JsonRpcSession``: a stream reader that also decides what to do with
    each line it reads, in ``role`` and by ``profile``, and keeps the ids of
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
        max_line: int = DEFAULT_MAX_LINE,
    ) -> None:
        self._session: Any = None
        code = _role_code(role)
        _check_max_line(max_line)
        self._role = Role(role)
        self._profile = _profile(profile)
        self._lock = threading.Lock()
        self._batch = JsonRpcBatch()
        self._batch_ref = ctypes.byref(self._batch)
        session = _session_new(code, self._profile.value, max_line)
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
        raw = data if type(data) is bytes else _as_bytes(data, "data")
        with self._lock:
            session = self._live()
            if not raw:
                return []
            status = _session_feed(session, raw, len(raw), self._batch_ref)
            return self._lines(status)

    def end(self) -> List[SessionLine]:
        """The last line of the stream, when it had no LF, with its action;
        the session then reads a new stream (its outstanding requests kept)."""
        with self._lock:
            status = _session_end(self._live(), self._batch_ref)
            return self._lines(status)

    def _lines(self, status: int) -> List[SessionLine]:
        _check_status(status, "jsonrpc_session")
        if not self._batch.count:
            return []
        return _decided(self._batch, self._role)

    def sent(self, line: Union[bytes, bytearray, memoryview, str]) -> None:
        """Tells the session of a line written to the peer whose lines it
        reads (in the MCP profile a request's id is then outstanding until
        a response names it). Call it before the line leaves."""
        raw = line if type(line) is bytes else _as_bytes(line, "line")
        with self._lock:
            _check_status(_session_sent(self._live(), raw, len(raw)), "jsonrpc_session_sent")

    def refused(self, line: Union[bytes, bytearray, memoryview, str]) -> Decision:
        """What to do instead when the receiving SDK's own decoder refused
        ``line``, which this session handed on (SPEC §10.4): a fault of the
        profile, to be logged at error level."""
        raw = line if type(line) is bytes else _as_bytes(line, "line")
        out = JsonRpcDecision()
        with self._lock:
            status = _session_refused(self._live(), raw, len(raw), ctypes.byref(out))
        try:
            _check_status(status, "jsonrpc_session_refused")
            code = out.action
            action = _ACTION_BY_CODE[code] if code < len(_ACTION_BY_CODE) else None
            if action is None:
                raise EnvelopeError(f"jsonrpc_session_refused gave no action ({code})")
            text = out.text
            value = string_at(text.ptr, text.len).decode("utf-8") if text.ptr else None
            return Decision(action, value, _note(out.note or 0))
        finally:
            _string_free(out.text)

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


def _check_status(status: int, call: str) -> None:
    if status == _STATUS_OK:
        return
    if status == _STATUS_OUT_OF_MEMORY:
        raise MemoryError(f"{call}: the library ran out of memory")
    raise EnvelopeError(f"{call} failed: {_STATUS_NAME.get(status, status)}")
