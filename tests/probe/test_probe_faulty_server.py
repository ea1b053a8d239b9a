"""The probe's verdicts against an independent check: a server
(faulty_server.py) that answers every line as the library says, except on
lines chosen here, where it misbehaves in a known way. Every fault must be
reported exactly where it was planted (group, vector name, verdict; how the
server died), and nothing else may fail: the lines the server answers right
(the vectors, the limits, seeded random lines) all pass, the server is
started again after each death or hang, and the run goes on to the end.

Where the faults go is decided from the vector files alone (their MCP
profile records in tests/vectors/mcp.jsonl), not from the probe.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest

from probe_run import COLUMNS, GROUPS, ROOT, VectorLine, probe, table_rows, vector_lines

SERVER = str(ROOT / "tests/probe/faulty_server.py")
BANNER = "faulty-server 1.0: listening on stdio"
BATCH = '[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"batched"}}]'
UNASKED = '{"jsonrpc":"2.0","id":"faulty-unasked","result":{}}'
RANDOM_LINES = 300
SEED = 5
# Small: one line hangs on purpose, and each start waits for initialize.
TIMEOUT = "3"

LINES = vector_lines()
# What the probe sends besides its probe lines (SPEC 11): the handshake's
# notification after every start, and keep-alives with ids "probe-N".
PROBES_OWN = (b"notifications/initialized", b'"probe-')


@dataclass
class Plant:
    fault: str  # the faulty server's flag
    verdict: Optional[str]  # the verdict the probe must give the line (None: the line passes)
    at: VectorLine
    nth: int  # which time the probe sends these bytes
    how: Optional[str] = None  # for died


def _is(kind: str) -> Callable[[dict], bool]:
    return lambda mcp: mcp["kind"] == kind


def _owes_reply(mcp: dict) -> bool:
    return mcp["reply_server"] is not None


def _owes_nothing(mcp: dict) -> bool:
    return mcp["reply_server"] is None and mcp["kind"] in ("notification", "response")


def _integer_request(mcp: dict) -> bool:
    return mcp["kind"] == "request" and mcp["id_kind"] == "number"


def _any(mcp: dict) -> bool:
    return True


def _plants() -> List[Plant]:
    """Which fault on which line: the first fitting line of the group, each
    line used once, names unique within their group; at most five failures
    per group, which the report lists in full."""
    names = Counter((v.group, v.name) for v in LINES)
    used: set = set()

    def pick(group: str, test: Callable[[dict], bool], twice: bool = False) -> Tuple[VectorLine, int]:
        for i, v in enumerate(LINES):
            if v.group != group or names[(group, v.name)] != 1 or v.line in used or len(v.line) > 300:
                continue
            if any(own in v.line for own in PROBES_OWN):
                continue  # the probe sends such lines itself: they would count as arrivals
            earlier = sum(1 for w in LINES[:i] if w.line == v.line)
            if twice and not earlier:
                continue  # a line the envelope group sent already, which passed there
            if test(v.mcp):
                used.add(v.line)
                return v, earlier + 1
        raise AssertionError(f"no line in {group} for {test}")

    wanted = [
        ("envelope_vectors", "reencode-id", "different_id", _integer_request, False, None),
        ("envelope_vectors", "exit", "died", _is("request"), False, "exit status 3"),
        ("envelope_vectors", "missing", "missing", _owes_reply, False, None),
        ("envelope_vectors", "hang", "hung", _any, False, None),
        ("envelope_vectors", "batch", None, _is("request"), False, None),
        ("mcp_vectors", "kill", "died", _owes_reply, True, "signal 9"),
        ("mcp_vectors", "wrong-text", "wrong", _owes_reply, False, None),
        ("mcp_vectors", "unanswered", "unanswered", _is("request"), False, None),
        ("mcp_vectors", "unasked", "wrong", _owes_nothing, False, None),
    ]
    plants = []
    for group, fault, verdict, test, twice, how in wanted:
        at, nth = pick(group, test, twice)
        plants.append(Plant(fault, verdict, at, nth, how))
    return plants


PLANTS = _plants()
FAILING = [p for p in PLANTS if p.verdict is not None]


def _command(state: Path) -> List[str]:
    command = [sys.executable, SERVER, "--state", str(state), "--banner", BANNER]
    for p in PLANTS:
        command += [f"--{p.fault}", f"{p.at.line.hex()}@{p.nth}"]
    return command


_runs: Dict[str, object] = {}


def run(mode: str):
    """The probe on the faulty server, once per mode (json, text)."""
    if mode not in _runs:
        with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
            options = ["--lines", str(RANDOM_LINES), "--seed", str(SEED), "--timeout", TIMEOUT]
            _runs[mode] = probe(_command(Path(state)), *options, *(["--json"] if mode == "json" else []))
    return _runs[mode]


@pytest.fixture(scope="module")
def report() -> dict:
    r = run("json")
    assert r.status == 1, r.describe()
    return r.report


def _column(verdict: str) -> str:
    return "wrong" if verdict == "different_id" else verdict


def test_each_fault_is_reported_where_it_was_planted_and_nothing_else(report):
    got = sorted((f["group"], f["name"], f["verdict"]) for f in report["failures"])
    want = sorted((p.at.group, p.at.name, p.verdict) for p in FAILING)
    assert got == want, json.dumps(report["failures"], indent=1)
    assert report["failed"] == len(FAILING)
    assert report["passed"] is False


def test_the_counts_per_group_are_the_planted_ones(report):
    in_group = Counter(v.group for v in LINES)
    for group in GROUPS:
        counts = report["groups"][group]
        planted = Counter(_column(p.verdict) for p in FAILING if p.at.group == group)
        if group in in_group:
            assert counts["lines"] == in_group[group], group
        if group == "random":
            assert counts["lines"] == RANDOM_LINES
        want = {c: planted[c] for c in COLUMNS if c != "passed"}
        want["passed"] = counts["lines"] - sum(planted.values())
        assert {c: counts[c] for c in COLUMNS} == want, (group, counts)
    assert report["lines"] == sum(report["groups"][g]["lines"] for g in GROUPS)


def test_how_the_server_died(report):
    died = {f["name"]: f.get("how") for f in report["failures"] if f["verdict"] == "died"}
    assert died == {p.at.name: p.how for p in FAILING if p.verdict == "died"}


def test_the_server_was_started_again_after_each_death_and_hang_and_the_run_went_on(report):
    stops = sum(1 for p in FAILING if p.verdict in ("died", "hung"))
    assert report["server_starts"] == 1 + stops
    # Every line after the last stop was sent and judged: the random group,
    # last of all, passed whole.
    assert report["groups"]["random"]["passed"] == RANDOM_LINES


def test_the_owed_and_got_texts_are_the_vectors_and_the_servers(report):
    by_name = {f["name"]: f for f in report["failures"]}
    for p in FAILING:
        f = by_name[p.at.name]
        if p.fault in ("missing", "wrong-text"):
            assert f["owed"] == p.at.mcp["reply_server"], f
        if p.fault == "wrong-text":
            assert f["got"] != f["owed"]
            assert json.loads(f["got"])["error"]["message"] == "worded otherwise: " + json.loads(f["owed"])["error"]["message"]
        if p.fault == "unasked":
            assert f["owed"] is None and f["got"] == UNASKED, f
        if p.fault == "reencode-id":
            sent = int(p.at.mcp["id"])
            assert json.loads(f["got"])["id"] == float(sent) and f'"id":{float(sent)!r}' in f["got"], f


def test_stdout_banner_and_batch_are_counted_apart(report):
    stdout = report["stdout"]
    starts = report["server_starts"]
    assert stdout["not_jsonrpc"] == {"count": starts, "first": [BANNER] * min(starts, 5)}
    assert stdout["not_one_message"] == {"count": 1, "first": [BATCH]}


def test_the_text_report_says_the_same():
    r = run("text")
    assert r.status == 1, r.describe()
    rows = table_rows(r.stdout)
    json_report = run("json").report
    for group in GROUPS:
        counts = json_report["groups"][group]
        assert rows[group] == [counts["lines"]] + [counts[c] for c in COLUMNS], (group, r.stdout)
    for p in FAILING:
        assert f"  {p.at.name} [{p.verdict}]" in r.stdout
    total = json_report["lines"]
    assert f"FAILED: {total - len(FAILING)} of {total} lines passed, {len(FAILING)} failed;" in r.stdout
    assert f"stdout: {json_report['server_starts']} lines not JSON-RPC" in r.stdout
    assert "stdout: 1 lines not one message" in r.stdout
