#!/usr/bin/env python3
"""Seeds each fuzz target's corpus (fuzz/corpus/<target>, not committed)
from the vectors: every envelope line and every log_value input."""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
vectors = root / "tests" / "vectors"


def records(name):
    # Split at LF only: str.splitlines() would also split at U+2028 inside
    # the vectors' strings.
    text = (vectors / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line]


def inputs():
    for record in records("envelope.jsonl") + records("mcp.jsonl"):
        yield bytes.fromhex(record["line_hex"]) if "line_hex" in record else record["line"].encode()
    for record in records("log_value.jsonl"):
        yield bytes.fromhex(record["input_hex"]) if "input_hex" in record else record["input"].encode()


def main(targets):
    seeds = list(inputs())
    for target in targets:
        corpus = root / "fuzz" / "corpus" / target
        corpus.mkdir(parents=True, exist_ok=True)
        for i, seed in enumerate(seeds):
            (corpus / f"seed-{i:03}").write_bytes(seed)
        # The stream targets also get all the lines at once.
        (corpus / "seed-stream").write_bytes(b"\n".join(seeds))


if __name__ == "__main__":
    main(sys.argv[1:])
