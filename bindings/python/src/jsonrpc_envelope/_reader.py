"""Many lines from a stream: ``Reader``, the library's stream reader fed by
the caller, and ``read_messages``, a Reader fed from a blocking stream."""

from __future__ import annotations

import ctypes
from typing import Any, BinaryIO, Iterator, List, Optional, Union

from ._arguments import as_bytes, as_profile, as_role, max_line_arg
from ._batch import Message, items_of, messages
from ._enums import Profile, Role
from ._errors import check_status
from ._ffi import JsonRpcBatch, lib

__all__ = ["DEFAULT_CHUNK_SIZE", "Reader", "read_messages"]

#: How much ``read_messages`` asks its stream for at a time.
DEFAULT_CHUNK_SIZE = 64 * 1024

_reader_new = lib.jsonrpc_reader_new
_reader_feed = lib.jsonrpc_reader_feed
_reader_end = lib.jsonrpc_reader_end
_reader_free = lib.jsonrpc_reader_free


def read_messages(
    stream: BinaryIO,
    *,
    max_line: Optional[int] = None,
    role: Union[Role, str, None] = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    profile: Union[Profile, str] = Profile.JSONRPC,
) -> Iterator[Message]:
    """Reads a binary stream line by line (lines end at LF) and yields
    ``(line, classification)`` for each line, in order, each line classified
    by ``profile`` (JSON-RPC 2.0 alone by default).

    A line longer than ``max_line`` bytes (None: the profile's default,
    ``profile_max_line(profile)``) is never held whole: it is yielded once,
    when its end is seen, as ``(None, TooLong(length))``. At the end of
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
    max_line_arg(max_line)
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
                    raise TypeError(f"read_messages needs a binary stream (read returned {type(chunk).__name__})")
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
    TooLong(length))`` for a line over ``max_line`` (None: the profile's
    default, ``profile_max_line(profile)``), which is never held whole.
    ``end()`` says the stream has ended and returns the message of a last
    line without LF, if there is one. The library keeps the partial
    line between calls; this object holds no bytes of its own.

    The library's reader is freed by ``end()``, ``close()``, leaving a
    ``with`` block, or when the object is dropped; then ``feed`` raises
    ValueError. One Reader is used by one thread at a time.
    """

    __slots__ = ("_reader", "_batch", "_batch_ref", "_role")

    def __init__(
        self,
        *,
        max_line: Optional[int] = None,
        role: Union[Role, str, None] = None,
        profile: Union[Profile, str] = Profile.JSONRPC,
    ) -> None:
        self._reader: Any = None
        limit = max_line_arg(max_line)
        self._role = as_role(role)
        code = as_profile(profile).value
        self._batch = JsonRpcBatch()
        self._batch_ref = ctypes.byref(self._batch)
        reader = _reader_new(limit, code)
        if not reader:
            raise MemoryError("jsonrpc_reader_new: out of memory")
        self._reader = reader

    def feed(self, data: Union[bytes, bytearray, memoryview]) -> List[Message]:
        """The messages of the lines that ``data`` completes, in order."""
        raw = data if type(data) is bytes else as_bytes(data, "data")
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
            check_status(_reader_feed(reader, chunk, len(chunk), self._batch_ref), "jsonrpc_reader_feed")
        else:
            check_status(_reader_end(reader, self._batch_ref), "jsonrpc_reader_end")
        batch = self._batch
        if not batch.count:
            return ()
        return messages(batch, items_of(batch), self._role)
