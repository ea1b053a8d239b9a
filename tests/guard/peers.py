"""The programs the guard's SDK tests run.

Paths are the repository's (peers/README.md): the SDKs' echo servers and client
drivers, the naive server, and the guard (the release build, which `make`
builds before these tests run; JSONRPC_ENVELOPE_BIN names another).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The test-support modules shared with the other suites (tests/support).
sys.path.insert(0, str(ROOT / "tests" / "support"))
GUARD = os.environ.get("JSONRPC_ENVELOPE_BIN", str(ROOT / "target/release/jsonrpc-envelope"))
SDK_PYTHON = str(ROOT / "target/sdk/python/bin/python")

SERVERS = {
    "python": [SDK_PYTHON, str(ROOT / "peers/python/echo_server.py")],
    "node": ["node", str(ROOT / "peers/node/echo_server.mjs")],
    "go": [str(ROOT / "target/sdk/go/echo-server")],
    "naive": ["python3", str(ROOT / "examples/guard/naive_server.py")],
}
CLIENTS = {
    "python": [SDK_PYTHON, str(ROOT / "peers/python/client.py")],
    "node": ["node", str(ROOT / "peers/node/client.mjs")],
    "go": [str(ROOT / "target/sdk/go/client")],
}


# The guard's profile unless --profile says otherwise (SPEC section 10).
GUARD_PROFILE = "mcp"


def guarded(command: list[str], *options: str) -> list[str]:
    return [GUARD, "guard", *options, "--", *command]


def vectors(profile: str = "mcp") -> dict[str, dict]:
    """The vectors of envelope.jsonl by name, as `profile` classifies them:
    envelope.jsonl itself for "jsonrpc"; for "mcp", the records mcp.jsonl
    keeps of its lines (named "envelope: NAME" there)."""
    if profile == "jsonrpc":
        with open(ROOT / "tests/vectors/envelope.jsonl", encoding="utf-8") as f:
            return {r["name"]: r for r in map(json.loads, f)}
    prefix = "envelope: "
    with open(ROOT / "tests/vectors/mcp.jsonl", encoding="utf-8") as f:
        records = [json.loads(line) for line in f]
    return {r["name"][len(prefix) :]: r for r in records if r["name"].startswith(prefix)}
