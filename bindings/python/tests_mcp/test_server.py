"""The official SDK's server (MCPServer, one echo tool:
examples/python/sdk_server.py) fed issue #16's abuse lines through a real
pipe, each followed by a ping: on the SDK's own stdio transport (the
control, asserted as observed with mcp 2.3.0), and on ours, where every line gets the reply of
SPEC section 4 in the MCP profile (section 10), byte for byte as
tests/vectors/mcp.jsonl writes it, and a normal request is still answered
after them all."""

from __future__ import annotations

import json
from typing import Dict, List, Tuple

import pytest

from jsonrpc_envelope import profile_max_line

from conftest import ABUSE, OUR_SERVER, OUR_SERVER_ON_SDK, mcp_vectors, vectors
from mcp_peer import Server  # tests/support, on the path by conftest.py

# Beyond issue #16's list: lines the transport drops, with a log record.
DROPPED = [
    ("empty line", b""),
    ("JSON log line", b'{"level":"info","msg":"server started","port":8080}'),
    # A notification over the transport's default limit (the MCP profile's,
    # as the library has it): nothing in it to answer.
    ("too long line", b'{"jsonrpc":"2.0","method":"x","params":"' + b"x" * (profile_max_line("mcp") + (1 << 20)) + b'"}'),
]

ALIVE = "alive"


def lines() -> List[Tuple[str, bytes]]:
    v = vectors()
    return [(label, v[name]["line"].encode()) for label, name in ABUSE] + DROPPED


def feed(command: List[str]) -> Tuple[Dict[str, Tuple[List[bytes], str]], dict, Server, object]:
    """Every line, one at a time, then a tools/call of echo."""
    server = Server(command)
    got = {label: server.probe(line + b"\n") for label, line in lines()}
    echo = server.call("tools/call", {"name": "echo", "arguments": {"text": "still here"}})
    status = server.close()
    return got, echo, server, status


def echoed(response: dict) -> list:
    return response["result"]["content"]


STILL_HERE = [{"type": "text", "text": "still here"}]


def test_control_the_sdk_transport_answers_none_of_the_lines() -> None:
    got, echo, server, status = feed(OUR_SERVER_ON_SDK)
    # Nothing comes back for any line, and the server lives through them all.
    assert got == {label: ([], ALIVE) for label, _ in lines()}
    assert server.starts == 1 and status == 0
    assert echoed(echo) == STILL_HERE


def test_ours_answers_each_line_as_the_spec_says_and_keeps_serving() -> None:
    got, echo, server, status = feed(OUR_SERVER)
    v = mcp_vectors()
    for label, name in ABUSE:
        # The library's reply in the MCP profile, exactly the vector's bytes
        # (id null too: MCP ids are strings or integers, so that request is
        # answered before the SDK, which answers no null id, sees it).
        reply = v["envelope: " + name]["reply_server"]
        assert reply, label
        assert got[label] == ([reply.encode()], ALIVE), label
    for label, _ in DROPPED:
        assert got[label] == ([], ALIVE), label
    assert server.starts == 1 and status == 0
    assert echoed(echo) == STILL_HERE
    # What never reached the SDK is on stderr, one record per line.
    log = server.stderr.decode()
    for kind, action in [
        ("invalid_request", "answered"),
        ("batch", "answered"),
        ("parse_error", "answered"),
        ("not_object", "answered"),
        ("empty", "dropped"),
        ("not_jsonrpc", "dropped"),
    ]:
        assert f": {kind}, {action} (" in log, (kind, log)
    assert f"too_long ({len(DROPPED[2][1])} bytes), dropped (" in log, log
    # The SDK refused none of the lines it was handed.
    assert "the SDK refused" not in log, log


@pytest.mark.parametrize("label,name", ABUSE)
def test_the_abuse_lines_are_what_the_issue_says(label: str, name: str) -> None:
    """Each vector is the kind of line its label names (a typo in a name
    would test another line)."""
    kind = vectors()[name]["kind"]
    mcp_kind = mcp_vectors()["envelope: " + name]["kind"]
    # The MCP profile reads them alike, but for the null id (SPEC 10.1).
    assert mcp_kind == ("invalid_request" if label == "id null" else kind)
    expected = {
        "id null": "request",
        "object id": "invalid_request",
        "numeric method": "invalid_request",
        "boolean method": "invalid_request",
        "batch": "batch",
        "not JSON": "parse_error",
        "bare string": "not_object",
    }
    assert kind == expected[label]


# ---- SPEC 10.6: every request whose id is in the line is answered ---------------

# The same example server, on our transport with a small line limit (the
# transport's max_line option), so that a too-long line is cheap to send.
LIMIT = 256
SMALL_LIMIT_SERVER = [
    OUR_SERVER[0],
    "-c",
    "import runpy; from jsonrpc_envelope.mcpstdio import run; "
    f"run(runpy.run_path({OUR_SERVER[1]!r})['server'], max_line={LIMIT})",
]
BOM = b"\xef\xbb\xbf"
# SPEC 10.6's replies, written out.
BATCH_REPLY = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,'
    '"message":"Invalid Request: MCP has no batches; send each request on its own line"}}'
)
DAMAGED_REPLY = '{"jsonrpc":"2.0","id":%s,"error":{"code":-32700,"message":"Parse error"}}'
TOO_LONG_REPLY = (
    '{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,'
    '"message":"Invalid Request: the line is longer than this peer reads"}}'
)
# Each line a host may send whose requests once waited for a timeout, the
# ids in it, and what each id gets back (None: the SDK's own result).
UNREADABLE_REQUESTS: List[Tuple[str, bytes, Dict[object, object]]] = [
    (
        "a batch of two requests",
        b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"two","method":"tools/list"}]',
        {1: BATCH_REPLY % "1", "two": BATCH_REPLY % '"two"'},
    ),
    (
        "a request after a byte order mark",
        BOM + b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"bom"}}}',
        {3: None},
    ),
    (
        "a damaged request (a byte FF inside params)",
        b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"\xff"}}}',
        {4: DAMAGED_REPLY % "4"},
    ),
    (
        "a request cut short",
        b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ec',
        {5: DAMAGED_REPLY % "5"},
    ),
    (
        "a request longer than the line limit",
        b'{"jsonrpc":"2.0","id":"six","method":"tools/call","params":{"name":"echo","arguments":{"text":"'
        + b"x" * (4 * LIMIT)
        + b'"}}}',
        {"six": TOO_LONG_REPLY % '"six"'},
    ),
]


def test_ours_answers_every_request_whose_id_is_in_the_line() -> None:
    """A host sends the SDK's server, on our transport, each line above
    followed by a ping: every request id gets a response with that id (the
    library's reply, written whole; or the SDK's own), every ping its
    result, and the session lives on."""
    server = Server(SMALL_LIMIT_SERVER)
    assert server.call("ping", {})["result"] == {}  # started and initialized
    peer = server.peer
    assert peer is not None
    waiting: Dict[object, object] = {}
    for n, (label, line, ids) in enumerate(UNREADABLE_REQUESTS):
        assert (len(line) > LIMIT) == ("longer" in label), label
        ping = 100 + n
        assert peer.send(line + b"\n" + b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % ping)
        waiting.update(ids)
        waiting[ping] = {}
    got: Dict[object, bytes] = {}
    while len(got) < len(waiting):
        line = peer.line(20)  # raises queue.Empty: an id never answered
        assert line is not None, (server.stderr, got)  # stdout ended: the server is gone
        message = json.loads(line)
        assert message["id"] in waiting and message["id"] not in got, line
        got[message["id"]] = line.rstrip(b"\n")
    # Each line read back is one response: the batch's two replies came as
    # two lines, each with its id.
    for id_, expected in waiting.items():
        if isinstance(expected, str):
            assert got[id_] == expected.encode(), id_
        elif expected == {}:
            assert json.loads(got[id_])["result"] == {}, id_  # a ping
        else:
            assert echoed(json.loads(got[id_])) == [{"type": "text", "text": "bom"}], got[id_]
    assert echoed(server.call("tools/call", {"name": "echo", "arguments": {"text": "still here"}})) == STILL_HERE
    status = server.close()
    assert server.starts == 1 and status == 0
    log = server.stderr.decode()
    assert ": batch, answered (" in log and ": parse_error, answered (" in log, log
    assert f"too_long ({len(UNREADABLE_REQUESTS[-1][1])} bytes, id \"six\"), answered (" in log, log
    assert "the SDK refused" not in log, log


def test_control_the_sdk_transport_leaves_those_requests_waiting() -> None:
    """The SDK's own transport (no line limit, so the long line is only
    long), as observed with mcp 2.3.0: the pings are answered, and of the
    lines' requests only the one with a byte FF, which the SDK reads with
    U+FFFD in its place (its stdin decodes with errors="replace")."""
    server = Server(OUR_SERVER_ON_SDK)
    answered = []
    for label, line, ids in UNREADABLE_REQUESTS[:-1]:
        replies, state = server.probe(line + b"\n")
        assert state == ALIVE, label
        answered += [json.loads(reply)["id"] for reply in replies]
    # The SDK serves requests concurrently: an answer may come after the
    # next line's ping, so the ids are counted over the lines.
    assert answered == [4], "only the request with a byte FF (read with U+FFFD) is answered"
    assert server.starts == 1 and server.close() == 0
