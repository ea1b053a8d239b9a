"""Threads, and memory over a million calls."""

from __future__ import annotations

import gc
import io
import os
import threading
import tracemalloc
from typing import Any, Dict, List

import jsonrpc_envelope as je
from conftest import ENVELOPE, LOG_VALUE, MCP, vector_bytes

LINES = [vector_bytes(v, "line") for v in ENVELOPE]
MCP_LINES = [vector_bytes(v, "line") for v in MCP]
LOG_INPUTS = [vector_bytes(v, "input") for v in LOG_VALUE]
STREAM = b"\n".join(line for line in LINES if b"\n" not in line) + b"\n"
MCP_STREAM = b"\n".join(line for line in MCP_LINES if b"\n" not in line) + b"\n"


def everything() -> Dict[str, Any]:
    """Every API's answer over every vector, in both profiles."""
    results: Dict[str, Any] = {"log": [je.log_value(data) for data in LOG_INPUTS]}
    for profile, lines, stream in ((je.Profile.JSONRPC, LINES, STREAM), (je.Profile.MCP, MCP_LINES, MCP_STREAM)):
        results[str(profile)] = {
            "classify": [je.classify(line, profile=profile).to_dict() for line in lines],
            "reply": [
                (je.invalid_reply(line, "server", profile=profile), je.invalid_reply(line, "client", profile=profile))
                for line in lines
            ],
            "stream": [
                (line, c.to_dict())
                for line, c in je.read_messages(io.BytesIO(stream), chunk_size=97, profile=profile)
            ],
        }
        session = je.Session("client", profile=profile)
        session.sent(b'{"jsonrpc":"2.0","id":7,"method":"ping"}')
        results[str(profile)]["session"] = [
            (d.number, d.line, d.action, d.action_text, d.note) for d in session.feed(stream) + session.end()
        ]
        session.close()
    return results


def test_eight_threads_agree_with_one() -> None:
    expected = everything()
    results: List[Any] = []
    errors: List[BaseException] = []
    start = threading.Barrier(8)

    def work() -> None:
        try:
            start.wait()
            for _ in range(15):
                results.append(everything())
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(results) == 8 * 15
    for result in results:
        assert result == expected


def rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


# Lines of each sort: with no owned string, with a reason and replies, with
# an escaped method (a string copied from the library), broken, and one
# whose id and replies overflow classify()'s 1 KiB scratch (an allocation
# that classify frees).
MIXED = [
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}',
    b'{"jsonrpc":"2.0","id":1,"method":"a\\u0062"}',
    b'{"jsonrpc":"2.0","id":{"a":1},"method":3}',
    b"[1,2]",
    b'{"jsonrpc":"2.0","id":',
    b'{"jsonrpc":"2.0","id":"r","result":{}}',
    b'{"jsonrpc":"2.0","id":"' + b"i" * 600 + b'","method":false}',
]


LINES_PER_STREAM = 60_000
MIXED_STREAM = b"\n".join(MIXED * (LINES_PER_STREAM // len(MIXED)))


# Lines a session in the MCP profile answers, substitutes, attributes,
# drops and diverts, after a request of ours with id 7 (the session's own
# strings outside the batch's texts included).
SESSION_LINES = (
    b'{"jsonrpc":"2.0","id":7,"method":"ping"}',
    b'{"jsonrpc":"2.0","id":7,"result":[]}',
    b'{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m"}}',
    b"[1]",
    b"banner",
    b'{"jsonrpc":"2.0","id":1.5,"method":"x"}',
)
SESSION_CHUNK = b"\n".join(SESSION_LINES) + b"\n"
SENT = b'{"jsonrpc":"2.0","id":7,"method":"ping"}'


def calls(n: int) -> None:
    """n calls into the library, of every kind, then n lines of a stream,
    and sessions."""
    classify, invalid_reply, log_value = je.classify, je.invalid_reply, je.log_value
    mcp = je.Profile.MCP
    k = len(MIXED)
    for i in range(n // 3):
        line = MIXED[i % k]
        classify(line, profile=mcp if i & 1 else je.Profile.JSONRPC).method
        invalid_reply(line, profile=mcp if i & 2 else je.Profile.JSONRPC)
        log_value(line)
    for _ in range(max(1, n // LINES_PER_STREAM)):
        for _ in je.read_messages(io.BytesIO(MIXED_STREAM), chunk_size=4096):
            pass
    for i in range(max(1, n // 20)):
        with je.Session("client" if i & 1 else "server", profile=mcp) as session:
            session.sent(SENT)
            session.feed(SESSION_CHUNK)
            session.refused(SESSION_LINES[0])
            session.refused(SESSION_LINES[1])
            session.end()


def test_no_memory_growth_over_a_million_calls() -> None:
    """The process's RSS (the library's malloc included) stays flat over a
    million calls; a leak of one small result per call would add 30 MB."""
    calls(100_000)  # warm up: caches, allocator arenas
    gc.collect()
    before = rss_kib()
    calls(1_000_000)
    gc.collect()
    grown = rss_kib() - before
    assert grown < 4 * 1024, f"RSS grew by {grown} KiB over a million calls"


def test_no_python_memory_growth() -> None:
    """tracemalloc: no Python object outlives the calls that made it."""
    calls(10_000)
    gc.collect()
    tracemalloc.start()
    try:
        calls(10_000)
        gc.collect()
        first, _ = tracemalloc.get_traced_memory()
        calls(60_000)
        gc.collect()
        second, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert second - first < 64 * 1024, (first, second)
