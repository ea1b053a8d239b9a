"""Threads, and memory over a million calls."""

from __future__ import annotations

import gc
import io
import os
import threading
import tracemalloc
from typing import Any, Dict, List

import jsonrpc_envelope as je
from conftest import ENVELOPE, LOG_VALUE, vector_bytes

LINES = [vector_bytes(v, "line") for v in ENVELOPE]
LOG_INPUTS = [vector_bytes(v, "input") for v in LOG_VALUE]
STREAM = b"\n".join(line for line in LINES if b"\n" not in line) + b"\n"


def everything() -> Dict[str, Any]:
    """Every API's answer over every vector."""
    return {
        "classify": [je.classify(line).to_dict() for line in LINES],
        "reply": [(je.invalid_reply(line, "server"), je.invalid_reply(line, "client")) for line in LINES],
        "log": [je.log_value(data) for data in LOG_INPUTS],
        "stream": [
            (line, c.to_dict()) for line, c in je.read_messages(io.BytesIO(STREAM), chunk_size=97)
        ],
    }


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


def calls(n: int) -> None:
    """n calls into the library, of every kind, then n lines of a stream."""
    classify, invalid_reply, log_value = je.classify, je.invalid_reply, je.log_value
    k = len(MIXED)
    for i in range(n // 3):
        line = MIXED[i % k]
        classify(line).method
        invalid_reply(line)
        log_value(line)
    for _ in range(max(1, n // LINES_PER_STREAM)):
        for _ in je.read_messages(io.BytesIO(MIXED_STREAM), chunk_size=4096):
            pass


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
