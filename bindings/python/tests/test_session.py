"""Session: the library's decisions (SPEC sections 8, 9 and 10.4), on
sequences written out by hand, on every vector of both profiles in both
roles, and on the binding's own contract (lines, numbers, closing, threads).

The expected actions and texts here are written from the SPEC, not asked of
the library: the tables of section 8, the handshake rule of section 9, the
substitute of section 10.3 and the rules of section 10.4."""

from __future__ import annotations

import json
import threading
from typing import Any, Dict, List, Optional, Tuple

import pytest

import jsonrpc_envelope as je
from conftest import ENVELOPE, MCP, vector_bytes

A = je.Action
MCP_PROFILE = je.Profile.MCP

# SPEC 10.3: the substitute of an invalid_response whose id is an MCP id.
SUBSTITUTE = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,'
    '"message":"Internal error: the peer\'s response to this request is not valid MCP"}}'
)
# SPEC 4: the reply a server owes for a line that is not JSON.
PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
# SPEC 10.4: the reply for a request the receiving SDK's decoder refused.
REFUSED_REQUEST = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,'
    '"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}'
)


def request(id_text: str, method: str = "ping") -> bytes:
    return ('{"jsonrpc":"2.0","id":%s,"method":"%s"}' % (id_text, method)).encode()


def one(session: je.Session, line: bytes) -> je.SessionLine:
    (decided,) = session.feed(line + b"\n")
    assert decided.line == line
    return decided


def decision(d: Any) -> Tuple[Any, Optional[str]]:
    return d.action, d.action_text


# ---- SPEC 10.5: the normal form of a forwarded MCP line -------------------------

JSON_WS = b" \t\n\r"
NORMAL_ORDER = ["jsonrpc", "id", "method", "params", "result", "error"]


def top_level_keys(text: Any) -> List[str]:
    """The top-level object's member names, in order, duplicates kept (the
    outermost object is the last one the hook sees)."""
    seen: List[List[str]] = []

    def hook(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
        seen.append([k for k, _ in pairs])
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return seen[-1]


BOM = b"\xef\xbb\xbf"


def without_bom(line: bytes) -> bytes:
    """The line after a UTF-8 byte order mark, which SPEC 10.6 (a) reads
    past in the MCP profile."""
    return line[len(BOM) :] if line.startswith(BOM) else line


def needs_normal_form(line: bytes) -> bool:
    """A byte order mark (SPEC 10.6 (a): forwarded without it), a raw CR,
    whitespace around the value, or a top-level member twice."""
    if line.startswith(BOM):
        return True
    if b"\r" in line or line.strip(JSON_WS) != line:
        return True
    keys = top_level_keys(line)
    return len(keys) != len(set(keys))


def whitespace_outside_strings(text: str) -> bool:
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in " \t\n\r":
            return True
    return False


def check_forwarded_text(text: Optional[str], line: bytes) -> None:
    """SPEC 10.5, checked without the library: None exactly when the line's
    bytes are read as they stand; else the normal form."""
    if not needs_normal_form(line):
        assert text is None, line
        return
    assert text is not None, line
    assert not whitespace_outside_strings(text), text
    assert not text.startswith("\ufeff"), text
    assert json.loads(text) == json.loads(without_bom(line)), (text, line)
    keys = top_level_keys(text)
    assert keys == [k for k in NORMAL_ORDER if k in keys], text


def check_decision(d: Any, expected: Tuple[Any, Optional[str]], line: bytes, profile: Any) -> None:
    if profile is MCP_PROFILE and expected[0] is A.FORWARD:
        assert d.action is A.FORWARD, line
        check_forwarded_text(d.action_text, line)
    else:
        assert decision(d) == expected, line


# ---- hand-written sequences ----------------------------------------------------


@pytest.mark.parametrize("role", ["client", "server"])
def test_an_invalid_response_to_a_request_sent_is_substituted(role: str) -> None:
    with je.Session(role, profile=MCP_PROFILE) as session:
        session.sent(request("7"))
        assert session.outstanding == 1
        d = one(session, b'{"jsonrpc":"2.0","id":7,"result":[]}')  # result not an object
        assert d.kind == "invalid_response"
        assert decision(d) == (A.SUBSTITUTE, SUBSTITUTE % "7")
        assert d.note
        assert session.outstanding == 0  # answered, by its substitute
        # Once answered, another such response waits on nothing: dropped.
        d = one(session, b'{"jsonrpc":"2.0","id":7,"result":[]}')
        assert decision(d) == (A.DROP, None) and d.note


@pytest.mark.parametrize("role", ["client", "server"])
def test_an_invalid_response_nobody_waits_for_is_dropped(role: str) -> None:
    with je.Session(role, profile=MCP_PROFILE) as session:
        d = one(session, b'{"jsonrpc":"2.0","id":7,"result":[]}')
        assert d.kind == "invalid_response" and d.classification.substitute == SUBSTITUTE % "7"
        assert decision(d) == (A.DROP, None) and d.note
        # A request of ours with another id is no help.
        session.sent(request("8"))
        d = one(session, b'{"jsonrpc":"2.0","id":7,"result":[]}')
        assert decision(d) == (A.DROP, None)
        assert session.outstanding == 1


def test_a_string_id_substitute_keeps_the_id_text() -> None:
    with je.Session("client", profile=MCP_PROFILE) as session:
        session.sent(request('"a\\u0062"'))
        # The same id spelled otherwise ("ab") is the same request.
        d = one(session, b'{"jsonrpc":"2.0","id":"ab","result":{},"extra":1}')
        assert decision(d) == (A.SUBSTITUTE, SUBSTITUTE % '"ab"')
        assert session.outstanding == 0


@pytest.mark.parametrize("role", ["client", "server"])
def test_an_error_naming_no_request_with_one_outstanding_is_attributed(role: str) -> None:
    with je.Session(role, profile=MCP_PROFILE) as session:
        session.sent(request('"init"', "initialize"))
        d = one(session, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32002,"message":"read-only"}}')
        assert d.kind == "response" and d.classification.names_no_request
        assert decision(d) == (A.ATTRIBUTE, '{"jsonrpc":"2.0","id":"init","error":{"code":-32002,"message":"read-only"}}')
        assert d.note
        assert session.outstanding == 0
        # Without an id member: the id is put in, the rest unchanged.
        session.sent(request("12"))
        d = one(session, b'{"jsonrpc":"2.0","error":{"code":-32000,"message":"no"}}')
        assert d.action is A.ATTRIBUTE
        assert json.loads(d.action_text or "") == {
            "jsonrpc": "2.0", "id": 12, "error": {"code": -32000, "message": "no"},
        }
        assert session.outstanding == 0


@pytest.mark.parametrize("outstanding", [0, 2])
def test_an_error_naming_no_request_with_none_or_two_outstanding_is_dropped(outstanding: int) -> None:
    with je.Session("client", profile=MCP_PROFILE) as session:
        for i in range(outstanding):
            session.sent(request(str(i + 1)))
        d = one(session, b'{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"which?"}}')
        assert decision(d) == (A.DROP, None) and d.note
        assert session.outstanding == outstanding


def test_responses_answer_their_requests() -> None:
    with je.Session("client", profile=MCP_PROFILE) as session:
        session.sent(request("1"))
        session.sent(request('"two"'))
        session.sent(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}')
        session.sent(b'{"jsonrpc":"2.0","id":3,"result":{}}')  # a response of ours: no request
        assert session.outstanding == 2  # cancelled, 1 still waits (SPEC 9)
        got = session.feed(b'{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":"two","result":{}}\n')
        assert [decision(d) for d in got] == [(A.FORWARD, None), (A.FORWARD, None)]
        assert [d.note for d in got] == [None, None]
        assert session.outstanding == 0


def test_a_parse_error_is_answered_in_role_server_and_diverted_in_role_client() -> None:
    with je.Session("server", profile=MCP_PROFILE) as server, je.Session("client", profile=MCP_PROFILE) as client:
        d = one(server, b"my-server 1.0 listening")
        assert d.kind == "parse_error" and decision(d) == (A.ANSWER, PARSE_ERROR) and d.note
        d = one(client, b"my-server 1.0 listening")
        assert d.kind == "parse_error" and decision(d) == (A.DIVERT, None) and d.note


def test_the_json_rpc_profile_tracks_nothing() -> None:
    """SPEC 8: in the JSON-RPC profile every response is forwarded, and no
    id is outstanding."""
    with je.Session("client") as session:
        assert session.profile is je.Profile.JSONRPC
        session.sent(request("7"))
        assert session.outstanding == 0
        got = session.feed(
            b'{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m"}}\n'
            b'{"jsonrpc":"2.0","id":7,"result":[]}\n'
            b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n'
        )
        assert [(d.kind, d.action) for d in got] == [
            ("response", A.FORWARD), ("response", A.FORWARD), ("request", A.FORWARD),
        ]


def test_refused() -> None:
    """SPEC 10.4: what the transport does when the SDK's decoder refuses a
    line the session handed on."""
    with je.Session("server", profile=MCP_PROFILE) as session:
        d = session.refused(request("5"))
        assert (d.action, d.text) == (A.ANSWER, REFUSED_REQUEST % "5") and d.note
        d = session.refused(request('"x"'))
        assert (d.action, d.text) == (A.ANSWER, REFUSED_REQUEST % '"x"')
        session.sent(request("9"))
        d = session.refused(b'{"jsonrpc":"2.0","id":9,"result":{}}')
        assert (d.action, d.text) == (A.SUBSTITUTE, SUBSTITUTE % "9") and d.note
        assert session.outstanding == 0
        d = session.refused(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        assert (d.action, d.text) == (A.DROP, None) and d.note
        assert isinstance(d, je.Decision)


# ---- every vector, in both roles ------------------------------------------------


def expected_action(vector: Dict[str, Any], role: str, profile: Any) -> Tuple[Any, Optional[str]]:
    """SPEC 8 (the guard's tables) and 10.4, for a line read by a fresh
    session, with no request of its own outstanding."""
    kind = vector["kind"]
    if kind in ("request", "notification"):
        return A.FORWARD, None
    if kind == "response":
        if profile is MCP_PROFILE and vector["names_no_request"]:
            return A.DROP, None  # none outstanding
        if profile is MCP_PROFILE and role == "server":
            return A.DROP, None  # SPEC 10.8 (a): a response nobody waits for
        return A.FORWARD, None
    if kind == "invalid_response":
        return A.DROP, None  # its id names no request of ours
    if kind == "invalid_request":
        return A.ANSWER, vector["reply_" + role]
    if kind == "parse_error" and vector.get("substitute"):
        # SPEC 10.6 (c): a damaged response is never answered; with its id
        # not outstanding it is dropped (role server) or diverted (client)
        # as any parse error that is owed no reply.
        return (A.DROP if role == "server" else A.DIVERT), None
    if role == "server":
        if kind in ("parse_error", "batch", "not_object"):
            return A.ANSWER, vector["reply_server"]
        return A.DROP, None  # empty, not_jsonrpc
    return A.DIVERT, None


CASES = [(je.Profile.JSONRPC, v) for v in ENVELOPE] + [(MCP_PROFILE, v) for v in MCP]


@pytest.mark.parametrize("profile, vector", CASES, ids=[f"{p}: {v['name']}" for p, v in CASES])
def test_every_vector_in_both_roles(profile: Any, vector: Dict[str, Any]) -> None:
    line = vector_bytes(vector, "line")
    for role in ("server", "client"):
        with je.Session(role, profile=profile) as session:
            got = session.feed(line + b"\n") + session.end()
            if b"\n" in line:
                continue  # more than one line to the session
            (d,) = got
            assert (d.number, d.line, d.kind) == (1, line, vector["kind"])
            check_decision(d, expected_action(vector, role, profile), line, profile)
            assert (d.note is None) == (d.action is A.FORWARD)
        if profile is MCP_PROFILE and vector["kind"] == "response" and vector["id_kind"] in ("string", "number"):
            # SPEC 10.8 (a): forwarded once a request with its id went the other way.
            with je.Session(role, profile=profile) as session:
                session.sent(request(vector["id"]))
                (d,) = session.feed(line + b"\n") + session.end()
                assert d.action is A.FORWARD
        if vector.get("substitute"):
            # The same line, once a request with its id went the other way.
            with je.Session(role, profile=profile) as session:
                session.sent(request(vector["id"]))
                (d,) = session.feed(line + b"\n") + session.end()
                assert decision(d) == (A.SUBSTITUTE, vector["substitute"])


@pytest.mark.parametrize("chunk", [1, 5, 64, 4096])
def test_the_mcp_vectors_as_one_session_stream(chunk: int) -> None:
    lines = [vector_bytes(v, "line") for v in MCP]
    pairs = [(line, v) for line, v in zip(lines, MCP) if b"\n" not in line]
    stream = b"\n".join(line for line, _ in pairs) + b"\n"
    for role in ("server", "client"):
        with je.Session(role, profile=MCP_PROFILE) as session:
            got: List[je.SessionLine] = []
            for at in range(0, len(stream), chunk):
                got += session.feed(stream[at : at + chunk])
            got += session.end()
        assert [d.number for d in got] == list(range(1, len(pairs) + 1))
        assert [d.line for d in got] == [line for line, _ in pairs]
        for d, (line, v) in zip(got, pairs):
            check_decision(d, expected_action(v, role, MCP_PROFILE), line, MCP_PROFILE)


# ---- the binding's contract ----------------------------------------------------


def test_too_long_lines_numbers_and_the_end() -> None:
    with je.Session("server", profile=MCP_PROFILE, max_line=20) as session:
        got = session.feed(b"x" * 50 + b"\n[]\n" + b"{}")
        assert [(d.number, d.kind, d.action) for d in got] == [(1, "too_long", A.DROP), (2, "batch", A.ANSWER)]
        assert got[0].line is None and got[0].classification == je.TooLong(50) and got[0].note
        (last,) = session.end()
        assert (last.number, last.line, last.kind, last.action) == (3, b"{}", "not_jsonrpc", A.DROP)
        # The session reads a new stream after end(), its outstanding kept.
        session.sent(request("1"))
        assert [d.number for d in session.feed(b"[]\n")] == [1]
        assert session.end() == [] and session.outstanding == 1
        assert session.feed(b"") == []


def test_closed_sessions_refuse_every_call() -> None:
    session = je.Session("client", profile="mcp")
    assert repr(session) == "Session(role='client', profile='mcp', open)"
    assert session.role is je.Role.CLIENT and session.profile is je.Profile.MCP
    session.close()
    session.close()  # twice is fine
    for call in (
        lambda: session.feed(b"{}\n"),
        lambda: session.feed(b""),
        session.end,
        lambda: session.sent(b"{}"),
        lambda: session.refused(b"{}"),
        lambda: session.outstanding,
    ):
        with pytest.raises(ValueError, match="closed"):
            call()
    with je.Session("server") as other:
        pass
    with pytest.raises(ValueError):
        other.feed(b"[]\n")


def test_arguments_are_checked() -> None:
    with pytest.raises(TypeError):
        je.Session()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        je.Session(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        je.Session("peer")
    with pytest.raises(ValueError):
        je.Session("server", max_line=0)
    with pytest.raises(TypeError):
        je.Session("server", max_line="10")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        je.Session("server", je.Profile.MCP)  # type: ignore[misc]  # keyword only
    with je.Session("server") as session:
        with pytest.raises(TypeError):
            session.feed(7)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            session.sent(None)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            session.refused(1.5)  # type: ignore[arg-type]


def test_inputs_of_every_type() -> None:
    valid = b'{"jsonrpc":"2.0","id":7,"result":{}}'
    invalid = b'{"jsonrpc":"2.0","id":7,"result":[]}'
    for kind in (bytes, bytearray, memoryview, str):
        convert: Any = (lambda b: b.decode()) if kind is str else kind
        with je.Session("client", profile=MCP_PROFILE) as session:
            session.sent(convert(request("7")))
            assert session.outstanding == 1
            assert session.refused(convert(valid)).action is A.SUBSTITUTE
            assert session.outstanding == 0
            session.sent(convert(request("7")))
            if kind is not str:
                (d,) = session.feed(convert(invalid)) + session.end()
                assert d.action is A.SUBSTITUTE


def test_a_dropped_session_is_freed() -> None:
    import gc

    freed: List[int] = []
    from jsonrpc_envelope import _session

    real = _session._session_free

    def spy(handle: int) -> None:
        freed.append(handle)
        real(handle)

    _session._session_free = spy
    try:
        session = je.Session("server")
        handle = session._session
        del session
        gc.collect()
    finally:
        _session._session_free = real
    assert freed == [handle]


def test_threads_share_a_session_safely() -> None:
    """Calls from several threads are serialised: every line is decided
    once, every request sent counted."""
    session = je.Session("client", profile=MCP_PROFILE)
    errors: List[BaseException] = []
    decided: List[je.SessionLine] = []
    start = threading.Barrier(4)

    def work(n: int) -> None:
        try:
            start.wait()
            for i in range(500):
                session.sent(request(str(n * 1000 + i)))
                decided.extend(session.feed(b"banner\n"))
                session.outstanding
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert session.outstanding == 2000
    assert sorted(d.number for d in decided) == list(range(1, 2001))
    assert all(d.action is A.DIVERT for d in decided)
    session.close()
