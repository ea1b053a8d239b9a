"""The calls that answer with one string: ``invalid_reply``, ``log_value``
and ``library_version``; and the copying of a string the caller owns."""

from __future__ import annotations

from ctypes import string_at
from typing import Optional, Union

from ._arguments import as_bytes, as_profile, role_code
from ._enums import Profile, Role
from ._errors import EnvelopeError, status_name
from ._ffi import CONSTANTS, JsonRpcString, lib

__all__ = ["invalid_reply", "library_version", "log_value", "take_string"]

_STATUS_OK = CONSTANTS["JSONRPC_STATUS_OK"]
_STATUS_UNKNOWN_ROLE = CONSTANTS["JSONRPC_STATUS_UNKNOWN_ROLE"]
_STATUS_UNKNOWN_PROFILE = CONSTANTS["JSONRPC_STATUS_UNKNOWN_PROFILE"]
_invalid_reply = lib.jsonrpc_invalid_reply
_log_value = lib.jsonrpc_log_value
_string_free = lib.jsonrpc_string_free


def take_string(string: JsonRpcString) -> Optional[str]:
    """A string the library returned to the caller, copied (None when its
    pointer is NULL), and freed whatever happens."""
    try:
        return string_at(string.ptr, string.len).decode("utf-8") if string.ptr else None
    finally:
        _string_free(string)


def library_version() -> str:
    """The loaded library's version, such as ``"0.1.0"``."""
    version: bytes = lib.jsonrpc_version()
    return version.decode("ascii")


def invalid_reply(
    line: Union[bytes, bytearray, memoryview, str],
    role: Union[Role, str] = Role.SERVER,
    *,
    profile: Union[Profile, str] = Profile.JSONRPC,
) -> Optional[str]:
    """The one reply the endpoint in ``role`` owes for ``line`` (SPEC §4) by
    ``profile`` (SPEC §10 for ``Profile.MCP``): a JSON-RPC error response,
    byte for byte, without a line break; or None."""
    data = line if type(line) is bytes else as_bytes(line, "line")
    code = role_code(role)
    profile = as_profile(profile)
    reply = _invalid_reply(data, len(data), code, profile.value)
    status = reply.status
    value = take_string(reply.text)
    if status != _STATUS_OK:
        if status == _STATUS_UNKNOWN_ROLE:
            raise ValueError(f"the library refused role {role!r}")
        if status == _STATUS_UNKNOWN_PROFILE:
            raise ValueError(f"the library refused profile {profile!r}")
        raise EnvelopeError(f"jsonrpc_invalid_reply failed: {status_name(status)}")
    return value


def log_value(data: Union[bytes, bytearray, memoryview, str]) -> str:
    """A peer's bytes rendered for one log line (SPEC §5): compact JSON or
    UTF-8 with invalid sequences replaced; control, line-separator and bidi
    characters escaped; at most 256 UTF-16 units, then ``…``."""
    raw = data if type(data) is bytes else as_bytes(data, "data")
    value = take_string(_log_value(raw, len(raw)))
    if value is None:
        raise EnvelopeError("jsonrpc_log_value failed (out of memory or an internal fault)")
    return value
