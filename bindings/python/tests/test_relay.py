"""Relay: both directions of a session (the library's ``jsonrpc_relay_*``),
``Direction`` and ``goes``, on sequences written out by hand, and the
binding's own contract (arguments, closing, freeing).

The expected actions, texts and counts here are written from the relay's
C API (the directions' values and names, where each action sends a text,
what is outstanding where) and the SPEC (the substitute of section 10.3,
the replies of section 4 and 10.4), not asked of the code under test."""

from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple

import pytest

import jsonrpc_envelope as je

A = je.Action
D = je.Direction
TO_SERVER, TO_HOST = D.TO_SERVER, D.TO_HOST

PING_7 = b'{"jsonrpc":"2.0","id":7,"method":"ping"}'
RESULT_7 = b'{"jsonrpc":"2.0","id":7,"result":{}}'
BAD_RESULT_7 = b'{"jsonrpc":"2.0","id":7,"result":[]}'  # result not an object: not valid MCP
# SPEC 10.3: the substitute of an invalid_response whose id is 7.
SUBSTITUTE_7 = (
    '{"jsonrpc":"2.0","id":7,"error":{"code":-32603,'
    '"message":"Internal error: the peer\'s response to this request is not valid MCP"}}'
)
# SPEC 4: the reply a server owes for a line that is not JSON.
PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
# SPEC 10.4: the reply for a request the receiving SDK's decoder refused.
REFUSED_REQUEST_5 = (
    '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,'
    '"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}'
)
# The header's values.
DIRECTION_TO_SERVER, DIRECTION_TO_HOST = 1, 2
STATUS_OK, STATUS_UNKNOWN_DIRECTION = 0, 6


def decisions(lines: List[je.SessionLine]) -> List[Tuple[Any, Optional[str]]]:
    return [(d.action, d.action_text) for d in lines]


def mcp() -> je.Relay:
    return je.Relay(je.Profile.MCP)


# ---- Direction and goes -----------------------------------------------------


def test_directions_are_the_library_names() -> None:
    assert [d.name for d in D] == ["TO_SERVER", "TO_HOST"]
    assert TO_SERVER == "to_server" and TO_HOST == "to_host"
    assert str(TO_HOST) == "to_host"
    assert D("to_server") is TO_SERVER


def test_read_by() -> None:
    assert D.read_by(je.Role.SERVER) is TO_SERVER
    assert D.read_by(je.Role.CLIENT) is TO_HOST
    assert D.read_by("server") is TO_SERVER and D.read_by("client") is TO_HOST
    assert TO_SERVER.role is je.Role.SERVER and TO_HOST.role is je.Role.CLIENT
    with pytest.raises(ValueError):
        D.read_by("peer")
    with pytest.raises(TypeError):
        D.read_by(None)
    with pytest.raises(TypeError):
        D.read_by(1)


# Where the text of a line read in a direction goes, by the C API's table.
GOES = {
    A.FORWARD: "same",
    A.SUBSTITUTE: "same",
    A.ATTRIBUTE: "same",
    A.ANSWER: "other",
    A.DROP: None,
    A.DIVERT: None,
}


@pytest.mark.parametrize("action", list(A))
def test_goes(action: Any) -> None:
    for direction, other in ((TO_SERVER, TO_HOST), (TO_HOST, TO_SERVER)):
        expected = {"same": direction, "other": other, None: None}[GOES[action]]
        assert je.goes(action, direction) is expected
        # By the library's names too.
        assert je.goes(str(action), str(direction)) is expected


def test_goes_refuses_what_is_no_action_or_direction() -> None:
    with pytest.raises(ValueError):
        je.goes(A.FORWARD, "sideways")
    with pytest.raises(ValueError):
        je.goes("kept", TO_SERVER)
    with pytest.raises(TypeError):
        je.goes(A.FORWARD, 1)
    with pytest.raises(TypeError):
        je.goes(1, TO_SERVER)


# ---- the relay's methods ----------------------------------------------------


def test_a_request_forwarded_to_the_server_is_outstanding_for_the_host_until_answered() -> None:
    with mcp() as relay:
        (d,) = relay.feed(TO_SERVER, PING_7 + b"\n")
        assert (d.number, d.line, d.kind, d.action, d.action_text, d.note) == (
            1, PING_7, "request", A.FORWARD, None, None,
        )
        # Read as the server reads it.
        assert d.classification.role is je.Role.SERVER
        assert (relay.outstanding(TO_HOST), relay.outstanding(TO_SERVER)) == (1, 0)
        (d,) = relay.feed(TO_HOST, RESULT_7 + b"\n")
        assert (d.number, d.kind, d.action, d.action_text) == (1, "response", A.FORWARD, None)
        assert d.classification.role is je.Role.CLIENT
        assert (relay.outstanding(TO_HOST), relay.outstanding(TO_SERVER)) == (0, 0)


def test_an_invalid_response_is_substituted_once_then_dropped() -> None:
    with mcp() as relay:
        relay.feed(TO_SERVER, PING_7 + b"\n")
        (d,) = relay.feed(TO_HOST, BAD_RESULT_7 + b"\n")
        assert (d.kind, d.action, d.action_text) == ("invalid_response", A.SUBSTITUTE, SUBSTITUTE_7)
        assert d.note
        assert relay.outstanding(TO_HOST) == 0
        (d,) = relay.feed(TO_HOST, BAD_RESULT_7 + b"\n")
        assert (d.action, d.action_text) == (A.DROP, None) and d.note


def test_wrote_makes_a_request_outstanding_the_other_way() -> None:
    """A server transport: the SDK writes a request to the host."""
    with mcp() as relay:
        relay.wrote(TO_HOST, b'{"jsonrpc":"2.0","id":"s1","method":"roots/list"}')
        assert (relay.outstanding(TO_SERVER), relay.outstanding(TO_HOST)) == (1, 0)
        (d,) = relay.feed(TO_SERVER, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}\n')
        assert decisions([d]) == [
            (A.ATTRIBUTE, '{"jsonrpc":"2.0","id":"s1","error":{"code":-32600,"message":"x"}}'),
        ]
        assert relay.outstanding(TO_SERVER) == 0
        # A str is written as its UTF-8.
        relay.wrote("to_server", '{"jsonrpc":"2.0","id":"c1","method":"tools/list"}')
        assert relay.outstanding(TO_HOST) == 1


def test_an_answer_goes_back_and_changes_neither_side() -> None:
    with mcp() as relay:
        (d,) = relay.feed(TO_SERVER, b"my-server 1.0 listening\n")
        assert (d.kind, d.action, d.action_text) == ("parse_error", A.ANSWER, PARSE_ERROR) and d.note
        assert je.goes(d.action, TO_SERVER) is TO_HOST
        # Read as a host reads it, the same line is diverted.
        (d,) = relay.feed(TO_HOST, b"my-server 1.0 listening\n")
        assert (d.action, d.action_text) == (A.DIVERT, None) and d.note
        assert (relay.outstanding(TO_HOST), relay.outstanding(TO_SERVER)) == (0, 0)


def test_refused_twice_is_settled() -> None:
    with mcp() as relay:
        relay.feed(TO_SERVER, PING_7 + b"\n")
        # The host's SDK refused the server's response: its substitute.
        d = relay.refused(TO_HOST, RESULT_7)
        assert isinstance(d, je.Decision)
        assert (d.action, d.text) == (A.SUBSTITUTE, SUBSTITUTE_7) and d.note
        assert relay.outstanding(TO_HOST) == 0
        # ... and the substitute in its turn: dropped, with a note.
        d = relay.refused(TO_HOST, SUBSTITUTE_7)
        assert (d.action, d.text) == (A.DROP, None) and d.note
        # The server's SDK refused a request: answered, back to the host.
        d = relay.refused(TO_SERVER, b'{"jsonrpc":"2.0","id":5,"method":"ping"}')
        assert (d.action, d.text) == (A.ANSWER, REFUSED_REQUEST_5) and d.note
        assert je.goes(d.action, TO_SERVER) is TO_HOST


def test_each_direction_is_its_own_stream_and_end_reads_the_last_line() -> None:
    with mcp() as relay:
        assert relay.feed(TO_SERVER, PING_7) == []
        assert relay.feed(TO_HOST, b'{"jsonrpc":"2.0","method":"notifications/x"}\n{"jso') != []
        (d,) = relay.end(TO_SERVER)
        assert (d.number, d.line, d.action) == (1, PING_7, A.FORWARD)
        assert relay.end(TO_SERVER) == []
        (d,) = relay.end(TO_HOST)
        assert (d.number, d.line, d.kind, d.action) == (2, b'{"jso', "parse_error", A.DIVERT)
        # A new stream after end(), the outstanding kept.
        assert relay.outstanding(TO_HOST) == 1
        (d,) = relay.feed(TO_SERVER, b"[]\n")
        assert (d.number, d.action) == (1, A.ANSWER)
        assert relay.feed(TO_SERVER, b"") == []


def test_the_json_rpc_profile_tracks_nothing() -> None:
    with je.Relay() as relay:
        assert relay.profile is je.Profile.JSONRPC
        assert decisions(relay.feed(TO_SERVER, PING_7 + b"\n")) == [(A.FORWARD, None)]
        assert relay.outstanding(TO_HOST) == 0


def test_max_line() -> None:
    with je.Relay("mcp", max_line=20) as relay:
        (d,) = relay.feed(TO_HOST, b"x" * 50 + b"\n")
        # SPEC 10 (the table of actions): too_long is dropped in either role.
        assert d.line is None and d.classification == je.TooLong(50) and d.action is A.DROP
    with pytest.raises(ValueError):
        je.Relay(max_line=0)
    with pytest.raises(TypeError):
        je.Relay(max_line="10")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        je.Relay("mcp2")


# ---- bad directions ---------------------------------------------------------


def test_a_bad_direction_is_refused() -> None:
    with mcp() as relay:
        for bad in ("sideways", ""):
            for call in (
                lambda: relay.feed(bad, b"[]\n"),
                lambda: relay.feed(bad, b""),
                lambda: relay.end(bad),
                lambda: relay.wrote(bad, PING_7),
                lambda: relay.refused(bad, PING_7),
                lambda: relay.outstanding(bad),
            ):
                with pytest.raises(ValueError):
                    call()
        with pytest.raises(TypeError):
            relay.feed(1, b"[]\n")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            relay.outstanding(None)  # type: ignore[arg-type]
        # Nothing was read or noted.
        assert (relay.outstanding(TO_HOST), relay.outstanding(TO_SERVER)) == (0, 0)


def test_the_library_refuses_a_bad_direction_with_its_status() -> None:
    """What the library says for a direction that is none (the binding
    refuses one before it gets there), and the binding's error for that
    status: ValueError."""
    from jsonrpc_envelope import _ffi
    from jsonrpc_envelope._errors import check_status

    lib = _ffi.lib
    with mcp() as relay:
        handle = relay._relay
        batch = _ffi.JsonRpcBatch()
        for bad in (0, 3):
            assert lib.jsonrpc_relay_feed(handle, bad, b"[]\n", 3, ctypes.byref(batch)) == STATUS_UNKNOWN_DIRECTION
            assert batch.count == 0
            assert lib.jsonrpc_relay_end(handle, bad, ctypes.byref(batch)) == STATUS_UNKNOWN_DIRECTION
            assert lib.jsonrpc_relay_wrote(handle, bad, PING_7, len(PING_7)) == STATUS_UNKNOWN_DIRECTION
            out = _ffi.JsonRpcDecision()
            assert lib.jsonrpc_relay_refused(handle, bad, PING_7, len(PING_7), ctypes.byref(out)) == STATUS_UNKNOWN_DIRECTION
            assert (out.action, out.text.ptr) == (0, None)
            assert lib.jsonrpc_relay_outstanding(handle, bad) == 0
        assert lib.jsonrpc_relay_wrote(handle, DIRECTION_TO_HOST, PING_7, len(PING_7)) == STATUS_OK
        assert relay.outstanding(TO_SERVER) == 1
        assert lib.jsonrpc_direction_name(DIRECTION_TO_SERVER) == b"to_server"
        assert lib.jsonrpc_direction_name(3) is None
    with pytest.raises(ValueError):
        check_status(STATUS_UNKNOWN_DIRECTION, "jsonrpc_relay_feed")


# ---- the binding's contract -------------------------------------------------


def test_closed_relays_refuse_every_call() -> None:
    relay = mcp()
    assert repr(relay) == "Relay(profile='mcp', open)"
    relay.close()
    relay.close()  # twice is fine
    assert repr(relay) == "Relay(profile='mcp', closed)"
    for call in (
        lambda: relay.feed(TO_SERVER, b"{}\n"),
        lambda: relay.feed(TO_SERVER, b""),
        lambda: relay.end(TO_HOST),
        lambda: relay.wrote(TO_HOST, b"{}"),
        lambda: relay.refused(TO_HOST, b"{}"),
        lambda: relay.outstanding(TO_HOST),
    ):
        with pytest.raises(ValueError, match="closed"):
            call()


def test_inputs_of_every_type() -> None:
    for kind in (bytes, bytearray, memoryview):
        with mcp() as relay:
            (d,) = relay.feed(TO_SERVER, kind(PING_7 + b"\n"))
            assert d.action is A.FORWARD
            relay.wrote(TO_HOST, kind(b'{"jsonrpc":"2.0","id":1,"method":"ping"}'))
            assert relay.outstanding(TO_SERVER) == 1
            assert relay.refused(TO_HOST, kind(RESULT_7)).action is A.SUBSTITUTE
    with mcp() as relay:
        with pytest.raises(TypeError):
            relay.feed(TO_SERVER, 7)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            relay.wrote(TO_HOST, None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            relay.refused(TO_HOST, 1.5)  # type: ignore[arg-type]


def test_a_dropped_relay_is_freed() -> None:
    import gc

    from jsonrpc_envelope import _relay

    freed: List[int] = []
    real = _relay._relay_free

    def spy(handle: int) -> None:
        freed.append(handle)
        real(handle)

    _relay._relay_free = spy
    try:
        relay = mcp()
        handle = relay._relay
        del relay
        gc.collect()
    finally:
        _relay._relay_free = real
    assert freed == [handle]
