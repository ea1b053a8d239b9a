#!/usr/bin/env python3
"""Benchmark of the Python binding (not a test): ns per line for
``jsonrpc_envelope.classify`` and ``read_messages`` against ``json.loads``
plus a plain pure-Python classification, and against ``orjson.loads`` (the
speed-minded user's parser) plus the same classification, over the same
~180-byte MCP lines (tools/call requests, progress notifications, results),
with the messages dropped as they come and kept in a list.

    make bench-python     (installs orjson into target/bench-python first)

Each figure is the best of R rounds in which every row runs once, timed in
this process's CPU time (the machine's other load only ever adds time). The
"floor" rows are the library calls alone through ctypes, made as the binding
makes them, with no Python objects built: what no binding can go below on
this machine; the last row is ctypes' own cost of one call.

    python bench/python_bench.py --compare DIR

also runs the binding's rows with another copy of the package (DIR holds
its ``jsonrpc_envelope/``, such as an older checkout's bindings/python/src),
in turns with this one's, and prints the two side by side: a change to the
binding is measured before and after in one run.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import io
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bindings", "python", "src"))
if "JSONRPC_ENVELOPE_LIB" not in os.environ:
    release = os.path.join(HERE, "..", "target", "release", "libjsonrpc_envelope.so")
    if os.path.exists(release):
        os.environ["JSONRPC_ENVELOPE_LIB"] = release

import jsonrpc_envelope as je  # noqa: E402
import orjson  # noqa: E402
from jsonrpc_envelope import _classify, _ffi  # noqa: E402

# ---- the traffic -------------------------------------------------------------


def mcp_lines(count: int) -> List[bytes]:
    """tools/call requests, progress notifications and results, ~180 bytes each."""
    lines = []
    for i in range(count):
        n = i // 3
        if i % 3 == 0:
            line = {
                "jsonrpc": "2.0",
                "id": n,
                "method": "tools/call",
                "params": {
                    "name": "search_files",
                    "arguments": {"query": f"ctypes struct layout of JsonRpcLine {n}", "limit": 10},
                    "_meta": {"progressToken": f"tok-{n}"},
                },
            }
        elif i % 3 == 1:
            line = {
                "jsonrpc": "2.0",
                "method": "notifications/progress",
                "params": {
                    "progressToken": f"tok-{n}",
                    "progress": n % 100,
                    "total": 100,
                    "message": "indexing src/ffi, tests/vectors and bindings/ for the query",
                },
            }
        else:
            line = {
                "jsonrpc": "2.0",
                "id": n,
                "result": {
                    "content": [
                        {"type": "text", "text": f"found {n % 7} matches in src/ffi/lines.rs and src/ffi/text.rs"}
                    ],
                    "isError": False,
                },
            }
        lines.append(json.dumps(line, separators=(",", ":")).encode())
    return lines


# ---- the pure-Python baseline: json.loads and the kind, as a host would ------


def py_classify(line: bytes, loads: Any = json.loads) -> Any:
    """A parser's loads plus a plain classification (kind, id, method), the
    way a host without the library does it. A baseline only: it is not the
    SPEC (it misses duplicate members, lone surrogates, exact ids, ...)."""
    try:
        value = loads(line)
    except ValueError:
        return ("parse_error", None, None)
    if isinstance(value, list):
        return ("batch", None, None)
    if not isinstance(value, dict):
        return ("not_object", None, None)
    method = value.get("method")
    has_id = "id" in value
    ident = value.get("id")
    if "method" in value:
        if not isinstance(method, str) or (has_id and isinstance(ident, (dict, list, bool))):
            return ("invalid_request", ident, method)
        return ("request" if has_id else "notification", ident, method)
    if has_id or ("error" in value and value.get("jsonrpc") == "2.0"):
        return ("response", ident, None)
    return ("not_jsonrpc", None, None)


# ---- timing ------------------------------------------------------------------


def measure(rows: List[Any], count: int, repeat: int, pairs: int = 0) -> Dict[str, float]:
    """Best ns per line of each row. The rows take turns, `repeat` rounds, so
    that each sees the same moments of the machine's other load; the clock
    is this process's CPU time, which time spent descheduled does not
    inflate (a shared machine's other processes only ever add time). The
    first `pairs` pairs of rows (--compare) swap places every other round,
    so that neither of two rows always runs first (the first of two rows
    that keep many objects pays for the memory both then use)."""
    best: Dict[str, float] = {}
    for round_ in range(repeat):
        order = list(rows)
        if round_ % 2:
            for i in range(0, 2 * pairs, 2):
                order[i], order[i + 1] = order[i + 1], order[i]
        for name, run in order:
            start = time.process_time()
            run()
            took = (time.process_time() - start) / count * 1e9
            best[name] = min(best.get(name, took), took)
    return best


def binding_rows(je: Any, lines: List[bytes], stream: bytes) -> List[Any]:
    """The rows that time the binding ``je`` (this package, or the one of
    --compare)."""

    def run_classify() -> None:
        classify = je.classify
        for line in lines:
            classify(line).kind

    def run_classify_fields() -> None:
        classify = je.classify
        for line in lines:
            c = classify(line)
            c.kind, c.id, c.method

    def run_read() -> None:
        for line, c in je.read_messages(io.BytesIO(stream)):
            c.kind

    def run_read_fields() -> None:
        for line, c in je.read_messages(io.BytesIO(stream)):
            c.kind, c.id, c.method

    def run_read_mcp() -> None:
        for line, c in je.read_messages(io.BytesIO(stream), profile=je.Profile.MCP):
            c.kind

    def run_session_mcp() -> None:
        # What a transport does: a session in the MCP profile, fed 64 KiB
        # chunks, each line with its action.
        chunk = je.DEFAULT_CHUNK_SIZE
        with je.Session("server", profile=je.Profile.MCP) as session:
            for position in range(0, len(stream), chunk):
                for d in session.feed(stream[position : position + chunk]):
                    d.action

    def keep_read() -> None:
        kept = list(je.read_messages(io.BytesIO(stream)))
        assert len(kept) == len(lines)

    return [
        ("classify(line).kind", run_classify),
        ("classify(line): kind, id, method", run_classify_fields),
        ("read_messages: kind", run_read),
        ("read_messages: kind, id, method", run_read_fields),
        ("read_messages, kept in a list", keep_read),
        ("read_messages, MCP profile: kind", run_read_mcp),
        ("Session (MCP) feed: action", run_session_mcp),
    ]


def load_copy(directory: str) -> Any:
    """Another copy of the package, imported as jsonrpc_envelope_compared
    (its imports are relative) from a temporary copy."""
    source = os.path.join(directory, "jsonrpc_envelope")
    if not os.path.isfile(os.path.join(source, "__init__.py")):
        raise SystemExit(f"--compare: no jsonrpc_envelope package in {directory!r}")
    copy = tempfile.mkdtemp(prefix="python-bench-")
    atexit.register(shutil.rmtree, copy, True)
    shutil.copytree(
        source, os.path.join(copy, "jsonrpc_envelope_compared"), ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    sys.path.insert(0, copy)
    return importlib.import_module("jsonrpc_envelope_compared")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=30_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--compare", metavar="DIR", help="another copy of the package, timed in turns with this one")
    args = parser.parse_args()
    compared = load_copy(args.compare) if args.compare else None
    lines = mcp_lines(args.lines)
    count = len(lines)
    stream = b"\n".join(lines) + b"\n"
    lib = _ffi.lib
    # Each line with its length as classify() passes it (see _classify._length).
    sized = [(line, _classify._length(len(line))) for line in lines]

    def run_json() -> None:
        loads = json.loads
        for line in lines:
            loads(line)

    def run_py() -> None:
        for line in lines:
            py_classify(line)

    def run_orjson() -> None:
        loads = orjson.loads
        for line in lines:
            py_classify(line, loads)

    def keep_orjson() -> None:
        loads = orjson.loads
        kept = [(line, py_classify(line, loads)) for line in io.BytesIO(stream)]
        assert len(kept) == count

    def floor_classify() -> None:
        # The call classify() makes, as it makes it (jsonrpc_classify_into
        # with a reused result and 1 KiB scratch), and nothing else.
        call = _ffi.classify_into
        _, _, out_ref, scratch, _, _ = _classify._new_slot()
        scratch_len = _classify._SCRATCH_LEN
        profile = _classify._PROFILE_ARG[je.Profile.JSONRPC]
        for line, length in sized:
            call(line, length, profile, out_ref, scratch, scratch_len)

    def floor_classify_free() -> None:
        # The two crossings of jsonrpc_classify + free (the whole result
        # returned by value), which classify() made before classify_into.
        classify, free = lib.jsonrpc_classify, lib.jsonrpc_classification_free
        profile = int(je.Profile.JSONRPC)
        for line in lines:
            free(classify(line, len(line), profile))

    def floor_reader() -> None:
        # The library's reader fed 64 KiB chunks, with no Python objects built.
        reader = lib.jsonrpc_reader_new(0, int(je.Profile.JSONRPC))
        batch = _ffi.JsonRpcBatch()
        feed, chunk = lib.jsonrpc_reader_feed, je.DEFAULT_CHUNK_SIZE
        for position in range(0, len(stream), chunk):
            part = stream[position : position + chunk]
            feed(reader, part, len(part), batch)
        lib.jsonrpc_reader_free(reader)

    def crossing_into() -> None:
        # One crossing of jsonrpc_classify_into as classify() makes it, on
        # the empty line (almost no work in the library): ctypes' own cost.
        call, length = _ffi.classify_into, _classify._length(0)
        _, _, out_ref, scratch, _, _ = _classify._new_slot()
        scratch_len = _classify._SCRATCH_LEN
        profile = _classify._PROFILE_ARG[je.Profile.JSONRPC]
        for _ in lines:
            call(b"", length, profile, out_ref, scratch, scratch_len)

    ours = binding_rows(je, lines, stream)
    rows = ours + [
        ("json.loads", run_json),
        ("json.loads + pure-Python classification", run_py),
        ("orjson.loads + the same classification", run_orjson),
        ("orjson.loads + classification, kept in a list", keep_orjson),
        ("floor: jsonrpc_classify_into via ctypes", floor_classify),
        ("floor: jsonrpc_classify + free via ctypes", floor_classify_free),
        ("floor: jsonrpc_reader_feed, 64 KiB chunks", floor_reader),
        ("one crossing of classify_into, empty line", crossing_into),
    ]
    mean = sum(map(len, lines)) / count
    print(
        f"jsonrpc_envelope {je.__version__} ({je.lib_path}); Python {platform.python_version()}"
        f" on {platform.machine()}; {count} lines of {mean:.0f} bytes on average;"
        f" best of {args.repeat} rounds, CPU time"
    )
    theirs = []
    if compared is not None:
        # Each of the compared package's rows right after the same row of
        # this one, in every round.
        theirs = [(name + " [compared]", run) for name, run in binding_rows(compared, lines, stream)]
        rows = [row for pair in zip(ours, theirs) for row in pair] + rows[len(ours) :]
    figures = measure(rows, count, args.repeat, pairs=len(theirs))
    if compared is not None:
        print(f"  this package against {compared.__name__} from {args.compare}, in turns:")
        print(f"  {'':<46} {'this':>8} {'compared':>9}")
        for (name, _), (other, _) in zip(ours, theirs):
            ratio = (figures[name] - figures[other]) / figures[other] * 100
            print(f"  {name:<46} {figures[name]:8.0f} {figures[other]:9.0f} ns/line  {ratio:+.1f}%")
        rows = [row for row in rows if row not in theirs]
    for name, _ in rows:
        print(f"  {name:<46} {figures[name]:8.0f} ns/line")
    baseline = figures["json.loads + pure-Python classification"]
    orjson_dropped = figures["orjson.loads + the same classification"]
    orjson_kept = figures["orjson.loads + classification, kept in a list"]
    read = figures["read_messages: kind"]
    kept = figures["read_messages, kept in a list"]
    checks = [
        ("read_messages >= 5x faster than json.loads + classification", baseline / read >= 5),
        ("classify >= 3x faster than json.loads + classification",
         baseline / figures["classify(line).kind"] >= 3),
        ("read_messages >= 1.5x faster than orjson + classification, dropped", orjson_dropped / read >= 1.5),
        ("read_messages >= 1.5x faster than orjson + classification, kept", orjson_kept / kept >= 1.5),
    ]
    print(
        f"  speed-up over json.loads + classification: read_messages"
        f" {baseline / read:.1f}x, classify {baseline / figures['classify(line).kind']:.1f}x"
    )
    print(
        f"  speed-up over orjson.loads + classification: read_messages {orjson_dropped / read:.2f}x"
        f" (dropped), {orjson_kept / kept:.2f}x (kept); classify"
        f" {orjson_dropped / figures['classify(line).kind']:.2f}x"
    )
    print(
        f"  Python's share above the library floor: read_messages"
        f" {read - figures['floor: jsonrpc_reader_feed, 64 KiB chunks']:.0f} ns,"
        f" classify {figures['classify(line).kind'] - figures['floor: jsonrpc_classify_into via ctypes']:.0f} ns"
    )
    for name, ok in checks:
        print(f"  target {name}: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
