"""The handshake rule of SPEC section 9, on the client side: the ids of the
requests written and not yet answered, and an error that names no request
made the answer of the one request outstanding."""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

from ._sdk import coerce_request_id, types


class Outstanding:
    """Requests written and not yet answered, matched as the SDK's
    dispatcher matches them (``coerce_request_id``: ``"7"`` and ``7`` are
    one id)."""

    def __init__(self) -> None:
        self._ids: Dict[Any, Any] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def written(self, message: Any) -> None:
        if isinstance(message, types.JSONRPCRequest):
            self._ids[coerce_request_id(message.id)] = message.id

    def answered(self, message: Any) -> None:
        if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) and message.id is not None:
            self._ids.pop(coerce_request_id(message.id), None)

    def attribute(self, c: Any) -> Optional[bytes]:
        """For a line that names no request (``c.names_no_request``): the
        same error as the response of the one request outstanding, its id
        in place of the null or missing one; None when none or several are
        outstanding. The error is the line's own ``error`` member, as the
        library delimits it."""
        if len(self._ids) != 1:
            return None
        (request_id,) = self._ids.values()
        return b'{"jsonrpc":"2.0","id":%s,"error":%s}' % (json.dumps(request_id).encode(), c.error_bytes)
