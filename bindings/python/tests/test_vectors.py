"""Every shared vector of tests/vectors, byte for byte, through classify,
invalid_reply, log_value, read_messages and the Reader at many chunk sizes:
envelope.jsonl in the JSON-RPC profile (the default), and mcp.jsonl in the
MCP profile."""

from __future__ import annotations

import io
import json
from typing import Any, Dict, List, Tuple

import pytest

import jsonrpc_envelope as je
from conftest import ENVELOPE, LOG_VALUE, MCP, vector_bytes

FIELDS = (
    "kind", "id_kind", "id", "method", "jsonrpc_2_0", "has_result", "has_error",
    "names_no_request", "spans", "reason", "reply_server", "reply_client", "substitute",
)

# (profile, vector): envelope.jsonl by the JSON-RPC profile, mcp.jsonl by MCP.
CASES: List[Tuple[Any, Dict[str, Any]]] = [(je.Profile.JSONRPC, v) for v in ENVELOPE] + [
    (je.Profile.MCP, v) for v in MCP
]
VECTORS = {je.Profile.JSONRPC: ENVELOPE, je.Profile.MCP: MCP}


def names(vectors: Any) -> Any:
    return [v["name"] for v in vectors]


def case_ids(cases: Any) -> Any:
    return [f"{profile}: {v['name']}" for profile, v in cases]


def expected(vector: Dict[str, Any], field: str) -> Any:
    # envelope.jsonl has no substitute: the JSON-RPC profile never gives one.
    return vector.get(field) if field == "substitute" else vector[field]


def expect(vector: Dict[str, Any], c: je.Classification) -> None:
    """`c` says exactly what the vector says."""
    got = c.to_dict()
    assert set(got) == set(FIELDS)
    for field in FIELDS:
        if field == "reason" and vector["kind"] == "parse_error":
            # The text is the implementation's own: there must be one.
            assert isinstance(got["reason"], str) and got["reason"], vector["name"]
            continue
        assert got[field] == expected(vector, field), (vector["name"], field)
    # The typed attributes agree with the dict.
    assert c.kind == vector["kind"] and isinstance(c.kind, je.Kind)
    assert c.id_kind == vector["id_kind"] and isinstance(c.id_kind, je.IdKind)
    assert c.spans == {name: tuple(span) for name, span in vector["spans"].items()}
    assert c.reply("server") == c.reply(je.Role.SERVER) == vector["reply_server"]
    assert c.reply("client") == c.reply(je.Role.CLIENT) == vector["reply_client"]
    assert c.substitute == expected(vector, "substitute")


@pytest.mark.parametrize("profile, vector", CASES, ids=case_ids(CASES))
def test_classify(profile: Any, vector: Dict[str, Any]) -> None:
    line = vector_bytes(vector, "line")
    c = je.classify(line, profile=profile)
    expect(vector, c)
    assert c.line == line
    # The same through every accepted input type, and the profile's name.
    for other in (bytearray(line), memoryview(line)):
        assert je.classify(other, profile=profile).to_dict() == c.to_dict()
    assert je.classify(line, profile=str(profile)).to_dict() == c.to_dict()
    if "line" in vector:
        assert je.classify(vector["line"], profile=profile).to_dict() == c.to_dict()
    if profile is je.Profile.JSONRPC:
        assert je.classify(line).to_dict() == c.to_dict()  # the default


@pytest.mark.parametrize("profile, vector", CASES, ids=case_ids(CASES))
def test_invalid_reply(profile: Any, vector: Dict[str, Any]) -> None:
    line = vector_bytes(vector, "line")
    assert je.invalid_reply(line, profile=profile) == vector["reply_server"]
    assert je.invalid_reply(line, "server", profile=profile) == vector["reply_server"]
    assert je.invalid_reply(line, je.Role.CLIENT, profile=profile) == vector["reply_client"]
    assert je.invalid_reply(bytearray(line), role="client", profile=str(profile)) == vector["reply_client"]
    if profile is je.Profile.JSONRPC:
        assert je.invalid_reply(line) == vector["reply_server"]  # the default


@pytest.mark.parametrize("profile, vector", CASES, ids=case_ids(CASES))
def test_helpers_agree_with_the_vector(profile: Any, vector: Dict[str, Any]) -> None:
    c = je.classify(vector_bytes(vector, "line"), profile=profile)
    # The raw members are the line's bytes at their spans.
    for name, attribute in (("params", "params_bytes"), ("result", "result_bytes"), ("error", "error_bytes")):
        span = vector["spans"].get(name)
        raw = getattr(c, attribute)
        if span is None:
            assert raw is None
        else:
            assert raw == c.line[span[0] : span[0] + span[1]]
    # id_value is the id text read by json, for a string or number id.
    if vector["id_kind"] in ("string", "number"):
        assert c.id_value == json.loads(vector["id"])
        assert type(c.id_value) is type(json.loads(vector["id"]))
    else:
        assert c.id_value is None


@pytest.mark.parametrize("vector", LOG_VALUE, ids=names(LOG_VALUE))
def test_log_value(vector: Dict[str, Any]) -> None:
    data = vector_bytes(vector, "input")
    assert je.log_value(data) == vector["output"]
    assert je.log_value(bytearray(data)) == vector["output"]
    if "input" in vector:
        assert je.log_value(vector["input"]) == vector["output"]


def one_stream(vectors: List[Dict[str, Any]]) -> Tuple[List[bytes], List[Dict[str, Any]]]:
    """The vectors' lines without an LF inside, and their vectors."""
    pairs = [(vector_bytes(v, "line"), v) for v in vectors]
    pairs = [(line, v) for line, v in pairs if b"\n" not in line]
    return [line for line, _ in pairs], [v for _, v in pairs]


@pytest.mark.parametrize("profile", list(VECTORS), ids=str)
def test_the_vectors_as_one_stream(profile: Any) -> None:
    """Every vector line without an LF inside, read as one stream: the same
    classifications, in order, as the vectors say and as line by line."""
    lines, vectors = one_stream(VECTORS[profile])
    assert len(lines) > 90
    for role in ("server", "client"):
        got = list(je.read_messages(io.BytesIO(b"\n".join(lines)), role=role, profile=profile))
        assert [line for line, _ in got] == lines
        for (line, c), vector_line, vector in zip(got, lines, vectors):
            assert isinstance(c, je.Classification)
            expect(vector, c)
            assert c.to_dict() == je.classify(vector_line, profile=profile).to_dict()
            assert c.reply() == je.invalid_reply(line, role, profile=profile)
            assert c.role == role


@pytest.mark.parametrize("profile", list(VECTORS), ids=str)
@pytest.mark.parametrize("chunk", [1, 2, 7, 97, 1000, 65536])
def test_the_vectors_through_the_reader_at_chunk_sizes(profile: Any, chunk: int) -> None:
    """The same stream fed to a Reader by hand in pieces of `chunk` bytes
    (so that pieces end inside lines, at LFs and between them), and ended:
    every vector, exactly, with a last line that has no LF."""
    lines, vectors = one_stream(VECTORS[profile])
    stream = b"\n".join(lines)
    reader = je.Reader(role="server", profile=profile)
    got: List[Any] = []
    for at in range(0, len(stream), chunk):
        got += reader.feed(stream[at : at + chunk])
    got += reader.end()
    assert [line for line, _ in got] == lines
    for (_, c), vector in zip(got, vectors):
        expect(vector, c)


@pytest.mark.parametrize("profile", list(VECTORS), ids=str)
def test_every_kind_and_id_kind_is_covered(profile: Any) -> None:
    vectors = VECTORS[profile]
    kinds = {k.value for k in je.Kind if k is not je.Kind.TOO_LONG}
    if profile is je.Profile.JSONRPC:
        kinds.discard("invalid_response")  # only the MCP profile gives it
    assert {v["kind"] for v in vectors} == kinds
    assert {v["id_kind"] for v in vectors} == {k.value for k in je.IdKind}


def test_the_profiles_differ_on_the_vectors() -> None:
    """mcp.jsonl holds every line of envelope.jsonl as the MCP profile sees
    it ("envelope: NAME"), and some of them are read otherwise there: the
    profile really reaches the library."""
    by_name = {v["name"]: v for v in MCP}
    differ = 0
    for vector in ENVELOPE:
        mcp = by_name["envelope: " + vector["name"]]
        line = vector_bytes(vector, "line")
        assert vector_bytes(mcp, "line") == line
        differ += mcp["kind"] != vector["kind"]
        expect(mcp, je.classify(line, profile=je.Profile.MCP))
        expect(vector, je.classify(line, profile=je.Profile.JSONRPC))
    assert differ >= 5
