"""Finding and refusing the library at import (each case in a fresh Python)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from typing import Any, Dict

import pytest

from conftest import PACKAGE

SRC_PACKAGE = os.path.join(PACKAGE, "src", "jsonrpc_envelope")


def run_import(env: Dict[str, str], cwd: Any = None) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    code = "import jsonrpc_envelope as je; print(je.lib_path); print(je.classify(b'[]').kind)"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def import_error(result: subprocess.CompletedProcess) -> str:  # type: ignore[type-arg]
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: "), result.stderr
    return last


def test_the_override_loads_a_file_or_a_directory(subprocess_env: Dict[str, str]) -> None:
    given = os.path.realpath(subprocess_env["JSONRPC_ENVELOPE_LIB"])
    directory = given if os.path.isdir(given) else os.path.dirname(given)
    library = os.path.join(directory, "libjsonrpc_envelope.so")
    for value in (library, directory):
        subprocess_env["JSONRPC_ENVELOPE_LIB"] = value
        result = run_import(subprocess_env)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == [library, "batch"]


def test_an_override_that_names_nothing(subprocess_env: Dict[str, str], tmp_path: Any) -> None:
    missing = str(tmp_path / "nowhere" / "libjsonrpc_envelope.so")
    subprocess_env["JSONRPC_ENVELOPE_LIB"] = missing
    message = import_error(run_import(subprocess_env))
    assert "JSONRPC_ENVELOPE_LIB" in message and missing in message
    subprocess_env["JSONRPC_ENVELOPE_LIB"] = str(tmp_path)  # a directory without it
    message = import_error(run_import(subprocess_env))
    assert str(tmp_path / "libjsonrpc_envelope.so") in message


def test_an_override_that_is_not_a_library(subprocess_env: Dict[str, str], tmp_path: Any) -> None:
    bogus = tmp_path / "libjsonrpc_envelope.so"
    bogus.write_text("not a shared library")
    subprocess_env["JSONRPC_ENVELOPE_LIB"] = str(bogus)
    message = import_error(run_import(subprocess_env))
    assert "cannot load" in message and str(bogus) in message


def test_neither_bundled_nor_overridden(subprocess_env: Dict[str, str], tmp_path: Any) -> None:
    """A copy of the package without its library, and no override: the
    message names both places."""
    copy = tmp_path / "jsonrpc_envelope"
    shutil.copytree(SRC_PACKAGE, copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    del subprocess_env["JSONRPC_ENVELOPE_LIB"]
    subprocess_env["PYTHONPATH"] = str(tmp_path)
    message = import_error(run_import(subprocess_env, cwd=tmp_path))
    assert str(copy / "libjsonrpc_envelope.so") in message
    assert "JSONRPC_ENVELOPE_LIB" in message


CC = shutil.which(os.environ.get("CC", "cc"))


def fake_library(tmp_path: Any, source: str) -> str:
    assert CC
    c_file = tmp_path / "fake.c"
    c_file.write_text(source)
    library = tmp_path / "libjsonrpc_envelope.so"
    subprocess.run([CC, "-shared", "-fPIC", "-o", str(library), str(c_file)], check=True)
    return str(library)


@pytest.mark.skipif(not CC, reason="no C compiler to build a fake library")
def test_a_library_of_another_abi_is_refused(subprocess_env: Dict[str, str], tmp_path: Any) -> None:
    """A stand-in library that says another ABI (the real one cannot be made
    to lie): refused at import, with both versions in the message."""
    from jsonrpc_envelope import _ffi

    other = _ffi.ABI_VERSION + 1
    subprocess_env["JSONRPC_ENVELOPE_LIB"] = fake_library(
        tmp_path,
        "#include <stdint.h>\n"
        f"uint32_t jsonrpc_abi_version(void) {{ return {other}; }}\n"
        'const char *jsonrpc_version(void) { return "9.0.0"; }\n',
    )
    message = import_error(run_import(subprocess_env))
    assert f"ABI version {other}" in message and f"ABI version {_ffi.ABI_VERSION}" in message


@pytest.mark.skipif(not CC, reason="no C compiler to build a fake library")
def test_a_library_that_is_not_ours_is_refused(subprocess_env: Dict[str, str], tmp_path: Any) -> None:
    subprocess_env["JSONRPC_ENVELOPE_LIB"] = fake_library(tmp_path, "int something_else(void) { return 1; }\n")
    message = import_error(run_import(subprocess_env))
    assert "is not libjsonrpc_envelope" in message


@pytest.mark.skipif(not CC, reason="no C compiler to build a fake library")
def test_a_library_missing_a_function_is_refused(subprocess_env: Dict[str, str], tmp_path: Any) -> None:
    from jsonrpc_envelope import _ffi

    subprocess_env["JSONRPC_ENVELOPE_LIB"] = fake_library(
        tmp_path, f"#include <stdint.h>\nuint32_t jsonrpc_abi_version(void) {{ return {_ffi.ABI_VERSION}; }}\n"
    )
    message = import_error(run_import(subprocess_env))
    assert "lacks jsonrpc_classify" in message
