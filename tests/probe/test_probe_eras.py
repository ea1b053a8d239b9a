"""The probe in both eras of MCP (SPEC 11, 10.8) against a server of
revision 2026-07-28 only (modern_server.py: no `initialize`, no `ping`,
`server/discover`, and -32602 for a request without the revision's
`_meta`). `auto` finds the modern era; every request the probe writes of
its own then carries the `_meta` and none is `initialize` or `ping`;
`legacy` cannot open a session (exit status 2, and with --json a JSON
object saying why); `both` probes the era the server speaks and says the
other was not. The dual-era server (the Python SDK's) is probed under
`both` in test_probe_sdk_servers.py.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from probe_run import GRADES, ROOT, probe

SERVER = str(ROOT / "tests/probe/modern_server.py")
OPTIONS = ("--lines", "100", "--seed", "3", "--timeout", "3")
MODERN_META = "io.modelcontextprotocol/protocolVersion"


def test_auto_finds_the_modern_era_and_every_own_request_carries_its_meta():
    with tempfile.TemporaryDirectory(prefix="modern-server-") as folder:
        record = Path(folder) / "record"
        run = probe([sys.executable, SERVER, str(record)], *OPTIONS, "--json")
        assert run.status == 0, run.describe()
        r = run.report
        assert (r["era"], r["keepalive"], r["failed"]) == ("modern", "server/discover", 0), run.describe()
        assert r["grades"] == {g: 0 for g in GRADES}
        assert r["server_info"] == {"name": "modern-server", "version": "1"}
        own = []
        for hex_line in record.read_text(encoding="ascii").split():
            try:
                message = json.loads(bytes.fromhex(hex_line))
            except (ValueError, RecursionError):
                continue  # the probe lines: damaged, or nested deep
            if isinstance(message, dict) and str(message.get("id", "")).startswith("probe-"):
                own.append(message)
    # The opening, a keep-alive per line, and the limit lines.
    assert len(own) > r["lines"], len(own)
    assert {m["method"] for m in own} == {"server/discover"}
    for message in own:
        assert message["params"]["_meta"][MODERN_META] == "2026-07-28", message
        assert isinstance(message["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"], dict)


def test_the_legacy_era_cannot_be_opened_on_a_modern_only_server():
    run = probe([sys.executable, SERVER], *OPTIONS, "--era", "legacy", "--json")
    assert run.status == 2, run.describe()
    assert run.report["passed"] is False and "initialize" in run.report["error"], run.report
    text = probe([sys.executable, SERVER], *OPTIONS, "--era", "legacy")
    assert text.status == 2 and text.stdout == "" and "initialize" in text.stderr, text.describe()


def test_both_probes_the_era_the_server_speaks_and_says_the_other_was_not():
    run = probe([sys.executable, SERVER], *OPTIONS, "--era", "both", "--json")
    assert run.status == 0, run.describe()
    modern, legacy = run.report["reports"]
    assert (modern["era"], modern["passed"], modern["failed"], modern["unsupported"]) == ("modern", True, 0, None)
    assert legacy["era"] == "legacy" and legacy["lines"] == 0 and "initialize" in legacy["unsupported"]
    text = probe([sys.executable, SERVER], *OPTIONS, "--era", "both")
    assert "era modern" in text.stdout and "NOT PROBED: " in text.stdout, text.describe()
