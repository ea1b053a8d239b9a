"""The binding's one exception of its own, and the reading of a status the
library returns."""

from __future__ import annotations

from ._ffi import CONSTANTS, lib

_STATUS_OK = CONSTANTS["JSONRPC_STATUS_OK"]
_STATUS_OUT_OF_MEMORY = CONSTANTS["JSONRPC_STATUS_OUT_OF_MEMORY"]
_STATUS_UNKNOWN_DIRECTION = CONSTANTS["JSONRPC_STATUS_UNKNOWN_DIRECTION"]


class EnvelopeError(RuntimeError):
    """The library reported a failure of its own (out of memory, an internal
    fault it caught, an unexpected status). Never raised for any input line:
    every line, however broken, has a classification."""


def status_name(status: int) -> str:
    """The library's name for a status (``"internal_error"``, ...), or the
    number when it names none."""
    name = lib.jsonrpc_status_name(status)
    return name.decode("ascii") if name is not None else str(status)


def check_status(status: int, call: str) -> None:
    """Nothing for ``JSONRPC_STATUS_OK``; else MemoryError when the library
    ran out of memory, ValueError for a direction it does not know (as for
    a bad argument the binding refuses itself), EnvelopeError for any
    other status."""
    if status == _STATUS_OK:
        return
    if status == _STATUS_OUT_OF_MEMORY:
        raise MemoryError(f"{call}: the library ran out of memory")
    if status == _STATUS_UNKNOWN_DIRECTION:
        raise ValueError(f"{call}: the library refused the direction ({status_name(status)})")
    raise EnvelopeError(f"{call} failed: {status_name(status)}")
