#!/usr/bin/env python3
"""Two builds of bench/rust's `interleaved` (say, before and after a change)
timed in turns: each round runs one round of each, alternately, and each
keeps its fastest figure per implementation, so that both see the same
machine. Prints ns/line for both and their ratio.

  bench/compare.py OLD NEW [ROUNDS [NAME...]]

Both programs are run from copies of the same path length: the length of
a program's path moves its stack, and that alone moved the small lines'
figure of one and the same binary by up to 18% on this machine.
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

OUT = pathlib.Path(__file__).resolve().parent / "out"


def lines_of(best):
    return {size for figures in best.values() for size, _ in figures}


def main():
    with tempfile.TemporaryDirectory() as here:
        compare(shutil.copy(sys.argv[1], f"{here}/0"), shutil.copy(sys.argv[2], f"{here}/1"))


def compare(old, new):
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    names = sys.argv[4:]
    best = {old: {}, new: {}}
    for _ in range(rounds):
        for program in (old, new):
            figures = json.loads(subprocess.run([program, "1", *names], check=True, capture_output=True, text=True).stdout)
            for size, row in figures.items():
                for name, ns in row.items():
                    key = (size, name)
                    best[program][key] = min(best[program].get(key, float("inf")), ns)
    lines = {size: sum(1 for l in (OUT / f"{size}.jsonl").read_bytes().split(b"\n") if l) for size in lines_of(best)}
    print(f"{'size':8} {'implementation':26} {'old ns/line':>12} {'new ns/line':>12} {'new/old':>8}")
    for key in best[old]:
        if key in best[new]:
            size, name = key
            a, b = best[old][key] / lines[size], best[new][key] / lines[size]
            print(f"{size:8} {name:26} {a:12,.0f} {b:12,.0f} {b / a:8.3f}")


if __name__ == "__main__":
    main()
