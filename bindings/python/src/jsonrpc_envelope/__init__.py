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

# Every decision (a line's kind, the reply it is owed, the reason, what to
# do with a line, the log text) is the library's. The modules convert Python
# values to what the C ABI takes, copy what the library returns into Python
# objects, and free every owned result exactly once:
#
# - ``_ffi``: the C declarations (ctypes) and the loading of the library;
# - ``_enums``: ``Kind``, ``IdKind``, ``Role``, ``Action``, ``Direction``,
#   ``Profile``, made from the header's values and named by the library,
#   and ``goes`` (where an action sends a line's text, the library's);
# - ``_arguments``: the caller's arguments checked and converted;
# - ``_errors``: ``EnvelopeError``, and statuses as exceptions;
# - ``_layout``: named fields read from the bytes of the C structures;
# - ``_classification``: ``Classification`` and ``TooLong``;
# - ``_classify``: ``classify``, one line in one crossing;
# - ``_strings``: ``invalid_reply``, ``log_value``, ``library_version``;
# - ``_batch``: a reader's batch as messages;
# - ``_reader``: ``Reader`` and ``read_messages``;
# - ``_session``: ``Session``, ``SessionLine`` and ``Decision``, and the
#   reading of a session's batch and decision, which ``_relay`` shares;
# - ``_relay``: ``Relay``, both directions of a session.

from ._arguments import DEFAULT_MAX_LINE, profile_max_line
from ._batch import Message
from ._classification import Classification, TooLong
from ._classify import classify
from ._enums import Action, Direction, IdKind, Kind, Profile, Role, goes
from ._errors import EnvelopeError
from ._ffi import ABI_VERSION, LIB_ENV, lib_path
from ._reader import DEFAULT_CHUNK_SIZE, Reader, read_messages
from ._relay import Relay
from ._session import Decision, Session, SessionLine
from ._strings import invalid_reply, library_version, log_value

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
    "Direction",
    "EnvelopeError",
    "IdKind",
    "Kind",
    "Message",
    "Profile",
    "Reader",
    "Relay",
    "Role",
    "Session",
    "SessionLine",
    "TooLong",
    "classify",
    "goes",
    "invalid_reply",
    "library_version",
    "lib_path",
    "log_value",
    "profile_max_line",
    "read_messages",
]
