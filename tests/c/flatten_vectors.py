#!/usr/bin/env python3
"""Flattens the shared JSON vectors into a line format C reads without a JSON parser.

Usage: flatten_vectors.py ENVELOPE_JSONL LOG_VALUE_JSONL MCP_JSONL OUT
       (OUT is a path, or - for stdout)

Output: lines starting with `#` are comments. Every other line is one record:
a record type (`envelope` or `log_value`) then tab-separated `key=value` fields,
always all of them, in a fixed order:

  envelope  at profile name line kind id_kind id method jsonrpc_2_0 has_result
            has_error names_no_request id_span method_span params_span
            result_span error_span reason reply_server reply_client substitute
  log_value at name input output

The records of ENVELOPE_JSONL come first, with profile `jsonrpc` (SPEC
sections 1 to 7) and no substitute (only the MCP profile gives one); then
those of MCP_JSONL, with profile `mcp` (SPEC section 10) and their own
`substitute`; then those of LOG_VALUE_JSONL.

Values:
  at         the record's 1-based line number in its source file
  profile    `jsonrpc` or `mcp`: the rule set the line is classified by
  bytes      lowercase hex of the bytes (UTF-8 for a JSON string; empty for
             an empty string), or `-` for JSON null / absent
  reason     as bytes, or `+` where any non-empty reason is accepted
             (parse_error: the text is the implementation's own; mcp.jsonl
             may give null for it)
  booleans   0 or 1
  spans      `offset,len`, or `-` when the member is absent
  kind, id_kind  the vector's own names (`request`, `number`, ...)
"""

import json
import sys

USAGE = "usage: flatten_vectors.py ENVELOPE_JSONL LOG_VALUE_JSONL MCP_JSONL OUT   (OUT: a path, or - for stdout)"

ABSENT = "-"
ANY_REASON = "+"

KINDS = {"empty", "parse_error", "batch", "not_object", "invalid_request",
         "request", "notification", "response", "not_jsonrpc"}
MCP_KINDS = KINDS | {"invalid_response"}
ID_KINDS = {"absent", "null", "string", "number", "object", "array", "boolean"}
FLAGS = ("jsonrpc_2_0", "has_result", "has_error", "names_no_request")
SPANS = ("id", "method", "params", "result", "error")
ENVELOPE_KEYS = {"name", "line", "line_hex", "kind", "id_kind", "id", "method",
                 *FLAGS, "spans", "reason", "reply_server", "reply_client"}
MCP_KEYS = ENVELOPE_KEYS | {"substitute"}
LOG_KEYS = {"name", "input", "input_hex", "output"}


class VectorError(Exception):
    pass


def text_hex(value):
    """A JSON string (or null) as hex of its UTF-8 bytes (or the absent marker)."""
    if value is None:
        return ABSENT
    if not isinstance(value, str):
        raise VectorError(f"expected a string or null, got {value!r}")
    return value.encode("utf-8").hex()


def input_hex(record, text_key, hex_key):
    """The input bytes as hex, from the text field or the hex field."""
    if (text_key in record) == (hex_key in record):
        raise VectorError(f"needs exactly one of {text_key!r} and {hex_key!r}")
    if text_key in record:
        return text_hex(record[text_key])
    return bytes.fromhex(record[hex_key]).hex()


def flag(record, key):
    value = record[key]
    if not isinstance(value, bool):
        raise VectorError(f"{key} is not a boolean: {value!r}")
    return "1" if value else "0"


def span(spans, key):
    if key not in spans:
        return ABSENT
    offset, length = spans[key]
    if not (isinstance(offset, int) and isinstance(length, int)) or offset < 0 or length <= 0:
        raise VectorError(f"bad span for {key}: {spans[key]!r}")
    return f"{offset},{length}"


def reason(record, profile):
    if record["kind"] == "parse_error":
        # envelope.jsonl gives a text of its own; mcp.jsonl may give null.
        if not record["reason"] and profile == "jsonrpc":
            raise VectorError("a parse_error vector needs a reason")
        return ANY_REASON
    return text_hex(record["reason"])


def one_of(record, key, allowed):
    value = record[key]
    if value not in allowed:
        raise VectorError(f"unknown {key}: {value!r}")
    return value


def envelope_fields(record, profile="jsonrpc"):
    spans = record["spans"]
    unknown_spans = set(spans) - set(SPANS)
    if unknown_spans:
        raise VectorError(f"unknown spans: {sorted(unknown_spans)}")
    return [
        ("profile", profile),
        ("name", text_hex(record["name"])),
        ("line", input_hex(record, "line", "line_hex")),
        ("kind", one_of(record, "kind", MCP_KINDS if profile == "mcp" else KINDS)),
        ("id_kind", one_of(record, "id_kind", ID_KINDS)),
        ("id", text_hex(record["id"])),
        ("method", text_hex(record["method"])),
        *((key, flag(record, key)) for key in FLAGS),
        *((f"{key}_span", span(spans, key)) for key in SPANS),
        ("reason", reason(record, profile)),
        ("reply_server", text_hex(record["reply_server"])),
        ("reply_client", text_hex(record["reply_client"])),
        ("substitute", text_hex(record["substitute"]) if profile == "mcp" else ABSENT),
    ]


def mcp_fields(record):
    return envelope_fields(record, "mcp")


def log_fields(record):
    return [
        ("name", text_hex(record["name"])),
        ("input", input_hex(record, "input", "input_hex")),
        ("output", text_hex(record["output"])),
    ]


def flatten(path, record_type, known_keys, fields_of):
    """Yields one flat line for each record of a JSONL file."""
    with open(path, encoding="utf-8") as source:
        for number, text in enumerate(source, start=1):
            if not text.strip():
                continue
            try:
                record = json.loads(text)
                unknown = set(record) - known_keys
                if unknown:
                    raise VectorError(f"unknown fields: {sorted(unknown)}")
                fields = [("at", str(number))] + fields_of(record)
            except (VectorError, KeyError, TypeError, ValueError) as error:
                raise SystemExit(f"{path}:{number}: {error}") from error
            yield "\t".join([record_type] + [f"{key}={value}" for key, value in fields])


def main(argv):
    if len(argv) != 5:
        raise SystemExit(USAGE)
    envelope_path, log_path, mcp_path, out_path = argv[1:]
    lines = [f"# flattened from {envelope_path}, {mcp_path} and {log_path} by flatten_vectors.py"]
    lines += flatten(envelope_path, "envelope", ENVELOPE_KEYS, envelope_fields)
    lines += flatten(mcp_path, "envelope", MCP_KEYS, mcp_fields)
    lines += flatten(log_path, "log_value", LOG_KEYS, log_fields)
    text = "".join(line + "\n" for line in lines)
    if out_path == "-":
        sys.stdout.write(text)
    else:
        with open(out_path, "w", encoding="ascii", newline="\n") as out:
            out.write(text)


if __name__ == "__main__":
    main(sys.argv)
