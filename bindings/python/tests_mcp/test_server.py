"""The official SDK's server (MCPServer, one echo tool:
examples/python/sdk_server.py) fed issue #16's abuse lines through a real
pipe, each followed by a ping: on the SDK's own stdio transport (the
control, asserted as observed with mcp 2.3.0), and on ours, where every line gets the reply of
SPEC section 4 in the MCP profile (section 10), byte for byte as
tests/vectors/mcp.jsonl writes it, and a normal request is still answered
after them all."""

from __future__ import annotations

from typing import Dict, List, Tuple

import pytest

from conftest import ABUSE, OUR_SERVER, OUR_SERVER_ON_SDK, mcp_vectors, vectors
from mcp_peer import Server  # tests/support, on the path by conftest.py

# Beyond issue #16's list: lines the transport drops, with a log record.
DROPPED = [
    ("empty line", b""),
    ("JSON log line", b'{"level":"info","msg":"server started","port":8080}'),
    ("17 MiB line", b'{"jsonrpc":"2.0","method":"x","params":"' + b"x" * (17 << 20) + b'"}'),
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
