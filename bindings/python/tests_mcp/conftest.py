"""The tests of jsonrpc_envelope.mcpstdio, run by `make test-python-mcp` with the
Python of target/python-mcp, a venv made by `pip install
"./bindings/python[mcp,test]"` (the official SDK pinned by
peers/python/requirements.txt). They import the package's source (src/) and
the library of JSONRPC_ENVELOPE_LIB, as the binding's own tests do; so do
the servers they start.

The programs they talk to, besides this package's example
(examples/python/sdk_server.py), which with --sdk-transport is the same
server on the SDK's own transport (the control):
- the Go example on mcpstdio (MCPSTDIO_GO_SERVER) and the Go SDK's own
  stdio server (SDK_GO_ECHO_SERVER), both built by make;
- servers that pollute their stdout (examples/guard/naive_server.py, and
  the SDKs' echo servers with --pollute), and one with a planted fault
  (tests/transports/faulty_server.py: an initialize error that names no
  request, a tools/list result that is not an object).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Dict, List

import pytest

# The test-support modules shared with the other suites (tests/support).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "support"))

PACKAGE = Path(__file__).resolve().parents[1]
REPO = PACKAGE.parents[1]

for name in ("JSONRPC_ENVELOPE_LIB", "MCPSTDIO_GO_SERVER", "SDK_GO_ECHO_SERVER"):
    if not os.environ.get(name):
        raise pytest.UsageError(f"{name} is not set: run these tests with `make test-python-mcp`")
    os.environ[name] = os.path.abspath(os.environ[name])
# The servers started here import the package's source too.
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PACKAGE / "src"), os.environ.get("PYTHONPATH")]))

PYTHON = sys.executable
OUR_SERVER = [PYTHON, str(REPO / "examples/python/sdk_server.py")]
# The same server on the SDK's own transport: the control.
OUR_SERVER_ON_SDK = OUR_SERVER + ["--sdk-transport"]
SDK_SERVER = [PYTHON, str(REPO / "peers/python/echo_server.py")]
GO_OUR_SERVER = [os.environ["MCPSTDIO_GO_SERVER"]]
GO_SDK_SERVER = [os.environ["SDK_GO_ECHO_SERVER"]]
NAIVE_SERVER = [PYTHON, str(REPO / "examples/guard/naive_server.py")]
FAULTY_SERVER = [PYTHON, str(REPO / "tests/transports/faulty_server.py")]
UNATTRIBUTED_SERVER = FAULTY_SERVER + ["--unattributed-initialize-error"]

# What the servers above get in their environment from the SDK's client,
# which passes on only a few variables of its own (get_default_environment).
CHILD_ENV = {name: os.environ[name] for name in ("PYTHONPATH", "JSONRPC_ENVELOPE_LIB")}


def vectors() -> Dict[str, dict]:
    """tests/vectors/envelope.jsonl by name."""
    with open(REPO / "tests/vectors/envelope.jsonl", encoding="utf-8") as f:
        return {record["name"]: record for record in map(json.loads, f)}


def mcp_vectors() -> Dict[str, dict]:
    """tests/vectors/mcp.jsonl by name: the MCP profile, which the
    transports use (a line of envelope.jsonl is "envelope: NAME" there)."""
    with open(REPO / "tests/vectors/mcp.jsonl", encoding="utf-8") as f:
        return {record["name"]: record for record in map(json.loads, f)}


# The abuse lines of issue #16, each with the vector it is.
ABUSE: List[tuple] = [
    ("id null", "request with id null is a request, answered with id null"),
    ("object id", "object id is an invalid request"),
    ("numeric method", "number method with a string id echoes the id"),
    ("boolean method", "boolean method and null id"),
    ("batch", "batch of one request"),
    ("not JSON", "plain text"),
    ("bare string", "string"),
]
