"""SPEC 10.6, through the Reader and the Session: every request whose id is
in the line is answered by it. A line too long to read whose first bytes
hold a request's id and method (answered in role server) or a response's id
(substituted while that id is outstanding), a request after a byte order
mark (forwarded in its normal form), a batch (answered with one text of
several lines), a damaged line.

The expected texts are written out from the SPEC, not asked of the library;
the line limits are the tests' own, or the profile's default as the
library gives it (je.profile_max_line), never restated."""

from __future__ import annotations

import pickle
from typing import Any, List, Optional, Tuple

import pytest

import jsonrpc_envelope as je

A = je.Action
MCP = je.Profile.MCP
CHUNKS = [1, 5, 64, 4096]

# SPEC 10.6 (d): a too-long request's reply, role server.
TOO_LONG_REPLY = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,'
    '"message":"Invalid Request: the line is longer than this peer reads"}}'
)
# SPEC 10.3: the substitute of a response nobody can read.
SUBSTITUTE = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,'
    '"message":"Internal error: the peer\'s response to this request is not valid MCP"}}'
)
# SPEC 10.6 (b): each request of a batch.
BATCH_REPLY = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,'
    '"message":"Invalid Request: MCP has no batches; send each request on its own line"}}'
)
# SPEC 10.6 (c): a damaged request.
DAMAGED_REPLY = '{"jsonrpc":"2.0","id":%s,"error":{"code":-32700,"message":"Parse error"}}'
# SPEC 4: a parse error without a readable request.
PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'
BOM = b"\xef\xbb\xbf"

LIMIT = 64  # the tests' own line limit
# A request whose id and method lie in its first LIMIT bytes, and whose
# params go on past them.
LONG_REQUEST = b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{"text":"' + b"x" * 200 + b'"}}}'
# A response whose id lies in its first LIMIT bytes.
LONG_RESPONSE = b'{"jsonrpc":"2.0","id":"r","result":{"content":[{"type":"text","text":"' + b"y" * 200 + b'"}]}}'
# A request whose id comes after its first LIMIT bytes: nothing to answer.
LONG_REQUEST_ID_LATE = b'{"jsonrpc":"2.0","method":"tools/call","params":{"text":"' + b"z" * 200 + b'"},"id":5}'
PING = b'{"jsonrpc":"2.0","id":9,"method":"ping"}'


def span(line: bytes, text: bytes) -> Tuple[int, int]:
    """Where `text` first stands in `line`: (offset, length)."""
    at = line.index(text)
    return at, len(text)


def read(data: bytes, chunk: int, **options: Any) -> List[je.Message]:
    """Every message of `data`, fed to a Reader `chunk` bytes at a time."""
    reader = je.Reader(**options)
    got: List[je.Message] = []
    for at in range(0, len(data), chunk):
        got += reader.feed(data[at : at + chunk])
    return got + reader.end()


def decide(session: je.Session, data: bytes, chunk: int) -> List[je.SessionLine]:
    got: List[je.SessionLine] = []
    for at in range(0, len(data), chunk):
        got += session.feed(data[at : at + chunk])
    return got


def actions(got: List[je.SessionLine]) -> List[Tuple[Any, Optional[str]]]:
    return [(d.action, d.action_text) for d in got]


# ---- (d) a line too long to read -------------------------------------------------


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_too_long_request_carries_its_id_and_method(chunk: int) -> None:
    got = read(LONG_REQUEST + b"\n" + PING + b"\n", chunk, max_line=LIMIT, profile=MCP, role="server")
    assert [line for line, _ in got] == [None, PING]
    t = got[0][1]
    assert isinstance(t, je.TooLong) and t.kind is je.Kind.TOO_LONG
    assert t.length == len(LONG_REQUEST)
    assert (t.id, t.id_kind, t.method) == ("4", je.IdKind.NUMBER, "tools/call")
    # Spans count from the line's first byte, whose bytes are not held.
    assert t.spans == {"id": span(LONG_REQUEST, b"4"), "method": span(LONG_REQUEST, b'"tools/call"')}
    assert t.reply_server == TOO_LONG_REPLY % "4"
    assert t.reply() == t.reply("server") == t.reply(je.Role.SERVER) == TOO_LONG_REPLY % "4"
    assert t.reply("client") is None and t.reply_client is None and t.substitute is None
    assert t == je.TooLong(
        len(LONG_REQUEST), id="4", id_kind=je.IdKind.NUMBER, method="tools/call",
        spans=t.spans, reply_server=TOO_LONG_REPLY % "4",
    )
    assert t != je.TooLong(len(LONG_REQUEST))
    assert pickle.loads(pickle.dumps(t)) == t
    assert t.to_dict()["id"] == "4" and t.to_dict()["spans"]["id"] == list(span(LONG_REQUEST, b"4"))
    assert got[1][1].kind == "request"


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_too_long_request_is_answered_in_role_server_and_dropped_in_role_client(chunk: int) -> None:
    data = LONG_REQUEST + b"\n" + PING + b"\n"
    with je.Session("server", profile=MCP, max_line=LIMIT) as session:
        got = decide(session, data, chunk)
        assert [(d.number, d.line, d.kind) for d in got] == [(1, None, "too_long"), (2, PING, "request")]
        assert actions(got) == [(A.ANSWER, TOO_LONG_REPLY % "4"), (A.FORWARD, None)]
        assert got[0].note and got[0].classification.id == "4"
    with je.Session("client", profile=MCP, max_line=LIMIT) as session:
        got = decide(session, data, chunk)
        assert actions(got) == [(A.DROP, None), (A.FORWARD, None)]
        assert got[0].note


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("role", ["server", "client"])
def test_a_too_long_response_whose_id_is_outstanding_is_substituted(role: str, chunk: int) -> None:
    (line, t), = read(LONG_RESPONSE + b"\n", chunk, max_line=LIMIT, profile=MCP)
    assert line is None and isinstance(t, je.TooLong)
    assert (t.length, t.id, t.id_kind, t.method) == (len(LONG_RESPONSE), '"r"', je.IdKind.STRING, None)
    assert t.spans == {"id": span(LONG_RESPONSE, b'"r"')}
    assert t.substitute == SUBSTITUTE % '"r"'
    assert t.reply_server is None and t.reply_client is None
    with je.Session(role, profile=MCP, max_line=LIMIT) as session:
        # Nobody waits on "r": dropped.
        assert actions(decide(session, LONG_RESPONSE + b"\n", chunk)) == [(A.DROP, None)]
        session.sent(b'{"jsonrpc":"2.0","id":"r","method":"tools/call"}')
        assert session.outstanding == 1
        (d,) = decide(session, LONG_RESPONSE + b"\n", chunk)
        assert (d.line, d.kind) == (None, "too_long")
        assert (d.action, d.action_text) == (A.SUBSTITUTE, SUBSTITUTE % '"r"') and d.note
        assert session.outstanding == 0  # answered, by its substitute
        # Once answered, the same line waits on nothing.
        assert actions(decide(session, LONG_RESPONSE + b"\n", chunk)) == [(A.DROP, None)]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_too_long_line_whose_id_is_past_its_first_bytes_is_dropped(chunk: int) -> None:
    """SPEC 10.6 (d): only the first bytes, as many as the limit, are read."""
    (_, t), = read(LONG_REQUEST_ID_LATE + b"\n", chunk, max_line=LIMIT, profile=MCP)
    assert t == je.TooLong(len(LONG_REQUEST_ID_LATE))
    assert t.id is None and t.id_kind is je.IdKind.ABSENT and t.spans == {} and t.reply("server") is None
    with je.Session("server", profile=MCP, max_line=LIMIT) as session:
        assert actions(decide(session, LONG_REQUEST_ID_LATE + b"\n", chunk)) == [(A.DROP, None)]


def test_the_json_rpc_profile_reads_nothing_in_a_too_long_line() -> None:
    (_, t), = read(LONG_REQUEST + b"\n", 4096, max_line=LIMIT)
    assert t == je.TooLong(len(LONG_REQUEST))
    with je.Session("server", max_line=LIMIT) as session:
        assert actions(session.feed(LONG_REQUEST + b"\n")) == [(A.DROP, None)]


def test_a_too_long_request_at_the_profile_s_default_limit_is_answered() -> None:
    """The MCP profile's default limit, as the library gives it (a session
    given no max_line): one byte over it."""
    limit = je.profile_max_line(MCP)
    head = b'{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"text":"'
    tail = b'"}}'
    line = head + b"x" * (limit + 1 - len(head) - len(tail)) + tail
    assert len(line) == limit + 1
    with je.Session("server", profile=MCP) as session:
        got = decide(session, line + b"\n" + PING + b"\n", 1 << 20)
        assert actions(got) == [(A.ANSWER, TOO_LONG_REPLY % '"big"'), (A.FORWARD, None)]
        assert got[0].classification.length == limit + 1
        # One byte less, and the same request is a request.
        (d,) = session.feed(line[: len(head)] + line[len(head) + 1 :] + b"\n")
        assert (d.kind, d.action, d.action_text) == ("request", A.FORWARD, None)


# ---- (a) a byte order mark -------------------------------------------------------


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_request_after_a_byte_order_mark_is_forwarded_in_its_normal_form(chunk: int) -> None:
    body = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}'
    spaced = b' { "method" : "ping" , "id" : 2 , "jsonrpc" : "2.0" } '
    data = BOM + body + b"\n" + BOM + spaced + b"\n"
    (_, c), (_, spaced_c) = read(data, chunk, profile=MCP)
    assert c.kind == "request" and (c.id, c.method) == ("1", "initialize")
    # Spans count from the line's first byte, the mark's.
    assert c.spans["id"] == span(BOM + body, b"1") and c.spans["id"][0] == len(BOM) + body.index(b"1")
    assert c.params_bytes == b"{}" and c.reply_server is None
    assert spaced_c.kind == "request" and spaced_c.id == "2"
    for role in ("server", "client"):
        with je.Session(role, profile=MCP) as session:
            got = decide(session, data, chunk)
            assert [d.line for d in got] == [BOM + body, BOM + spaced]
            # Without the mark: the message's normal form (SPEC 10.5).
            assert actions(got) == [
                (A.FORWARD, body.decode()),
                (A.FORWARD, '{"jsonrpc":"2.0","id":2,"method":"ping"}'),
            ]


def test_a_byte_order_mark_is_a_parse_error_in_the_json_rpc_profile() -> None:
    """SPEC 1: no byte order mark; 10.6 (a) is the MCP profile's only."""
    line = BOM + PING
    assert je.classify(line).kind == "parse_error"
    with je.Session("server") as session:
        assert actions(session.feed(line + b"\n")) == [(A.ANSWER, PARSE_ERROR)]


# ---- (b) a batch -----------------------------------------------------------------


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_batch_is_answered_with_one_text_of_several_lines(chunk: int) -> None:
    batch = (
        b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},'
        b'{"jsonrpc":"2.0","id":"two","method":"tools/list"},{"jsonrpc":"2.0","id":3,"result":{}}]'
    )
    answer = BATCH_REPLY % "1" + "\n" + BATCH_REPLY % '"two"'
    (_, c), = read(batch + b"\n", chunk, profile=MCP, role="server")
    assert c.kind == "batch"
    assert c.reply_server == c.reply() == answer and c.reply_client is None
    assert je.invalid_reply(batch, "server", profile=MCP) == answer
    assert je.invalid_reply(batch, "client", profile=MCP) is None
    with je.Session("server", profile=MCP) as session:
        got = decide(session, batch + b"\n" + PING + b"\n", chunk)
        assert actions(got) == [(A.ANSWER, answer), (A.FORWARD, None)]
        # One text: two replies, each one line, in the batch's order.
        assert (got[0].action_text or "").split("\n") == [BATCH_REPLY % "1", BATCH_REPLY % '"two"']
    with je.Session("client", profile=MCP) as session:
        assert actions(decide(session, batch + b"\n", chunk)) == [(A.DIVERT, None)]


# ---- (c) a damaged line ----------------------------------------------------------


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_damaged_request_is_answered_by_its_id(chunk: int) -> None:
    damaged = b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"text":"a\xffb"}}'
    (_, c), = read(damaged + b"\n", chunk, profile=MCP)
    assert c.kind == "parse_error" and c.reason
    assert (c.id, c.id_kind, c.method) == ("3", je.IdKind.NUMBER, "tools/call")
    assert c.spans == {"id": span(damaged, b"3"), "method": span(damaged, b'"tools/call"')}
    assert c.reply("server") == DAMAGED_REPLY % "3" and c.reply("client") is None
    with je.Session("server", profile=MCP) as session:
        assert actions(decide(session, damaged + b"\n", chunk)) == [(A.ANSWER, DAMAGED_REPLY % "3")]
    with je.Session("client", profile=MCP) as session:
        assert actions(decide(session, damaged + b"\n", chunk)) == [(A.DIVERT, None)]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_damaged_response_whose_id_is_outstanding_is_substituted(chunk: int) -> None:
    damaged = b'{"jsonrpc":"2.0","id":7,"result":{"text":"\xff"}}'
    c = je.classify(damaged, profile=MCP)
    assert c.kind == "parse_error" and c.id == "7" and c.method is None
    assert c.substitute == SUBSTITUTE % "7" and c.reply_server is None and c.reply_client is None
    with je.Session("client", profile=MCP) as session:
        assert actions(decide(session, damaged + b"\n", chunk)) == [(A.DIVERT, None)]
        session.sent(b'{"jsonrpc":"2.0","id":7,"method":"tools/call"}')
        assert actions(decide(session, damaged + b"\n", chunk)) == [(A.SUBSTITUTE, SUBSTITUTE % "7")]
        assert session.outstanding == 0
    with je.Session("server", profile=MCP) as session:
        # Never answered, in either role.
        assert actions(decide(session, damaged + b"\n", chunk)) == [(A.DROP, None)]


# ---- all of them, one session ----------------------------------------------------


@pytest.mark.parametrize("chunk", CHUNKS)
def test_every_request_in_one_stream_is_answered_and_the_pings_forwarded(chunk: int) -> None:
    """A host's stream, each line followed by a ping: every request id gets
    its answer or is forwarded, in order."""
    lines = [
        b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]',
        BOM + b'{"jsonrpc":"2.0","id":3,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"\xff"}}',
        b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":',
        b'{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":"' + b"x" * 200 + b'"}}',
    ]
    data = b"".join(line + b"\n" + b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % (100 + n) for n, line in enumerate(lines))
    # A limit that the batch fits in, and the last request does not.
    assert max(map(len, lines[:-1])) <= 2 * LIMIT < len(lines[-1])
    with je.Session("server", profile=MCP, max_line=2 * LIMIT) as session:
        got = decide(session, data, chunk)
    ping = (A.FORWARD, None)  # each ping, as it is
    assert actions(got) == [
        (A.ANSWER, BATCH_REPLY % "1" + "\n" + BATCH_REPLY % "2"), ping,
        (A.FORWARD, '{"jsonrpc":"2.0","id":3,"method":"ping"}'), ping,
        (A.ANSWER, DAMAGED_REPLY % "4"), ping,
        (A.ANSWER, DAMAGED_REPLY % "5"), ping,
        (A.ANSWER, TOO_LONG_REPLY % "6"), ping,
    ]
    assert [d.number for d in got] == list(range(1, 11))
