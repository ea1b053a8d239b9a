"""The C ABI of libjsonrpc_envelope, as ctypes declarations, and the loading
of the library.

Everything here mirrors ``include/jsonrpc_envelope.h`` exactly; the test
``tests/test_header.py`` parses that header and checks every structure and
every function signature below against it, so a header change cannot go
unnoticed. Nothing in this module decides anything about JSON-RPC.

The library is found, in order:

1. at the path in the environment variable ``JSONRPC_ENVELOPE_LIB`` (a file,
   or a directory holding ``libjsonrpc_envelope.so``), when it is set;
2. beside this file, where ``pip install`` puts the library it built.

It is then refused unless ``jsonrpc_abi_version()`` is ``ABI_VERSION``.
"""

from __future__ import annotations

import ctypes
import os
import sys
from ctypes import (
    POINTER,
    Structure,
    c_bool,
    c_char_p,
    c_size_t,
    c_uint32,
    c_uint64,
    c_void_p,
)
from typing import Any, Dict, List, Tuple

__all__ = [
    "ABI_VERSION",
    "LIB_ENV",
    "LIB_NAME",
    "JsonRpcStr",
    "JsonRpcSpan",
    "JsonRpcClassification",
    "JsonRpcLine",
    "JsonRpcBatch",
    "JsonRpcString",
    "JsonRpcReply",
    "JsonRpcDecision",
    "STRUCTS",
    "SIGNATURES",
    "CONSTANTS",
    "classify_into",
    "lib",
    "lib_path",
]

#: The ``JSONRPC_ABI_VERSION`` this binding was written for.
ABI_VERSION = 3

#: The environment variable that overrides where the library is loaded from.
LIB_ENV = "JSONRPC_ENVELOPE_LIB"

if sys.platform == "darwin":
    LIB_NAME = "libjsonrpc_envelope.dylib"
elif sys.platform == "win32":
    LIB_NAME = "jsonrpc_envelope.dll"
else:
    LIB_NAME = "libjsonrpc_envelope.so"

# C enums are passed as uint32_t (the header's `typedef uint32_t JsonRpcKind`).
c_enum = c_uint32


# ---- the structures, in the header's order --------------------------------
# String pointers are c_void_p, never c_char_p: c_char_p would copy up to the
# first NUL on every access, while the header says `len` is the truth. Other
# data pointers in structures are c_void_p too (plain integers to Python).


class JsonRpcStr(Structure):
    """A string borrowed from a result: pointer and length."""

    _fields_ = [("ptr", c_void_p), ("len", c_size_t)]


class JsonRpcSpan(Structure):
    """Where a member's value stands in the line; ``len == 0`` is absent."""

    _fields_ = [("offset", c_size_t), ("len", c_size_t)]


class JsonRpcClassification(Structure):
    """What a line is and what it carries (owned; free once)."""

    _fields_ = [
        ("kind", c_enum),
        ("id_kind", c_enum),
        ("jsonrpc_2_0", c_bool),
        ("has_result", c_bool),
        ("has_error", c_bool),
        ("names_no_request", c_bool),
        ("id_span", JsonRpcSpan),
        ("method_span", JsonRpcSpan),
        ("params_span", JsonRpcSpan),
        ("result_span", JsonRpcSpan),
        ("error_span", JsonRpcSpan),
        ("id", JsonRpcStr),
        ("method", JsonRpcStr),
        ("reason", JsonRpcStr),
        ("reply_server", JsonRpcStr),
        ("reply_client", JsonRpcStr),
        ("substitute", JsonRpcStr),
        ("storage", c_void_p),
    ]


class JsonRpcLine(Structure):
    """One line read by a ``JsonRpcReader`` or a ``JsonRpcSession`` (whose
    lines also carry their action)."""

    _fields_ = [
        ("number", c_uint64),
        ("offset", c_size_t),
        ("len", c_size_t),
        ("classification", JsonRpcClassification),
        ("action", c_enum),
        ("action_text", JsonRpcStr),
        ("note", c_void_p),  # const char *: a static NUL-terminated text, or NULL
    ]


class JsonRpcBatch(Structure):
    """The lines one reader call completed (borrowed from the reader until
    its next call): each part is read whole with one ``string_at``."""

    _fields_ = [
        ("items", c_void_p),  # const struct JsonRpcLine *
        ("count", c_size_t),
        ("bytes", c_void_p),  # const uint8_t *
        ("bytes_len", c_size_t),
        ("texts", c_void_p),  # const char *
        ("texts_len", c_size_t),
    ]


class JsonRpcString(Structure):
    """A string the caller owns (free once with ``jsonrpc_string_free``)."""

    _fields_ = [("ptr", c_void_p), ("len", c_size_t)]


class JsonRpcReply(Structure):
    """The answer of ``jsonrpc_invalid_reply``."""

    _fields_ = [("status", c_enum), ("text", JsonRpcString)]


class JsonRpcDecision(Structure):
    """The answer of ``jsonrpc_session_refused`` and ``jsonrpc_relay_refused``
    (``text`` owned: free it
    once with ``jsonrpc_string_free``; ``note`` static)."""

    _fields_ = [("action", c_enum), ("text", JsonRpcString), ("note", c_void_p)]


#: Every structure of the header, by its C name.
STRUCTS: Dict[str, Any] = {
    cls.__name__: cls
    for cls in (
        JsonRpcStr,
        JsonRpcSpan,
        JsonRpcClassification,
        JsonRpcLine,
        JsonRpcBatch,
        JsonRpcString,
        JsonRpcReply,
        JsonRpcDecision,
    )
}

#: Every function of the header: name -> (restype, argtypes).
#: Input byte pointers (`const uint8_t *`) are c_char_p so that a Python
#: `bytes` object is passed without a copy; it is never a restype of an
#: owned string. `jsonrpc_version` and the `*_name` functions return static
#: strings, not owned ones.
SIGNATURES: Dict[str, Tuple[Any, List[Any]]] = {
    # (line, len, profile)
    "jsonrpc_classify": (JsonRpcClassification, [c_char_p, c_size_t, c_uint32]),
    # (line, len, profile, out, scratch, scratch_len) -> JsonRpcStatus.
    # `scratch` is a `uint8_t *` the library writes into: an address or a
    # byref of a ctypes buffer, never a Python bytes object.
    "jsonrpc_classify_into": (
        c_uint32,
        [c_char_p, c_size_t, c_uint32, POINTER(JsonRpcClassification), c_void_p, c_size_t],
    ),
    "jsonrpc_classification_free": (None, [POINTER(JsonRpcClassification)]),
    # The reader, the session and the relay are opaque: their pointers are plain
    # integers here. (max_line, profile)
    "jsonrpc_reader_new": (c_void_p, [c_size_t, c_uint32]),
    "jsonrpc_reader_feed": (c_uint32, [c_void_p, c_char_p, c_size_t, POINTER(JsonRpcBatch)]),
    "jsonrpc_reader_end": (c_uint32, [c_void_p, POINTER(JsonRpcBatch)]),
    "jsonrpc_reader_free": (None, [c_void_p]),
    # (role, profile, max_line)
    "jsonrpc_session_new": (c_void_p, [c_uint32, c_uint32, c_size_t]),
    "jsonrpc_session_feed": (c_uint32, [c_void_p, c_char_p, c_size_t, POINTER(JsonRpcBatch)]),
    "jsonrpc_session_end": (c_uint32, [c_void_p, POINTER(JsonRpcBatch)]),
    "jsonrpc_session_sent": (c_uint32, [c_void_p, c_char_p, c_size_t]),
    "jsonrpc_session_refused": (c_uint32, [c_void_p, c_char_p, c_size_t, POINTER(JsonRpcDecision)]),
    "jsonrpc_session_outstanding": (c_size_t, [c_void_p]),
    "jsonrpc_session_free": (None, [c_void_p]),
    # The relay: both directions of a session. (profile, max_line)
    "jsonrpc_relay_new": (c_void_p, [c_uint32, c_size_t]),
    # (relay, direction, data, len, out)
    "jsonrpc_relay_feed": (c_uint32, [c_void_p, c_uint32, c_char_p, c_size_t, POINTER(JsonRpcBatch)]),
    "jsonrpc_relay_end": (c_uint32, [c_void_p, c_uint32, POINTER(JsonRpcBatch)]),
    "jsonrpc_relay_wrote": (c_uint32, [c_void_p, c_uint32, c_char_p, c_size_t]),
    "jsonrpc_relay_refused": (c_uint32, [c_void_p, c_uint32, c_char_p, c_size_t, POINTER(JsonRpcDecision)]),
    "jsonrpc_relay_outstanding": (c_size_t, [c_void_p, c_uint32]),
    "jsonrpc_relay_free": (None, [c_void_p]),
    "jsonrpc_kind_name": (c_char_p, [c_uint32]),
    "jsonrpc_kind_is_message": (c_bool, [c_uint32]),
    "jsonrpc_id_kind_name": (c_char_p, [c_uint32]),
    "jsonrpc_role_name": (c_char_p, [c_uint32]),
    "jsonrpc_status_name": (c_char_p, [c_uint32]),
    "jsonrpc_profile_name": (c_char_p, [c_uint32]),
    "jsonrpc_action_name": (c_char_p, [c_uint32]),
    "jsonrpc_direction_name": (c_char_p, [c_uint32]),
    # (role) -> the direction an endpoint in that role reads
    "jsonrpc_direction_read_by": (c_uint32, [c_uint32]),
    # (action, direction) -> where the text of a line read in direction goes
    "jsonrpc_action_goes": (c_uint32, [c_uint32, c_uint32]),
    "jsonrpc_default_max_line": (c_size_t, []),
    # (profile) -> the profile's line limit unless a host chooses one
    "jsonrpc_profile_max_line": (c_size_t, [c_uint32]),
    "jsonrpc_log_value": (JsonRpcString, [c_char_p, c_size_t]),
    # (line, len, role, profile)
    "jsonrpc_invalid_reply": (JsonRpcReply, [c_char_p, c_size_t, c_uint32, c_uint32]),
    "jsonrpc_string_free": (None, [POINTER(JsonRpcString)]),
    "jsonrpc_version": (c_char_p, []),
    "jsonrpc_abi_version": (c_uint32, []),
}

#: The header's enum constants this binding uses, by C name.
CONSTANTS: Dict[str, int] = {
    "JSONRPC_ABI_VERSION": ABI_VERSION,
    "JSONRPC_KIND_NONE": 0,
    "JSONRPC_KIND_EMPTY": 1,
    "JSONRPC_KIND_PARSE_ERROR": 2,
    "JSONRPC_KIND_BATCH": 3,
    "JSONRPC_KIND_NOT_OBJECT": 4,
    "JSONRPC_KIND_INVALID_REQUEST": 5,
    "JSONRPC_KIND_REQUEST": 6,
    "JSONRPC_KIND_NOTIFICATION": 7,
    "JSONRPC_KIND_RESPONSE": 8,
    "JSONRPC_KIND_NOT_JSONRPC": 9,
    "JSONRPC_KIND_TOO_LONG": 10,
    "JSONRPC_KIND_INVALID_RESPONSE": 11,
    "JSONRPC_ID_ABSENT": 0,
    "JSONRPC_ID_NULL": 1,
    "JSONRPC_ID_STRING": 2,
    "JSONRPC_ID_NUMBER": 3,
    "JSONRPC_ID_OBJECT": 4,
    "JSONRPC_ID_ARRAY": 5,
    "JSONRPC_ID_BOOLEAN": 6,
    "JSONRPC_STATUS_OK": 0,
    "JSONRPC_STATUS_UNKNOWN_ROLE": 1,
    "JSONRPC_STATUS_NULL_ARGUMENT": 2,
    "JSONRPC_STATUS_OUT_OF_MEMORY": 3,
    "JSONRPC_STATUS_INTERNAL_ERROR": 4,
    "JSONRPC_STATUS_UNKNOWN_PROFILE": 5,
    "JSONRPC_STATUS_UNKNOWN_DIRECTION": 6,
    "JSONRPC_ACTION_NONE": 0,
    "JSONRPC_ACTION_FORWARD": 1,
    "JSONRPC_ACTION_ANSWER": 2,
    "JSONRPC_ACTION_SUBSTITUTE": 3,
    "JSONRPC_ACTION_ATTRIBUTE": 4,
    "JSONRPC_ACTION_DROP": 5,
    "JSONRPC_ACTION_DIVERT": 6,
    "JSONRPC_ROLE_SERVER": 1,
    "JSONRPC_ROLE_CLIENT": 2,
    "JSONRPC_PROFILE_JSONRPC": 1,
    "JSONRPC_PROFILE_MCP": 2,
    "JSONRPC_DIRECTION_TO_SERVER": 1,
    "JSONRPC_DIRECTION_TO_HOST": 2,
}


# ---- loading ---------------------------------------------------------------


def _bundled_path() -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), LIB_NAME)


def _find() -> str:
    bundled = _bundled_path()
    override = os.environ.get(LIB_ENV)
    if override:
        path = os.path.join(override, LIB_NAME) if os.path.isdir(override) else override
        if not os.path.isfile(path):
            raise ImportError(
                f"jsonrpc_envelope: {LIB_ENV}={override!r} names no library "
                f"(no file at {path!r}); point it at libjsonrpc_envelope's shared "
                f"library (such as target/release/{LIB_NAME}), or unset it to use "
                f"the library bundled with the package at {bundled!r}"
            )
        return path
    if os.path.isfile(bundled):
        return bundled
    raise ImportError(
        f"jsonrpc_envelope: the shared library was not found: it is not bundled "
        f"with the package at {bundled!r}, and {LIB_ENV} is not set. Install the "
        f"package with pip (which builds the library with cargo), or set {LIB_ENV} "
        f"to the library's path (such as target/release/{LIB_NAME})"
    )


def _load(path: str) -> ctypes.CDLL:
    try:
        lib = ctypes.CDLL(path)
    except OSError as error:
        raise ImportError(f"jsonrpc_envelope: cannot load {path!r}: {error}") from error
    try:
        abi_version = lib.jsonrpc_abi_version
    except AttributeError:
        raise ImportError(
            f"jsonrpc_envelope: {path!r} is not libjsonrpc_envelope "
            f"(it has no jsonrpc_abi_version)"
        ) from None
    abi_version.restype, abi_version.argtypes = SIGNATURES["jsonrpc_abi_version"]
    found = abi_version()
    if found != ABI_VERSION:
        raise ImportError(
            f"jsonrpc_envelope: {path!r} has ABI version {found}, but this Python "
            f"package was written for ABI version {ABI_VERSION}; install the "
            f"package and the library from the same release"
            + (f" (or correct {LIB_ENV})" if os.environ.get(LIB_ENV) else "")
        )
    for name, (restype, argtypes) in SIGNATURES.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise ImportError(
                f"jsonrpc_envelope: {path!r} says ABI version {found} but lacks {name}"
            ) from None
        function.restype = restype
        function.argtypes = argtypes
    return lib


lib_path: str = _find()
lib: ctypes.CDLL = _load(lib_path)


def _unchecked(name: str) -> Any:
    """A second function object for ``name``, with no argtypes and no
    restype, for a hot path that passes only ready-made arguments of the
    declared C types: ``bytes`` for a ``const uint8_t *``, the objects that
    ``c_size_t.from_param`` makes for a ``size_t`` (and
    ``c_uint32.from_param`` for a ``uint32_t``), ``byref`` objects for
    pointers. ctypes passes those as they are, without a ``from_param`` call
    and an allocation per argument. Never pass it a Python int: without
    argtypes that would be a C int. It is called through a ``PyDLL`` handle, which keeps the GIL:
    releasing and taking back the GIL costs more than one short call, and
    would gain other threads nothing."""
    function = ctypes.PyDLL(lib_path)[name]
    function.restype = None
    return function


#: ``jsonrpc_classify_into`` for ``classify()``, which passes it a line
#: (bytes), its length, the profile, and a reusable result and scratch buffer by
#: reference; see ``_unchecked``. Its status is not read: a failure inside
#: the library leaves the result ``JSONRPC_KIND_NONE``, which ``classify``
#: checks.
classify_into: Any = _unchecked("jsonrpc_classify_into")
