"""The official TypeScript SDK's client (peers/node/client.mjs, on the SDK's
own stdio transport) completes a session (initialize, tools/list, tools/call
of echo) with the Java SDK's and rmcp's example servers
(examples/java/sdk_server.sh, examples/rust), each on our transport and on
its SDK's own: a host on another SDK talks to them as to any MCP server.
"""

import json
import subprocess

import pytest

from conftest import NODE, ROOT, SDKS, server

EXAMPLES = [sdk for sdk in ("java", "rust") if sdk in SDKS]
MODES = {"ours": "our transport", "control": "the SDK's own transport"}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("sdk", EXAMPLES)
def test_the_typescript_client_completes_a_session(sdk, mode):
    command, env = server(sdk, mode)
    client = [NODE, str(ROOT / "peers/node/client.mjs"), "--timeout", "60", "--", *command]
    p = subprocess.run(client, capture_output=True, timeout=120, env=env)
    assert p.returncode == 0, f"{sdk} on {MODES[mode]}: {p.stderr.decode(errors='replace')[-2000:]}"
    report = json.loads(p.stdout.splitlines()[-1])
    assert report == {
        "sdk": "node",
        "tools": ["echo"],
        "echo": ["hello through stdio"],
        "is_error": False,
        "transport_errors": 0,
    }
