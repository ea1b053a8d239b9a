"""The [mcp] extra and the shape of jsonrpc_envelope.mcpstdio: the plain binding
never imports the SDK; the extra pulls the SDK in; without the SDK the
module says which extra to install; stdio_server takes the SDK's own
arguments (explicit streams) as well as fd 0 and 1."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any, List

import anyio
import pytest

from conftest import PYTHON


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=60)


def test_the_plain_binding_never_imports_the_sdk() -> None:
    done = run_python(
        "import sys, jsonrpc_envelope\n"
        "jsonrpc_envelope.classify(b'{}')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types', 'anyio', 'pydantic')"
        " or m == 'jsonrpc_envelope.mcpstdio'))"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_the_sdk_the_module_names_the_extra() -> None:
    done = run_python("import sys; sys.modules['mcp'] = None\nimport jsonrpc_envelope.mcpstdio")
    assert done.returncode == 1
    assert 'ImportError: jsonrpc_envelope.mcpstdio needs the official MCP SDK: pip install "jsonrpc-envelope[mcp]"' in done.stderr


def test_the_extra_pulled_the_sdk_into_this_venv() -> None:
    """This venv was made by pip install "./bindings/python[mcp,test]"
    (make test-python-mcp): the installed package, with its own bundled
    library and without the source tree, has the extra in its metadata,
    the SDK it pulled, and a jsonrpc_envelope.mcpstdio that imports."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JSONRPC_ENVELOPE_LIB")}
    code = (
        "import json\n"
        "from importlib import metadata\n"
        "import jsonrpc_envelope.mcpstdio as m\n"
        "print(json.dumps({'requires': metadata.requires('jsonrpc-envelope'), 'mcp': metadata.version('mcp'),"
        " 'module': m.__file__, 'stdio_server': m.stdio_server.__module__}))"
    )
    done = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, timeout=60, env=env, cwd="/")
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert 'mcp<3,>=2.3; extra == "mcp"' in got["requires"], got
    assert got["mcp"].startswith("2.")
    assert "site-packages" in got["module"] and got["stdio_server"] == "jsonrpc_envelope.mcpstdio._server"


def test_stdio_server_with_explicit_streams() -> None:
    """The SDK's stdio_server takes stdin and stdout as anyio async files of
    text; so does ours. The library reads the bytes under the text."""
    from jsonrpc_envelope.mcpstdio import stdio_server

    lines = b'[1]\n\xff\n{"jsonrpc":"2.0","id":5,"method":"ping"}\n'
    out = io.StringIO()

    async def run() -> List[Any]:
        got = []
        stdin = anyio.wrap_file(io.TextIOWrapper(io.BytesIO(lines), encoding="utf-8"))
        with anyio.fail_after(10):
            async with stdio_server(stdin=stdin, stdout=anyio.wrap_file(out)) as (read_stream, write_stream):
                async with write_stream:  # as Server.run does when its input ends
                    async for item in read_stream:
                        got.append(item.message)
        return got

    (message,) = anyio.run(run)
    assert (message.id, message.method) == (5, "ping")
    assert out.getvalue().splitlines() == [
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: this server doesn\'t accept batches"}}',
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
    ]


def test_bad_arguments_fail_before_anything_starts() -> None:
    from jsonrpc_envelope.mcpstdio import StdioServerParameters, run, stdio_client, stdio_server

    async def enter(manager: Any) -> None:
        async with manager:
            pass

    with pytest.raises(ValueError):
        anyio.run(enter, stdio_server(max_line=0))
    with pytest.raises(ValueError):
        anyio.run(enter, stdio_client(StdioServerParameters(command=sys.executable), max_line=-1))
    with pytest.raises(TypeError, match="MCPServer or a low-level mcp Server"):
        run(object())


def test_stdio_server_skips_a_line_over_max_line(caplog: Any) -> None:
    import logging

    from jsonrpc_envelope.mcpstdio import stdio_server

    caplog.set_level(logging.WARNING, logger="jsonrpc_envelope.mcpstdio")
    long = b'{"jsonrpc":"2.0","method":"big","params":{"pad":"' + b"x" * 100 + b'"}}'
    lines = long + b'\n{"jsonrpc":"2.0","method":"small"}\n'

    async def run(max_line: int) -> List[str]:
        got = []
        stdin = anyio.wrap_file(io.BufferedReader(io.BytesIO(lines)))
        with anyio.fail_after(10):
            async with stdio_server(stdin, anyio.wrap_file(io.StringIO()), max_line=max_line) as (read_stream, write_stream):
                async with write_stream:
                    async for item in read_stream:
                        got.append(item.message.method)
        return got

    assert anyio.run(run, 50) == ["small"]
    (record,) = caplog.records
    message = record.getMessage()
    assert message.startswith(f"jsonrpc-envelope: stdin line 1: too_long ({len(long)} bytes), dropped ("), message
    assert record.levelname == "WARNING"
    assert anyio.run(run, 1000) == ["big", "small"]
