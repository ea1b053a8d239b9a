"""examples/python/echo_server.py, driven as a subprocess with raw lines."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Any, Dict, List, Optional

import jsonrpc_envelope as je
from conftest import ECHO_SERVER

PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'


def start(env: Dict[str, str]) -> subprocess.Popen:  # type: ignore[type-arg]
    return subprocess.Popen(
        [sys.executable, ECHO_SERVER], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def converse(env: Dict[str, str], data: bytes) -> Any:
    server = start(env)
    out, err = server.communicate(data, timeout=60)
    assert server.returncode == 0, err.decode()
    return out, err.decode()


def test_a_session_with_broken_lines(subprocess_env: Dict[str, str]) -> None:
    lines = [
        b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}',
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
        b'{"jsonrpc":"2.0","id":"p","method":"ping"}',
        b'{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi\\n\\u2028there"}}}',
        b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope","arguments":{}}}',
        b'{"jsonrpc":"2.0","id":6,"method":"resources/list"}',
        b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":12345678901234567890123,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1.50,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":7,',  # cut short
        b"[1,2]",  # a batch
        b"42",  # not an object
        b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',  # an object id
        b'{"jsonrpc":"2.0","id":8,"method":5}',  # a method that is not a string
        b"",  # an empty line
        b"\xff\xfe{}",  # not UTF-8
        b'{"jsonrpc":"2.0","id":99,"result":{}}',  # a response: never answered
        b'{"level":"info","msg":"a log line"}',  # not JSON-RPC: ignored
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}',
        b'{"jsonrpc":"2.0","id":9,"method":"ping"}\r',  # CRLF
        b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"jsonrpc":"2.0","id":11,"method":"ping"}',  # the last line, without LF
    ]
    out, err = converse(subprocess_env, b"\n".join(lines))
    replies = out.decode().split("\n")
    assert replies[-1] == ""  # every reply ends with LF
    replies = replies[:-1]
    # Every line the server wrote is one JSON-RPC response, by the library's
    # own reading of a server's output.
    for reply in replies:
        c = je.classify(reply, role="client")
        assert c.kind == "response" and c.reply() is None, reply
    parsed = [json.loads(reply) for reply in replies]
    assert [reply.split(",", 2)[1] for reply in replies] == [
        '"id":1', '"id":"p"', '"id":3', '"id":4', '"id":5', '"id":6', '"id":null',
        '"id":12345678901234567890123', '"id":1.50', '"id":null', '"id":null', '"id":null',
        '"id":null', '"id":8', '"id":null', '"id":9', '"id":10', '"id":11',
    ]
    init = parsed[0]["result"]
    assert init["protocolVersion"] == "2025-11-25"
    assert "tools" in init["capabilities"] and init["serverInfo"]["name"]
    assert parsed[1]["result"] == {}
    (tool,) = parsed[2]["result"]["tools"]
    assert tool["name"] == "echo" and tool["inputSchema"]["type"] == "object"
    assert parsed[3]["result"] == {"content": [{"type": "text", "text": "hi\n\u2028there"}], "isError": False}
    assert parsed[4]["error"]["code"] == -32602
    assert parsed[5]["error"] == {"code": -32601, "message": "Method not found"}
    assert parsed[6]["result"] == {}
    # The broken lines get exactly the library's replies.
    for reply, line in zip(replies[9:15], [lines[10], lines[11], lines[12], lines[13], lines[14], lines[16]]):
        assert reply == je.invalid_reply(line, "server")
    assert replies[9] == PARSE_ERROR
    assert parsed[16]["error"]["code"] == -32602  # params 100,000 levels deep, and not an object
    assert parsed[17]["result"] == {}
    # The log went to stderr, one line per event, peer text escaped.
    assert "answered a broken line" in err and "unknown method" in err
    assert all(line.startswith("echo_server: ") for line in err.splitlines())


def test_it_answers_each_request_as_it_arrives(subprocess_env: Dict[str, str]) -> None:
    """The server replies before its stdin closes (it reads a pipe with read1)."""
    server = start(subprocess_env)
    assert server.stdin and server.stdout
    got: List[Optional[bytes]] = []

    def read_one() -> None:
        assert server.stdout
        got.append(server.stdout.readline())

    try:
        for i in range(3):
            server.stdin.write(b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % i)
            server.stdin.flush()
            reader = threading.Thread(target=read_one)
            reader.start()
            reader.join(timeout=30)
            assert not reader.is_alive(), "no reply while stdin is open"
            assert got[-1] == b'{"jsonrpc":"2.0","id":%d,"result":{}}\n' % i
    finally:
        server.stdin.close()
        server.wait(timeout=30)
        server.stdout.close()
        assert server.stderr
        server.stderr.close()
    assert server.returncode == 0


def test_a_line_too_long_is_skipped(subprocess_env: Dict[str, str]) -> None:
    # Over the library's default limit (the echo server's), whatever it is.
    big = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":"' + b"x" * (je.DEFAULT_MAX_LINE + (1 << 20)) + b'"}'
    out, err = converse(subprocess_env, big + b'\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
    assert out == b'{"jsonrpc":"2.0","id":2,"result":{}}\n'
    assert "too long" in err
