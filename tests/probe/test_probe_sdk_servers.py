"""The probe against the official MCP SDKs' servers (the session tests'
echo servers, tests/sessions/conftest.py), each three ways: on the SDK's
own stdio transport, on this project's transport, and behind
`jsonrpc-envelope guard`. On ours and behind the guard the report passes
in every grade; on the SDKs' own transports it names the failures those
transports are known for, with their grades: no reply to a batch's
requests (Python, TypeScript: harmful, they wait), a session that ends on
a bad line (Go: harmful), no reply to a request with `"id": null` (all
three; under the MCP profile such a request is owed an error, and nobody
waits for it: nonconforming).

The era: `auto`, which finds the modern era (2026-07-28) for the Python and
Go SDKs and the handshake era for the TypeScript SDK (it speaks only that);
the Python SDK, which speaks both, is probed under `--era both` too.

Each configuration is probed once, with --json (asserted on) and --text
(the table a person reads, of the same run); both go to
target/probe-reports/ and the text to the test log.

PROBE_SEED defaults to 9: the first random line of seed 9 is a batch
(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`), so that the report, which
lists the first five failures of each group, lists it where a transport
leaves batches unanswered.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Tuple

import pytest

from probe_run import COLUMNS, GRADES, GROUPS, REPORTS, ROOT, Run, probe, table_rows, vector_lines

LINES = int(os.environ.get("PROBE_LINES", "120"))
SEED = int(os.environ.get("PROBE_SEED", "9"))
JOBS = int(os.environ.get("PROBE_JOBS", "6"))
# A generous wait per line: six servers share the machine, and a Python
# SDK's first answer (initialize) can take seconds under load.
OPTIONS = ("--lines", str(LINES), "--seed", str(SEED), "--timeout", "10")

SDKS = ("python", "node", "go")
SDK_NAMES = {
    "python": "the official Python MCP SDK",
    "node": "the official TypeScript MCP SDK",
    "go": "the official Go MCP SDK",
}
# The era auto finds for each SDK's server (its pinned version).
AUTO_ERA = {"python": "modern", "node": "legacy", "go": "modern"}
MODES = (("own", "SDK's own transport"), ("ours", "this project's transport"), ("guard", "SDK's own, behind guard"))


def _sessions():
    """The session tests' configurations (their server commands and
    environment), loaded under a name of their own."""
    spec = importlib.util.spec_from_file_location("sessions_conftest", ROOT / "tests/sessions/conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SESSIONS = _sessions()


def server(sdk: str, mode: str) -> Tuple[List[str], Dict[str, str]]:
    return SESSIONS.server(sdk, "control" if mode == "own" else mode)


_results: Dict[Tuple[str, str], Dict[str, Run]] = {}


def results() -> Dict[Tuple[str, str], Dict[str, Run]]:
    """Every configuration, probed once with --json and its text report
    from the same run (--text), and the Python SDK's server once more under
    --era both, a few at a time (the probe mostly waits on its servers)."""
    if not _results:
        REPORTS.mkdir(parents=True, exist_ok=True)

        def one(job):
            sdk, mode, form = job
            command, env = server(sdk, mode)
            text = REPORTS / f"{sdk}-{mode}.txt"
            options = {"json": ["--json", "--text", str(text)], "both": ["--json", "--era", "both"]}[form]
            run = probe(command, *OPTIONS, *options, env=env)
            if form == "json":
                body = text.read_text(encoding="utf-8") if text.exists() else ""
                return {"json": run, "text": Run(run.argv, run.status, body, run.stderr)}
            return {"both": run}

        jobs = [(sdk, mode, "json") for sdk in SDKS for mode, _ in MODES]
        jobs += [("python", mode, "both") for mode, _ in MODES]
        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            for (sdk, mode, form), runs in zip(jobs, pool.map(one, jobs)):
                _results.setdefault((sdk, mode), {}).update(runs)
        _write(_results)
    return _results


def _write(all_runs) -> None:
    REPORTS.mkdir(parents=True, exist_ok=True)
    for (sdk, mode), runs in all_runs.items():
        (REPORTS / f"{sdk}-{mode}.txt").write_text(runs["text"].stdout, encoding="utf-8")
        (REPORTS / f"{sdk}-{mode}.json").write_text(runs["json"].stdout, encoding="utf-8")
    (REPORTS / "summary.md").write_text(summary(all_runs), encoding="utf-8")


def summary(all_runs) -> str:
    """One row per server and transport, from the --json reports: the
    grade lines."""
    head = (
        f"`jsonrpc-envelope probe {' '.join(OPTIONS)}` against the official MCP SDKs' echo servers "
        "(each report in full: target/probe-reports/SDK-MODE.txt).\n\n"
        "| server | transport | era | lines | passed | " + " | ".join(GRADES) + " | of them on stdout | starts | line limit | exit | seconds |\n"
        "|---|---|---|" + "---:|" * (len(GRADES) + 7) + "\n"
    )
    rows = []
    for sdk in SDKS:
        for mode, description in MODES:
            run = all_runs.get((sdk, mode), {}).get("json")
            if run is None:
                continue
            try:
                r = run.report
            except AssertionError:
                rows.append(f"| {sdk} | {description} | (no report: exit status {run.status}) |")
                continue
            on_stdout = sum(f["count"] for f in r["stdout"].values())
            limit = r["limit"] or {}
            rows.append(
                f"| {sdk} | {description} | {r['era']} | {r['lines']} | {r['lines'] - r['failed']} | "
                + " | ".join(str(r["grades"][g]) for g in GRADES)
                + f" | {on_stdout} | {r['server_starts']} | {limit.get('longest_answered')} | {run.status} | {r['seconds']:.1f} |"
            )
    return head + "\n".join(rows) + "\n"


def report_text() -> str:
    """The text reports, for the test log."""
    parts = [summary(_results)]
    for sdk in SDKS:
        for mode, description in MODES:
            runs = _results.get((sdk, mode))
            if runs:
                parts.append(f"---- {sdk}, {description} (exit status {runs['text'].status})\n{runs['text'].stdout}")
    return "\n".join(parts)


def json_report(sdk: str, mode: str) -> dict:
    return results()[(sdk, mode)]["json"].report


def _vectors_and_limits(report: dict) -> None:
    """The run went on to the end: every group holds all its lines."""
    in_file = {"envelope_vectors": 0, "mcp_vectors": 0}
    for v in vector_lines():
        in_file[v.group] += 1
    groups = report["groups"]
    for group, count in in_file.items():
        assert groups[group]["lines"] == count, group
    assert groups["limits"]["lines"] > 0
    assert groups["random"]["lines"] == LINES
    for group in GROUPS:
        assert groups[group]["lines"] == sum(groups[group][c] for c in COLUMNS), group
    assert report["lines"] == sum(groups[g]["lines"] for g in GROUPS)


def _clean(r: dict, run: Run) -> None:
    assert (r["failed"], r["passed"], r["failures"]) == (0, True, []), run.describe()
    assert r["grades"] == {g: 0 for g in GRADES}
    assert all(fault["count"] == 0 for fault in r["stdout"].values()), r["stdout"]
    assert r["server_starts"] == 1
    assert r["profile"] == "mcp" and r["seed"] == SEED
    assert r["shutdown"].startswith("exited when its stdin closed"), r["shutdown"]
    assert r["known_transport"] is None
    _vectors_and_limits(r)


CLEAN = [(sdk, mode) for sdk in SDKS for mode in ("ours", "guard")]


@pytest.mark.parametrize("sdk,mode", CLEAN, ids=[f"{s}-{m}" for s, m in CLEAN])
def test_on_ours_and_behind_the_guard_everything_passes(sdk, mode):
    runs = results()[(sdk, mode)]
    run = runs["json"]
    assert run.status == 0, run.describe()
    r = run.report
    _clean(r, run)
    assert r["era"] == AUTO_ERA[sdk]
    # The transport reads what the library reads: the server's own limit
    # is the library's (10.7), or more.
    assert r["limit"]["longest_answered"] == r["limit"]["library"], r["limit"]
    text = runs["text"]
    assert text.status == 0 and "\nPASSED: " in text.stdout, text.describe()


@pytest.mark.parametrize("mode", ["ours", "guard"])
def test_the_python_sdk_server_passes_in_both_eras(mode):
    run = results()[("python", mode)]["both"]
    assert run.status == 0, run.describe()
    document = run.report
    assert document["era"] == "both" and document["passed"] is True
    assert [r["era"] for r in document["reports"]] == ["modern", "legacy"]
    for r in document["reports"]:
        _clean(r, run)
        assert r["server_info"]["name"] == "sdk-python-echo"
    assert [r["keepalive"] for r in document["reports"]] == ["server/discover", "ping"]


def test_on_its_own_transport_the_python_sdk_server_fails_in_both_eras():
    run = results()[("python", "own")]["both"]
    assert run.status == 1, run.describe()
    reports = run.report["reports"]
    assert [r["era"] for r in reports] == ["modern", "legacy"]
    for r in reports:
        assert r["grades"]["harmful"] > 0 and r["passed"] is False
        _vectors_and_limits(r)


def _line(failure: dict):
    try:
        return json.loads(base64.b64decode(failure["line_base64"]))
    except (ValueError, TypeError, RecursionError):
        return None  # damaged, or nested deeper than Python's json reads


def _null_id_request(failure: dict) -> bool:
    line = _line(failure)
    return isinstance(line, dict) and "method" in line and "id" in line and line["id"] is None


def _batch(failure: dict) -> bool:
    line = _line(failure)
    return isinstance(line, list) and any(isinstance(m, dict) and "id" in m and "method" in m for m in line)


def _own(sdk: str) -> Tuple[Run, dict]:
    run = results()[(sdk, "own")]["json"]
    assert run.status == 1, run.describe()
    r = run.report
    assert r["failed"] > 0 and r["passed"] is False
    assert r["era"] == AUTO_ERA[sdk]
    _vectors_and_limits(r)
    # Its failures are told to come from the SDK's stdio transport, and the
    # text says what removes them.
    assert r["known_transport"]["sdk"] == SDK_NAMES[sdk], r["known_transport"]
    text = results()[(sdk, "own")]["text"].stdout
    assert f"match the stdio transport of {SDK_NAMES[sdk]}" in text and "jsonrpc-envelope guard -- COMMAND" in text
    # Started again after each death or hang but one on the last line (no
    # line is left to start it for), and at no other time.
    stops = sum(r["groups"][g]["verdicts"][v] for g in GROUPS for v in ("died", "hung"))
    assert r["server_starts"] in (stops, stops + 1), (r["server_starts"], stops)
    return run, r


@pytest.mark.parametrize("sdk", SDKS)
def test_on_its_own_transport_a_request_with_a_null_id_goes_unanswered(sdk):
    run, r = _own(sdk)
    null = [f for f in r["failures"] if _null_id_request(f)]
    assert null, f"no null-id request among the failures:\n{json.dumps(r['failures'][:20], indent=1)}"
    # Nobody can wait for a null id: the missing error is nonconforming, not
    # harmful (a session that ended on the line is harmful).
    assert all(
        (f["verdict"], f["grade"]) in (("missing", "nonconforming"), ("died", "harmful")) for f in null
    ), null


@pytest.mark.parametrize("sdk", ["python", "node"])
def test_on_its_own_transport_a_batch_goes_unanswered_and_its_requests_wait(sdk):
    run, r = _own(sdk)
    batches = [f for f in r["failures"] if _batch(f)]
    assert any((f["verdict"], f["grade"]) == ("missing", "harmful") for f in batches), json.dumps(batches[:5], indent=1)


def test_on_its_own_transport_the_go_sdk_session_ends_on_a_bad_line():
    run, r = _own("go")
    died = [f for f in r["failures"] if f["verdict"] == "died"]
    assert died, json.dumps(r["failures"][:20], indent=1)
    assert all(f["grade"] == "harmful" for f in died)
    assert all(re.fullmatch(r"exit status \d+|signal \d+", f["how"]) for f in died), died


@pytest.mark.parametrize("sdk", SDKS)
def test_the_text_table_is_the_json_reports(sdk):
    """Each text report's table holds the counts of its --json twin (the
    same run: --text), and its grade lines the JSON's grades."""
    for mode, _ in MODES:
        runs = results()[(sdk, mode)]
        rows = table_rows(runs["text"].stdout)
        r = runs["json"].report
        for group in GROUPS:
            counts = r["groups"][group]
            assert rows.get(group) == [counts["lines"]] + [counts[c] for c in COLUMNS], (sdk, mode, group)
        for grade in GRADES:
            assert re.search(rf"^{grade} +{r['grades'][grade]} ", runs["text"].stdout, re.M), (sdk, mode, grade)
