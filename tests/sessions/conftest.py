"""The session tests' configurations (run by `make test-sessions`, see
rules.mk): the servers, the probe lines, and the table at the end.

Servers, for each official SDK (peers/README.md), three ways:
- ours:    the SDK's server on this project's transport for that SDK
           (examples/python/sdk_server.py, bindings/node's SDK server
           fixture, examples/go/sdk_server on mcpstdio,
           examples/java/sdk_server.sh, examples/rust's rmcp-sdk-server);
- guard:   the SDK's own echo server (peers/) on the SDK's own transport,
           behind `jsonrpc-envelope guard --`;
- control: the same, without the guard.

Probe lines: every line of tests/vectors/envelope.jsonl and mcp.jsonl, then
(ours and guard) SESSIONS_LINES random lines (default 5000) of the generator
(lines.py) seeded with SESSIONS_SEED (default 22).

Environment (rules.mk sets it): JSONRPC_ENVELOPE_LIB (the library the
Python binding loads, and our Python transport with it), JSONRPC_ENVELOPE_BIN
(the guard), SESSIONS_JOBS (servers driven at once, default 3).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from harness import Driver, Stats, table, vector_lines  # noqa: E402  (the binding, from the source)
from lines import LineGenerator  # noqa: E402

RANDOM_LINES = int(os.environ.get("SESSIONS_LINES", "5000"))
SEED = int(os.environ.get("SESSIONS_SEED", "22"))
JOBS = int(os.environ.get("SESSIONS_JOBS", "3"))
OUT = ROOT / "target/sessions"

GUARD = os.environ.get("JSONRPC_ENVELOPE_BIN", str(ROOT / "target/release/jsonrpc-envelope"))
SDK_PYTHON = str(ROOT / "target/sdk/python/bin/python")
NODE = os.environ.get("NODE", "node")

# The Java SDK's servers need a JDK 22 or newer: rules.mk sets SESSIONS_JAVA
# to 1 where it found one (and says so where it did not).
JAVA = os.environ.get("SESSIONS_JAVA") == "1"
RMCP_SERVER = os.environ.get("SESSIONS_RMCP_SERVER", str(ROOT / "target/debug/rmcp-sdk-server"))
JAVA_SERVER = str(ROOT / "examples/java/sdk_server.sh")

SDKS = ("python", "node", "go") + (("java",) if JAVA else ()) + ("rust",)
MODES = (
    ("ours", "ours"),
    ("guard", "SDK's own, behind guard"),
    ("control", "SDK's own (control)"),
)

# The SDKs' own echo servers (peers/; the Java and Rust examples with
# --sdk-transport are the same server on the SDK's own transport).
SDK_SERVERS = {
    "python": [SDK_PYTHON, str(ROOT / "peers/python/echo_server.py")],
    "node": [NODE, str(ROOT / "peers/node/echo_server.mjs")],
    "go": [str(ROOT / "target/sdk/go/echo-server")],
    "java": [JAVA_SERVER, "--sdk-transport"],
    "rust": [RMCP_SERVER, "--sdk-transport"],
}
# The same SDKs' servers on this project's transports.
OUR_SERVERS = {
    "python": [SDK_PYTHON, str(ROOT / "examples/python/sdk_server.py")],
    "node": [NODE, str(ROOT / "bindings/node/test/fixtures/sdk-server.mjs"), "envelope"],
    "go": [str(ROOT / "target/mcpstdio/sdk_server")],
    "java": [JAVA_SERVER],
    "rust": [RMCP_SERVER],
}


def child_env() -> Dict[str, str]:
    """The environment of every server: our Python transport from the
    source, with the library the tests load."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bindings/python/src"), env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def server(sdk: str, mode: str) -> Tuple[List[str], Dict[str, str]]:
    if mode == "ours":
        command = OUR_SERVERS[sdk]
    elif mode == "guard":
        command = [GUARD, "guard", "--", *SDK_SERVERS[sdk]]
    elif mode == "control":
        command = SDK_SERVERS[sdk]
    else:
        raise ValueError(mode)
    env = child_env()
    if sdk == "java":
        # The Java SDK's server on its own transport dies some 270 times in
        # a run, and a JVM starts again each time: the JIT's first tier
        # alone starts one about a fifth sooner, and changes nothing a
        # session sees.
        env["JAVA_TOOL_OPTIONS"] = " ".join(filter(None, [env.get("JAVA_TOOL_OPTIONS"), "-XX:TieredStopAtLevel=1"]))
    return command, env


_random: Dict[Tuple[int, int, str], List[bytes]] = {}


def random_lines(count: int = RANDOM_LINES, seed: int = SEED, direction: str = "to_server") -> List[bytes]:
    key = (count, seed, direction)
    if key not in _random:
        _random[key] = LineGenerator(seed, direction).lines(count)
    return _random[key]


def probes(mode: str, count: int = RANDOM_LINES) -> List[Tuple[str, bytes]]:
    lines = vector_lines("envelope.jsonl", "mcp.jsonl")
    if mode != "control":
        lines += [(f"random line {i} (seed {SEED})", line) for i, line in enumerate(random_lines(count))]
    return lines


# ---- all servers, driven once per pytest session, a few at a time ---------

_lock = threading.Lock()
_results: Optional[dict] = None


def run_all() -> dict:
    """Every (sdk, mode): its Stats, or the exception that stopped it."""
    global _results
    with _lock:
        if _results is None:
            def one(key):
                sdk, mode = key
                command, env = server(sdk, mode)
                try:
                    return Driver(f"{sdk}/{mode}", command, env).run(probes(mode))
                except Exception as error:  # reported by the test of this configuration
                    return error

            keys = [(sdk, mode) for sdk in SDKS for mode, _ in MODES]
            # The controls first, the Java SDK's first of all (a JVM starts
            # again after each of its ~200 deaths): the rest runs beside them.
            order = sorted(keys, key=lambda k: (k[1] != "control", k[0] != "java"))
            random_lines()  # made once, before the threads share them
            with ThreadPoolExecutor(max_workers=JOBS) as pool:
                _results = dict(zip(order, pool.map(one, order)))
            _write_report(_results)
        return _results


def report_text(results: dict) -> str:
    done = {k: v for k, v in results.items() if isinstance(v, Stats)}
    head = (
        f"Sessions against the official MCP SDKs' servers: after initialize, every line of "
        f"tests/vectors/envelope.jsonl and mcp.jsonl, and (ours, guard) {RANDOM_LINES} random lines "
        f"(tests/sessions/lines.py, seed {SEED}), each followed by a ping. A control restarts after every death.\n\n"
    )
    text = head + table(done, SDKS, MODES) + "\n"
    for key, value in results.items():
        if not isinstance(value, Stats):
            text += f"\n{key[0]}/{key[1]}: did not run: {value}\n"
    return text


def _write_report(results: dict) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "servers.md").write_text(report_text(results), encoding="utf-8")
    with open(OUT / "servers.json", "w", encoding="utf-8") as f:
        json.dump({f"{k[0]}/{k[1]}": v.as_dict() for k, v in results.items() if isinstance(v, Stats)}, f, indent=1)
    with open(OUT / "failures.txt", "w", encoding="utf-8") as f:
        for (sdk, mode), s in results.items():
            if not isinstance(s, Stats):
                continue
            f.write(f"==== {sdk}/{mode}: {len(s.failures)} failures (first 200), {s.unasked} lines back unasked\n")
            for failure in s.failures:
                f.write(failure.render() + "\n")
            for label, line in s.unasked_examples:
                f.write(f"[unasked] {label}: {line[:300]!r}\n")
            f.write(f"-- stderr (last lines):\n{s.stderr_tail}\n")


def pytest_terminal_summary(terminalreporter) -> None:
    if _results is not None:
        terminalreporter.write_sep("=", "sessions against the SDKs' servers")
        terminalreporter.write_line(report_text(_results))
        terminalreporter.write_line(f"(also in {OUT / 'servers.md'}; each failure in {OUT / 'failures.txt'})")
    clients = getattr(sys.modules.get("test_clients"), "REPORT", None)
    if clients:
        terminalreporter.write_sep("=", "the SDKs' clients against a noisy server")
        terminalreporter.write_line(clients)
    eras = getattr(sys.modules.get("test_eras"), "REPORT", None)
    if eras:
        terminalreporter.write_sep("=", "both protocol eras: the Python client's modes, and the shapes of SPEC 10.6")
        terminalreporter.write_line(eras)
        terminalreporter.write_line(f"(also in {OUT / 'eras.md'}; each failure in {OUT / 'eras-failures.txt'})")
