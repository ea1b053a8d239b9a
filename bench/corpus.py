#!/usr/bin/env python3
"""Writes the benchmark corpus to bench/out/ (git-ignored): realistic MCP
traffic in three sizes, byte-identical on every run (fixed seed, no clock).

  small.jsonl   80-400 B: tools/call requests, progress notifications, pings,
                small results, error responses, a few log and broken lines
  medium.jsonl  2-20 KB: tools/list results with JSON schemas, resources/read
  large.jsonl   0.5-4 MB: tool results with long escaped, non-ASCII text, base64
"""
import base64
import json
import pathlib
import random

OUT = pathlib.Path(__file__).resolve().parent / "out"
WORDS = ("file path read write query result index table server client token "
         "stream buffer cache line value error schema tool resource prompt").split()
TEXT = ("Ünïcödé façade naïve café — “quoted” ‘text’ ✓ 日本語のテキスト 中文文本 "
        "émoji 🙂🚀 tab\there newline\nand \"quotes\" and back\\slash ")


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def compact(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def small_line(rng, i):
    pick = rng.random()
    if pick < 0.35:
        return compact({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": rng.choice(["read_file", "search", "query_db"]),
            "arguments": {"path": "/srv/" + "/".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))),
                          "query": words(rng, rng.randint(1, 8)), "limit": rng.randint(1, 500)},
            "_meta": {"progressToken": f"tok-{rng.randint(1, 99999)}"}}})
    if pick < 0.55:
        return compact({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": f"tok-{rng.randint(1, 99999)}", "progress": rng.randint(0, 100), "total": 100,
            "message": words(rng, rng.randint(1, 8))}})
    if pick < 0.65:
        return compact({"jsonrpc": "2.0", "id": f"req-{i}", "method": "ping"})
    if pick < 0.85:
        return compact({"jsonrpc": "2.0", "id": i, "result": {"content": [
            {"type": "text", "text": words(rng, rng.randint(3, 30))}], "isError": False}})
    if pick < 0.93:
        return compact({"jsonrpc": "2.0", "id": i, "error": {"code": rng.choice([-32601, -32602, -32603]),
                                                              "message": words(rng, rng.randint(2, 10))}})
    if pick < 0.97:
        return compact({"level": "info", "ts": f"2026-12-02T16:{i % 60:02}:00Z", "msg": words(rng, 6)})
    return "Server log: " + words(rng, rng.randint(3, 12))


def schema(rng):
    props = {}
    for _ in range(rng.randint(3, 12)):
        props[rng.choice(WORDS) + str(rng.randint(0, 99))] = {
            "type": rng.choice(["string", "integer", "boolean", "array"]),
            "description": words(rng, rng.randint(4, 20)),
        }
    return {"type": "object", "properties": props, "required": list(props)[:2]}


def medium_line(rng, i):
    if rng.random() < 0.6:
        tools, target = [], rng.randint(3000, 19000)
        while len(compact(tools)) < target:
            tools.append({"name": "_".join(rng.choice(WORDS) for _ in range(2)),
                          "description": words(rng, rng.randint(5, 25)), "inputSchema": schema(rng)})
        return compact({"jsonrpc": "2.0", "id": i, "result": {"tools": tools}})
    size = rng.randint(3000, 19000)
    text = "".join(rng.choice(TEXT) for _ in range(size // 2))
    return compact({"jsonrpc": "2.0", "id": i, "result": {"contents": [
        {"uri": f"file:///srv/{rng.choice(WORDS)}.md", "mimeType": "text/markdown", "text": text}]}})


def large_line(rng, i):
    size = rng.randint(500_000, 4_000_000)
    if rng.random() < 0.5:
        chunk = "".join(rng.choice(TEXT) for _ in range(64))
        text = (chunk * (size // len(chunk) + 1))[:size]
        content = {"type": "text", "text": text}
    else:
        raw = rng.randbytes(size * 3 // 4)
        content = {"type": "image", "mimeType": "image/png", "data": base64.b64encode(raw).decode()}
    return compact({"jsonrpc": "2.0", "id": i, "result": {"content": [content], "isError": False}})


def main():
    OUT.mkdir(exist_ok=True)
    for name, make, count in (("small", small_line, 2000), ("medium", medium_line, 200), ("large", large_line, 8)):
        rng = random.Random(f"jsonrpc-envelope/{name}")
        lines = [make(rng, i) for i in range(count)]
        (OUT / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        sizes = [len(l.encode()) for l in lines]
        print(f"{name}: {count} lines, mean {sum(sizes) // count} B, {sum(sizes) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
