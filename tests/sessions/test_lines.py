"""The random line generator (lines.py) keeps its promises, which the
session tests rely on; its lines cover every kind of the MCP profile (as the
library classifies them)."""

from conftest import RANDOM_LINES, SEED, random_lines
from harness import MCP, je
from lines import LineGenerator, reserved

KINDS = {
    "request", "notification", "response", "invalid_request", "invalid_response",
    "parse_error", "batch", "not_object", "empty", "not_jsonrpc",
}


def test_the_same_seed_gives_the_same_lines_and_another_seed_others():
    assert LineGenerator(SEED).lines(300) == random_lines(RANDOM_LINES)[:300]
    assert LineGenerator(SEED + 1).lines(300) != LineGenerator(SEED).lines(300)


def test_a_line_is_one_line_and_never_carries_a_drivers_id():
    for line in random_lines() + random_lines(direction="to_client"):
        assert b"\n" not in line
        assert not reserved(line), line
    # The check sees ids through escapes, and inside batches.
    assert reserved(b'{"jsonrpc":"2.0","id":"\\u0064rv-1","result":{}}')
    assert reserved(b'[{"jsonrpc":"2.0","id":"drv-7","error":{"code":1,"message":"m"}}]')
    assert not reserved(b'{"jsonrpc":"2.0","id":"drv","result":{}}')


def test_every_request_is_a_ping_or_tools_list_and_every_kind_is_there():
    seen = set()
    for line in random_lines():
        c = je.classify(line, profile=MCP)
        seen.add(str(c.kind))
        if c.kind == je.Kind.REQUEST:
            assert c.method in ("ping", "tools/list"), line
    assert seen == KINDS
