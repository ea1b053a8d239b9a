"""Both protocol eras, where an SDK speaks both (MCP revision 2026-07-28:
no `initialize`, no `ping`, every request with its `_meta`; and the
handshake era before it).

1. The Python SDK's client (mcp 2.3.0, peers/era_client.py) in its legacy
   mode (`initialize`), its default mode (`auto`: a `server/discover` probe,
   then 2026-07-28) and pinned to 2026-07-28 (no probe), against the Python
   SDK's server (examples/python/sdk_server.py) on our transport, behind the
   guard, and on the SDK's own transport (the control); and, on our
   transport, with the client on our client transport too. Each lists the
   tools and calls echo; on ours and behind the guard every era works.

2. The shapes of SPEC 10.6 (eras.py: a batch of two requests, a request
   after a byte order mark, a request with a byte FF inside its arguments,
   one cut short, one with data after the object, one with a trailing
   comma, one over the MCP profile's line limit), each followed by a request
   the host waits for, written by a raw host in each era to every SDK's
   server (conftest.SDKS) on ours, behind the guard (told the MCP profile's
   line limit) and on its own transport (the control). On ours and behind
   the guard: every request whose id is readable gets a response with that
   id, and no session ends or goes silent. Then three responses of the
   client's that name no request (a result, an error, an error with a null
   id), which a 2026-07-28 client does not write on stdio: nothing comes
   back for them and the session goes on. The controls report, never
   assert.

3. A 2026-07-28 server that writes requests on stdio, which its era
   forbids (peers/modern_server.py), against the clients that speak
   2026-07-28 (the Python SDK's in its default mode, the Go SDK's): on our
   client transports and behind the guard, each of the server's requests
   gets one response with its id, and the client's session completes.

4. The two rules proposed for docs/SPEC.md from what those SDKs do (a
   response nobody waits for is dropped with a record; in the 2026-07-28
   era a server's request is answered by the session, -32601, and never
   reaches the client): expected failures until the library has them.

The table goes to the test log and to target/sessions/eras.md (the
failures, with the bytes sent and received, to target/sessions/eras-failures.txt).
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Tuple

import pytest

from conftest import GUARD, JOBS, MODES, OUT, ROOT, SDK_PYTHON, SDKS, child_env
from eras import ERAS, MAX_LINE, SHAPES, STRAY, TOO_LONG, EraDriver, EraStats, era_server, failures_text, table

REPORT = ""

# ---- 1. the Python SDK's client in each era --------------------------------

CLIENT = [SDK_PYTHON, str(ROOT / "tests/sessions/peers/era_client.py")]
CLIENT_MODES = ("legacy", "auto", "2026-07-28")
TEXTS = ["one era", "the other: ✓ 日本語"]
CLIENT_TIMEOUT = 30
SDK_SERVER = [SDK_PYTHON, str(ROOT / "examples/python/sdk_server.py")]
# (server transport, client transport): the server command, and what the row says
CLIENT_SERVERS: Dict[Tuple[str, str], Tuple[List[str], str]] = {
    ("ours", "sdk"): (SDK_SERVER, "ours"),
    ("guard", "sdk"): ([GUARD, "guard", "--", *SDK_SERVER, "--sdk-transport"], "SDK's own, behind guard"),
    ("control", "sdk"): ([*SDK_SERVER, "--sdk-transport"], "SDK's own (control)"),
    ("ours", "ours"): (SDK_SERVER, "ours, the client on ours too"),
}
CLIENT_CHECKED = [(m, s, c) for m in CLIENT_MODES for (s, c) in CLIENT_SERVERS if s != "control"]


def era_of(mode: str) -> str:
    return "legacy" if mode == "legacy" else "2026-07-28"


def client_session(mode: str, server: str, transport: str) -> Tuple[dict, str]:
    command, _ = CLIENT_SERVERS[(server, transport)]
    args = [*CLIENT, "--mode", mode, "--transport", transport, "--timeout", str(CLIENT_TIMEOUT)]
    args += [a for t in TEXTS for a in ("--text", t)] + ["--", *command]
    try:
        p = subprocess.run(args, capture_output=True, timeout=CLIENT_TIMEOUT + 30, env=child_env())
    except subprocess.TimeoutExpired as error:
        return {}, f"timed out: {error.stderr!r}"[-4000:]
    report = json.loads(p.stdout.splitlines()[-1]) if p.returncode == 0 and p.stdout.strip() else {}
    return report, p.stderr.decode("utf-8", "replace")


def client_ok(mode: str, report: dict) -> bool:
    return (
        bool(report)
        and (report["protocol_version"] == "2026-07-28") == (era_of(mode) == "2026-07-28")
        and report["tools"] == ["echo"]
        and report["echo"] == [[t] for t in TEXTS]
        and not any(report["is_error"])
        and report["transport_errors"] == 0
    )


def client_table(results: dict) -> str:
    rows = [
        "| client mode | server | protocol version | tools/list, echo ×2 | transport errors |",
        "|---|---|---|---|---:|",
    ]
    for mode in CLIENT_MODES:
        for key, (_, description) in CLIENT_SERVERS.items():
            report, _ = results[(mode, *key)]
            if not report:
                rows.append(f"| {mode} | {description} | - | failed | - |")
                continue
            done = "yes" if client_ok(mode, report) else f"no: {report['tools']} {report['echo']}"
            rows.append(f"| {mode} | {description} | {report['protocol_version']} | {done} | {report['transport_errors']} |")
    return "\n".join(rows)


# ---- 2. the shapes of SPEC 10.6 in each era --------------------------------

SHAPE_CHECKED = [(sdk, mode, era) for sdk in SDKS for mode in ("ours", "guard") for era in ERAS]


RECORDS = OUT / "eras-records"


def shape_session(sdk: str, mode: str, era: str):
    record = None
    if mode == "guard":
        RECORDS.mkdir(parents=True, exist_ok=True)
        record = RECORDS / f"{sdk}-{era}.jsonl"
        record.unlink(missing_ok=True)
    command, env = era_server(sdk, mode, record)
    try:
        return EraDriver(f"{sdk}/{mode}", command, env, era, record).run()
    except Exception as error:  # reported by the test of this configuration
        return error


# ---- 3. a 2026-07-28 server that writes requests on stdio ------------------

MODERN_SERVER = [sys.executable, str(ROOT / "tests/sessions/peers/modern_server.py")]
OWN_REQUESTS = ("srv-ping", "srv-roots", "srv-sampling", "srv-elicit")  # modern_server.py's
RULE_TEXT = "hello through stdio"
# (client, route): the client's command up to its server command; route
# ours: the client on our client transport; guard: the SDK's client, the
# server behind the guard; control: the SDK's client on its own transport.
RULE_CLIENTS: Dict[Tuple[str, str], List[str]] = {
    ("python", "ours"): [*CLIENT, "--mode", "auto", "--transport", "ours", "--text", RULE_TEXT, "--"],
    ("python", "guard"): [*CLIENT, "--mode", "auto", "--text", RULE_TEXT, "--", GUARD, "guard"],
    ("python", "control"): [*CLIENT, "--mode", "auto", "--text", RULE_TEXT, "--"],
    ("go", "ours"): [str(ROOT / "target/sessions/go_client"), "-text", RULE_TEXT, "--"],
    ("go", "guard"): [str(ROOT / "target/sdk/go/client"), "--", GUARD, "guard"],
    ("go", "control"): [str(ROOT / "target/sdk/go/client"), "--"],
}
RULE_CHECKED = [k for k in RULE_CLIENTS if k[1] != "control"]


def rule_session(client: str, route: str) -> dict:
    """One client session against modern_server.py: whether it completed,
    the era its requests were in, and the answers (r, or an error's code)
    the server got to each of its own requests."""
    RECORDS.mkdir(parents=True, exist_ok=True)
    record = RECORDS / f"server-requests-{client}-{route}.jsonl"
    record.unlink(missing_ok=True)
    command = RULE_CLIENTS[(client, route)]
    if route == "guard":
        command = [*command, "--", *MODERN_SERVER, str(record)]
    else:
        command = [*command, *MODERN_SERVER, str(record)]
    try:
        p = subprocess.run(command, capture_output=True, timeout=CLIENT_TIMEOUT + 30, env=child_env())
        out, stderr, code = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired as error:
        out, stderr, code = "", f"timed out: {error.stderr!r}", None
    completed = code == 0 and RULE_TEXT in out
    answers: Dict[str, List[str]] = {id: [] for id in OWN_REQUESTS}
    others, versions, messages = [], set(), []
    lines = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    for entry in map(json.loads, lines):
        try:
            message = json.loads(entry["line"])
        except ValueError:
            others.append(entry["line"])
            continue
        if entry["kind"] == "request":
            meta = (message.get("params") or {}).get("_meta") or {}
            versions.add(meta.get("io.modelcontextprotocol/protocolVersion", "none"))
        elif entry["kind"] == "response" and message.get("id") in answers:
            error = message.get("error")
            answers[message["id"]].append(str(error.get("code")) if isinstance(error, dict) else "r")
            messages.append(error.get("message") if isinstance(error, dict) else None)
        elif entry["kind"] == "response":
            others.append(entry["line"])
    return {"completed": completed, "versions": sorted(versions), "answers": answers, "messages": messages, "others": others, "stderr": stderr[-3000:]}


def rule_table(results: dict) -> str:
    rows = [
        "| client | transport | its requests' protocol versions | session completed | the server's requests answered | answers (ping, roots/list, sampling, elicitation) |",
        "|---|---|---|---|---:|---|",
    ]
    routes = {"ours": "ours", "guard": "SDK's own, server behind guard", "control": "SDK's own (control)"}
    for (client, route), r in results.items():
        answered = sum(len(a) == 1 for a in r["answers"].values())
        how = ", ".join("/".join(a) or "none" for a in r["answers"].values())
        rows.append(
            f"| {client} | {routes[route]} | {', '.join(r['versions'])} | {'yes' if r['completed'] else 'no'} | "
            f"{answered}/{len(OWN_REQUESTS)} | {how} |"
        )
    return "\n".join(rows)


# ---- all of it, at once ----------------------------------------------------


@pytest.fixture(scope="module")
def eras():
    global REPORT
    shape_keys = [(sdk, mode, era) for sdk in SDKS for mode, _ in MODES for era in ERAS]
    # The controls first, the Java SDK's first of all (a JVM per start), the
    # long runs beside the rest; the clients last.
    shape_keys.sort(key=lambda k: (k[1] != "control", k[0] != "java"))
    client_keys = [(m, s, c) for m in CLIENT_MODES for (s, c) in CLIENT_SERVERS]
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        shapes = {k: pool.submit(shape_session, *k) for k in shape_keys}
        clients = {k: pool.submit(client_session, *k) for k in client_keys}
        rules = {k: pool.submit(rule_session, *k) for k in RULE_CLIENTS}
        shapes = {k: f.result() for k, f in shapes.items()}
        clients = {k: f.result() for k, f in clients.items()}
        rules = {k: f.result() for k, f in rules.items()}
    REPORT = report_text(shapes, clients, rules)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "eras.md").write_text(REPORT, encoding="utf-8")
    with open(OUT / "eras.json", "w", encoding="utf-8") as f:
        json.dump(
            {
                "shapes": {"/".join(k): v.as_dict() for k, v in shapes.items() if isinstance(v, EraStats)},
                "clients": {"/".join(k): v[0] for k, v in clients.items()},
                "server_requests": {"/".join(k): {x: y for x, y in v.items() if x != "stderr"} for k, v in rules.items()},
            },
            f,
            indent=1,
        )
    with open(OUT / "eras-failures.txt", "w", encoding="utf-8") as f:
        for key, s in shapes.items():
            if isinstance(s, EraStats):
                text = failures_text(s)
                if text:
                    f.write(f"==== {'/'.join(key)}\n{text}\n-- stderr (last lines):\n{s.stderr_tail[-3000:]}\n")
            else:
                f.write(f"==== {'/'.join(key)}: did not run: {s}\n")
        for key, (report, stderr) in clients.items():
            if not client_ok(key[0], report):
                f.write(f"==== client {'/'.join(key)}: {report}\n{stderr[-3000:]}\n")
        for key, r in rules.items():
            if not r["completed"] or any(len(a) != 1 for a in r["answers"].values()):
                f.write(f"==== a server's requests, client {'/'.join(key)}: {r}\n")
    return shapes, clients, rules


def report_text(shapes: dict, clients: dict, rules: dict) -> str:
    done = {k: v for k, v in shapes.items() if isinstance(v, EraStats)}
    text = (
        "The Python SDK's client (mcp 2.3.0) in each mode against the Python SDK's server "
        "(examples/python/sdk_server.py): list the tools, call echo twice.\n\n"
        + client_table(clients)
        + "\n\nThe shapes of SPEC 10.6 in each era (tests/sessions/eras.py), each followed by a request the host "
        "waits for (legacy: ping after initialize; modern: server/discover, every request with its _meta): "
        "requests answered with their id / requests whose id is readable, and how (r: a result; else the "
        f"error's code). The long line is {TOO_LONG} bytes, over the MCP profile's limit of {MAX_LINE} "
        "(the guard is given it with --max-line). `ended`: the session ended on that shape; `silent`: the request "
        "after it went unanswered (the server was killed); both: started again for the next shape.\n\n"
        + table(done, SDKS, MODES, how=True)
        + "\n\nThe stray responses (a client's, naming no request) count the lines that came back for them; behind the "
        "guard, with the action its recording gives the line.\n\n"
        "A 2026-07-28 server that writes requests on stdio, which its era forbids (tests/sessions/peers/modern_server.py: "
        "ping, roots/list, sampling/createMessage, elicitation/create, before it answers a tools/call), against the "
        "2026-07-28 clients: what the server got back for each (r: a result; else the error's code).\n\n"
        + rule_table(rules)
        + "\n"
    )
    for key, value in shapes.items():
        if not isinstance(value, EraStats):
            text += f"\n{'/'.join(key)}: did not run: {value}\n"
    return text


@pytest.mark.parametrize("mode,server,transport", CLIENT_CHECKED, ids=[f"{m}-{s}-client-{c}" for m, s, c in CLIENT_CHECKED])
def test_the_python_client_works_in_each_era(mode, server, transport, eras):
    report, stderr = eras[1][(mode, server, transport)]
    assert report, stderr[-4000:]
    assert (report["protocol_version"] == "2026-07-28") == (era_of(mode) == "2026-07-28"), report
    assert report["tools"] == ["echo"], stderr[-4000:]
    assert report["echo"] == [[t] for t in TEXTS], stderr[-4000:]
    assert not any(report["is_error"]) and report["transport_errors"] == 0, stderr[-4000:]


@pytest.mark.parametrize("sdk,mode,era", SHAPE_CHECKED, ids=[f"{s}-{m}-{e}" for s, m, e in SHAPE_CHECKED])
def test_every_readable_id_is_answered_and_no_session_ends(sdk, mode, era, eras):
    """SPEC 10.6 in both eras: each shape's requests whose ids are readable
    get a response with that id, the request after it is answered, and no
    session ends; and a client's response that names no request (which a
    2026-07-28 client never writes, and nobody waits for) gets nothing back
    and ends nothing (rmcp 3.11.0 ends its server's session on one that
    comes before its first request other than server/discover)."""
    s = eras[0][(sdk, mode, era)]
    if not isinstance(s, EraStats):
        pytest.fail(f"{sdk}/{mode}/{era} did not run: {s}")
    assert set(s.shapes) == {name for name, _, _ in SHAPES}
    got = {name: r.cell(how=True) for name, r in s.shapes.items() if not r.ok()}
    assert not got, f"{got}\n{failures_text(s)}\n(all of them in target/sessions/eras-failures.txt)"


@pytest.mark.parametrize("client,route", RULE_CHECKED, ids=[f"{c}-{r}" for c, r in RULE_CHECKED])
def test_a_servers_request_in_the_modern_era_is_answered_by_its_id(client, route, eras):
    """A 2026-07-28 server writes no requests on stdio; one that does still
    gets one response for each, with its id, from the client (the SDKs that
    speak 2026-07-28 answer it: the session hands it on, as in the other
    era), and the client's session goes on."""
    r = eras[2][(client, route)]
    assert r["versions"] == ["2026-07-28"], r
    assert r["completed"], r["stderr"]
    assert all(len(a) == 1 for a in r["answers"].values()), r
    assert not r["others"], r


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("sdk", SDKS)
def test_the_control_ran(sdk, era, eras):
    """The control's numbers go to the table; asserted is only that every
    shape was sent (the server started again after each death)."""
    s = eras[0][(sdk, "control", era)]
    if not isinstance(s, EraStats):
        pytest.fail(f"{sdk}/control/{era} did not run: {s}")
    assert set(s.shapes) == {name for name, _, _ in SHAPES}


# ---- SPEC 10.8 (a): a server reads no response nobody waits for ----------


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("sdk", SDKS)
def test_the_guard_drops_a_response_nobody_waits_for(sdk, era, eras):
    """The guard's recording says what became of the client's stray
    responses: dropped, never handed to the server (rmcp's would end)."""
    s = eras[0][(sdk, "guard", era)]
    if not isinstance(s, EraStats):
        pytest.fail(f"{sdk}/guard/{era} did not run: {s}")
    assert {name: s.shapes[name].recorded for name in STRAY} == {name: "dropped" for name in STRAY}
