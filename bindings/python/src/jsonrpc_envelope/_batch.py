"""A batch of the library's stream reader (``JsonRpcBatch``) as Python
messages, copied out before the reader's next call.

A batch is copied in three pieces, as the header has it: the items array,
the lines' ``bytes`` and the strings' ``texts``. Where no item has a string
of the library's own to copy (the common case: requests, notifications and
responses with an unescaped method), the messages are built column by
column, in C-level loops: one split of the bytes makes every line, and each
Classification is one tuple of an item's kind, its line and its record.
Otherwise they are built item by item.
"""

from __future__ import annotations

from ctypes import string_at
from itertools import compress, repeat
from operator import itemgetter
from typing import Any, List, Optional, Tuple, Union

from ._classification import KIND_OF_LINE, REASON, Classification, TooLong, needs_strings
from ._enums import ID_KIND_BY_CODE, Role
from ._errors import EnvelopeError
from ._ffi import CONSTANTS, JsonRpcBatch, JsonRpcLine
from ._layout import (
    CLASSIFICATION_IN_ITEM,
    CLASSIFICATION_SIZE,
    ID_KIND_AT,
    ID_STRING_AT,
    ITEM,
    ITEM_KIND_AT,
    NEEDS_AT,
    PLACE_AT,
    RECORD_SIZE,
    SPAN_NAMES,
    SPANS_AT,
    STRINGS_AT,
    column,
    iter_records,
    offset,
    read_id_kind,
    read_id_string,
    read_item_kind,
    read_needs,
    read_place,
    read_spans,
    read_strings,
)

__all__ = ["Message", "messages", "items_of"]

Message = Union[Tuple[bytes, Classification], Tuple[None, TooLong]]

_TOO_LONG = CONSTANTS["JSONRPC_KIND_TOO_LONG"]
# The C values of the kinds a classification may have.
_LINE_CODES = frozenset(code for code, kind in enumerate(KIND_OF_LINE) if kind is not None)
_FIRST = itemgetter(0)

# The columns that tell whether an item has strings to copy (see
# needs_strings): its kind, its other strings' pointers, its method's.
_KIND_COLUMN = ITEM_KIND_AT
_OWNED_COLUMNS = tuple(
    offset(JsonRpcLine, f"classification.{name}.ptr") for name in ("reason", "reply_server", "reply_client", "substitute")
)
_METHOD_PTR_COLUMN = offset(JsonRpcLine, "classification.method.ptr")
_METHOD_LEN_COLUMN = offset(JsonRpcLine, "classification.method.len")
_METHOD_SPAN_LEN_COLUMN = offset(JsonRpcLine, "classification.method_span.len")


def items_of(batch: JsonRpcBatch) -> bytes:
    """A copy of a batch's items array (``batch.count`` must not be 0)."""
    return string_at(batch.items, batch.count * ITEM)


def messages(batch: JsonRpcBatch, items: bytes, role: Optional[Role]) -> Any:
    """A batch's messages, in order, from its items array (``items``, copied
    by the caller), its bytes and its texts: an iterable to consume before
    the reader's next call only if it is the batch's single item."""
    count: int = batch.count
    if count == 1:
        # One line a read, as in a conversation: columns cost more than
        # they save.
        return (_one_item(items, batch, role),)
    data = string_at(batch.bytes, batch.bytes_len) if batch.bytes_len else b""
    kinds = column(memoryview(items).cast("I"), _KIND_COLUMN).tolist()
    if not _some_item_has_strings(items, kinds, data):
        return _by_columns(items, kinds, data, role)
    texts = string_at(batch.texts, batch.texts_len) if batch.texts_len else b""
    return _item_by_item(items, count, data, texts, batch.texts or 0, role)


def from_record(
    record: bytes, line: bytes, role: Optional[Role], texts: Optional[bytes] = None, texts_at: int = 0
) -> Classification:
    """A Classification from a classification's bytes (at least its record)
    and its line. Its strings, if it needs them, are read from ``texts``, a
    copy of the batch's texts that stood at address ``texts_at`` (the
    header: every string of a batch's classifications stands in its
    ``texts``), or, without ``texts``, from where they are, which must
    still be the library's."""
    code, *needs = read_needs(record, NEEDS_AT)
    strings = None
    if needs_strings(*needs):
        mp, ml, rp, rl, sp, sl, cp, cl, up, ul = read_strings(record, STRINGS_AT)
        text = _live_text if texts is None else _batch_text(texts, texts_at)
        strings = (text(mp, ml), text(rp, rl), text(sp, sl), text(cp, cl), text(up, ul))  # the Strings
    kind = KIND_OF_LINE[code] if code < len(KIND_OF_LINE) else None
    if kind is None:
        reason = strings[REASON] if strings else None
        raise EnvelopeError(f"the library could not classify the line (kind {code}): {reason or 'no reason given'}")
    return Classification((kind, line, record[:RECORD_SIZE], strings, role))


def _live_text(ptr: int, length: int) -> Optional[str]:
    """A string the library still holds (pointer, length), or None."""
    return string_at(ptr, length).decode("utf-8") if ptr else None


def _batch_text(texts: bytes, texts_at: int) -> Any:
    def text(ptr: int, length: int) -> Optional[str]:
        """A string of the batch (pointer, length), from its copied texts."""
        if not ptr:
            return None
        at = ptr - texts_at
        return str(texts[at : at + length], "utf-8")

    return text


def _too_long(classification: bytes, length: int, text: Any, role: Optional[Role]) -> TooLong:
    """The TooLong of a too-long item, from its classification's bytes: its
    length, and what the library read in its first bytes (SPEC §10.6 (d)),
    the strings read with ``text`` (a reader of the batch's strings). The
    line's bytes are not held, so its id is the library's string, not a
    slice of the line."""
    words = iter(read_spans(classification, SPANS_AT))
    spans = {name: (offset, span) for name, offset, span in zip(SPAN_NAMES, words, words) if span}
    id_ptr, id_len = read_id_string(classification, ID_STRING_AT)
    mp, ml, _rp, _rl, sp, sl, cp, cl, up, ul = read_strings(classification, STRINGS_AT)
    id_kind = ID_KIND_BY_CODE[read_id_kind(classification, ID_KIND_AT)[0]]
    if id_kind is None:  # pragma: no cover - the library never gives one
        raise EnvelopeError("the library gave an unknown id kind")
    return TooLong(
        length,
        id=text(id_ptr, id_len),
        id_kind=id_kind,
        method=text(mp, ml),
        spans=spans,
        reply_server=text(sp, sl),
        reply_client=text(cp, cl),
        substitute=text(up, ul),
        role=role,
    )


def _one_item(items: bytes, batch: JsonRpcBatch, role: Optional[Role]) -> Message:
    """The message of a batch's only item, its strings read from the batch
    (still the reader's) only where they are needed."""
    at, length = read_place(items, PLACE_AT)
    if read_item_kind(items, ITEM_KIND_AT)[0] == _TOO_LONG:
        return (None, _too_long(items[CLASSIFICATION_IN_ITEM:], length, _live_text, role))
    line = string_at(batch.bytes + at, length)
    return (line, from_record(items[CLASSIFICATION_IN_ITEM:], line, role))


def _some_item_has_strings(items: bytes, kinds: List[int], data: bytes) -> bool:
    """Whether some item cannot be built from its record and its line alone
    (see needs_strings), or is too long: decided from whole columns."""
    if _TOO_LONG in kinds:
        return True
    count = len(kinds)
    words = memoryview(items).cast("P")
    zero = bytes(words.itemsize * count)
    for at in _OWNED_COLUMNS:
        if column(words, at).tobytes() != zero:
            return True
    # Nor may a method that is a string (its pointer not NULL) have an
    # escape. An escape (the header's word, which is JSON's: RFC 8259
    # section 7) begins with a backslash, so bytes without one have none.
    # Otherwise each escape makes method.len + 2 less than method_span.len
    # (see needs_strings), and the totals over those methods tell. (A
    # method that is no string needs no copy here: a Classification reads
    # the method's pointer.)
    if b"\\" not in data:
        return False
    pointers = column(words, _METHOD_PTR_COLUMN).tolist()
    present = count - pointers.count(0)
    decoded = sum(compress(column(words, _METHOD_LEN_COLUMN).tolist(), pointers))
    raw = sum(compress(column(words, _METHOD_SPAN_LEN_COLUMN).tolist(), pointers))
    return decoded + 2 * present != raw


def _by_columns(items: bytes, kinds: List[int], data: bytes, role: Optional[Role]) -> Any:
    """The batch's messages, built column by column. The header: when no
    item is too long, ``bytes`` is exactly the items' lines one after
    another, each followed by its LF (but the last line of a stream that
    had none): one split makes them all."""
    count = len(kinds)
    if not _LINE_CODES.issuperset(kinds):
        raise EnvelopeError("the library could not classify a line (kind none)")
    lines = data.split(b"\n", count)
    if len(lines) > count:
        del lines[count:]
    # Every per-line step below is a C-level iterator: no Python frame runs
    # per line until the caller's.
    line_kinds = map(KIND_OF_LINE.__getitem__, kinds)
    records = map(_FIRST, iter_records(items))
    return zip(lines, map(Classification, zip(line_kinds, lines, records, repeat(None), repeat(role))))


def _item_by_item(
    items: bytes, count: int, data: bytes, texts: bytes, texts_at: int, role: Optional[Role]
) -> List[Message]:
    """The batch's messages, item by item, strings read from its copied
    texts."""
    found: List[Message] = []
    for base in range(0, count * ITEM, ITEM):
        at, length = read_place(items, base + PLACE_AT)
        start = base + CLASSIFICATION_IN_ITEM
        if read_item_kind(items, base + ITEM_KIND_AT)[0] == _TOO_LONG:
            classification = items[start : start + CLASSIFICATION_SIZE]
            found.append((None, _too_long(classification, length, _batch_text(texts, texts_at), role)))
            continue
        line = data[at : at + length]
        found.append((line, from_record(items[start : start + CLASSIFICATION_SIZE], line, role, texts, texts_at)))
    return found
