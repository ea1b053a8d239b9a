"""The C ABI's enums as Python enums, each made from the header's values
(``_ffi.CONSTANTS``, which tests/test_header.py holds against the header)
and named by the library.

``Kind``, ``IdKind``, ``Role``, ``Action`` and ``Direction`` are ``str`` enums: a member
is named as the header names its value (``JSONRPC_KIND_PARSE_ERROR`` gives
``Kind.PARSE_ERROR``) and its value is the library's name for it
(``Kind.PARSE_ERROR == "parse_error"``, ``Action.FORWARD ==
"forwarded"``, ``Direction.TO_SERVER == "to_server"``); a value the library names none of (``JSONRPC_KIND_NONE``,
``JSONRPC_ACTION_NONE``) has no member. ``Profile`` is an ``IntEnum`` of
the header's numbers, since a caller may pass the number. With each enum
comes the table from a C value to its member, for reading results.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Any, Callable, Dict, List, Optional, Tuple

from ._ffi import CONSTANTS, lib

__all__ = ["Action", "Direction", "IdKind", "Kind", "Profile", "Role", "goes"]


class _Name(str, Enum):
    """An enum whose members are the library's names, as strings:
    ``Kind.REQUEST == "request"``, ``str(Kind.REQUEST) == "request"``."""

    def __str__(self) -> str:
        return str(self.value)


def _named_by_library(
    name: str, doc: str, prefix: str, name_of: Callable[[int], Optional[bytes]], base: Any = _Name
) -> Tuple[Any, Tuple[Any, ...]]:
    """The ``_Name`` enum (or one of ``base``, a ``_Name`` with methods and
    no members) of the header's constants that start with ``prefix``, with
    a member for each value the library names; and the table from each C
    value to its member (None where there is none)."""
    values = sorted(
        (value, constant[len(prefix) :]) for constant, value in CONSTANTS.items() if constant.startswith(prefix)
    )
    members: List[Tuple[int, str, str]] = []
    for value, member in values:
        text = name_of(value)
        if text is not None:
            members.append((value, member, text.decode("ascii")))
    enum = base(name, [(member, text) for _, member, text in members], module=__name__)  # type: ignore[misc]
    enum.__doc__ = doc
    by_code: List[Any] = [None] * (values[-1][0] + 1)
    for value, member, _ in members:
        by_code[value] = enum[member]
    return enum, tuple(by_code)


#: What a line is (SPEC §2): ``Kind.REQUEST``, ``Kind.PARSE_ERROR``, ...,
#: ``Kind.TOO_LONG`` (a line over a reader's limit) and
#: ``Kind.INVALID_RESPONSE`` (the MCP profile only).
Kind, KIND_BY_CODE = _named_by_library(
    "Kind", "What a line is (SPEC §2). Members are strings.", "JSONRPC_KIND_", lib.jsonrpc_kind_name
)
#: What the ``id`` member holds (SPEC §3): ``IdKind.NUMBER``, ...
IdKind, ID_KIND_BY_CODE = _named_by_library(
    "IdKind", "What the ``id`` member holds (SPEC §3). Members are strings.", "JSONRPC_ID_", lib.jsonrpc_id_kind_name
)
#: Which endpoint reads a line (SPEC §4): ``Role.SERVER`` reads its client's
#: input (an MCP server's stdin); ``Role.CLIENT`` reads a server's output (a
#: host reading a server's stdout).
Role, ROLE_BY_CODE = _named_by_library(
    "Role", "Which endpoint reads a line (SPEC §4). Members are strings.", "JSONRPC_ROLE_", lib.jsonrpc_role_name
)
#: What a ``Session`` says to do with a line (SPEC §8 to §10):
#: ``Action.FORWARD``, ``Action.ANSWER``, ``Action.SUBSTITUTE``,
#: ``Action.ATTRIBUTE``, ``Action.DROP``, ``Action.DIVERT``, each the
#: library's word for it, the one that log records use:
#: ``Action.FORWARD == "forwarded"``.
Action, ACTION_BY_CODE = _named_by_library(
    "Action",
    "What to do with a line (SPEC §8 to §10), as a Session decides it. Members "
    "are the library's words for the actions: Action.FORWARD == 'forwarded'.",
    "JSONRPC_ACTION_",
    lib.jsonrpc_action_name,
)

#: Each role's C value, by its name (a ``Role`` member is its name too).
ROLE_CODE: Dict[str, int] = {role.value: code for code, role in enumerate(ROLE_BY_CODE) if role is not None}
#: Each action's C value, by its name.
ACTION_CODE: Dict[str, int] = {action.value: code for code, action in enumerate(ACTION_BY_CODE) if action is not None}


class _Direction(_Name):
    """Which way a line travels: ``Direction.TO_SERVER`` (from the host to
    the server, read as a server reads it) or ``Direction.TO_HOST`` (from
    the server to the host, read as a host reads it). Members are the
    library's names for them: ``Direction.TO_SERVER == "to_server"``."""

    @staticmethod
    def read_by(role: Any) -> Any:
        """The direction an endpoint in ``role`` (a ``Role`` or its name)
        reads, as the library has it (``jsonrpc_direction_read_by``): a
        server reads what goes to the server."""
        code = ROLE_CODE.get(role) if isinstance(role, str) else None
        if code is None:
            raise (ValueError if isinstance(role, str) else TypeError)(
                f"role must be a Role or 'server' or 'client', not {role!r}"
            )
        return _direction_of(lib.jsonrpc_direction_read_by(code), "jsonrpc_direction_read_by")

    @property
    def role(self) -> Any:
        """The role this direction's lines are read in: that of their
        receiver (the role whose ``read_by`` is this direction)."""
        return DIRECTION_ROLE[self]


#: Which way a line travels, for a ``Relay`` (the library's
#: ``JsonRpcDirection``): ``Direction.TO_SERVER``, ``Direction.TO_HOST``.
Direction, DIRECTION_BY_CODE = _named_by_library(
    "Direction", _Direction.__doc__ or "", "JSONRPC_DIRECTION_", lib.jsonrpc_direction_name, _Direction
)
#: Each direction's C value, by its name (a ``Direction`` member is its name too).
DIRECTION_CODE: Dict[str, int] = {d.value: code for code, d in enumerate(DIRECTION_BY_CODE) if d is not None}


def _direction_of(code: int, call: str) -> Any:
    """The Direction of a C value the library gave; None for 0 (no
    direction)."""
    if code == 0:
        return None
    direction = DIRECTION_BY_CODE[code] if code < len(DIRECTION_BY_CODE) else None
    if direction is None:  # pragma: no cover - tests/test_header.py checks the values
        raise ImportError(f"jsonrpc_envelope: {call} gave an unknown direction ({code})")
    return direction


#: The role each direction is read in, as the library pairs them.
DIRECTION_ROLE: Dict[Any, Any] = {Direction.read_by(role): role for role in Role}

#: Where the text of a line read in a direction goes, for each action,
#: asked of the library once (``jsonrpc_action_goes``).
_GOES: Dict[Tuple[Any, Any], Any] = {
    (action, direction): _direction_of(
        lib.jsonrpc_action_goes(ACTION_CODE[action.value], DIRECTION_CODE[direction.value]), "jsonrpc_action_goes"
    )
    for action in Action
    for direction in Direction
}


def goes(action: Any, direction: Any) -> Any:
    """Where the text of a line read in ``direction`` goes when the library
    decided ``action`` for it (the line itself for ``Action.FORWARD``
    without a text), as the library has it (``jsonrpc_action_goes``):
    ``direction`` when it is handed on (``FORWARD``, ``SUBSTITUTE``,
    ``ATTRIBUTE``: to the receiver), the other direction for ``ANSWER``
    (back to the line's sender), None when only the log sees it (``DROP``,
    ``DIVERT``). Each argument is a member or its name."""
    where = _GOES.get((action, direction), _GOES)
    if where is _GOES:
        if not isinstance(action, str) or action not in ACTION_CODE:
            raise (ValueError if isinstance(action, str) else TypeError)(f"not an Action: {action!r}")
        raise (ValueError if isinstance(direction, str) else TypeError)(
            f"direction must be a Direction or 'to_server' or 'to_host', not {direction!r}"
        )
    return where


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
        return _PROFILE_NAME[self]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _profile_name(profile: Profile) -> str:
    name = lib.jsonrpc_profile_name(profile.value)
    if name is None:  # pragma: no cover - tests/test_header.py checks every one
        raise ImportError(f"jsonrpc_envelope: the library names no profile {profile.value}")
    text: str = name.decode("ascii")
    return text


_PROFILE_NAME: Dict[Profile, str] = {profile: _profile_name(profile) for profile in Profile}
#: Each profile, by the library's name for it.
PROFILE_BY_NAME: Dict[str, Profile] = {name: profile for profile, name in _PROFILE_NAME.items()}
