#!/usr/bin/env python3
"""The same MCP tool-call round trip over jsonrpc_envelope.mcp and over the
official Python SDK's own stdio transports, in one run, in turns.

Two sessions stay open side by side: mcp.Client on our stdio_client with
examples/python/sdk_server.py (the SDK's MCPServer on our stdio_server),
and mcp.Client on the SDK's stdio_client with the same server on the SDK's
stdio_server (--sdk-transport). Calls of the echo tool alternate between
them (ours first on even rounds, theirs on odd ones), each timed alone, so
that both see the same machine load. A round trip is two messages, the
request and its response, each written by one transport and read by the
other.

    make bench-python-mcp    # the venv, the library, then this script
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from jsonrpc_envelope.mcp import stdio_client

REPO = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, str(REPO / "examples/python/sdk_server.py")]
WARMUP = 200
CALLS = 3000


def params(*extra: str) -> StdioServerParameters:
    import os

    env = {k: os.environ[k] for k in ("PYTHONPATH", "JSONRPC_ENVELOPE_LIB") if k in os.environ}
    return StdioServerParameters(command=SERVER[0], args=SERVER[1:] + list(extra), env=env)


async def main() -> None:
    times = {"ours": [], "sdk": []}
    async with Client(stdio_client(params())) as ours, Client(params("--sdk-transport")) as sdk:
        clients = {"ours": ours, "sdk": sdk}
        for name in ("ours", "sdk"):
            for _ in range(WARMUP):
                await clients[name].call_tool("echo", {"text": "warm"})
        for i in range(CALLS):
            for name in ("ours", "sdk") if i % 2 == 0 else ("sdk", "ours"):
                start = time.perf_counter_ns()
                result = await clients[name].call_tool("echo", {"text": "hello through stdio"})
                times[name].append(time.perf_counter_ns() - start)
                assert result.content[0].text == "hello through stdio"

    def row(name: str) -> str:
        t = sorted(times[name])
        median = statistics.median(t) / 1000
        return (
            f"| {name} | {median:,.0f} | {median / 2:,.0f} | {t[len(t) // 10] / 1000:,.0f} "
            f"| {t[len(t) * 9 // 10] / 1000:,.0f} |"
        )

    print(f"Python: mcp.Client tool call (echo), {CALLS} calls per transport, in turns, after {WARMUP} each to warm up")
    print()
    print("| transports (client and server) | median µs per call | µs per message | p10 µs | p90 µs |")
    print("|---|---|---|---|---|")
    print(row("ours").replace("| ours |", "| jsonrpc_envelope.mcp |"))
    print(row("sdk").replace("| sdk |", "| the SDK's stdio |"))
    ratio = statistics.median(times["ours"]) / statistics.median(times["sdk"])
    print()
    print(f"ours / the SDK's, median per call: {ratio:.3f}")


if __name__ == "__main__":
    anyio.run(main)
