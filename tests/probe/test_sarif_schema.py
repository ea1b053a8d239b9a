"""The SARIF validator bites: a minimal hand-written SARIF 2.1.0 log, of the
shape the probe's --sarif writes (one run, one result per failure), passes
the official schema, and the same log with a level SARIF does not have, or
without its tool, does not."""

from __future__ import annotations

import copy
import json

import pytest

from sarif_schema import SCHEMA_ID, schema_path, validate

LOG = {
    "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
    "version": "2.1.0",
    "runs": [
        {
            "tool": {"driver": {"name": "jsonrpc-envelope"}},
            "results": [
                {
                    "ruleId": "SPEC-10.6",
                    "level": "error",
                    "message": {"text": "the line's reply was never written"},
                }
            ],
        }
    ],
}


def test_the_schema_is_the_official_sarif_2_1_0() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    assert schema["id"] == SCHEMA_ID
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]


def test_a_minimal_log_is_valid() -> None:
    validate(LOG)
    for level in ("warning", "note"):
        log = copy.deepcopy(LOG)
        log["runs"][0]["results"][0]["level"] = level
        validate(log)


def _broken(change) -> dict:
    log = copy.deepcopy(LOG)
    change(log)
    return log


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda log: log["runs"][0]["results"][0].update(level="fatal"), "/runs/0/results/0/level"),
        (lambda log: log["runs"][0].pop("tool"), "/runs/0"),
        (lambda log: log.update(version="2.0.0"), "/version"),
        (lambda log: log["runs"][0]["results"][0]["message"].pop("text"), "/runs/0/results/0/message"),
    ],
    ids=["level fatal", "no tool", "version 2.0.0", "message without text"],
)
def test_an_invalid_log_is_rejected(change, where) -> None:
    with pytest.raises(AssertionError, match="not a valid SARIF 2.1.0 log") as raised:
        validate(_broken(change))
    assert f"at {where}:" in str(raised.value)
