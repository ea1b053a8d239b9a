"""The official SDKs' clients (peers/README.md) through the guard, end to end:
each client driver completes a session (connect, list tools, call `echo`)
with each server that writes a banner, print()-style output and a JSON log
line to its stdout: the SDKs' echo servers with --pollute, and the naive
server. Without the guard (the control, asserted as observed) the Go client
fails at its first unreadable line, and the Python and TypeScript clients
get through but report each unreadable line as a transport error; with the
guard, every session completes with none.
"""

import json
import re
import subprocess

import pytest

from peers import CLIENTS, SERVERS, guarded

ECHO = {"tools": ["echo"], "echo": ["hello through stdio"], "is_error": False, "transport_errors": 0}


def polluting(server):
    return SERVERS[server] + ([] if server == "naive" else ["--pollute"])


def session(client, command):
    process = subprocess.run(
        CLIENTS[client] + ["--timeout", "20", "--", *command], capture_output=True, timeout=60
    )
    report = json.loads(process.stdout) if process.returncode == 0 else None
    return process.returncode, report, process.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("server", sorted(SERVERS))
@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_a_real_client_completes_a_session_through_the_guard(client, server):
    status, report, stderr = session(client, guarded(polluting(server)))
    assert status == 0, stderr
    assert report == {"sdk": client, **ECHO}, stderr
    # The pollution reached the guard's stderr, and nothing else did.
    assert re.search(r"^jsonrpc-envelope guard: to_host line 1: parse_error, diverted \(.+\): ", stderr, re.M), stderr
    # Every line either way was a message every SDK reads: none was
    # answered, substituted, attributed or dropped.
    actions = re.findall(r"^jsonrpc-envelope guard: to_\w+ line \d+: \w+, (\w+) ", stderr, re.M)
    assert set(actions) == {"diverted"}, stderr


@pytest.mark.parametrize("server", sorted(SERVERS))
@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_without_the_guard_the_pollution_reaches_the_client(client, server):
    status, report, stderr = session(client, polluting(server))
    if client == "go":
        assert status == 1 and "invalid character" in stderr, stderr
    else:
        assert status == 0, stderr
        assert report["echo"] == ECHO["echo"]
        assert report["transport_errors"] >= 1, stderr
