"""Random edits of a seed line, for the tests that hold the library against
an independent reader on lines no one wrote by hand. Imported by
bindings/python/tests and bindings/python/tests_mcp (each puts this folder
on sys.path)."""

from __future__ import annotations

import random
from typing import Sequence, Tuple


def mutate(
    rng: random.Random,
    seeds: Sequence[bytes],
    alphabet: bytes,
    edits: Tuple[int, int],
    delete: float,
    insert: float,
) -> bytes:
    """One of `seeds`, edited between edits[0] and edits[1] times: each edit
    deletes a byte (probability `delete`), inserts one from `alphabet`
    (`insert`) or replaces one with a byte from `alphabet` (the rest)."""
    line = bytearray(rng.choice(seeds))
    for _ in range(rng.randint(*edits)):
        at = rng.randrange(len(line) + 1)
        choice = rng.random()
        if choice < delete and at < len(line):
            del line[at]
        elif choice < delete + insert:
            line[at:at] = bytes([rng.choice(alphabet)])
        elif at < len(line):
            line[at] = rng.choice(alphabet)
    return bytes(line)
