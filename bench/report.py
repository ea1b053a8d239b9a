#!/usr/bin/env python3
"""Writes bench/RESULTS.md and bench/throughput.png from one `make bench` run:
criterion's medians (bench/rust/target/criterion), and the Python, Go and
memory figures that `make bench` saved in bench/out/*.txt."""
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


def median_ns(size, name):
    path = CRITERION / size / name / "new" / "estimates.json"
    return json.loads(path.read_text())["median"]["point_estimate"] if path.exists() else None


def cpu():
    try:
        text = pathlib.Path("/proc/cpuinfo").read_text()
        return re.search(r"model name\s*:\s*(.*)", text).group(1)
    except (OSError, AttributeError):
        return platform.processor() or "unknown"


def table(size):
    count, total = corpus_stats(size)
    base = median_ns(size, "serde_json_value")
    floor = median_ns(size, "memchr_newlines")
    rows = [f"### {size}: {count} lines, mean {total // count:,} bytes\n",
            "| implementation | ns/line | MB/s | × serde_json `Value` | × memchr floor |",
            "|---|---:|---:|---:|---:|"]
    series = {}
    for key, label in IMPLEMENTATIONS:
        ns = median_ns(size, key)
        if ns is None:
            continue
        mbps = total / ns * 1e3
        series[key] = mbps
        rows.append(f"| {label} | {ns / count:,.0f} | {mbps:,.0f} | {base / ns:.2f} | {floor / ns:.3f} |")
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
        "- Rust: criterion medians (bench/rust/benches/classify.rs) over bench/corpus.py's fixed corpus;"
        " ns/line is the median time for the whole corpus divided by its lines.\n",
        *sections,
        plot(points) + "\n",
        extra("memory.txt", "Memory (bench/rust/src/bin/memory.rs)"),
        extra("python.txt", "Python binding (bench/python_bench.py)"),
        extra("go.txt", "Go binding (go test -bench in bindings/go)"),
    ]
    (HERE / "RESULTS.md").write_text("\n".join(d for d in doc if d))
    print((HERE / "RESULTS.md").read_text())


if __name__ == "__main__":
    main()
