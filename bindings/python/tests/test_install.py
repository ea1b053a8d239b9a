"""`pip install ./bindings/python` into a fresh virtual environment, as on a
fresh machine: pip's isolated build (its build dependencies come from PyPI)
runs cargo, and the wheel bundles the library, tagged py3-none-<platform>."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
from typing import Any

import pytest

from conftest import PACKAGE, REPO

pytestmark = pytest.mark.install


def test_pip_install_into_a_fresh_venv(tmp_path: Any) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k not in ("JSONRPC_ENVELOPE_LIB", "PYTHONPATH")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    install = subprocess.run(
        [python, "-m", "pip", "install", PACKAGE],
        env=env, cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900,
    )
    assert install.returncode == 0, install.stdout
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    wheel = re.search(r"filename=(jsonrpc_envelope-[^ ]+\.whl)", install.stdout)
    assert wheel, install.stdout
    assert re.fullmatch(r"jsonrpc_envelope-[0-9.]+-py3-none-%s\.whl" % re.escape(platform), wheel.group(1))

    # Imported from anywhere, with no override: the bundled library.
    check = (
        "import os, jsonrpc_envelope as je\n"
        "assert os.path.dirname(je.lib_path) == os.path.dirname(je.__file__), je.lib_path\n"
        "assert os.path.isfile(os.path.join(os.path.dirname(je.__file__), 'py.typed'))\n"
        "assert je.classify(b'{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}').kind == 'request'\n"
        "print(je.__version__, je.lib_path)\n"
    )
    result = subprocess.run(
        [python, "-c", check], env=env, cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert result.returncode == 0, result.stderr
    version, lib_path = result.stdout.split()
    assert lib_path.startswith(str(venv))
    with open(os.path.join(REPO, "Cargo.toml"), encoding="utf-8") as manifest:
        assert f'version = "{version}"' in manifest.read()
    # And plainly, as the issue asks.
    plain = subprocess.run([python, "-c", "import jsonrpc_envelope"], env=env, cwd=str(tmp_path))
    assert plain.returncode == 0

    # The command-line tool comes with it, built from the checkout: the
    # console script and `python -m jsonrpc_envelope`, in this process's place.
    for command in ([str(venv / "bin" / "jsonrpc-envelope")], [python, "-m", "jsonrpc_envelope"]):
        run = subprocess.run([*command, "--version"], env=env, cwd=str(tmp_path), stdout=subprocess.PIPE, text=True)
        assert (run.returncode, run.stdout) == (0, f"jsonrpc-envelope {version}\n"), command
    usage = subprocess.run([python, "-m", "jsonrpc_envelope", "probe"], env=env, cwd=str(tmp_path), capture_output=True, text=True)
    assert usage.returncode == 2 and "<COMMAND>" in usage.stderr, usage.stderr
