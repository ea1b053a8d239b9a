"""The official SDK's client (mcp.Client) on our stdio_client, against
servers that pollute their stdout, against one that answers initialize with
an error that names no request, and against the Go SDK's server on our Go
transport (cross-language); each beside the same run on the SDK's own
stdio_client (the control, asserted as observed with mcp 2.3.0)."""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path
from typing import Any, List

import anyio
import mcp_types
import pytest
from mcp import Client, MCPError
from mcp.client.stdio import StdioServerParameters
from mcp.shared.message import SessionMessage

from conftest import (
    CHILD_ENV,
    FAULTY_SERVER,
    GO_OUR_SERVER,
    GO_SDK_SERVER,
    NAIVE_SERVER,
    OUR_SERVER,
    PYTHON,
    REPO,
    SDK_SERVER,
    UNATTRIBUTED_SERVER,
    mcp_vectors,
)
from jsonrpc_envelope.mcpstdio import stdio_client

HELLO = "hello through stdio"
ECHO = {"tools": ["echo"], "echo": [HELLO], "is_error": False}

# Servers that write a banner, print() output and JSON log lines to stdout.
POLLUTING = {
    "naive": NAIVE_SERVER,  # a banner, a JSON log line, print(), plain log lines
    "go-sdk": GO_SDK_SERVER + ["--pollute"],  # a banner, a JSON log line, fmt.Printf in the tool
    "python-sdk": SDK_SERVER + ["--pollute"],  # a banner and a JSON log line
}
# How many lines of each the SDK's own stdio_client hands its session as
# exceptions (the control); ours hands none.
CONTROL_TRANSPORT_ERRORS = {"naive": 7, "go-sdk": 3, "python-sdk": 2}


def params(command: List[str], **kwargs: Any) -> StdioServerParameters:
    return StdioServerParameters(command=command[0], args=command[1:], env=CHILD_ENV, **kwargs)


async def session(transport: Any, text: str = HELLO, timeout: float = 20) -> dict:
    """Connect, list the tools, call echo: what came back, and how many
    exceptions the transport handed the session."""
    errors: List[Exception] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            errors.append(message)

    # The SDK's own timeout of each request goes first.
    with anyio.fail_after(timeout + 10):
        async with Client(transport, read_timeout_seconds=timeout, message_handler=on_message) as client:
            tools = await client.list_tools()
            result = await client.call_tool("echo", {"text": text})
    return {
        "tools": [t.name for t in tools.tools],
        "echo": [c.text for c in result.content if getattr(c, "type", None) == "text"],
        "is_error": bool(result.is_error),
        "transport_errors": len(errors),
    }


def ours(command: List[str], **kwargs: Any) -> Any:
    return stdio_client(params(command, **kwargs))


def theirs(command: List[str]) -> Any:
    return params(command)  # mcp.Client runs the SDK's own stdio_client


@pytest.mark.parametrize("server", sorted(POLLUTING))
def test_ours_completes_a_session_with_a_polluting_server(server: str, caplog: Any) -> None:
    caplog.set_level(logging.WARNING, logger="jsonrpc_envelope.mcpstdio")
    report = anyio.run(session, ours(POLLUTING[server]))
    assert report == {**ECHO, "transport_errors": 0}
    # The pollution is in the log, never in the session.
    records = [r.getMessage() for r in caplog.records if r.name == "jsonrpc_envelope.mcpstdio"]
    # What a server writes to its stdout that is no message is diverted to
    # the log (SPEC 8, read in role client).
    assert records[0].startswith("jsonrpc-envelope: stdout line 1: parse_error, diverted ("), records
    assert any(": not_jsonrpc, diverted (" in r and "): {" in r for r in records), records
    assert not any("the SDK refused" in r for r in records), records


@pytest.mark.parametrize("server", sorted(POLLUTING))
def test_control_the_sdk_transport_hands_the_pollution_to_the_session(server: str) -> None:
    report = anyio.run(session, theirs(POLLUTING[server]))
    assert report == {**ECHO, "transport_errors": CONTROL_TRANSPORT_ERRORS[server]}


BROKEN = "number method with a string id echoes the id"  # what the naive server sends


@pytest.mark.parametrize("transport", ["ours", "theirs"])
def test_a_broken_request_from_the_server_is_answered_by_ours_only(transport: str, tmp_path: Path) -> None:
    log = tmp_path / "reached-the-server.jsonl"
    command = NAIVE_SERVER + ["--log", str(log)]
    t = ours(command) if transport == "ours" else theirs(command)
    report = anyio.run(session, t, "send a broken request")
    assert report["echo"] == ["send a broken request"]
    reached = log.read_bytes().splitlines()
    reply = mcp_vectors()["envelope: " + BROKEN]["reply_client"].encode()
    assert reply in reached if transport == "ours" else reply not in reached


def peer_error(error: BaseException) -> MCPError:
    """The MCPError inside the task groups' exception groups."""
    while isinstance(error, BaseExceptionGroup):
        (error,) = error.exceptions
    assert isinstance(error, MCPError), repr(error)
    return error


def failed_session(transport: Any, timeout: float) -> tuple:
    start = time.monotonic()
    with pytest.raises(BaseException) as raised:
        anyio.run(session, transport, HELLO, timeout)
    return peer_error(raised.value), time.monotonic() - start


@pytest.mark.parametrize("option", [[], ["--no-id"]])
def test_ours_fails_at_once_with_the_error_that_names_no_request(option: List[str]) -> None:
    error, elapsed = failed_session(ours(UNATTRIBUTED_SERVER + option), timeout=20)
    assert (error.code, error.message) == (-32002, "initialize refused: this server is read-only")
    assert elapsed < 1.0


def test_control_the_sdk_transport_waits_for_its_timeout() -> None:
    error, elapsed = failed_session(theirs(UNATTRIBUTED_SERVER), timeout=2)
    assert error.code == -32001 and "timed out" in error.message, error
    assert elapsed >= 2


def test_with_none_or_two_outstanding_an_error_that_names_no_request_is_dropped(caplog: Any) -> None:
    caplog.set_level(logging.WARNING, logger="jsonrpc_envelope.mcpstdio")
    peer = [PYTHON, str(REPO / "tests/transports/two_requests_peer.py")]

    async def run() -> List[Any]:
        got = []
        async with ours(peer) as (read_stream, write_stream):
            for id_ in (1, 2):
                await write_stream.send(SessionMessage(mcp_types.JSONRPCRequest(jsonrpc="2.0", id=id_, method="ping")))
            with anyio.fail_after(10):
                async for item in read_stream:
                    got.append(item if isinstance(item, Exception) else item.message)
                    if isinstance(item, SessionMessage) and getattr(item.message, "id", None) == "marker":
                        break
        return got

    got = anyio.run(run)
    assert [(type(m).__name__, m.id) for m in got] == [
        ("JSONRPCResponse", 1),
        ("JSONRPCResponse", 2),
        ("JSONRPCRequest", "marker"),
    ]
    records = [r.getMessage() for r in caplog.records if r.name == "jsonrpc_envelope.mcpstdio"]
    assert [r.split(" (")[0] for r in records] == [
        "jsonrpc-envelope: stdout line 1: response, dropped",
        "jsonrpc-envelope: stdout line 4: response, dropped",
    ]
    # The note is the library's: why such an error reached nobody.
    assert all("names no request" in r for r in records), records


@pytest.mark.parametrize("server", ["go", "python"])
def test_ours_against_the_sdk_servers_on_our_server_transports(server: str) -> None:
    """Cross-language: the Go SDK's server on mcpstdio.StdioTransport; and
    the Python SDK's, both ends ours."""
    command = GO_OUR_SERVER if server == "go" else OUR_SERVER
    report = anyio.run(session, ours(command))
    assert report == {**ECHO, "transport_errors": 0}


INVALID_RESPONSE_SERVER = FAULTY_SERVER + ["--tools-list-array"]
# SPEC 10.3: the substitute's error.
SUBSTITUTE_ERROR = (-32603, "Internal error: the peer's response to this request is not valid MCP")


async def list_tools(transport: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout + 10):
        async with Client(transport, read_timeout_seconds=timeout) as client:
            return await client.list_tools()


def test_ours_fails_at_once_a_request_answered_with_an_invalid_response(caplog: Any) -> None:
    """The server answers tools/list with a result that is not an object:
    ours hands the SDK the substitute, so the call fails at once with it."""
    caplog.set_level(logging.WARNING, logger="jsonrpc_envelope.mcpstdio")
    start = time.monotonic()
    with pytest.raises(BaseException) as raised:
        anyio.run(list_tools, ours(INVALID_RESPONSE_SERVER), 20)
    error = peer_error(raised.value)
    assert (error.code, error.message) == SUBSTITUTE_ERROR
    assert time.monotonic() - start < 5
    records = [r.getMessage() for r in caplog.records if r.name == "jsonrpc_envelope.mcpstdio"]
    (record,) = records
    assert re.fullmatch(
        r'jsonrpc-envelope: stdout line \d+: invalid_response, substituted \(.+\): '
        r'\{"jsonrpc":"2\.0","id":\d+,"result":\[\{"name":"echo"\}\]\}',
        record,
    ), record


def test_control_the_sdk_transport_waits_for_its_timeout_on_an_invalid_response() -> None:
    start = time.monotonic()
    with pytest.raises(BaseException) as raised:
        anyio.run(list_tools, theirs(INVALID_RESPONSE_SERVER), 2)
    error = peer_error(raised.value)
    assert error.code == -32001 and "timed out" in error.message, error
    assert time.monotonic() - start >= 2
