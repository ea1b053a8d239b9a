"""The probe's verdicts against an independent check: a server
(faulty_server.py) that answers every line as the library says, except on
lines chosen here, where it misbehaves in a known way. Every fault must be
reported exactly where it was planted (group, vector name, verdict, grade;
how the server died), and nothing else may fail: the lines the server
answers right (the vectors, the limits, seeded random lines) all pass, the
server is started again after each death or hang, and the run goes on to
the end. A reply whose message differs from the library's passes (JSON-RPC
leaves it free) and a fault of what the server writes on its own (a batch,
a result MCP refuses) is a stdout failure of its grade, not a line's.

Where the faults go is decided from the vector files alone (their MCP
profile records in tests/vectors/mcp.jsonl), not from the probe.
"""

from __future__ import annotations

import atexit
import base64
import json
import re
import shutil
import sys
import xml.etree.ElementTree as ET
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import pytest

import sarif_schema
from probe_run import COLUMNS, GRADES, GROUPS, ROOT, VectorLine, probe, table_rows, vector_lines

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
    grade: Optional[str]  # and its grade
    at: VectorLine
    nth: int  # which time the probe sends these bytes
    how: Optional[str] = None  # for died


def _is(kind: str) -> Callable[[dict], bool]:
    return lambda mcp: mcp["kind"] == kind


def _owes_reply(mcp: dict) -> bool:
    return mcp["reply_server"] is not None


def _owes_nothing(mcp: dict) -> bool:
    return mcp["reply_server"] is None and mcp["kind"] in ("notification", "response")


def _owes_reply_by_id(mcp: dict) -> bool:
    """Owed an error reply that echoes a request's id: someone waits for it."""
    return mcp["reply_server"] is not None and "\n" not in mcp["reply_server"] and json.loads(mcp["reply_server"])["id"] is not None


def _method_not_a_string(mcp: dict) -> bool:
    """An invalid request of JSON-RPC's own (SPEC 4), answered by its id:
    no rule of the MCP profile's portability is involved."""
    return _owes_reply_by_id(mcp) and (mcp["reason"] or "").startswith("Invalid Request: the method must be a string")


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
        ("envelope_vectors", "reencode-id", "different_id", "harmful", _integer_request, False, None),
        ("envelope_vectors", "exit", "died", "harmful", _is("request"), False, "exit status 3"),
        ("envelope_vectors", "missing", "missing", "harmful", _owes_reply_by_id, False, None),
        ("envelope_vectors", "hang", "hung", "harmful", _any, False, None),
        ("envelope_vectors", "batch", None, None, _is("request"), False, None),
        ("mcp_vectors", "kill", "died", "harmful", _owes_reply, True, "signal 9"),
        ("mcp_vectors", "wrong-text", None, None, _owes_reply, False, None),
        ("mcp_vectors", "wrong-code", "wrong", "nonconforming", _method_not_a_string, False, None),
        ("mcp_vectors", "unanswered", "unanswered", "harmful", _is("request"), False, None),
        ("mcp_vectors", "unasked", "wrong", "nonconforming", _owes_nothing, False, None),
        ("mcp_vectors", "null-result", None, None, _is("request"), False, None),
    ]
    plants = []
    for group, fault, verdict, grade, test, twice, how in wanted:
        at, nth = pick(group, test, twice)
        plants.append(Plant(fault, verdict, grade, at, nth, how))
    return plants


PLANTS = _plants()
FAILING = [p for p in PLANTS if p.verdict is not None]


def _command(state: Path) -> List[str]:
    command = [sys.executable, SERVER, "--state", str(state), "--banner", BANNER]
    for p in PLANTS:
        command += [f"--{p.fault}", f"{p.at.line.hex()}@{p.nth}"]
    return command


_runs: Dict[str, object] = {}
OUT = Path(tempfile.mkdtemp(prefix="probe-faulty-"))
atexit.register(shutil.rmtree, OUT, True)
SARIF = OUT / "probe.sarif"
JUNIT = OUT / "probe.xml"


def run(mode: str):
    """The probe on the faulty server, once per mode (json, with its SARIF
    and JUnit files; text)."""
    if mode not in _runs:
        with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
            options = ["--lines", str(RANDOM_LINES), "--seed", str(SEED), "--timeout", TIMEOUT]
            if mode == "json":
                options += ["--json", "--sarif", str(SARIF), "--junit", str(JUNIT)]
            _runs[mode] = probe(_command(Path(state)), *options)
    return _runs[mode]


@pytest.fixture(scope="module")
def report() -> dict:
    r = run("json")
    assert r.status == 1, r.describe()
    return r.report


def test_each_fault_is_reported_where_it_was_planted_with_its_grade_and_nothing_else(report):
    got = sorted((f["group"], f["name"], f["verdict"], f["grade"]) for f in report["failures"])
    want = sorted((p.at.group, p.at.name, p.verdict, p.grade) for p in FAILING)
    assert got == want, json.dumps(report["failures"], indent=1)
    assert report["failed"] == len(FAILING)
    assert report["passed"] is False
    assert report["era"] == "legacy"  # the faulty server answers server/discover with -32601


def test_the_counts_per_group_and_grade_are_the_planted_ones(report):
    in_group = Counter(v.group for v in LINES)
    for group in GROUPS:
        counts = report["groups"][group]
        planted = Counter(p.grade for p in FAILING if p.at.group == group)
        if group in in_group:
            assert counts["lines"] == in_group[group], group
        if group == "random":
            assert counts["lines"] == RANDOM_LINES
        want = {g: planted[g] for g in GRADES}
        want["passed"] = counts["lines"] - sum(planted.values())
        assert {c: counts[c] for c in COLUMNS} == want, (group, counts)
        verdicts = Counter(p.verdict for p in FAILING if p.at.group == group)
        assert {v: n for v, n in counts["verdicts"].items() if v != "passed" and n} == dict(verdicts), group
    assert report["lines"] == sum(report["groups"][g]["lines"] for g in GROUPS)
    stdout = report["stdout"]
    lines_of = Counter(p.grade for p in FAILING)
    for grade in GRADES:
        on_stdout = sum(fault[grade] for fault in stdout.values())
        assert report["grades"][grade] == lines_of[grade] + on_stdout, grade


def test_how_the_server_died(report):
    died = {f["name"]: f.get("how") for f in report["failures"] if f["verdict"] == "died"}
    assert died == {p.at.name: p.how for p in FAILING if p.verdict == "died"}


def test_the_server_was_started_again_after_each_death_and_hang_and_the_run_went_on(report):
    stops = sum(1 for p in FAILING if p.verdict in ("died", "hung"))
    assert report["server_starts"] == 1 + stops
    # Every line after the last stop was sent and judged: the random group,
    # last of all, passed whole.
    assert report["groups"]["random"]["passed"] == RANDOM_LINES
    # And at the end it was shut down as MCP says: its stdin closed, and it
    # exited.
    assert report["shutdown"] == "exited when its stdin closed (exit status 0)", report["shutdown"]


def test_the_owed_and_got_texts_are_the_vectors_and_the_servers(report):
    by_name = {f["name"]: f for f in report["failures"]}
    for p in FAILING:
        f = by_name[p.at.name]
        assert base64.b64decode(f["line_base64"]) == p.at.line, f
        if p.fault in ("missing", "wrong-code"):
            assert f["owed"] == p.at.mcp["reply_server"], f
        if p.fault == "wrong-code":
            got, owed = json.loads(f["got"][0]), json.loads(f["owed"])
            assert got["id"] == owed["id"] and got["error"]["code"] != owed["error"]["code"], f
        if p.fault == "unasked":
            assert f["owed"] is None and f["got"] == [UNASKED], f
        if p.fault == "reencode-id":
            sent = int(p.at.mcp["id"])
            got = f["got"][0]
            assert json.loads(got)["id"] == float(sent) and f'"id":{float(sent)!r}' in got, f


def test_what_the_server_writes_on_its_own_is_judged_as_a_client_reads_it(report):
    stdout = report["stdout"]
    starts = report["server_starts"]
    assert stdout["not_jsonrpc"]["count"] == starts and stdout["not_jsonrpc"]["harmful"] == starts
    assert stdout["not_jsonrpc"]["first"] == [BANNER] * min(starts, 5)
    assert (stdout["not_one_message"]["count"], stdout["not_one_message"]["harmful"]) == (1, 1)
    assert stdout["not_one_message"]["first"] == [BATCH]
    # The planted `"result":null` and the re-encoded id (7.0, not an MCP
    # id): responses MCP refuses, nonconforming.
    null_result = [p for p in PLANTS if p.fault == "null-result"][0]
    reencoded = [p for p in PLANTS if p.fault == "reencode-id"][0]
    invalid = stdout["invalid_response"]
    assert (invalid["count"], invalid["nonconforming"], invalid["harmful"]) == (2, 2, 0), invalid
    assert sorted(invalid["first"]) == sorted(
        [
            '{"jsonrpc":"2.0","id":' + null_result.at.mcp["id"] + ',"result":null}',
            '{"jsonrpc":"2.0","id":' + repr(float(int(reencoded.at.mcp["id"]))) + ',"result":{"ok":true}}',
        ]
    )
    for fault in ("too_long", "invalid_request", "forbidden_request"):
        assert stdout[fault]["count"] == 0, fault


def test_the_text_report_says_the_same():
    r = run("text")
    assert r.status == 1, r.describe()
    rows = table_rows(r.stdout)
    json_report = run("json").report
    for group in GROUPS:
        counts = json_report["groups"][group]
        assert rows[group] == [counts["lines"]] + [counts[c] for c in COLUMNS], (group, r.stdout)
    stdout = json_report["stdout"]
    assert rows["stdout"] == [sum(f["count"] for f in stdout.values())] + [sum(f[g] for f in stdout.values()) for g in GRADES]
    for p in FAILING:
        assert f" {p.at.name} [{p.verdict}, {p.grade}]" in r.stdout
    for grade in GRADES:
        count = json_report["grades"][grade]
        assert re.search(rf"^{grade} +{count} ", r.stdout, re.M), (grade, r.stdout)
    total = json_report["lines"]
    assert f"FAILED: {total - len(FAILING)} of {total} lines passed, {len(FAILING)} failed;" in r.stdout
    assert f"stdout: {json_report['server_starts']} lines not JSON-RPC" in r.stdout
    assert "stdout: 1 lines not one message" in r.stdout
    # The header quotes the command as a shell reads it back.
    assert "'faulty-server 1.0: listening on stdio'" in r.stdout.splitlines()[0]


def test_the_sarif_log_is_valid_sarif_2_1_0_with_a_result_per_failure(report):
    log = json.loads(SARIF.read_text(encoding="utf-8"))
    sarif_schema.validate(log)
    (sarif_run,) = log["runs"]
    results = sarif_run["results"]
    lines = [r for r in results if "number" in r["properties"]]
    level = {"harmful": "error", "nonconforming": "warning", "strict": "note"}
    assert sorted((r["properties"]["number"], r["level"]) for r in lines) == sorted(
        (f["number"], level[f["grade"]]) for f in report["failures"]
    )
    rules = [rule["id"] for rule in sarif_run["tool"]["driver"]["rules"]]
    for r in results:
        assert rules[r["ruleIndex"]] == r["ruleId"]
    by_number = {r["properties"]["number"]: r for r in lines}
    for f in report["failures"]:
        rule = by_number[f["number"]]["ruleId"]
        if f["verdict"] in ("died", "hung"):
            assert rule == "MCP-STDIO-SESSION", f
        if f["verdict"] in ("unanswered", "different_id"):
            assert rule == "JSONRPC-5", f
    on_stdout = [r for r in results if "number" not in r["properties"]]
    assert sorted((r["ruleId"], r["level"]) for r in on_stdout) == sorted(
        [("MCP-STDIO-STDOUT", "error"), ("SPEC-10.6", "error"), ("SPEC-10.3", "warning")]
    )


def test_the_junit_report_has_a_suite_per_group_and_a_case_per_line(report):
    suites = ET.parse(JUNIT).getroot().findall("testsuite")
    by_name = {s.get("name"): s for s in suites}
    for group in GROUPS:
        suite = by_name[f"{group.replace('_', ' ')} (legacy era)"]
        assert int(suite.get("tests")) == report["groups"][group]["lines"] == len(suite.findall("testcase"))
        # Every grade fails the run but strict (--fail-on nonconforming).
        failing = report["groups"][group]["harmful"] + report["groups"][group]["nonconforming"]
        assert int(suite.get("failures")) == failing == len(suite.findall("testcase/failure"))
    stdout = by_name["stdout (legacy era)"]
    assert sorted(c.get("name") for c in stdout.findall("testcase") if c.find("failure") is not None) == [
        "invalid_response",
        "not_jsonrpc",
        "not_one_message",
    ]


def test_a_session_that_cannot_be_opened_is_exit_status_2_and_a_json_error():
    with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
        r = probe([sys.executable, SERVER, "--state", state], "--era", "modern", "--json", "--timeout", TIMEOUT)
    assert r.status == 2, r.describe()
    assert r.report["passed"] is False and "server/discover" in r.report["error"], r.report


def _reworded(flags: List[str], *options: str):
    with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
        command = [sys.executable, SERVER, "--state", state, *flags]
        return probe(command, "--lines", "100", "--seed", str(SEED), "--timeout", TIMEOUT, "--json", *options)


def test_replies_with_other_spacing_and_jsonrpc_messages_pass_by_meaning():
    for flags in (["--spaced"], ["--jsonrpc-messages"], ["--spaced", "--jsonrpc-messages"]):
        r = _reworded(flags)
        assert r.status == 0, r.describe()
        assert (r.report["failed"], r.report["grades"]) == (0, {g: 0 for g in GRADES}), (flags, r.report["failures"][:3])


def test_under_strict_only_the_messages_fail_and_they_are_strict():
    spaced = _reworded(["--spaced"], "--strict")
    assert spaced.status == 0 and spaced.report["failed"] == 0, spaced.describe()
    worded = _reworded(["--spaced", "--jsonrpc-messages"], "--strict")
    assert worded.status == 0, worded.describe()  # strict does not fail the run by default
    failures = worded.report["failures"]
    assert failures and {(f["verdict"], f["grade"]) for f in failures} == {("worded", "strict")}
    for f in failures:
        owed, got = json.loads(f["owed"]), json.loads(f["got"][0])
        assert (owed["id"], owed["error"]["code"]) == (got["id"], got["error"]["code"]) and owed != got, f
    assert _reworded(["--jsonrpc-messages"], "--strict", "--fail-on", "strict").status == 1


def test_replay_sends_the_failing_lines_again_and_finds_the_same_failures():
    picks = {}
    for fault, test in (("unanswered", _is("request")), ("wrong-code", _method_not_a_string), ("unasked", _owes_nothing)):
        picks[fault] = next(v for v in LINES if v.group == "mcp_vectors" and test(v.mcp) and not any(o in v.line for o in PROBES_OWN) and v.line not in [p.line for p in picks.values()])
    with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
        command = [sys.executable, SERVER, "--state", state]
        for fault, v in picks.items():
            command += [f"--{fault}", f"{v.line.hex()}@*"]
        first = probe(command, "--lines", "50", "--seed", str(SEED), "--timeout", TIMEOUT, "--json")
        assert first.status == 1, first.describe()
        saved = OUT / "replayed.json"
        saved.write_text(first.stdout, encoding="utf-8")
        key = lambda f: (f["number"], f["group"], f["name"], f["verdict"], f["grade"], f["line_base64"])
        want = sorted(key(f) for f in first.report["failures"])
        assert len(want) >= len(picks)
        again = probe([], "--replay", str(saved), "--json", "--timeout", TIMEOUT)
        assert again.status == 1, again.describe()
        assert sorted(key(f) for f in again.report["failures"]) == want
        assert again.report["replay_of"] == str(saved) and again.report["lines"] == len(want)
        one = want[-1][0]
        only = probe([], "--replay", str(saved), "--only", str(one), "--json", "--timeout", TIMEOUT)
        assert [key(f) for f in only.report["failures"]] == [w for w in want if w[0] == one], only.describe()


def test_the_limit_lines_find_the_servers_own_limit_to_the_byte():
    """A server that reads lines of up to 2,000,000 bytes (the library's
    reader, told so) is found to answer a line of exactly that many bytes,
    its LF counted, and not one byte more; the library's limit is beside it."""
    limit = 2_000_000
    with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
        command = [sys.executable, SERVER, "--state", state, "--max-line", str(limit)]
        r = probe(command, "--lines", "0", "--timeout", TIMEOUT, "--json")
    assert r.status == 0, r.describe()
    found = r.report["limit"]
    assert (found["longest_answered"], found["shortest_unanswered"]) == (limit + 1, limit + 2), found
    assert found["library"] > limit and found["tries"] <= 2 + found["library"].bit_length()


def test_a_server_that_cannot_be_started_again_fails_every_line_left_as_harmful():
    """It exits on the first vector line, and every later start fails: the
    lines left are a session that ended (harmful), the run ends with exit
    status 1 and its report, not 2."""
    first = LINES[0]
    with tempfile.TemporaryDirectory(prefix="faulty-server-") as state:
        started = Path(state) / "started"
        script = f'[ -e "{started}" ] && exit 1; touch "{started}"; exec "$@"'
        command = ["sh", "-c", script, "sh", sys.executable, SERVER, "--state", state, "--exit", f"{first.line.hex()}@1"]
        r = probe(command, "--lines", "5", "--timeout", TIMEOUT, "--json")
    assert r.status == 1, r.describe()
    report = r.report
    failures = report["failures"]
    assert len(failures) == report["lines"] and report["grades"]["harmful"] == report["lines"]
    assert failures[0]["how"] == "exit status 3"
    assert all(f["verdict"] == "died" and f["how"].startswith("could not be started again: ") for f in failures[1:])
    assert report["server_starts"] == 2 and report["limit"] is None
