"""Shared fixtures. The tests run against the library named by
JSONRPC_ENVELOPE_LIB (`make test-python` sets it to target/release); run
directly, they fall back to the repository's target/release or target/debug."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

import pytest

# The test-support modules shared with the other suites (tests/support).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "support"))

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(os.path.dirname(PACKAGE))
VECTORS = os.path.join(REPO, "tests", "vectors")
HEADER = os.path.join(REPO, "include", "jsonrpc_envelope.h")
ECHO_SERVER = os.path.join(REPO, "examples", "python", "echo_server.py")

if os.environ.get("JSONRPC_ENVELOPE_LIB"):
    # Absolute, so that children started in other directories find it too.
    os.environ["JSONRPC_ENVELOPE_LIB"] = os.path.abspath(os.environ["JSONRPC_ENVELOPE_LIB"])
else:
    for profile in ("release", "debug"):
        candidate = os.path.join(REPO, "target", profile, "libjsonrpc_envelope.so")
        if os.path.isfile(candidate):
            os.environ["JSONRPC_ENVELOPE_LIB"] = candidate
            break


def pytest_report_header(config: Any) -> str:
    import jsonrpc_envelope

    return f"jsonrpc_envelope {jsonrpc_envelope.__version__} from {jsonrpc_envelope.lib_path}"


def _read_jsonl(name: str) -> List[Dict[str, Any]]:
    with open(os.path.join(VECTORS, name), encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def vector_bytes(vector: Dict[str, Any], key: str) -> bytes:
    """A vector's input bytes: `key` as UTF-8, or `key_hex`."""
    if key + "_hex" in vector:
        return bytes.fromhex(vector[key + "_hex"])
    text: str = vector[key]
    return text.encode("utf-8", "surrogatepass")


ENVELOPE = _read_jsonl("envelope.jsonl")
LOG_VALUE = _read_jsonl("log_value.jsonl")
# The MCP profile's vectors (SPEC section 10): envelope.jsonl's fields plus
# `substitute`.
MCP = _read_jsonl("mcp.jsonl")


@pytest.fixture
def subprocess_env() -> Dict[str, str]:
    """The environment for a child Python that imports the package from src/."""
    env = dict(os.environ)
    src = os.path.join(PACKAGE, "src")
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
