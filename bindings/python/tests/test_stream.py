"""read_messages: every chunk boundary, over-long lines, huge and deep lines,
and the streams it accepts."""

from __future__ import annotations

import io
import tracemalloc
from typing import Any, List, Optional, Tuple

import pytest

import jsonrpc_envelope as je
from mutation import mutate

# A stream with a bit of everything: kinds, a CRLF line, an empty line, an
# escaped method, invalid UTF-8, a line over the limit used below (40), and a
# last line without LF.
LINES = [
    b'{"jsonrpc":"2.0","id":1,"method":"initialize"}',
    b'{"jsonrpc":"2.0","method":"a\\u0062"}\r',
    b"",
    b"[1,2]",
    b'{"jsonrpc":"2.0","id":"x","result":{"ok":true},"pad":"................"}',
    b"\xff\xfe",
    b"  ",
    b'{"id":{"o":1},"method":"m"}',
    b"7",
    b'{"jsonrpc":"2.0","error":{"code":-1,"message":"no"}}',
]
STREAM = b"\n".join(LINES)  # the last line has no LF
MAX_LINE = 60


def reference(stream: bytes, max_line: int) -> List[Tuple[Optional[bytes], Any]]:
    """What read_messages must yield: the stream split at LF (a last line
    without LF counts), each line classified alone, or TooLong."""
    pieces = stream.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    out: List[Tuple[Optional[bytes], Any]] = []
    for line in pieces:
        if len(line) > max_line:
            out.append((None, je.TooLong(len(line))))
        else:
            out.append((line, je.classify(line).to_dict()))
    return out


def normalise(messages: Any) -> List[Tuple[Optional[bytes], Any]]:
    out = []
    for line, c in messages:
        if isinstance(c, je.TooLong):
            assert line is None
            out.append((None, c))
        else:
            assert isinstance(c, je.Classification) and c.line == line
            out.append((line, c.to_dict()))
    return out


class Pieces(io.RawIOBase):
    """A raw stream that returns the given pieces, one per read, whatever
    size is asked (like a pipe)."""

    def __init__(self, pieces: List[bytes]) -> None:
        self.pieces = [piece for piece in pieces if piece]  # b"" is the end

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        return self.pieces.pop(0) if self.pieces else b""


def test_the_reference_has_too_long_lines() -> None:
    expected = reference(STREAM, MAX_LINE)
    assert any(isinstance(c, je.TooLong) for _, c in expected)
    assert sum(1 for line, _ in expected if line is not None) >= 8


@pytest.mark.parametrize("max_line", [MAX_LINE, je.DEFAULT_MAX_LINE])
def test_every_chunk_size(max_line: int) -> None:
    expected = reference(STREAM, max_line)
    for chunk_size in range(1, len(STREAM) + 2):
        got = normalise(je.read_messages(io.BytesIO(STREAM), max_line=max_line, chunk_size=chunk_size))
        assert got == expected, chunk_size


@pytest.mark.parametrize("ending", [b"", b"\n", b"\n\n", b"\r\n"])
def test_every_cut_into_two_and_three_reads(ending: bytes) -> None:
    stream = STREAM + ending
    expected = reference(stream, MAX_LINE)
    n = len(stream)
    for i in range(n + 1):
        got = normalise(je.read_messages(Pieces([stream[:i], stream[i:]]), max_line=MAX_LINE))
        assert got == expected, i
    for i in range(0, n + 1, 7):
        for j in range(i, n + 1, 3):
            pieces = [stream[:i], stream[i:j], stream[j:]]
            got = normalise(je.read_messages(Pieces(pieces), max_line=MAX_LINE))
            assert got == expected, (i, j)


def test_byte_by_byte_pipe() -> None:
    expected = reference(STREAM, MAX_LINE)
    got = normalise(je.read_messages(Pieces([bytes([b]) for b in STREAM]), max_line=MAX_LINE))
    assert got == expected


def test_empty_stream_and_lone_newlines() -> None:
    assert list(je.read_messages(io.BytesIO(b""))) == []
    got = normalise(je.read_messages(io.BytesIO(b"\n\n")))
    assert [c["kind"] for _, c in got] == ["empty", "empty"]


def test_reader_fed_by_hand_agrees_with_the_reference() -> None:
    """Reader, the push side of read_messages: every cut of the stream into
    two feeds, then end(), gives the reference's messages."""
    for ending in (b"", b"\n"):
        stream = STREAM + ending
        expected = reference(stream, MAX_LINE)
        for i in range(len(stream) + 1):
            reader = je.Reader(max_line=MAX_LINE, role="server")
            got = reader.feed(stream[:i]) + reader.feed(bytearray(stream[i:])) + reader.end()
            assert normalise(got) == expected, i
            assert all(c.reply() == c.reply_server for _, c in got if not isinstance(c, je.TooLong))


def test_reader_end_closes_it_and_feed_refuses_after() -> None:
    reader = je.Reader()
    assert reader.feed(b"") == [] and reader.feed(b'{"a":1}') == []
    (line, c), = reader.end()
    assert line == b'{"a":1}' and c.kind == "not_jsonrpc"
    for call in (lambda: reader.feed(b"{}\n"), lambda: reader.feed(b""), reader.end):
        with pytest.raises(ValueError, match="ended or is closed"):
            call()
    reader.close()  # twice is fine
    with je.Reader() as other:
        assert other.feed(b"[]\n")[0][1].kind == "batch"
    with pytest.raises(ValueError):
        other.feed(b"{}\n")
    with pytest.raises(TypeError):
        je.Reader().feed(7)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        je.Reader(max_line=0)
    with pytest.raises(ValueError):
        je.Reader(role="nobody")


def test_a_too_long_line_is_reported_once_with_its_length() -> None:
    stream = b"x" * 1000 + b"\n{}\n" + b"y" * 50
    for chunk_size in (1, 7, 64, 4096):
        got = normalise(je.read_messages(io.BytesIO(stream), max_line=100, chunk_size=chunk_size))
        assert got == [
            (None, je.TooLong(1000)),
            (b"{}", je.classify(b"{}").to_dict()),
            (b"y" * 50, je.classify(b"y" * 50).to_dict()),
        ]
    t = je.TooLong(5)
    assert t.kind == "too_long" and t.reply("server") is None and t.reply_client is None


def test_arguments_are_checked() -> None:
    stream = io.BytesIO(b"{}\n")
    for bad in ("10", 1.5, None, True):
        if bad is not None:  # None: the profile's default line limit
            with pytest.raises(TypeError):
                je.read_messages(stream, max_line=bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            je.read_messages(stream, chunk_size=bad)  # type: ignore[arg-type]
    for bad_value in (0, -1):
        with pytest.raises(ValueError):
            je.read_messages(stream, max_line=bad_value)
        with pytest.raises(ValueError):
            je.read_messages(stream, chunk_size=bad_value)
    with pytest.raises(ValueError):
        je.read_messages(stream, max_line=2**64)
    with pytest.raises(ValueError):
        je.read_messages(stream, role="nobody")
    with pytest.raises(TypeError):
        je.read_messages(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        list(je.read_messages(io.StringIO("{}\n")))  # type: ignore[arg-type]

    class Numbers:
        def read(self, size: int) -> int:
            return 5

    with pytest.raises(TypeError):
        list(je.read_messages(Numbers()))  # type: ignore[arg-type]


def test_a_non_blocking_stream_is_refused() -> None:
    class NonBlocking(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> Optional[bytes]:
            return None

    with pytest.raises(ValueError):
        list(je.read_messages(NonBlocking()))


def test_bytearray_and_memoryview_reads() -> None:
    class Odd:
        def __init__(self) -> None:
            self.parts: List[Any] = [bytearray(b'{"id":1,'), memoryview(b'"result":2}\n[]')]

        def read(self, size: int) -> Any:
            return self.parts.pop(0) if self.parts else b""

    got = [(line, c.kind) for line, c in je.read_messages(Odd())]  # type: ignore[union-attr]
    assert got == [(b'{"id":1,"result":2}', "response"), (b"[]", "batch")]


# ---- a line of 100 MB, and one nested a million levels deep ----------------

BIG = 100 * 1000 * 1000


def big_request() -> bytes:
    head = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"text":"'
    tail = b'"}}'
    return head + b"a" * (BIG - len(head) - len(tail)) + tail


class Generated(io.RawIOBase):
    """`size` bytes of a line made on the fly (never whole in memory), then
    an LF and a small line."""

    def __init__(self, size: int) -> None:
        self.left = size
        self.tail = b'\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left:
            n = min(len(buffer), self.left)
            buffer[:n] = b"a" * n
            self.left -= n
            return n
        n = min(len(buffer), len(self.tail))
        buffer[:n] = self.tail[:n]
        self.tail = self.tail[n:]
        return n


def test_a_line_of_100_mb() -> None:
    line = big_request()
    assert len(line) == BIG
    c = je.classify(line)
    assert c.kind == "request" and c.method == "tools/call" and c.id == "1"
    assert c.spans["params"] == (line.index(b'{"text"'), BIG - line.index(b'{"text"') - 1)
    assert je.invalid_reply(line) is None
    assert je.log_value(line).endswith("\u2026")
    # Through read_messages, under a limit that lets it through ...
    got = list(je.read_messages(io.BytesIO(line + b"\n[]"), max_line=BIG))
    assert [c.kind for _, c in got] == ["request", "batch"]
    assert got[0][0] == line
    del got, line, c
    # ... and under the default limit, skipped without being held.
    tracemalloc.start()
    try:
        got = list(je.read_messages(io.BufferedReader(Generated(BIG), 1 << 20)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got[0] == (None, je.TooLong(BIG))
    assert got[1][1].kind == "request" and len(got) == 2  # type: ignore[union-attr]
    assert peak < je.DEFAULT_MAX_LINE + 4 * 1024 * 1024, peak  # max_line + a chunk or so


def deep(levels: int) -> bytes:
    return b'{"jsonrpc":"2.0","id":1,"method":"deep","params":' + b"[" * levels + b"]" * levels + b"}"


def test_a_line_nested_a_million_levels_deep() -> None:
    line = deep(1_000_000)
    c = je.classify(line)
    assert c.kind == "request" and c.method == "deep"
    assert c.params_bytes == b"[" * 1_000_000 + b"]" * 1_000_000
    assert je.invalid_reply(line) is None
    assert je.log_value(line).endswith("\u2026")
    (got_line, got), = je.read_messages(io.BytesIO(line))
    assert got_line == line and got == c
    broken = line[:-2]  # one bracket and the brace short
    c = je.classify(broken)
    assert c.kind == "parse_error" and c.reply_server is not None
    assert je.invalid_reply(broken) == c.reply_server


def same(c: je.Classification, line: bytes) -> None:
    """Every attribute as classify() gives it for the line alone."""
    alone = je.classify(line)
    for name in ("kind", "id_kind", "id", "method", "jsonrpc_2_0", "has_result", "has_error",
                 "names_no_request", "spans", "reason", "reply_server", "reply_client", "id_value",
                 "params_bytes", "result_bytes", "error_bytes", "line"):
        assert getattr(c, name) == getattr(alone, name), (name, line)


@pytest.mark.parametrize(
    "lines",
    [
        # Clean lines only: the column-wise path, no backslash anywhere.
        [b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"n":%d}}' % (i, i) for i in range(50)],
        # Backslashes in params and results, none in a method: still column-wise.
        [b'{"jsonrpc":"2.0","id":1,"method":"m","params":{"t":"a\\nb\\u0041"}}',
         b'{"jsonrpc":"2.0","id":"x\\"y","result":"\\\\"}'] * 20,
        # One escaped method among clean ones: the item-by-item path.
        [b'{"jsonrpc":"2.0","id":1,"method":"plain"}'] * 10
        + [b'{"jsonrpc":"2.0","id":2,"method":"esc\\u0061ped"}']
        + [b'{"jsonrpc":"2.0","method":"note"}'] * 10,
        # Lines that owe replies among clean ones.
        [b'{"jsonrpc":"2.0","id":1,"method":"ok"}', b"[]", b"{bad", b'{"id":[1],"method":"x"}'] * 5,
    ],
)
def test_both_paths_give_what_classify_gives(lines: List[bytes]) -> None:
    got = list(je.read_messages(io.BytesIO(b"\n".join(lines) + b"\n")))
    assert [line for line, _ in got] == lines
    for line, c in got:
        assert isinstance(c, je.Classification) and line is not None
        same(c, line)


def test_random_lines_agree_everywhere() -> None:
    """Mutated JSON-RPC lines (a fixed seed): read_messages, classify and
    invalid_reply agree on each, and the method read from the line equals
    what json reads (the library decodes a lone surrogate escape as U+FFFD)."""
    import json
    import random

    rng = random.Random(20251125)
    seeds = [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":[1,2,{"b":"c"}]}}',
        b'{"jsonrpc":"2.0","id":"x","result":{"content":[]}}',
        b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"p":1}}',
        b'{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"m"}}',
        b'{"jsonrpc":"2.0","id":7,"method":"a\\u00e9\\ud83d\\ude00\\"b"}',
    ]
    alphabet = b'{}[]":,\\ \t\r0123456789.-+eEtrufalsn\x00\x7f\xc3\xa9\xff' + b"abcdefghijklmnopqrstuvwxyz"
    lines = []
    for _ in range(3000):
        lines.append(mutate(rng, seeds, alphabet, (0, 3), delete=0.4, insert=0.4).replace(b"\n", b""))
    got = list(je.read_messages(io.BytesIO(b"\n".join(lines)), chunk_size=rng.choice([97, 1000, 65536])))
    assert [line for line, _ in got] == lines
    for line, c in got:
        assert isinstance(c, je.Classification) and line is not None
        same(c, line)
        assert c.reply_server == je.invalid_reply(line, "server")
        assert c.reply_client == je.invalid_reply(line, "client")
        if c.method is not None and c.kind in ("request", "notification"):
            value = json.loads(line.decode("utf-8", "surrogatepass"))
            expected = value["method"].encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            assert c.method == expected, line


def test_no_max_line_is_the_profile_s_default_as_the_library_has_it() -> None:
    """None (the default) leaves the limit to the library: its profile's
    (profile_max_line), never a number of the binding's."""
    assert je.profile_max_line(je.Profile.JSONRPC) == je.profile_max_line("jsonrpc") == je.DEFAULT_MAX_LINE
    mcp = je.profile_max_line("mcp")
    assert 0 < mcp <= je.DEFAULT_MAX_LINE
    with pytest.raises(ValueError):
        je.profile_max_line("nobody")
    for profile in ("jsonrpc", "mcp"):
        limit = je.profile_max_line(profile)
        # A line of the limit's length is read; one byte more is too long.
        for length, too_long in ((limit, False), (limit + 1, True)):
            line = b"x" * length
            for reader in (je.Reader(profile=profile), je.Reader(profile=profile, max_line=None)):
                (_, c), = reader.feed(line + b"\n")
                reader.close()
                assert isinstance(c, je.TooLong) is too_long, (profile, length)
            with je.Session("server", profile=profile) as session:
                (d,) = session.feed(line + b"\n")
                assert (d.kind == "too_long") is too_long, (profile, length)
