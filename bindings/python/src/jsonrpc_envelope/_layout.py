"""Fields of the C structures, read by name from their bytes.

The binding copies what the library returns as bytes: a classification
(``classify``), or a batch's whole items array at once (``read_messages``
and ``Session``, one ``string_at`` per batch). The readers below take named
fields from such bytes, at the offsets and sizes ctypes gives for the
structures of ``_ffi`` (which tests/test_header.py holds against the C
compiler's): each is the ``unpack_from`` of a ``struct.Struct`` that reads
a group of fields in one C-level call, ``read(buffer, at)``. A
``memoryview`` cast over an items array reads one field of every line at
once (``column``).

They stand in for ctypes attribute access (``items[i].classification.kind``),
which makes a Python object for every nested structure and every field it
reads, line after line: read so, a batch or a classify costs several times
what it does now (measured for issue 23, whose note has the figures).

The readers are functions, not ``Struct`` objects, for their callers' sake:
CPython 3.11 compiles ``name.method(...)`` on a name bound by an import as
an attribute load that makes a bound method at every call.
"""

from __future__ import annotations

import struct
from ctypes import c_bool, c_size_t, c_void_p, sizeof
from typing import Any, Callable, Tuple

from ._ffi import JsonRpcClassification, JsonRpcLine, JsonRpcSpan

#: The size of a pointer and of a size_t: the ``P``-sized columns.
WORD = sizeof(c_size_t)
assert sizeof(c_void_p) == WORD, "pointers and size_t differ in size"

Reader = Callable[..., Tuple[Any, ...]]


def field(ctype: Any, path: str) -> Tuple[int, Any]:
    """The byte offset and the ctypes type of a field of ``ctype``, named
    by its (dotted) path: ``field(JsonRpcLine, "classification.kind")``."""
    at = 0
    for name in path.split("."):
        at += getattr(ctype, name).offset
        ctype = dict(ctype._fields_)[name]
    return at, ctype


def offset(ctype: Any, path: str) -> int:
    """The byte offset of a field of ``ctype`` (see ``field``)."""
    return field(ctype, path)[0]


def _code(ctype: Any) -> str:
    """The struct format of a scalar C field (the ABI's are unsigned)."""
    return "?" if ctype is c_bool else {4: "I", 8: "Q"}[sizeof(ctype)]


def layout(ctype: Any, *paths: str) -> Tuple[struct.Struct, int]:
    """A ``struct.Struct`` that reads the named fields of ``ctype``, given in
    increasing offset order, and the offset to read it at."""
    found = [field(ctype, path) for path in paths]
    assert [at for at, _ in found] == sorted(at for at, _ in found), paths
    start = at = found[0][0]
    fmt = "="
    for field_at, field_type in found:
        if field_at > at:
            fmt += "%dx" % (field_at - at)
        fmt += _code(field_type)
        at = field_at + sizeof(field_type)
    return struct.Struct(fmt), start


def reader(ctype: Any, *paths: str) -> Tuple[Reader, int]:
    """``(read, at)``: ``read(image, at)`` gives the named fields of
    ``ctype`` (see ``layout``) from the bytes of one."""
    fields, at = layout(ctype, *paths)
    return fields.unpack_from, at


_C = JsonRpcClassification

# ---- a classification -------------------------------------------------------

#: What a Classification keeps of the library's result: its bytes before
#: ``reason``. That is the part the header puts first so that a binding can
#: copy it alone (kinds, flags, spans), and the ``id`` and ``method``
#: strings' pointers and lengths, which are never followed (the memory they
#: point to is the library's): a pointer is only compared with NULL.
RECORD_SIZE = offset(_C, "reason")

_NEEDS = ("kind", "method_span.len", "method.len")
_NEEDS += tuple(f"{name}.ptr" for name in ("reason", "reply_server", "reply_client", "substitute"))
#: What decides whether a result's strings must be copied from the library
#: (see ``needs_strings`` in _classification): its kind, its method's span
#: length and length, and its other strings' pointers.
read_needs, NEEDS_AT = reader(_C, *_NEEDS)
#: The same, and ``storage``: whether a ``jsonrpc_classify_into`` result
#: owns memory to free.
read_needs_and_storage, _ = reader(_C, *_NEEDS, "storage")
#: The strings a Classification copies when it needs them, each a pointer
#: and a length, in the order of ``Strings`` (method, reason, reply_server,
#: reply_client, substitute).
read_strings, STRINGS_AT = reader(
    _C,
    *(f"{name}.{part}" for name in ("method", "reason", "reply_server", "reply_client", "substitute")
      for part in ("ptr", "len")),
)

#: The id string's pointer and length: read only for a too-long line, whose
#: bytes are not held, so that its id (SPEC §10.6 (d)) is the library's copy.
read_id_string, ID_STRING_AT = reader(_C, "id.ptr", "id.len")

# Readers of a record (offsets count from its first byte).
read_id_kind, ID_KIND_AT = reader(_C, "id_kind")
#: One span, (offset, length), at the offset of the one wanted.
read_span, _ = reader(JsonRpcSpan, "offset", "len")
ID_SPAN_AT = offset(_C, "id_span")
PARAMS_SPAN_AT = offset(_C, "params_span")
RESULT_SPAN_AT = offset(_C, "result_span")
ERROR_SPAN_AT = offset(_C, "error_span")
#: Where the method stands in the line, and the decoded method's pointer
#: and length.
read_method, METHOD_AT = reader(_C, "method_span.offset", "method.ptr", "method.len")
#: Every span, as (offset, length) pairs in the order of ``SPAN_NAMES``.
SPAN_NAMES = ("id", "method", "params", "result", "error")
read_spans, SPANS_AT = reader(_C, *(f"{name}_span.{part}" for name in SPAN_NAMES for part in ("offset", "len")))
# The flags are C bools, one byte each, read by index.
JSONRPC_2_0_AT = offset(_C, "jsonrpc_2_0")
HAS_RESULT_AT = offset(_C, "has_result")
HAS_ERROR_AT = offset(_C, "has_error")
NAMES_NO_REQUEST_AT = offset(_C, "names_no_request")
assert offset(_C, "method.len") < RECORD_SIZE and offset(_C, "error_span.len") < RECORD_SIZE

# ---- a batch's items array (JsonRpcLine after JsonRpcLine) ------------------

#: The size of one item.
ITEM = sizeof(JsonRpcLine)
#: Where an item's classification starts, and its size.
CLASSIFICATION_IN_ITEM = offset(JsonRpcLine, "classification")
CLASSIFICATION_SIZE = sizeof(JsonRpcClassification)
#: Where an item's line stands in the batch's bytes, and its length.
read_place, PLACE_AT = reader(JsonRpcLine, "offset", "len")
#: An item's kind.
read_item_kind, ITEM_KIND_AT = reader(JsonRpcLine, "classification.kind")
#: What a session decided for an item: its number, its action, the
#: action's text (pointer, length) and its note (a pointer).
read_decision, DECISION_AT = reader(JsonRpcLine, "number", "action", "action_text.ptr", "action_text.len", "note")
_RECORDS = struct.Struct("=%dx%ds%dx" % (CLASSIFICATION_IN_ITEM, RECORD_SIZE, ITEM - CLASSIFICATION_IN_ITEM - RECORD_SIZE))
assert _RECORDS.size == ITEM
#: Each item's record, as a 1-tuple of bytes, item after item, from an
#: items array.
iter_records = _RECORDS.iter_unpack


def column(view: memoryview, at: int) -> memoryview:
    """The field at byte ``at`` of every item, from a view of an items
    array cast to that field's C type."""
    size = view.itemsize
    assert at % size == 0 and ITEM % size == 0
    return view[at // size :: ITEM // size]
