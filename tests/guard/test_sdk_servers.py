"""Issue #14's abuse lines against the official SDKs' stdio servers
(peers/README.md), without the guard (the control) and with it.

The control is asserted as observed, so that an SDK that changes its
behaviour is noticed here: with the pinned versions, the Python and
TypeScript servers answer none of the lines, and the TypeScript server exits
on the 64 MiB line; the Go server exits on seven of them. Behind the guard
every line the guard answers gets the vector's reply byte for byte, the
lines it drops get nothing, and one server lives through all of them: by the
MCP profile (the guard's default), which also answers the request with id
null itself, and by the JSON-RPC one, which forwards it.
"""

import json

import pytest

from abuse import abuse_lines, run
from peers import SERVERS, guarded

LABELS = [label for label, _, _ in abuse_lines()]

NONE = "no reply"
DIED = "no reply, server exited"
PING_11 = "result (id 11)"

# What each SDK's server does with each line, by itself.
CONTROL = {
    "python": [NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE, PING_11, NONE],
    "node": [NONE, NONE, NONE, NONE, NONE, NONE, NONE, NONE, PING_11, DIED],
    "go": [NONE, DIED, DIED, DIED, DIED, DIED, NONE, DIED, PING_11, DIED],
}


@pytest.mark.parametrize("sdk", sorted(CONTROL))
def test_without_the_guard_the_sdk_server_answers_none_of_them_or_dies(sdk):
    outcomes, server = run(SERVERS[sdk])
    server.close()
    got = dict(zip(LABELS, (o.cell() for o in outcomes)))
    assert got == dict(zip(LABELS, CONTROL[sdk]))
    assert server.starts == 1 + CONTROL[sdk].count(DIED) - (CONTROL[sdk][-1] == DIED)


@pytest.mark.parametrize("profile", ["mcp", "jsonrpc"])
@pytest.mark.parametrize("sdk", sorted(CONTROL))
def test_with_the_guard_every_line_gets_its_reply_and_the_server_lives(sdk, profile):
    outcomes, server = run(guarded(SERVERS[sdk], "--quiet", "--profile", profile))
    status = server.close()
    assert server.starts == 1, "the server never died"
    assert status == 0, "the server's exit status, through the guard"
    if profile == "mcp":
        # An MCP id is never null: the guard answers it, with SPEC 10.2's reply.
        assert outcomes[0].replies == [
            '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,'
            '"message":"Invalid Request: an MCP id must be a string or an integer, not null"}}'
        ]
    for (label, _, reply), outcome in zip(abuse_lines(profile), outcomes):
        assert outcome.state == "alive", label
        if reply is not None:
            # The guard's own answer: the vector's server reply, exactly.
            assert outcome.replies == [reply], label
        elif label == "CRLF line":
            # A ping with its CR: forwarded, and the server answers it.
            (answer,) = outcome.replies
            assert json.loads(answer)["id"] == 11 and "result" in json.loads(answer), answer
        else:
            # Dropped by the guard; or, for "id null" by the JSON-RPC
            # profile, forwarded as the request it is, and the SDK's server
            # does not answer it.
            assert outcome.replies == [], label
