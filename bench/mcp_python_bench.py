#!/usr/bin/env python3
"""The same MCP tool-call round trip over jsonrpc_envelope.mcpstdio and over the
official Python SDK's own stdio transports, in one run, in turns.

Two client processes (this script with --worker) each keep one session
open: mcp.Client on our stdio_client with examples/python/sdk_server.py
(the SDK's MCPServer on our stdio_server), and mcp.Client on the SDK's
stdio_client with the same server on the SDK's stdio_server
(--sdk-transport). The driver has them call the echo tool in blocks, one
block at a time, in turns (ours first in even blocks), so that both see the
same machine. Each call is timed alone; each block also measures the CPU
time the client process and its server process spent on it (process_time,
and the server's /proc utime + stime), which a loaded machine disturbs less
than elapsed time. A round trip is two messages, the request and its
response, each written by one transport and read by the other.

    make bench-python-mcp    # the venv, the library, then this script
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List

REPO = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, str(REPO / "examples/python/sdk_server.py")]
WARMUP = 200
BLOCKS = 20
CALLS_PER_BLOCK = 150
TEXT = "hello through stdio"
TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def server_cpu_ns() -> int:
    """utime + stime of this process's children (the server), in ns."""
    total = 0
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as f:
            for pid in f.read().split():
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) * TICK_NS
    return total


async def worker(name: str) -> None:
    """One session; runs the driver's blocks of calls, each told on stdin
    ("N" calls, or "quit"), and answers each with its figures on stdout."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from jsonrpc_envelope.mcpstdio import stdio_client

    env = {k: os.environ[k] for k in ("PYTHONPATH", "JSONRPC_ENVELOPE_LIB") if k in os.environ}
    args = SERVER[1:] + ([] if name == "ours" else ["--sdk-transport"])
    params = StdioServerParameters(command=SERVER[0], args=args, env=env)
    transport = stdio_client(params) if name == "ours" else params
    stdin = anyio.wrap_file(sys.stdin)
    async with Client(transport) as client:
        for _ in range(WARMUP):
            await client.call_tool("echo", {"text": TEXT})
        print("ready", flush=True)
        while (command := (await stdin.readline()).strip()) != "quit":
            walls = []
            cpu, server = time.process_time_ns(), server_cpu_ns()
            for _ in range(int(command)):
                start = time.perf_counter_ns()
                result = await client.call_tool("echo", {"text": TEXT})
                walls.append(time.perf_counter_ns() - start)
                assert result.content[0].text == TEXT
            cpu, server = time.process_time_ns() - cpu, server_cpu_ns() - server
            print(json.dumps({"wall": walls, "client_cpu": cpu, "server_cpu": server}), flush=True)


def main() -> None:
    workers = {
        name: subprocess.Popen(
            [sys.executable, __file__, "--worker", name], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for name in ("ours", "sdk")
    }
    for name, w in workers.items():
        if w.stdout.readline().strip() != "ready":
            raise SystemExit(f"the {name} worker did not start")
    walls: Dict[str, List[int]] = {"ours": [], "sdk": []}
    cpu = {"ours": [0, 0], "sdk": [0, 0]}
    ratios = []
    for block in range(BLOCKS):
        medians = {}
        for name in ("ours", "sdk") if block % 2 == 0 else ("sdk", "ours"):
            w = workers[name]
            w.stdin.write(f"{CALLS_PER_BLOCK}\n")
            w.stdin.flush()
            figures = json.loads(w.stdout.readline())
            walls[name] += figures["wall"]
            cpu[name][0] += figures["client_cpu"]
            cpu[name][1] += figures["server_cpu"]
            medians[name] = statistics.median(figures["wall"])
        ratios.append(medians["ours"] / medians["sdk"])
    for w in workers.values():
        w.stdin.write("quit\n")
        w.stdin.close()
        w.wait()

    calls = BLOCKS * CALLS_PER_BLOCK
    label = {"ours": "jsonrpc_envelope.mcpstdio", "sdk": "the SDK's stdio"}
    print(
        f"Python: mcp.Client tool call (echo), {calls} calls per transport in {BLOCKS} blocks, in turns,"
        f" after {WARMUP} each to warm up"
    )
    print()
    print("| transports (client and server) | median µs per call | µs per message | p10 µs | p90 µs "
          "| client CPU µs per call | server CPU µs per call |")
    print("|---|---|---|---|---|---|---|")
    for name in ("ours", "sdk"):
        t = sorted(walls[name])
        median = statistics.median(t) / 1000
        print(
            f"| {label[name]} | {median:,.0f} | {median / 2:,.0f} | {t[len(t) // 10] / 1000:,.0f} "
            f"| {t[len(t) * 9 // 10] / 1000:,.0f} | {cpu[name][0] / calls / 1000:,.0f} "
            f"| {cpu[name][1] / calls / 1000:,.0f} |"
        )
    print()
    wall_ratio = statistics.median(walls["ours"]) / statistics.median(walls["sdk"])
    cpu_ratio = sum(cpu["ours"]) / sum(cpu["sdk"])
    print(f"ours / the SDK's: median per call {wall_ratio:.3f}; CPU per call, client and server {cpu_ratio:.3f}")
    print(f"per block, median per call: {min(ratios):.3f} to {max(ratios):.3f}, median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        import anyio

        anyio.run(worker, sys.argv[2])
    else:
        main()
