"""The caller's arguments as the library takes them: bytes, a role's, a
direction's or a profile's C value, a line limit; TypeError or ValueError for anything
else, before any call into the library."""

from __future__ import annotations

import ctypes
from typing import Any, Optional

from ._enums import DIRECTION_CODE, PROFILE_BY_NAME, ROLE_CODE, Profile, Role
from ._ffi import lib

#: The library's default line limit in the JSON-RPC profile (SPEC §6). A
#: reader or a session given no ``max_line`` has its profile's,
#: ``profile_max_line(profile)``.
DEFAULT_MAX_LINE: int = lib.jsonrpc_default_max_line()

_SIZE_MAX = ctypes.c_size_t(-1).value


def as_bytes(data: Any, what: str) -> bytes:
    """The bytes to hand to the library; a str is UTF-8 encoded (a lone
    surrogate is encoded as such, and the library then sees invalid UTF-8)."""
    if isinstance(data, bytes):
        return data if type(data) is bytes else bytes(data)
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{what} must be bytes, bytearray, memoryview or str, not {type(data).__name__}")


def role_code(role: Any) -> int:
    """The C value of a Role, or of its name."""
    if isinstance(role, str):
        code = ROLE_CODE.get(role)
        if code is None:
            raise ValueError(f"role must be 'server' or 'client', not {role!r}")
        return code
    raise TypeError(f"role must be a Role or 'server' or 'client', not {type(role).__name__}")


def direction_code(direction: Any) -> int:
    """The C value of a Direction, or of its name."""
    if isinstance(direction, str):
        code = DIRECTION_CODE.get(direction)
        if code is None:
            raise ValueError(f"direction must be 'to_server' or 'to_host', not {direction!r}")
        return code
    raise TypeError(f"direction must be a Direction or 'to_server' or 'to_host', not {type(direction).__name__}")


def as_role(role: Any) -> Optional[Role]:
    """A Role from a Role or its name; None stays None."""
    if role is None:
        return None
    role_code(role)
    return Role(role)


def as_profile(profile: Any) -> Profile:
    """A Profile from a Profile, its number, or the library's name for it."""
    if type(profile) is Profile:
        return profile
    if isinstance(profile, bool) or not isinstance(profile, (int, str)):
        raise TypeError(f"profile must be a Profile (or 'jsonrpc' or 'mcp'), not {type(profile).__name__}")
    found = PROFILE_BY_NAME.get(profile) if isinstance(profile, str) else Profile._value2member_map_.get(profile)
    if found is None:
        raise ValueError(f"profile must be Profile.JSONRPC or Profile.MCP ('jsonrpc' or 'mcp'), not {profile!r}")
    return found  # type: ignore[return-value]


def profile_max_line(profile: Any) -> int:
    """The line limit a reader or a session of ``profile`` has when given
    no ``max_line``, as the library has it: ``DEFAULT_MAX_LINE`` for the
    JSON-RPC profile; for MCP, the library's limit for that profile."""
    limit: int = lib.jsonrpc_profile_max_line(as_profile(profile).value)
    return limit


def max_line_arg(max_line: Any) -> int:
    """What the library takes for ``max_line``: the limit, checked, or 0
    for None, which the library reads as its profile's default."""
    if max_line is None:
        return 0
    check_max_line(max_line)
    return int(max_line)


def check_max_line(max_line: Any) -> None:
    """A line limit is a positive size_t."""
    if isinstance(max_line, bool) or not isinstance(max_line, int):
        raise TypeError(f"max_line must be an int, not {type(max_line).__name__}")
    if not 0 < max_line <= _SIZE_MAX:
        raise ValueError(f"max_line must be a positive number of bytes, not {max_line}")
