"""Every shared vector of tests/vectors, byte for byte, through classify,
invalid_reply, log_value and read_messages."""

from __future__ import annotations

import io
import json
from typing import Any, Dict

import pytest

import jsonrpc_envelope as je
from conftest import ENVELOPE, LOG_VALUE, vector_bytes

FIELDS = (
    "kind", "id_kind", "id", "method", "jsonrpc_2_0", "has_result", "has_error",
    "names_no_request", "spans", "reason", "reply_server", "reply_client",
)


def names(vectors: Any) -> Any:
    return [v["name"] for v in vectors]


def expect(vector: Dict[str, Any], c: je.Classification) -> None:
    """`c` says exactly what the vector says."""
    got = c.to_dict()
    assert set(got) == set(FIELDS)
    for field in FIELDS:
        if field == "reason" and vector["kind"] == "parse_error":
            # The text is the implementation's own: there must be one.
            assert isinstance(got["reason"], str) and got["reason"], vector["name"]
            continue
        assert got[field] == vector[field], (vector["name"], field)
    # The typed attributes agree with the dict.
    assert c.kind == vector["kind"] and isinstance(c.kind, je.Kind)
    assert c.id_kind == vector["id_kind"] and isinstance(c.id_kind, je.IdKind)
    assert c.spans == {name: tuple(span) for name, span in vector["spans"].items()}
    assert c.reply("server") == c.reply(je.Role.SERVER) == vector["reply_server"]
    assert c.reply("client") == c.reply(je.Role.CLIENT) == vector["reply_client"]


@pytest.mark.parametrize("vector", ENVELOPE, ids=names(ENVELOPE))
def test_classify(vector: Dict[str, Any]) -> None:
    line = vector_bytes(vector, "line")
    c = je.classify(line)
    expect(vector, c)
    assert c.line == line
    # The same through every accepted input type.
    for other in (bytearray(line), memoryview(line)):
        assert je.classify(other).to_dict() == c.to_dict()
    if "line" in vector:
        assert je.classify(vector["line"]).to_dict() == c.to_dict()


@pytest.mark.parametrize("vector", ENVELOPE, ids=names(ENVELOPE))
def test_invalid_reply(vector: Dict[str, Any]) -> None:
    line = vector_bytes(vector, "line")
    assert je.invalid_reply(line) == vector["reply_server"]
    assert je.invalid_reply(line, "server") == vector["reply_server"]
    assert je.invalid_reply(line, je.Role.CLIENT) == vector["reply_client"]
    assert je.invalid_reply(bytearray(line), role="client") == vector["reply_client"]


@pytest.mark.parametrize("vector", ENVELOPE, ids=names(ENVELOPE))
def test_helpers_agree_with_the_vector(vector: Dict[str, Any]) -> None:
    c = je.classify(vector_bytes(vector, "line"))
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


def test_the_vectors_as_one_stream() -> None:
    """Every vector line without an LF inside, read as one stream: the same
    classifications, in order, as line by line."""
    lines = [vector_bytes(v, "line") for v in ENVELOPE]
    lines = [line for line in lines if b"\n" not in line]
    assert len(lines) > 90
    for role in ("server", "client"):
        got = list(je.read_messages(io.BytesIO(b"\n".join(lines)), role=role))
        assert [line for line, _ in got] == lines
        for (line, c), vector_line in zip(got, lines):
            assert isinstance(c, je.Classification)
            assert c.to_dict() == je.classify(vector_line).to_dict()
            assert c.reply() == je.invalid_reply(line, role)
            assert c.role == role


def test_every_kind_and_id_kind_is_covered() -> None:
    assert {v["kind"] for v in ENVELOPE} == {k.value for k in je.Kind if k is not je.Kind.TOO_LONG}
    assert {v["id_kind"] for v in ENVELOPE} == {k.value for k in je.IdKind}
