"""A seeded generator of odd and broken JSON-RPC lines, for the session tests.

    LineGenerator(seed, direction="to_server").lines(5000)  # the same 5000 lines for every run with that seed
    python3 tests/sessions/lines.py [COUNT] [SEED]          # prints them, one a line

It makes what a peer may really write, most of it wrong in one or two ways:
ids of every kind (fractions, exponents, 1e400, integers at and beyond
2^53, -0, strings with escapes, surrogate pairs and lone surrogates, null,
booleans, objects, arrays), `jsonrpc` missing, "1.0" or 2.0, params of every
kind, `_meta` and `progressToken` of every kind, members MCP does not name,
escaped and duplicated member names, responses with bad ids, results, codes
and messages, errors that name no request, batches, bare values, damage
(truncation, bytes that are not UTF-8, raw control characters, a BOM),
whitespace and CRs, and long strings.

Its promises, which the tests rely on:
- A line holds no LF (it is one line on the pipe); it may hold a CR.
- No id, anywhere in a line, is a string starting with `drv-`: those are the
  drivers' own request ids, and no generated response can answer them.
- A request's method is `ping` or `tools/list` (sometimes with escapes), so
  a request the library calls valid is always one the SDK can answer.
- `direction="to_client"` makes notifications a client may receive.

The generator never consults the library: what each line is, and what it is
owed, the tests ask the library separately.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Callable, List, Optional, Tuple

RESERVED_PREFIX = "drv-"
SAFE = 2**53 - 1

REQUEST_METHODS = ("ping", "tools/list")
NOTIFICATIONS = {
    "to_server": ("notifications/initialized", "notifications/roots/list_changed"),
    "to_client": ("notifications/tools/list_changed", "notifications/resources/list_changed"),
}

# Strings as their decoded text; each is written with or without escapes.
PLAIN_STRINGS = ["a", "", "req-1", "x y", "ping", "0", "1", "null", "日本語", "é", "tab\there", "quote\"d", "back\\slash", "a/b"]
# Surrogates: a pair (fine in MCP), lone ones (not).
PAIR = "\U0001f600"  # written raw or as \ud83d\ude00
LONE = ["\ud800", "\udc00", "\udbff", "\udfff"]


class LineGenerator:
    def __init__(self, seed: int, direction: str = "to_server") -> None:
        if direction not in NOTIFICATIONS:
            raise ValueError(f"direction must be one of {sorted(NOTIFICATIONS)}, not {direction!r}")
        self.rng = random.Random(seed)
        self.direction = direction

    # ---- small pieces ------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, options):
        return options[self.rng.randrange(len(options))]

    def ws(self) -> str:
        """JSON whitespace between tokens: mostly none."""
        if self.chance(0.9):
            return ""
        return "".join(self.pick(" \t\r") for _ in range(self.rng.randint(1, 3)))

    def jstring(self, text: str, escape: Optional[float] = None) -> str:
        """`text` as a JSON string; each character escaped with probability
        `escape` (lone surrogates always are, as UTF-8 cannot carry them)."""
        if escape is None:
            escape = self.pick((0.0, 0.0, 0.0, 0.2, 1.0))
        out = ['"']
        for ch in text:
            code = ord(ch)
            if 0xD800 <= code <= 0xDFFF:
                out.append(f"\\u{code:04x}")
            elif code > 0xFFFF and self.chance(escape):
                v = code - 0x10000
                out.append(f"\\u{0xD800 + (v >> 10):04x}\\u{0xDC00 + (v & 0x3FF):04x}")
            elif ch == '"':
                out.append('\\"')
            elif ch == "\\":
                out.append("\\\\")
            elif code < 0x20:
                out.append(self.pick(({"\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}.get(ch, f"\\u{code:04x}"), f"\\u{code:04x}")))
            elif ch == "/" and self.chance(escape):
                out.append("\\/")
            elif self.chance(escape):
                out.append(f"\\u{code:04x}" if code <= 0xFFFF else ch)
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)

    def member_name(self, name: str) -> str:
        """A member name, sometimes with escapes (`\\u0069d`)."""
        return self.jstring(name, self.pick((0.0, 0.0, 0.0, 0.0, 0.3, 1.0)))

    def string_text(self) -> str:
        """A decoded string for an id or token: plain, a pair, lone
        surrogates, control characters, long."""
        r = self.rng.random()
        if r < 0.45:
            return self.pick(PLAIN_STRINGS) + (str(self.rng.randint(0, 999)) if self.chance(0.5) else "")
        if r < 0.60:
            return self.pick(("", "x", "a")) + PAIR + self.pick(("", "b"))
        if r < 0.75:
            lone = self.pick(LONE)
            return self.pick(("", "x")) + lone + self.pick(("", "A", PAIR))
        if r < 0.80:
            # A high surrogate followed by a low one across text: still a pair
            # only when adjacent.
            return "\ud83d" + self.pick(("\ude00", "A\ude00", ""))
        if r < 0.88:
            return "".join(chr(self.rng.randint(0, 0x1F)) for _ in range(self.rng.randint(1, 4)))
        if r < 0.94:
            return "".join(chr(self.rng.randint(0x20, 0x2FFF)) for _ in range(self.rng.randint(1, 12)))
        return "s" * self.rng.choice((100, 1000, 10_000))

    def integer_text(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return str(self.rng.randint(0, 1000))
        if r < 0.45:
            return str(self.rng.randint(-1000, -1))
        if r < 0.55:
            return self.pick(("0", "-0"))
        if r < 0.70:
            return str(self.pick((SAFE, -SAFE, SAFE - 1, -SAFE + 1)))
        if r < 0.80:
            return str(self.rng.randint(-SAFE, SAFE))
        if r < 0.90:
            return str(self.pick((SAFE + 1, -SAFE - 1, SAFE + 2, 2**63 - 1, 2**63, 2**64, -(2**63) - 1)))
        return str(self.rng.randint(10**19, 10**30) * self.pick((1, -1)))

    def number_text(self) -> str:
        """A number that is not an integer by MCP's rule, or is one."""
        r = self.rng.random()
        if r < 0.4:
            return self.integer_text()
        return self.pick(
            (
                "1.5", "1.0", "0.0", "-0.0", "1e2", "1E2", "1e+2", "1E-2", "1e400", "-1e400", "1e-400",
                "2.5", "10e0", "9007199254740991.0", "0.1", "-1.5e3", "123456789012345678901234567890.5",
            )
        )

    def id_text(self) -> str:
        """An id's JSON text: any kind, never a reserved string."""
        r = self.rng.random()
        if r < 0.30:
            return self.integer_text()
        if r < 0.45:
            return self.number_text()
        if r < 0.75:
            return self.jstring(self.string_text())
        if r < 0.82:
            return "null"
        if r < 0.88:
            return self.pick(("true", "false"))
        if r < 0.94:
            return self.pick(("{}", '{"a":1}', '{"id":1}'))
        return self.pick(("[]", "[1]", '["a"]'))

    def valid_id_text(self) -> str:
        """An id MCP accepts (mostly), for lines meant to be good."""
        if self.chance(0.5):
            return str(self.pick((self.rng.randint(0, 100_000), self.rng.randint(-SAFE, SAFE), SAFE, -SAFE, 0)))
        return self.jstring(self.pick(PLAIN_STRINGS + ["a" + PAIR, "id-" + str(self.rng.randint(0, 99))]))

    def any_value(self, depth: int = 0) -> str:
        r = self.rng.random()
        if r < 0.2:
            return self.number_text()
        if r < 0.4:
            return self.jstring(self.string_text())
        if r < 0.5:
            return self.pick(("true", "false", "null"))
        if r < 0.7 or depth > 2:
            return self.pick(("{}", "[]", '{"a":[1,2,{"b":null}]}', "[[[]]]"))
        if r < 0.85:
            return self.obj([(self.member_name(self.pick(("a", "b", "_meta", "x"))), self.any_value(depth + 1)) for _ in range(self.rng.randint(0, 3))])
        return "[" + ",".join(self.any_value(depth + 1) for _ in range(self.rng.randint(0, 3))) + "]"

    def obj(self, members: List[Tuple[str, str]]) -> str:
        w = self.ws
        return "{" + w() + ("," + w()).join(f"{name}{w()}:{w()}{value}" for name, value in members) + w() + "}"

    # ---- the parts of a message -------------------------------------------

    def jsonrpc_member(self) -> Optional[str]:
        """The jsonrpc value's text, or None for no member."""
        r = self.rng.random()
        if r < 0.85:
            return self.jstring("2.0", self.pick((0.0, 0.0, 0.0, 1.0)))
        return self.pick((None, '"1.0"', "2.0", "2", "null", '"2.0 "', '"2"', "{}"))

    def meta(self) -> str:
        """A `_meta` value: an object with or without a progressToken, or not an object."""
        r = self.rng.random()
        if r < 0.6:
            members = []
            if self.chance(0.7):
                token = self.valid_id_text() if self.chance(0.4) else self.id_text()
                members.append((self.member_name("progressToken"), token))
            if self.chance(0.3):
                members.append(('"other"', self.any_value()))
            return self.obj(members)
        return self.pick(("null", "5", '"x"', "[]", "true", "[{}]"))

    def params_member(self) -> Optional[str]:
        """The params value's text, or None for no member."""
        r = self.rng.random()
        if r < 0.3:
            return None
        if r < 0.45:
            return "{}"
        if r < 0.75:
            members = []
            if self.chance(0.7):
                members.append((self.member_name("_meta"), self.meta()))
            if self.chance(0.3):
                members.append(('"extra"', self.any_value()))
            return self.obj(members)
        if r < 0.85:
            return self.pick(("null", "5", '"bar"', "[1]", "[]", "true", "1.5"))
        return self.obj([('"a"', self.any_value())])

    def extra_members(self) -> List[Tuple[str, str]]:
        """Members MCP does not name, or duplicates and case variants."""
        if self.chance(0.75):
            return []
        return [
            self.pick(
                (
                    ('"x"', "1"), ('"extra"', "true"), ('""', "1"), ('"ID"', "1"), ('"Method"', '"evil"'),
                    ('"result"', "{}"), ('"error"', '{"code":1,"message":"m"}'), ('"params2"', "{}"),
                    ('"jsonrpc "', '"2.0"'),
                )
            )
            for _ in range(self.rng.randint(1, 2))
        ]

    def shuffle_members(self, members: List[Tuple[str, str]]) -> List[Tuple[str, str]]:
        if self.chance(0.3):
            self.rng.shuffle(members)
        return members

    def method_text(self, request: bool) -> str:
        if self.chance(0.08):
            return self.pick(("1", "null", "{}", "[]", "true", "1.5"))  # not a string
        names = REQUEST_METHODS if request else NOTIFICATIONS[self.direction]
        return self.jstring(self.pick(names), self.pick((0.0, 0.0, 0.0, 0.0, 0.2)))

    def duplicate(self, members: List[Tuple[str, str]], name: str, values: Callable[[], str]) -> List[Tuple[str, str]]:
        """Sometimes the member `name` twice: the last one counts."""
        if self.chance(0.08):
            at = self.rng.randrange(len(members) + 1)
            members.insert(at, (self.member_name(name), values()))
        return members

    # ---- messages ----------------------------------------------------------

    def request(self) -> str:
        members = []
        jsonrpc = self.jsonrpc_member()
        if jsonrpc is not None:
            members.append((self.member_name("jsonrpc"), jsonrpc))
        good = self.chance(0.35)
        members.append((self.member_name("id"), self.valid_id_text() if good else self.id_text()))
        members.append((self.member_name("method"), self.method_text(True)))
        params = self.params_member()
        if params is not None:
            members.append((self.member_name("params"), params))
        members += self.extra_members()
        members = self.duplicate(members, "id", self.id_text)
        members = self.duplicate(members, "method", lambda: self.method_text(True))
        members = self.duplicate(members, "jsonrpc", lambda: self.jsonrpc_member() or '"2.0"')
        return self.obj(self.shuffle_members(members))

    def good_request(self) -> str:
        """A request the profile accepts, with the odd but valid parts."""
        members = [
            (self.member_name("jsonrpc"), self.jstring("2.0", self.pick((0.0, 1.0)))),
            (self.member_name("id"), self.valid_id_text()),
            (self.member_name("method"), self.jstring(self.pick(REQUEST_METHODS), self.pick((0.0, 0.0, 0.5)))),
        ]
        if self.chance(0.6):
            params = []
            if self.chance(0.5):
                meta = []
                if self.chance(0.7):
                    meta.append((self.member_name("progressToken"), self.valid_id_text()))
                params.append((self.member_name("_meta"), self.obj(meta)))
            members.append((self.member_name("params"), self.obj(params)))
        return self.obj(self.shuffle_members(members))

    def notification(self) -> str:
        members = []
        jsonrpc = self.jsonrpc_member()
        if jsonrpc is not None:
            members.append((self.member_name("jsonrpc"), jsonrpc))
        members.append((self.member_name("method"), self.method_text(False)))
        params = self.params_member()
        if params is not None:
            members.append((self.member_name("params"), params))
        members += self.extra_members()
        members = self.duplicate(members, "method", lambda: self.method_text(False))
        return self.obj(self.shuffle_members(members))

    def error_object(self) -> str:
        r = self.rng.random()
        if r < 0.15:
            return self.pick(('"boom"', "5", "null", "[]", "true"))
        members = []
        if self.chance(0.85):
            code = self.pick(("-32000", "-32601", "-32700", "1", "0", "-1")) if self.chance(0.5) else self.pick((self.number_text(), '"x"', "null", "true", "{}"))
            members.append((self.member_name("code"), code))
        if self.chance(0.85):
            message = self.jstring(self.string_text()) if self.chance(0.7) else self.pick(("5", "null", "{}", "[]", "false"))
            members.append((self.member_name("message"), message))
        if self.chance(0.2):
            members.append(('"data"', self.any_value()))
        return self.obj(self.shuffle_members(members))

    def response(self) -> str:
        members = []
        jsonrpc = self.jsonrpc_member()
        if jsonrpc is not None:
            members.append((self.member_name("jsonrpc"), jsonrpc))
        r = self.rng.random()
        if r < 0.8:
            members.append((self.member_name("id"), self.id_text()))
        r = self.rng.random()
        if r < 0.45:
            members.append((self.member_name("result"), self.pick(("{}", '{"tools":[]}')) if self.chance(0.6) else self.any_value()))
        elif r < 0.9:
            members.append((self.member_name("error"), self.error_object()))
        elif r < 0.95:
            members.append(('"result"', "{}"))
            members.append(('"error"', self.error_object()))
        if self.chance(0.15):
            members.append(self.pick((('"x"', "1"), ('"params"', "{}"), ('"ID"', "1"))))
        members = self.duplicate(members, "id", self.id_text)
        return self.obj(self.shuffle_members(members))

    def batch(self) -> str:
        items = [self.pick((self.request, self.response, self.notification, lambda: self.pick(("1", '"x"', "null", "[]"))))() for _ in range(self.rng.randint(0, 3))]
        return "[" + self.ws() + ",".join(items) + self.ws() + "]"

    def scalar(self) -> str:
        return self.pick((self.number_text(), self.jstring(self.string_text()), "true", "false", "null", '""', "-0", "1e400"))

    def not_jsonrpc(self) -> str:
        return self.pick(
            (
                '{"level":"info","msg":"ready"}', "{}", '{"jsonrpc":"2.0"}', '{"ID":1,"METHOD":"ping"}',
                '{"result":{}}', '{"error":{"code":1,"message":"m"}}', '{"params":{}}',
            )
        )

    def message(self) -> str:
        r = self.rng.random()
        if r < 0.30:
            return self.request()
        if r < 0.40:
            return self.good_request()
        if r < 0.52:
            return self.notification()
        if r < 0.75:
            return self.response()
        if r < 0.81:
            return self.batch()
        if r < 0.86:
            return self.scalar()
        return self.not_jsonrpc()

    # ---- bytes -------------------------------------------------------------

    def damage(self, line: bytes) -> bytes:
        """One kind of damage to a line's bytes."""
        r = self.rng.random()
        if r < 0.3 and len(line) > 1:
            return line[: self.rng.randrange(1, len(line))]  # truncated
        if r < 0.55:
            bad = self.pick((b"\xff", b"\xfe", b"\x80", b"\xc0\x80", b"\xc3", b"\xe6\x97", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80"))
            at = self.rng.randrange(len(line) + 1)
            return line[:at] + bad + line[at:]
        if r < 0.75:
            # A raw control character (or NUL), anywhere: inside a string it
            # breaks JSON, between tokens too, except tab and CR.
            ctrl = bytes([self.pick((0, 1, 8, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F))])
            at = self.rng.randrange(len(line) + 1)
            return line[:at] + ctrl + line[at:]
        if r < 0.85:
            return self.pick((b"\xef\xbb\xbf" + line, line + b" x", line + line, line + b",", b"x" + line, line.replace(b'"', b"'", 2)))
        return line.replace(b":", b"", 1) if b":" in line else line + b"}"

    def long_line(self) -> str:
        size = self.pick((4096, 16384, 65536, 300_000))
        text = self.pick(("a", "é", PAIR, "\\u00e9"))
        body = '"' + (text * (size // max(1, len(text.encode())))) + '"'
        kind = self.rng.random()
        if kind < 0.5:
            return self.obj([('"jsonrpc"', '"2.0"'), ('"id"', self.valid_id_text()), ('"method"', '"ping"'), ('"params"', self.obj([('"blob"', body)]))])
        if kind < 0.8:
            return self.obj([('"jsonrpc"', '"2.0"'), ('"id"', self.id_text()), ('"result"', self.obj([('"blob"', body)]))])
        return body

    def raw(self) -> bytes:
        r = self.rng.random()
        if r < 0.78:
            line = self.message().encode("utf-8", "surrogatepass")
        elif r < 0.93:
            line = self.damage(self.message().encode("utf-8", "surrogatepass"))
        elif r < 0.99:
            line = self.pick((b"", b" ", b"\t", b"\r", b" \t\r ", b"not json", b"Loading tools...", b"\x00", b"//"))
        else:
            line = self.long_line().encode("utf-8", "surrogatepass")
        # Whitespace around the line, a CR before its LF.
        if self.chance(0.05):
            line = self.pick((b" ", b"\t", b"\r")) + line
        if self.chance(0.08):
            line = line + self.pick((b"\r", b" ", b"\t", b" \r"))
        return line

    def line(self) -> bytes:
        """One line, without its LF."""
        while True:
            line = self.raw().replace(b"\n", b"")
            if not reserved(line):
                return line

    def lines(self, count: int) -> List[bytes]:
        return [self.line() for _ in range(count)]


def _ids(value) -> List[object]:
    """The ids a JSON value carries where a peer would look for them: its
    own id members, and those of a batch's items."""
    if isinstance(value, dict):
        return [value["id"]] if "id" in value else []
    if isinstance(value, list):
        return [i for item in value for i in _ids(item)]
    return []


def reserved(line: bytes) -> bool:
    """Whether a line carries a reserved id (decoded, escapes and all), or
    holds the reserved prefix at all where it cannot be decoded."""
    try:
        value = json.loads(line.decode("utf-8", "surrogatepass"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return RESERVED_PREFIX.encode() in line
    return any(isinstance(i, str) and i.startswith(RESERVED_PREFIX) for i in _ids(value))


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 22
    out = sys.stdout.buffer
    for line in LineGenerator(seed).lines(count):
        out.write(line + b"\n")
