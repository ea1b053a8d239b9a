#!/usr/bin/env python3
"""Writes bench/RESULTS.md and bench/throughput.png from one `make bench` run:
the Rust figures (bench/out/rust.json, with criterion's medians from
bench/rust/target/criterion beside them), and the Python, Go, Node and memory figures (the echo servers' among them) that `make bench` saved in bench/out/*.txt."""
import json
import os
import pathlib
import platform
import re
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
CRITERION = HERE / "rust" / "target" / "criterion"
OUT = HERE / "out"
SIZES = ("small", "medium", "large")
IMPLEMENTATIONS = (
    ("classify", "`classify` (Rust)"),
    ("c_abi_classify_free", "C ABI `jsonrpc_classify` + free"),
    ("c_abi_classify_into", "C ABI `jsonrpc_classify_into` (caller's scratch)"),
    ("c_abi_classify_lines", "C ABI `jsonrpc_classify_lines` (whole buffer)"),
    ("serde_json_value", "serde_json `Value` + envelope members"),
    ("serde_json_ignored_any", "serde_json validation (`IgnoredAny`)"),
    ("utf8_check", "`std::str::from_utf8`"),
    ("memchr_newlines", "`memchr` newline scan (floor)"),
)


def corpus_stats(size):
    lines = [l for l in (OUT / f"{size}.jsonl").read_bytes().split(b"\n") if l]
    return len(lines), sum(map(len, lines))


def criterion_ns(size, name):
    """criterion's median for one pass over the corpus."""
    path = CRITERION / size / name / "new" / "estimates.json"
    return json.loads(path.read_text())["median"]["point_estimate"] if path.exists() else None


def best_ns(size, name):
    """The fastest of the interleaved turns (bench/out/rust.json) for one
    pass over the corpus, or criterion's median where there is no such run."""
    path = OUT / "rust.json"
    if path.exists():
        return json.loads(path.read_text()).get(size, {}).get(name)
    return criterion_ns(size, name)


def cpu():
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
        return re.search(r"model name\s*:\s*(.*)", text).group(1)
    except (OSError, AttributeError):
        return platform.processor() or "unknown"


def table(size):
    count, total = corpus_stats(size)
    base = best_ns(size, "serde_json_value")
    floor = best_ns(size, "memchr_newlines")
    rows = [f"### {size}: {count} lines, mean {total // count:,} bytes\n",
            "| implementation | ns/line | MB/s | × serde_json `Value` | × memchr floor | criterion median, ns/line |",
            "|---|---:|---:|---:|---:|---:|"]
    series = {}
    for key, label in IMPLEMENTATIONS:
        ns = best_ns(size, key)
        if ns is None:
            continue
        mbps = total / ns * 1e3
        series[key] = mbps
        median = criterion_ns(size, key)
        median = f"{median / count:,.0f}" if median else "-"
        rows.append(f"| {label} | {ns / count:,.0f} | {mbps:,.0f} | {base / ns:.2f} | {floor / ns:.3f} | {median} |")
    return "\n".join(rows) + "\n", series, total / count


def plot(points):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "(matplotlib is not installed: no plot)"
    fig, ax = plt.subplots(figsize=(8, 5))
    for key, label in IMPLEMENTATIONS:
        xs = [size for size, series in points if key in series]
        ys = [series[key] for _, series in points if key in series]
        ax.plot(xs, ys, marker="o", label=label.replace("`", ""))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("mean line size (bytes)")
    ax.set_ylabel("throughput (MB/s)")
    ax.set_title("jsonrpc-envelope: throughput against line size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(HERE / "throughput.png", dpi=110)
    return "![throughput](throughput.png)"


def targets():
    """Issue #6's targets for `classify`, checked against this run's medians."""
    def per_line(size, name):
        ns = best_ns(size, name)
        return None if ns is None else ns / corpus_stats(size)[0]

    def gbps(size, name):
        ns = best_ns(size, name)
        return None if ns is None else corpus_stats(size)[1] / ns

    small, serde = per_line("small", "classify"), per_line("small", "serde_json_value")
    large, floor = gbps("large", "classify"), gbps("large", "memchr_newlines")
    c_abi, into = per_line("small", "c_abi_classify_free"), per_line("small", "c_abi_classify_into")
    if None in (small, serde, large, floor, c_abi, into, gbps("medium", "classify")):
        return ""
    rows = [
        ("small: at most 100 ns per line", f"{small:.0f} ns", small <= 100),
        ("small: at least 7x faster than serde_json `Value`", f"{serde / small:.2f}x", serde / small >= 7),
        ("medium: at least 3.5 GB/s", f"{gbps('medium', 'classify'):.2f} GB/s", gbps("medium", "classify") >= 3.5),
        ("large: at least 6 GB/s", f"{large:.2f} GB/s", large >= 6),
        ("large: within 5x of the memchr floor", f"{floor / large:.2f}x", floor / large <= 5),
        ("C ABI `jsonrpc_classify` + free adds at most 30 ns (small)", f"+{c_abi - small:.0f} ns", c_abi - small <= 30),
        ("C ABI `jsonrpc_classify_into` adds at most 30 ns (small)", f"+{into - small:.0f} ns", into - small <= 30),
    ]
    lines = ["## Targets (issue #6), from the figures above\n", "| target | measured | met |", "|---|---:|---|"]
    lines += [f"| {name} | {value} | {'yes' if ok else 'no'} |" for name, value, ok in rows]
    return "\n".join(lines) + "\n"


def extra(name, title):
    path = OUT / name
    return f"## {title}\n\n```\n{path.read_text().strip()}\n```\n" if path.exists() else ""


def main():
    sections, points = [], []
    for size in SIZES:
        text, series, mean = table(size)
        sections.append(text)
        points.append((mean, series))
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    doc = [
        "# Benchmark results\n",
        "Written by `make bench` (bench/report.py); every figure below comes from one run on this machine.\n",
        f"- CPU: {cpu()}, {os.cpu_count()} cores; {rustc}",
        "- Rust: bench/rust/src/bin/interleaved.rs over bench/corpus.py's fixed corpus: each of 40 rounds runs"
        " every implementation once over the whole corpus, and each keeps its fastest round (this machine's speed"
        " drifts from one second to the next, so implementations are compared in turns, not one after another);"
        " ns/line is that time divided by the corpus's lines. criterion's medians (bench/rust/benches/classify.rs,"
        " the same implementations, run one after another) are the last column, for reference.\n",
        *sections,
        plot(points) + "\n",
        targets(),
        extra("memory.txt", "Memory (bench/rust/src/bin/memory.rs)"),
        extra("guard.txt", "The guard against the same child without it (bench/guard)"),
        extra("python.txt", "Python binding (bench/python_bench.py)"),
        extra("go.txt", "Go binding (go test -bench in bindings/go)"),
        extra("node.txt", "Node binding (bench/node_bench.mjs)"),
        extra("echo-memory.txt", "Echo servers' memory (bench/echo_memory.py)"),
        extra("mcp-python.txt", "MCP tool call over jsonrpc_envelope.mcp and over the Python SDK's stdio (bench/mcp_python_bench.py)"),
        extra("mcp-go.txt", "MCP tool call over mcpstdio and over the Go SDK's stdio (BenchmarkToolCallInTurns in bindings/go/mcpstdio)"),
    ]
    (HERE / "RESULTS.md").write_text("\n".join(d for d in doc if d))
    print((HERE / "RESULTS.md").read_text())


if __name__ == "__main__":
    main()
