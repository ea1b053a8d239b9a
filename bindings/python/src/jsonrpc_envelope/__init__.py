"""jsonrpc_envelope: what a line of JSON-RPC 2.0 traffic is, and what reply it
is owed, decided by the jsonrpc-envelope library (Rust, through its C ABI).

    >>> import jsonrpc_envelope as je
    >>> c = je.classify(b'{"jsonrpc":"2.0","id":null,"method":"ping"}')
    >>> c.kind == "request", c.id
    (True, 'null')
    >>> je.invalid_reply(b'[1]', "server") is not None  # the library's own reply text
    True
    >>> je.classify(b'{"jsonrpc":"2.0","id":null,"method":"ping"}', profile=je.Profile.MCP).kind
    <Kind.INVALID_REQUEST: 'invalid_request'>

Every rule is the library's; this package converts types and frees memory.
The library is the one bundled with the package, or the one named by the
environment variable ``JSONRPC_ENVELOPE_LIB``; it must have ABI version
``ABI_VERSION``.
"""

from ._api import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_MAX_LINE,
    Action,
    Classification,
    Decision,
    EnvelopeError,
    IdKind,
    Kind,
    Message,
    Profile,
    Reader,
    Role,
    Session,
    SessionLine,
    TooLong,
    classify,
    invalid_reply,
    library_version,
    log_value,
    read_messages,
)
from ._ffi import ABI_VERSION, LIB_ENV, lib_path

#: The package's version: that of the library it was built with.
__version__: str = library_version()

__all__ = [
    "ABI_VERSION",
    "DEFAULT_CHUNK_SIZE",
    "DEFAULT_MAX_LINE",
    "LIB_ENV",
    "Action",
    "Classification",
    "Decision",
    "EnvelopeError",
    "IdKind",
    "Kind",
    "Message",
    "Profile",
    "Reader",
    "Role",
    "Session",
    "SessionLine",
    "TooLong",
    "classify",
    "invalid_reply",
    "library_version",
    "lib_path",
    "log_value",
    "read_messages",
]
