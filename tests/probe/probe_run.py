"""Running `jsonrpc-envelope probe` (SPEC 11) from the probe's tests, and
the vector lines it sends, read here from tests/vectors on their own.

Environment (rules.mk sets it): JSONRPC_ENVELOPE_BIN (the CLI, the release
build by default), JSONRPC_ENVELOPE_LIB (the library the Python binding
loads, for the faulty server), PROBE_LINES, PROBE_SEED, PROBE_JOBS.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence

ROOT = Path(__file__).resolve().parents[2]
PROBE = os.environ.get("JSONRPC_ENVELOPE_BIN", str(ROOT / "target/release/jsonrpc-envelope"))
LIB = os.environ.get("JSONRPC_ENVELOPE_LIB", str(ROOT / "target/release/libjsonrpc_envelope.so"))
REPORTS = ROOT / "target/probe-reports"

# The report's groups (SPEC 11), in the order the probe sends them.
GROUPS = ("envelope_vectors", "mcp_vectors", "limits", "random")
# The report's columns (SPEC 11): lines that passed, then the failures of
# each grade, worst first.
GRADES = ("harmful", "nonconforming", "strict")
COLUMNS = ("passed",) + GRADES
# The longest a whole probe run may take here before the test gives up.
RUN_LIMIT = 600


@dataclass
class VectorLine:
    group: str  # envelope_vectors or mcp_vectors
    name: str
    line: bytes
    mcp: dict  # the line's record in mcp.jsonl: its classification by the MCP profile


def _records(name: str) -> List[dict]:
    with open(ROOT / "tests/vectors" / name, encoding="utf-8") as f:
        return [json.loads(record) for record in f if record.strip()]


def _bytes(record: dict) -> bytes:
    if "line_hex" in record:
        return bytes.fromhex(record["line_hex"])
    return record["line"].encode("utf-8", "surrogatepass")


def vector_lines() -> List[VectorLine]:
    """The vector lines the probe sends, in its order: envelope.jsonl then
    mcp.jsonl, without those that hold an LF; each with its MCP profile
    record (mcp.jsonl holds every line of envelope.jsonl, as "envelope:
    NAME")."""
    mcp = _records("mcp.jsonl")
    by_line: Dict[bytes, dict] = {}
    for record in mcp:
        by_line.setdefault(_bytes(record), record)
    out = []
    for group, records in (("envelope_vectors", _records("envelope.jsonl")), ("mcp_vectors", mcp)):
        for record in records:
            line = _bytes(record)
            if b"\n" in line:
                continue
            if line not in by_line:
                raise AssertionError(f"envelope.jsonl's {record['name']!r} has no record in mcp.jsonl")
            out.append(VectorLine(group, record["name"], line, by_line[line]))
    return out


def child_env() -> Dict[str, str]:
    """The probe's environment, which its servers inherit: the Python
    binding from the source, with the library the tests name."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "bindings/python/src"), env.get("PYTHONPATH")]))
    env["JSONRPC_ENVELOPE_LIB"] = LIB
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@dataclass
class Run:
    argv: List[str]
    status: int
    stdout: str
    stderr: str

    @property
    def report(self) -> dict:
        """The --json report."""
        try:
            return json.loads(self.stdout)
        except ValueError as error:
            raise AssertionError(f"not a JSON report ({error}): {self.describe()}") from None

    def describe(self) -> str:
        return f"{' '.join(self.argv)}\nexit status {self.status}\nstdout:\n{self.stdout[:4000]}\nstderr:\n{self.stderr[-2000:]}"


def probe(command: Sequence[str], *options: str, env: Optional[Dict[str, str]] = None) -> Run:
    """`jsonrpc-envelope probe OPTIONS -- COMMAND`, to its end (no COMMAND:
    `jsonrpc-envelope probe OPTIONS`, for --replay)."""
    argv = [PROBE, "probe", *options, *(["--", *command] if command else [])]
    done = subprocess.run(
        argv, env=env or child_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=RUN_LIMIT
    )
    return Run(argv, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"))


def table_rows(text: str) -> Dict[str, List[int]]:
    """The text report's table: per group name (and `stdout`), its lines and
    the count per column."""
    rows = {}
    names = {group.replace("_", " "): group for group in GROUPS}
    names["stdout"] = "stdout"
    for line in text.splitlines():
        for name, key in names.items():
            if line.startswith(name + " "):
                rows[key] = [int(n) for n in line[len(name) :].split()]
    return rows
