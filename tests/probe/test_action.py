"""The GitHub Action (action.yml at the repository's root): its shape, and
its steps run here the way a runner runs a composite action's steps.

The runner's part, done by `Runner` below: each step's script in a file,
run by `bash --noprofile --norc -eo pipefail FILE` (what `shell: bash`
means) in the workspace; the step's `env:` with its expressions
(`${{ inputs.NAME }}`, `${{ steps.ID.outputs.NAME }}`) evaluated; a
GITHUB_OUTPUT file per step, read back as that step's outputs; GITHUB_PATH,
whose lines go in front of PATH for the steps after; RUNNER_TEMP,
GITHUB_ACTION_PATH (the repository's root) and GITHUB_WORKSPACE. A runner
sets no INPUT_* variables for a composite action's steps, so neither does
this: the action must take its inputs from `env:`.

The probe run needs the CLI's --sarif and --junit, and is skipped, saying
so, while the CLI the tests use does not have them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import pytest
import yaml

import sarif_schema
from probe_run import PROBE, ROOT, RUN_LIMIT, child_env

ACTION = ROOT / "action.yml"
SERVER = ROOT / "tests/probe/faulty_server.py"
INPUTS = {
    "command": None,  # required
    "fail-on": "nonconforming",
    "era": "auto",
    "lines": "1000",
    "sarif": "jsonrpc-envelope-probe.sarif",
    "junit": "jsonrpc-envelope-probe.xml",
    "args": "",
}
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
INPUT = re.compile(r"inputs\.([A-Za-z0-9_-]+)")
STEP_OUTPUT = re.compile(r"steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)")
# The CLI's command name, as cli/Cargo.toml builds it (its [[bin]]).
BIN_NAME = re.search(
    r'^\[\[bin\]\]\s*\nname\s*=\s*"([^"]+)"', (ROOT / "cli/Cargo.toml").read_text(encoding="utf-8"), re.M
).group(1)


def load() -> dict:
    with open(ACTION, encoding="utf-8") as f:
        return yaml.safe_load(f)


def steps(action: dict) -> List[dict]:
    return action["runs"]["steps"]


# ---- the shape ----------------------------------------------------------


def test_it_is_a_composite_action_with_the_inputs_and_outputs() -> None:
    action = load()
    assert action["name"] and action["description"]
    assert action["runs"]["using"] == "composite"
    inputs = action["inputs"]
    assert set(inputs) == set(INPUTS)
    assert inputs["command"]["required"] is True and "default" not in inputs["command"]
    for name, default in INPUTS.items():
        assert inputs[name].get("description"), name
        if default is not None:
            assert str(inputs[name]["default"]) == default, name
    ids = [step.get("id") for step in steps(action)]
    for name in ("sarif", "junit"):
        output = action["outputs"][name]
        assert output.get("description"), name
        found = STEP_OUTPUT.fullmatch(EXPRESSION.fullmatch(output["value"]).group(1))
        assert found and found.group(1) in ids and found.group(2) == name, output


def test_every_step_is_bash_and_splices_nothing_into_its_script() -> None:
    action = load()
    ids = set()
    used = set()
    for step in steps(action):
        name = step.get("name", step.get("id"))
        assert step.get("shell") == "bash", name
        assert "run" in step and "uses" not in step and "if" not in step, name
        # Expressions are substituted into the script's text before bash
        # reads it: an input would be shell code (injection).
        assert "${{" not in step["run"], f"{name}: an expression inside run:, which would be spliced into the script"
        for key, value in step.get("env", {}).items():
            for expression in EXPRESSION.findall(str(value)):
                if INPUT.fullmatch(expression):
                    assert INPUT.fullmatch(expression).group(1) in INPUTS, f"{name}: env {key}: {expression}"
                    used.add(INPUT.fullmatch(expression).group(1))
                else:
                    found = STEP_OUTPUT.fullmatch(expression)
                    assert found and found.group(1) in ids, f"{name}: env {key}: {expression}"
        ids.add(step.get("id"))
    assert used == set(INPUTS), f"inputs no step reads: {sorted(set(INPUTS) - used)}"


def test_it_installs_the_cli_it_ships_unless_one_is_on_path() -> None:
    install = steps(load())[0]["run"]
    assert (ROOT / "cli/Cargo.toml").is_file()
    assert f"command -v {BIN_NAME}" in install
    # The arguments themselves: test_the_install_step_builds_the_cli_when_none_is_on_path.
    assert 'cargo install --locked --path "$GITHUB_ACTION_PATH/cli" --root ' in install
    assert '"$RUNNER_TEMP/jsonrpc-envelope"' in install
    assert '>> "$GITHUB_PATH"' in install


# ---- a runner -------------------------------------------------------------


class Runner:
    """Runs an action's steps as a runner would (see the module's doc)."""

    def __init__(self, action: dict, inputs: Dict[str, str], tmp: Path, path: Sequence[str], env: Dict[str, str]):
        self.action = action
        self.inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
        self.inputs.update(inputs)
        self.temp = tmp / "runner-temp"
        self.workspace = tmp / "workspace"
        self.temp.mkdir()
        self.workspace.mkdir()
        self.github_path = tmp / "github-path"
        self.github_path.touch()
        self.path = list(path)
        self.env = env
        self.outputs: Dict[str, Dict[str, str]] = {}
        self.runs: List[subprocess.CompletedProcess] = []
        self.tmp = tmp

    def evaluate(self, text: str) -> str:
        def value(found: re.Match) -> str:
            expression = found.group(1)
            if INPUT.fullmatch(expression):
                return self.inputs[INPUT.fullmatch(expression).group(1)]
            if STEP_OUTPUT.fullmatch(expression):
                step, name = STEP_OUTPUT.fullmatch(expression).groups()
                return self.outputs.get(step, {}).get(name, "")
            raise AssertionError(f"an expression this runner does not evaluate: {found.group(0)}")

        return EXPRESSION.sub(value, text)

    def run(self, count: Optional[int] = None) -> int:
        """The first count steps (all by default), to the first that fails:
        its exit status, or 0."""
        for index, step in enumerate(steps(self.action)[:count]):
            output = self.tmp / f"github-output-{index}"
            output.touch()
            script = self.tmp / f"step-{index}.sh"
            script.write_text(step["run"], encoding="utf-8")
            added = [line for line in self.github_path.read_text().splitlines() if line.strip()]
            env = dict(self.env)
            env.update(
                PATH=os.pathsep.join([*reversed(added), *self.path]),
                RUNNER_TEMP=str(self.temp),
                GITHUB_ACTION_PATH=str(ROOT),
                GITHUB_WORKSPACE=str(self.workspace),
                GITHUB_OUTPUT=str(output),
                GITHUB_PATH=str(self.github_path),
            )
            env.update({key: self.evaluate(str(value)) for key, value in step.get("env", {}).items()})
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=self.workspace,
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=RUN_LIMIT,
            )
            self.runs.append(done)
            if step.get("id"):
                self.outputs[step["id"]] = read_outputs(output)
            if done.returncode != 0:
                return done.returncode
        return 0

    def action_outputs(self) -> Dict[str, str]:
        return {name: self.evaluate(spec["value"]) for name, spec in self.action["outputs"].items()}

    def describe(self) -> str:
        return "\n".join(
            f"step {index}: exit status {done.returncode}\nstdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
            for index, done in enumerate(self.runs)
        )


def read_outputs(path: Path) -> Dict[str, str]:
    """A GITHUB_OUTPUT file: NAME=VALUE lines, and NAME<<DELIMITER blocks."""
    outputs = {}
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            for more in lines:
                if more == delimiter:
                    break
                value.append(more)
            else:
                raise AssertionError(f"{path}: {name}'s value has no closing {delimiter}")
            outputs[name] = "\n".join(value)
        elif line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


def fake_cargo(directory: Path) -> Path:
    """A cargo that records its arguments and, for `cargo install ... --root
    ROOT`, puts a jsonrpc-envelope in ROOT/bin that runs the tests' CLI:
    the install branch without minutes of building."""
    directory.mkdir()
    record = directory / "cargo-args"
    cargo = directory / "cargo"
    cargo.write_text(
        "#!/usr/bin/env bash\n"
        f"printf '%s\\n' \"$@\" > {shlex.quote(str(record))}\n"
        'root=""; while (($#)); do [ "$1" = --root ] && root="$2"; shift; done\n'
        '[ -n "$root" ] || exit 101\n'
        'mkdir -p "$root/bin"\n'
        f"printf '#!/bin/sh\\nexec %s \"$@\"\\n' {shlex.quote(shlex.quote(PROBE))} > \"$root/bin/{BIN_NAME}\"\n"
        f'chmod +x "$root/bin/{BIN_NAME}"\n',
        encoding="utf-8",
    )
    cargo.chmod(0o755)
    return record


def path_without_the_cli() -> List[str]:
    return [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / BIN_NAME).exists()]


def test_the_install_step_builds_the_cli_when_none_is_on_path() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        record = fake_cargo(tmp / "fake-bin")
        runner = Runner(load(), {"command": "true"}, tmp, [str(tmp / "fake-bin"), *path_without_the_cli()], child_env())
        assert runner.run(count=1) == 0, runner.describe()
        root = runner.temp / "jsonrpc-envelope"
        assert record.read_text().split("\n")[:-1] == [
            "install", "--locked", "--path", f"{ROOT}/cli", "--root", str(root)
        ], runner.describe()
        assert runner.github_path.read_text().splitlines() == [str(root / "bin")]
        assert runner.outputs["install"]["bin"] == str(root / "bin" / BIN_NAME)


def _probe_help() -> Optional[str]:
    try:
        done = subprocess.run([PROBE, "probe", "--help"], capture_output=True, text=True, timeout=60)
    except OSError:
        return None  # no CLI at all: the test runs, and fails saying so
    return done.stdout + done.stderr


def _lacks_sarif() -> bool:
    text = _probe_help()
    return text is not None and "--sarif" not in text


@pytest.mark.skipif(
    _lacks_sarif(), reason=f"{PROBE} probe has no --sarif yet (its --help does not name it): the action needs it"
)
def test_the_action_probes_a_server_and_writes_sarif_and_junit() -> None:
    assert Path(PROBE).is_file(), f"no CLI at {PROBE} (JSONRPC_ENVELOPE_BIN): make build"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # A cargo in front of the real one: the install step must not run it.
        record = fake_cargo(tmp / "fake-bin")
        command = f"python3 {shlex.quote(str(SERVER))} --state {shlex.quote(str(tmp / 'state'))}"
        inputs = {
            "command": command,
            "fail-on": "nonconforming",
            "lines": "20",
            "junit": "reports/probe.xml",
            "args": "--seed 7",
        }
        path = [str(Path(PROBE).resolve().parent), str(tmp / "fake-bin"), *os.environ.get("PATH", "").split(os.pathsep)]
        runner = Runner(load(), inputs, tmp, path, child_env())
        status = runner.run()
        assert status == 0, runner.describe()

        # The install step took the "already on PATH" branch.
        assert Path(runner.outputs["install"]["bin"]).resolve() == Path(PROBE).resolve(), runner.describe()
        assert not record.exists(), "the install step ran cargo with a jsonrpc-envelope on PATH"
        assert runner.github_path.read_text() == ""
        assert not (runner.temp / "jsonrpc-envelope").exists()

        outputs = runner.action_outputs()
        assert outputs == {
            "sarif": str(runner.workspace / "jsonrpc-envelope-probe.sarif"),
            "junit": str(runner.workspace / "reports/probe.xml"),
        }, runner.describe()

        with open(outputs["sarif"], encoding="utf-8") as f:
            log = json.load(f)
        sarif_schema.validate(log)
        assert len(log["runs"]) == 1
        assert log["runs"][0]["tool"]["driver"]["name"] == "jsonrpc-envelope"
        # The server answers every line right, and the step passed with
        # fail-on nonconforming: nothing harmful or nonconforming.
        failing = [r for r in log["runs"][0].get("results", []) if r.get("level") in ("error", "warning")]
        assert not failing, failing[:5]

        root = ET.parse(outputs["junit"]).getroot()
        suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
        assert root.tag in ("testsuite", "testsuites") and suites, f"{outputs['junit']}: no <testsuite>"
        assert sum(len(suite.findall("testcase")) for suite in suites) > 0
