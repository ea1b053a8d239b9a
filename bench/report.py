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
    ("classify", "`classify` (Rust), JSON-RPC profile"),
    ("classify_mcp", "`Profile::Mcp.classify` (Rust)"),
    ("c_abi_classify_free", "C ABI `jsonrpc_classify` + free"),
    ("c_abi_classify_into", "C ABI `jsonrpc_classify_into` (caller's scratch)"),
    ("reader", "Rust `Reader`, 64 KiB chunks"),
    ("c_abi_reader_16k", "C ABI `jsonrpc_reader_feed`, 16 KiB chunks"),
    ("c_abi_reader_64k", "C ABI `jsonrpc_reader_feed`, 64 KiB chunks"),
    ("serde_json_value", "serde_json `Value` + envelope members"),
    ("serde_json_ignored_any", "serde_json validate-only (`IgnoredAny`)"),
    ("sonic_rs_ignored_any", "sonic-rs validate-only (`IgnoredAny`)"),
    ("simd_json_tape", "simd-json tape (copy + `fill_tape`)"),
    ("utf8_check", "`std::str::from_utf8`"),
    ("simdutf8_check", "simdutf8 (`basic`)"),
    ("memchr_newlines", "`memchr` newline scan (floor)"),
)
# The validate-only peers the targets compare against.
PEERS = ("serde_json_ignored_any", "sonic_rs_ignored_any", "simd_json_tape")
# The table (#33): the project's rows, then the peers and the floor.
SUMMARY = ("classify", "classify_mcp", "c_abi_classify_free", "serde_json_ignored_any", "sonic_rs_ignored_any",
           "simd_json_tape", "simdutf8_check")


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


def fastest_peer(size):
    """The fastest validate-only peer of this run: (name, ns per pass)."""
    figures = [(best_ns(size, name), name) for name in PEERS if best_ns(size, name) is not None]
    ns, name = min(figures)
    return name, ns


def label(key):
    return dict(IMPLEMENTATIONS)[key]


def table(size):
    count, total = corpus_stats(size)
    base = best_ns(size, "serde_json_value")
    _, peer = fastest_peer(size)
    rows = [f"### {size}: {count} lines, mean {total // count:,} bytes\n",
            "| implementation | ns/line | MB/s | × fastest validate-only peer | × serde_json `Value` |"
            " criterion median, ns/line |",
            "|---|---:|---:|---:|---:|---:|"]
    series = {}
    for key, name in IMPLEMENTATIONS:
        ns = best_ns(size, key)
        if ns is None:
            continue
        mbps = total / ns * 1e3
        series[key] = mbps
        median = criterion_ns(size, key)
        median = f"{median / count:,.0f}" if median else "-"
        rows.append(f"| {name} | {ns / count:,.0f} | {mbps:,.0f} | {peer / ns:.2f} | {base / ns:.2f} | {median} |")
    return "\n".join(rows) + "\n", series, total / count


def per_line(ns, count):
    return f"{ns / count / 1000:,.2f} µs" if ns / count >= 10_000 else f"{ns / count:,.0f} ns"


def summary():
    """The issue's table: time per line, each size a column."""
    rows = ["| time per line | " + " | ".join(f"{size} ({corpus_stats(size)[1] // corpus_stats(size)[0]:,} B)"
                                             for size in SIZES) + " |",
            "|---|" + "---:|" * len(SIZES)]
    for key in SUMMARY:
        cells = []
        for size in SIZES:
            ns, (count, _) = best_ns(size, key), corpus_stats(size)
            cells.append("-" if ns is None else per_line(ns, count))
        rows.append(f"| {label(key)} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def plot(points):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "(matplotlib is not installed: no plot)"
    fig, ax = plt.subplots(figsize=(8, 5))
    for key, name in IMPLEMENTATIONS:
        xs = [size for size, series in points if key in series]
        ys = [series[key] for _, series in points if key in series]
        ax.plot(xs, ys, marker="o", label=name.replace("`", ""))
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


def found(name, pattern):
    """A figure another benchmark of this run printed in bench/out/NAME."""
    path = OUT / name
    match = re.search(pattern, path.read_text()) if path.exists() else None
    return float(match.group(1)) if match else None


def targets():
    """Issue #33's targets, checked against this run's figures (ratios within
    one run, in turns, so they hold on a machine whose speed drifts)."""
    def ns(size, name):
        return best_ns(size, name)

    if any(ns(size, key) is None for size in SIZES for key in ("classify", "classify_mcp")):
        return ""
    rows = []
    ratio = ns("small", "classify_mcp") / ns("small", "classify")
    rows.append(("small: the MCP profile at most 1.15x the JSON-RPC profile's time", f"{ratio:.2f}x", ratio <= 1.15))
    for size in SIZES:
        name, peer = fastest_peer(size)
        ratio = peer / ns(size, "classify_mcp")
        rows.append((f"{size}: the MCP profile ahead of the fastest validate-only parser ({label(name)})",
                     f"{ratio:.2f}x", ratio > 1))
    for size, factor in (("small", 1.3), ("medium", 1.5), ("large", 1.5)):
        name, peer = fastest_peer(size)
        ratio = peer / ns(size, "classify")
        rows.append((f"{size}: the JSON-RPC profile at least {factor}x the fastest validate-only parser"
                     f" ({label(name)})", f"{ratio:.2f}x", ratio >= factor))
    ratio = ns("large", "simdutf8_check") / ns("large", "classify")
    rows.append(("large: the JSON-RPC profile at 0.6x simdutf8's speed or better", f"{ratio:.2f}x", ratio >= 0.6))
    ratio = ns("small", "c_abi_classify_free") / ns("small", "classify")
    rows.append(("small: C ABI `jsonrpc_classify` + free within 1.15x of the Rust call", f"{ratio:.2f}x",
                 ratio <= 1.15))
    guard = found("guard.txt", r"guard / direct: ([0-9.]+)")
    if guard is not None:
        rows.append(("the guard (MCP profile) at least 0.5x `cat`'s throughput through the same pipes",
                     f"{guard:.2f}x", guard >= 0.5))
    java = found("java.txt", r"\| small \|[^|]*\|[^|]*\|[^|]*\|[^|]*\| ([0-9.]+)x \|")
    if java is not None:
        rows.append(("Java small lines: `Envelope.classify` at least 2x Jackson `readTree` + envelope",
                     f"{java:.2f}x", java >= 2))
    for name, who in (("mcp-java.txt", "Java"), ("mcp-rmcp.txt", "rmcp")):
        trip = found(name, r"median ours / [^:]*: ([0-9.]+)")
        if trip is not None:
            rows.append((f"{who} transports: a round trip no slower than the SDK's own (median, ours / theirs)",
                         f"{trip:.2f}", trip <= 1))
    lines = ["## Targets (issue #33), from the figures above\n", "| target | measured | met |", "|---|---:|---|"]
    lines += [f"| {name} | {value} | {'yes' if ok else '**no**'} |" for name, value, ok in rows]
    return "\n".join(lines) + "\n"

# Text that holds whatever the figures (written by hand: it explains them,
# and says nothing a run could change).
HOW = """## How the library reads a line

A valid line is read once, 64 bytes at a time, by the structural
scanner (simdjson's method): AVX-512 or AVX2 (detected at run time)
classify a block's bytes, bit masks give its escaped bytes (and which of
them make a whole escape), its strings and where its tokens start, the
same pass checks the block's UTF-8 (simdjson's lookup method; an all-ASCII
block costs one test), and the grammar visits only the token starts. Any
line the structural scanner does not take (an invalid one, or any line on
a CPU without AVX2) gets a whole UTF-8 check and goes to the stepwise
scanner, which names the fault's byte; the tests and the `scanners` fuzz
target hold the two, with every set of byte classes (SWAR, which is
tested but slower there than the stepwise scanner, included), against
each other. The MCP profile reads what its rules need from the same
pass: the scanners open `params`, `params._meta` and `error` and report
their members, the deepest level, whether a number is beyond a double,
whether a string may escape a surrogate and whether a tab, LF or CR
stands between tokens; only a line that escapes a surrogate gets a
second look (for a lone one). Memory: classifying a line needs no memory
beyond the line, and the CLI's peak is about its line limit (the
figures: Memory, below).
"""
GUARD_NOTE = """The guard is measured against `cat` alone and against a bare relay (two
threads copying bytes, no rules), which shows what any relay costs: the
extra hops and wake-ups between processes. What the guard adds over the
bare relay is its own work: it classifies every line, each direction with
its own session, on the machine's cores. The last block holds every process
to one CPU, so that no wake-up crosses CPUs.
"""


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
        "- Command: `make bench` (the Rust figures: `make bench-rust`, which runs"
        " `bench/rust/target/release/interleaved 40`).",
        "- Corpus: bench/corpus.py, fixed (seeded) MCP-like traffic: small lines are tools/call requests,"
        " progress notifications, pings, results, errors and a few log lines; medium lines are tools/list"
        " results with JSON schemas and resources/read results with non-ASCII text; large lines are tool results"
        " with long escaped non-ASCII text or base64.",
        "- Rust: bench/rust/src/bin/interleaved.rs: each of 40 rounds runs"
        " every implementation once over the whole corpus, and each keeps its fastest round (this machine's speed"
        " drifts from one second to the next, so implementations are compared in turns, not one after another);"
        " ns/line is that time divided by the corpus's lines. criterion's medians (bench/rust/benches/classify.rs,"
        " the same implementations, run one after another) are the last column, for reference.",
        "- Build: the bench crate, the library's rows included (it links the library as a Rust dependency, C ABI"
        " functions too), is built with `-C target-cpu=native` (bench/rust/.cargo/config.toml), since sonic-rs and"
        " simd-json choose their SIMD code at compile time. The library itself picks AVX-512 or AVX2 at run time"
        " either way; the shared library that Python, Go and C load is built without it.",
        "- Peers: serde_json and sonic-rs deserialising into `IgnoredAny` (validation only), simd-json's tape"
        " (`fill_tape` with reused buffers, after copying the line, since it needs it mutable), serde_json `Value`"
        " plus reading the envelope's members (what a host would otherwise write).\n",
        "## The issue's table (`make bench-rust`)\n",
        summary(),
        targets(),
        HOW,
        "## Every implementation, by line size\n",
        *sections,
        plot(points) + "\n",
        extra("memory.txt", "Memory (`make bench-memory`: bench/rust/src/bin/memory.rs)"),
        extra("guard.txt", "The guard against the same child without it (`make bench-guard`: bench/guard)")
        + ("\n" + GUARD_NOTE if (OUT / "guard.txt").exists() else ""),
        extra("python.txt", "Python binding (`make bench-python`: bench/python_bench.py)"),
        extra("go.txt", "Go binding (`make bench-go`: go test -bench in bindings/go)"),
        extra("node.txt", "Node binding (`make bench-node`: bench/node_bench.mjs)"),
        extra("echo-memory.txt", "Echo servers' memory (`make bench-echo-memory`: bench/echo_memory.py)"),
        extra("mcp-python.txt", "MCP tool call over jsonrpc_envelope.mcpstdio and over the Python SDK's stdio (`make bench-python-mcp`: bench/mcp_python_bench.py)"),
        extra("mcp-go.txt", "MCP tool call over mcpstdio and over the Go SDK's stdio (`make bench-go-mcp`: BenchmarkToolCallInTurns in bindings/go/mcpstdio)"),
        extra("java.txt", "Java binding against Jackson's readTree and a classification in Java (`make bench-java`: bench/java/ClassifyBench.java)"),
        extra("mcp-java.txt", "MCP tool call over the Java transports and over the Java SDK's stdio (`make bench-java`: bench/java/RoundTripBench.java)"),
        extra("mcp-rmcp.txt", "MCP tool call over the rmcp transports and over rmcp's own (`make bench-rmcp`: bench/rmcp/round_trip.rs)"),
        extra("turns.txt", "A session's and a relay's feed through the C ABI, this build against another, in turns"
              " (`make bench-turns BEFORE=path/to/libjsonrpc_envelope.so`: bench/c/turns.c; not part of `make bench`)"),
    ]
    (HERE / "RESULTS.md").write_text("\n".join(d for d in doc if d))
    print((HERE / "RESULTS.md").read_text())


if __name__ == "__main__":
    main()
