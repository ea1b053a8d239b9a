"""The MCP-config recipes of docs/MCP-CONFIGS.md, run as written (make
test-recipes, see rules.mk).

Each recipe is read from the document itself: a fenced block after a
`<!-- recipe: NAME -->` marker, either a client's JSON configuration (its one
server's "command" and "args") or a shell line (`claude mcp add NAME --
COMMAND...`: what follows the first `--`; or a command to run as it is).
The command line is then pointed at local artifacts:

- `uvx jsonrpc-envelope` and `npx [-y] jsonrpc-envelope` become the argv
  prefix in JSONRPC_ENVELOPE_LAUNCHER_UVX and JSONRPC_ENVELOPE_LAUNCHER_NPX
  (split as a shell would), by default the CLI at JSONRPC_ENVELOPE_BIN or
  target/release/jsonrpc-envelope;
- `npx -y @modelcontextprotocol/server-everything` becomes the same npx
  command with --offline, run in a directory whose node_modules is the
  pinned install of tests/recipes/package.json (RECIPES_NODE_MODULES, by
  default target/recipes/node_modules: make setup-recipes), so that npx
  starts that copy and never reaches the registry.

Then the official MCP Python SDK's client (recipe_client.py, in the SDK's
venv target/sdk/python) starts it as a host would, connects, lists the
tools and calls `echo`. The --record recipes' file must be written, and the
document's lint recipe must read it.
"""

import json
import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DOC = ROOT / "docs/MCP-CONFIGS.md"
SDK_PYTHON = str(ROOT / "target/sdk/python/bin/python")
CLIENT = str(HERE / "recipe_client.py")
NODE_MODULES = Path(os.environ.get("RECIPES_NODE_MODULES", str(ROOT / "target/recipes/node_modules")))
CLI = os.environ.get("JSONRPC_ENVELOPE_BIN", str(ROOT / "target/release/jsonrpc-envelope"))
TIMEOUT = 120

SERVER_PACKAGE = "@modelcontextprotocol/server-everything"
SERVER = ["npx", "-y", SERVER_PACKAGE]
LOCAL_SERVER = ["npx", "--offline", "-y", SERVER_PACKAGE]

# How the document runs the published CLI, per launcher, and what runs it here.
PUBLISHED = {
    "uvx": (["uvx", "jsonrpc-envelope"],),
    "npx": (["npx", "-y", "jsonrpc-envelope"], ["npx", "jsonrpc-envelope"]),
}
LAUNCHERS = {
    name: shlex.split(os.environ.get(f"JSONRPC_ENVELOPE_LAUNCHER_{name.upper()}") or shlex.quote(CLI))
    for name in PUBLISHED
}

# What a host gives a server besides the SDK's short list (PATH, HOME, ...):
# the launchers' own settings, where the caller set any.
PASSED_ENV = ("UV_", "NPM_CONFIG_", "npm_config_", "XDG_")

# Each client's configurations, uvx and npx; the sessions to record, and how
# to read what they recorded.
CONFIGS = ["claude-desktop", "claude-code", "vscode", "cursor"]
RECORDS = {"record": "record-lint"}
VARIANTS = [base + suffix for base in CONFIGS + list(RECORDS) for suffix in ("", "-npx")]
EXPECTED = set(VARIANTS) | {lint + suffix for lint in RECORDS.values() for suffix in ("", "-npx")}
CONFIG_KEYS = {"claude-desktop": "mcpServers", "cursor": "mcpServers", "vscode": "servers"}

RECIPE = re.compile(r"^<!-- recipe: ([\w-]+) -->\n```(\w+)\n(.*?)^```$", re.M | re.S)


def recipes() -> Dict[str, Tuple[str, str]]:
    """Each recipe of the document: name -> (the block's language, its text)."""
    found: Dict[str, Tuple[str, str]] = {}
    text = DOC.read_text(encoding="utf-8")
    for name, lang, body in RECIPE.findall(text):
        assert name not in found, f"{DOC}: two recipes named {name}"
        found[name] = (lang, body)
    assert text.count("<!-- recipe:") == len(found), f"{DOC}: a recipe marker not followed by a fenced block"
    return found


def command_line(name: str) -> List[str]:
    """The command a client runs for the recipe, as the document writes it."""
    lang, body = recipes()[name]
    if lang == "json":
        config = json.loads(body)
        base = name.removesuffix("-npx")
        key = CONFIG_KEYS[base]
        assert list(config) == [key], f"{name}: a {base} configuration has one top-level key, {key!r}"
        servers = config[key]
        assert list(servers) == ["everything"], f"{name}: one server, named everything"
        entry = servers["everything"]
        if base == "vscode":
            assert entry.get("type") == "stdio", f"{name}: VS Code's stdio servers say \"type\": \"stdio\""
        assert isinstance(entry["command"], str) and all(isinstance(a, str) for a in entry["args"])
        return [entry["command"], *entry["args"]]
    assert lang == "sh", f"{name}: a recipe is a json or sh block, not {lang}"
    lines = [line for line in body.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert len(lines) == 1, f"{name}: one command line"
    argv = shlex.split(lines[0])
    if argv[:3] == ["claude", "mcp", "add"]:
        assert "--" in argv, f"{name}: claude mcp add NAME -- COMMAND..."
        split = argv.index("--")
        assert argv[split - 1] == "everything", f"{name}: the server's name comes right before --"
        return argv[split + 1 :]
    return argv


def localized(name: str) -> List[str]:
    """The recipe's command line, pointed at the local CLI and server."""
    argv = command_line(name)
    for launcher, forms in PUBLISHED.items():
        form = next((f for f in forms if argv[: len(f)] == f), None)
        if form is not None:
            expected = "npx" if name.endswith("-npx") else "uvx"
            assert launcher == expected, f"{name}: runs the CLI with {launcher}, not {expected}"
            argv = LAUNCHERS[launcher] + argv[len(form) :]
            break
    else:
        pytest.fail(f"{name}: {shlex.join(argv)} does not start with uvx jsonrpc-envelope or npx -y jsonrpc-envelope")
    rest = argv[len(LAUNCHERS[launcher]) :]
    if rest[:1] == ["guard"]:
        assert "--" in rest, f"{name}: guard [OPTIONS] -- COMMAND..."
        split = rest.index("--")
        assert rest[split + 1 :] == SERVER, f"{name}: the guarded command is {shlex.join(SERVER)}"
        argv = argv[: len(argv) - len(rest)] + rest[: split + 1] + LOCAL_SERVER
    return argv


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """Where the host starts the server: npx finds the pinned install here."""
    if not (NODE_MODULES / SERVER_PACKAGE / "package.json").is_file():
        pytest.fail(f"{SERVER_PACKAGE} is not installed in {NODE_MODULES}: run make setup-recipes")
    (tmp_path / "node_modules").symlink_to(NODE_MODULES)
    return tmp_path


def session(argv: List[str], cwd: Path, message: str) -> dict:
    """One SDK client session with the command line: its report."""
    env_args = [f"--env={k}={v}" for k, v in os.environ.items() if k.startswith(PASSED_ENV)]
    run = subprocess.run(
        [SDK_PYTHON, CLIENT, f"--cwd={cwd}", f"--message={message}", *env_args, "--", *argv],
        capture_output=True, text=True, timeout=TIMEOUT,
    )
    sys.stderr.write(run.stderr)
    assert run.returncode == 0, f"the SDK's client failed against {shlex.join(argv)}:\n{run.stderr}"
    return json.loads(run.stdout)


def test_document_holds_every_recipe():
    assert set(recipes()) == EXPECTED


def test_pinned_server_is_installed():
    pinned = json.loads((HERE / "package.json").read_text())["dependencies"][SERVER_PACKAGE]
    installed = json.loads((NODE_MODULES / SERVER_PACKAGE / "package.json").read_text())["version"]
    assert installed == pinned


@pytest.mark.parametrize("base", CONFIGS + list(RECORDS) + list(RECORDS.values()))
def test_uvx_and_npx_variants_agree(base: str):
    """The npx variant is the uvx one with the other launcher, nothing else."""
    uvx, npx = command_line(base), command_line(base + "-npx")
    assert uvx[:2] == PUBLISHED["uvx"][0] and npx[:3] == PUBLISHED["npx"][0]
    assert uvx[2:] == npx[3:]


@pytest.mark.parametrize("name", VARIANTS)
def test_recipe_runs_a_session(name: str, workdir: Path):
    message = f"hello through the guard, {name} ✓"
    argv = localized(name)
    report = session(argv, workdir, message)
    assert report["server"] == "mcp-servers/everything", report
    assert "echo" in report["tools"], report
    assert not report["is_error"] and any(message in text for text in report["echo"]), report
    assert report["transport_errors"] == [], report

    lint_name = RECORDS.get(name.removesuffix("-npx"))
    if lint_name is None:
        assert "--record" not in argv
        return
    # The recording: where the recipe said, the user's alone, a line per message.
    recording = workdir / argv[argv.index("--record") + 1]
    assert recording.is_file(), f"{name}: no recording at {recording}"
    assert stat.S_IMODE(recording.stat().st_mode) == 0o600
    entries = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    assert {e["dir"] for e in entries} == {"to_server", "to_host"}
    assert all(e["action"] == "forwarded" for e in entries), entries
    assert any('"tools/call"' in e.get("line", "") and message in json.loads(e["line"])["params"]["arguments"]["message"]
               for e in entries if e["dir"] == "to_server" and e["kind"] == "request")

    # The document's lint recipe reads it: a clean session, nothing troubling.
    lint = localized(lint_name + ("-npx" if name.endswith("-npx") else ""))
    assert lint[-1] == argv[argv.index("--record") + 1], f"{lint_name}: reads the file the recipe records"
    run = subprocess.run(lint, cwd=workdir, capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, f"{shlex.join(lint)}: exit status {run.returncode}\n{run.stdout}{run.stderr}"
    assert "to_server 0 would trouble" in run.stdout and "to_host 0 would trouble" in run.stdout, run.stdout
