"""Each official SDK's client on this project's client transport, against a
server (peers/noisy_server.py) that writes every vector line and
SESSIONS_LINES random lines to its stdout, in shares between its real
answers; leaving out every line with a response in it (by the library's MCP
profile: kind response or invalid_response), which could answer the client's
own requests. The client's session completes (initialize, tools/list, three
tools/call of echo) and each call returns its own text.
"""

from concurrent.futures import ThreadPoolExecutor
import json
import os
import subprocess
import sys

import pytest

from conftest import NODE, OUT, ROOT, SDK_PYTHON, SEED, RANDOM_LINES, child_env, random_lines, vector_lines
from harness import MCP, je

HERE = ROOT / "tests/sessions"
TEXTS = ["call one", "call two: Unicode ✓ 日本語 🙂", "call three: " + "x" * 2000]
TIMEOUT = 60

CLIENTS = {
    "python": [SDK_PYTHON, str(HERE / "peers/python_client.py"), "--timeout", str(TIMEOUT)] + [a for t in TEXTS for a in ("--text", t)] + ["--"],
    "node": [NODE, str(HERE / "peers/node_client.mjs"), "--timeout", str(TIMEOUT)] + [a for t in TEXTS for a in ("--text", t)] + ["--"],
    "go": [str(ROOT / "target/sessions/go_client"), "-timeout", str(TIMEOUT)] + [a for t in TEXTS for a in ("-text", t)] + ["--"],
}

REPORT = ""
NOISE_LINES = 0


def answers_a_request(line: bytes) -> bool:
    """Whether any line of the pipe in `line` is a response, valid or not."""
    return any(je.classify(piece, profile=MCP).kind in (je.Kind.RESPONSE, je.Kind.INVALID_RESPONSE) for piece in line.split(b"\n"))


def noise() -> tuple:
    vectors = [line for _, line in vector_lines("envelope.jsonl", "mcp.jsonl")]
    randoms = random_lines(RANDOM_LINES, SEED + 1, "to_client")
    kept = [line for line in vectors + randoms if not answers_a_request(line)]
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "client-noise.txt"
    path.write_bytes(b"".join(line + b"\n" for line in kept))
    return path, len(vectors) + len(randoms), len(kept)


@pytest.fixture(scope="module")
def sessions():
    global REPORT
    global NOISE_LINES
    path, offered, kept = noise()
    NOISE_LINES = len(path.read_bytes().split(b"\n")) - 1
    server = [sys.executable, str(HERE / "peers/noisy_server.py"), str(path), str(2 + len(TEXTS))]

    def run(client):
        try:
            p = subprocess.run(CLIENTS[client] + server, capture_output=True, timeout=TIMEOUT + 30, env=child_env())
        except subprocess.TimeoutExpired as error:
            return None, f"timed out: {error.stderr!r}"[-4000:]
        report = json.loads(p.stdout) if p.returncode == 0 else None
        return report, p.stderr.decode("utf-8", "replace")

    with ThreadPoolExecutor(max_workers=len(CLIENTS)) as pool:
        results = dict(zip(CLIENTS, pool.map(run, CLIENTS)))
    rows = [
        f"Noise: {kept} of {offered} lines (every vector line, {RANDOM_LINES} random lines of seed {SEED + 1}; "
        "those with a response in them left out), in shares before the server's answers.\n",
        "| client | session completed | calls returning their own text | transport errors | error records (SDK refused) |",
        "|---|---|---:|---:|---:|",
    ]
    for client, (report, _) in results.items():
        if report is None:
            rows.append(f"| {client} | no | - | - | - |")
        else:
            own = sum(got == [text] for got, text in zip(report["echo"], TEXTS))
            rows.append(f"| {client} | yes | {own} of {len(TEXTS)} | {report['transport_errors']} | {report['error_records']} |")
    REPORT = "\n".join(rows) + "\n"
    (OUT / "clients.md").write_text(REPORT, encoding="utf-8")
    return results


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_client_completes_its_session_through_the_noise(client, sessions):
    report, stderr = sessions[client]
    assert report is not None, stderr[-4000:]
    assert report["tools"] == ["echo"], stderr[-4000:]
    assert report["echo"] == [[text] for text in TEXTS], stderr[-4000:]
    # Every noise line went out before the last answers.
    assert f"noisy_server: all {NOISE_LINES} noise lines sent" in stderr, stderr[-4000:]


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_the_sdk_decoder_never_refuses_what_the_profile_calls_a_message(client, sessions):
    """SPEC 10.4: the transport's fallback (a log record at error level) is
    never taken on the vectors and on random lines."""
    report, stderr = sessions[client]
    assert report is not None, stderr[-4000:]
    assert report["error_records"] == 0, stderr[-4000:]
