"""Sessions against the official SDKs' stdio servers (issue 22): every
vector line and SESSIONS_LINES random lines, each followed by a ping (see
harness.py and conftest.py). On our transports and behind the guard, for
every SDK: no session ends, every ping is answered, every request the MCP
profile calls valid gets a response with its own id, and every reply the
library owes comes back byte for byte. The controls (each SDK's server on
its own transport) are recorded, not asserted; the table of all of them is
printed at the end of the run and written to target/sessions/servers.md.
"""

import pytest

from conftest import MODES, SDKS, run_all, vector_lines
from harness import Stats

CHECKED = [(sdk, mode) for sdk in SDKS for mode in ("ours", "guard")]


def stats_of(sdk: str, mode: str) -> Stats:
    result = run_all()[(sdk, mode)]
    if not isinstance(result, Stats):
        pytest.fail(f"{sdk}/{mode} did not run: {result}")
    return result


def failures(stats: Stats, count: int = 8) -> str:
    shown = "\n".join(f.render() for f in stats.failures[:count])
    return f"{stats.as_dict()}\n{shown}\n(all of them in target/sessions/failures.txt)"


@pytest.mark.parametrize("sdk,mode", CHECKED, ids=[f"{s}-{m}" for s, m in CHECKED])
def test_no_session_ends_and_every_request_is_answered(sdk, mode):
    s = stats_of(sdk, mode)
    assert s.lines > 0
    got = (s.ended, s.pings_unanswered, s.requests_unanswered, s.replies_wrong)
    assert got == (0, 0, 0, 0), "(sessions ended, pings unanswered, valid requests unanswered, owed replies wrong)\n" + failures(s)


@pytest.mark.parametrize("sdk", SDKS)
def test_the_control_ran(sdk):
    """The control's numbers go to the table; asserted is only that it ran
    every vector line (it was started again after every death)."""
    s = stats_of(sdk, "control")
    assert s.lines == len(vector_lines("envelope.jsonl", "mcp.jsonl"))
    assert s.starts == s.ended + s.pings_unanswered + 1 or s.starts == s.ended + s.pings_unanswered


@pytest.mark.parametrize("sdk", SDKS)
def test_on_ours_the_sdk_decoder_never_refuses_what_the_profile_calls_a_request(sdk):
    """SPEC 10.4: the fallback for a line the SDK's own decoder refuses
    (answered -32600 "the receiving MCP SDK cannot read this request") is
    never taken on the vectors and on random lines."""
    s = stats_of(sdk, "ours")
    refused = [f for f in s.failures if f.check.startswith("valid request refused")]
    assert s.refused == 0, "\n".join(f.render() for f in refused[:8])
