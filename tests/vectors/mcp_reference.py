#!/usr/bin/env python3
"""An independent reference for the MCP-profile vectors (docs/SPEC.md 1-4, 10.1-10.3, 10.6).

It shares no code with the library: a small scanner of its own, written from
the SPEC, computes every field. It makes tests/vectors/mcp.jsonl and checks it.
Section 10.6: (a) a byte order mark, (b) a batch's replies and (c) a damaged
line's readable members are in the vectors; (d), a line too long to read, is
no single-line vector, but too_long() reads the first bytes of one as (c) says.

    python3 tests/vectors/mcp_reference.py --write   # writes mcp.jsonl
    python3 tests/vectors/mcp_reference.py --check   # checks the reference and the file
    python3 tests/vectors/mcp_reference.py --against CLI [LINES]
                                         # the CLI's classify against the reference

--check compares the reference, in the JSON-RPC profile, with every line of
envelope.jsonl; in the MCP profile with every named case of the shared
mcp.jsonl (../shared/vectors, else the named cases of tests/vectors/mcp.jsonl);
and checks that tests/vectors/mcp.jsonl is what --write makes. --against runs
`CLI classify --profile mcp` (the library's command-line tool) over LINES
(default 6000) seeded random MCP-shaped lines (members in and out of
params._meta and error, escaped names, ids, numbers and strings at the
rules' edges, deep nesting, whitespace) and compares every field with the
reference's. Python 3 stdlib only.
"""
import json
import math
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ENVELOPE = os.path.join(HERE, "envelope.jsonl")
MCP = os.path.join(HERE, "mcp.jsonl")
SHARED_MCP = os.path.join(HERE, "..", "..", "..", "shared", "vectors", "mcp.jsonl")

FIELDS = ["kind", "id_kind", "id", "method", "jsonrpc_2_0", "has_result", "has_error",
          "names_no_request", "spans", "reason", "reply_server", "reply_client", "substitute"]
SPANNED = ["id", "method", "params", "result", "error"]
KIND_TEXT = {"object": "an object", "array": "an array", "boolean": "a boolean",
             "number": "a number", "string": "a string", "null": "null"}
MAX_SAFE = 2 ** 53 - 1
SUBSTITUTE = "Internal error: the peer's response to this request is not valid MCP"

# ---- a strict RFC 8259 scanner over the line's bytes (iterative: no depth limit)

WS = re.compile(rb"[ \t\r\n]*")
NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
STRING = re.compile(rb'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')


class ParseError(Exception):
    pass


def skip_ws(b, i):
    return WS.match(b, i).end()


def scan_string(b, i):
    """The end of the string token at b[i], which must be one."""
    m = STRING.match(b, i)
    if not m:
        raise ParseError("not a valid string at byte %d" % i)
    return m.end()


def scan_member_name(b, i):
    """Scans `"name" :` from b[i]; returns (raw name bytes, index after the colon)."""
    i = skip_ws(b, i)
    if i >= len(b) or b[i] != ord('"'):
        raise ParseError("expected a member name at byte %d" % i)
    end = scan_string(b, i)
    colon = skip_ws(b, end)
    if colon >= len(b) or b[colon] != ord(":"):
        raise ParseError("expected ':' at byte %d" % colon)
    return b[i:end], colon + 1


def scan_value(b, i):
    """Returns the end of the one JSON value starting at or after b[i] (whitespace first)."""
    stack = []  # the open containers, b"{" or b"["
    while True:
        i = skip_ws(b, i)
        if i >= len(b):
            raise ParseError("expected a value at the end of the line")
        c = b[i:i + 1]
        if c in (b"{", b"["):
            close = b"}" if c == b"{" else b"]"
            j = skip_ws(b, i + 1)
            if b[j:j + 1] != close:
                stack.append(c)
                i = scan_member_name(b, j)[1] if c == b"{" else j
                continue
            i = j + 1
        elif c == b'"':
            i = scan_string(b, i)
        elif b.startswith((b"true", b"null"), i):
            i += 4
        elif b.startswith(b"false", i):
            i += 5
        else:
            m = NUMBER.match(b, i)
            if not m:
                raise ParseError("unexpected byte 0x%02x at %d" % (b[i], i))
            i = m.end()
        # A value ended: close what it ends, or go on to the next element.
        while stack:
            i = skip_ws(b, i)
            c = b[i:i + 1]
            if c == b",":
                i = scan_member_name(b, i + 1)[1] if stack[-1] == b"{" else i + 1
                break
            if c != (b"}" if stack[-1] == b"{" else b"]"):
                raise ParseError("expected ',' or a closing bracket at byte %d" % i)
            stack.pop()
            i += 1
        else:
            return i


def value_kind(b, start):
    return {ord("{"): "object", ord("["): "array", ord('"'): "string", ord("t"): "boolean",
            ord("f"): "boolean", ord("n"): "null"}.get(b[start], "number")


def object_members(b, i):
    """The members of the object at b[i] ('{'): {decoded name: (start, end, kind)}, last wins."""
    members = {}
    i = skip_ws(b, i + 1)
    if b[i:i + 1] == b"}":
        return members
    while True:
        raw, i = scan_member_name(b, i)
        start = skip_ws(b, i)
        i = scan_value(b, start)
        members[json.loads(raw.decode("utf-8"))] = (start, i, value_kind(b, start))
        i = skip_ws(b, i)
        if b[i:i + 1] == b"}":
            return members
        i += 1  # the ',' (scan_value already checked the syntax)


def decoded(b, member):
    return json.loads(b[member[0]:member[1]].decode("utf-8"))


# ---- SPEC section 10.1: what is wrong with an MCP id (or an integer), None if nothing

def integer_fault(b, member):
    if member[2] != "number":
        return KIND_TEXT[member[2]]
    raw = b[member[0]:member[1]].decode("ascii")
    if any(ch in raw for ch in ".eE"):
        return "a number with a fraction or an exponent"
    digits = raw.lstrip("-")
    if len(digits) > 16 or int(digits) > MAX_SAFE:
        return "an integer beyond 2^53 - 1"
    return None


def error_code_fault(b, member):
    """SPEC 10.3 (d): an MCP integer, within 32 bits, and not written -0."""
    what = integer_fault(b, member)
    if what:
        return what
    raw = b[member[0]:member[1]].decode("ascii")
    if raw == "-0":
        return "-0"
    if not -(2 ** 31) <= int(raw) < 2 ** 31:
        return "an integer beyond 32 bits"
    return None


def mcp_id_fault(b, member):
    if member[2] == "string":
        lone = any(0xD800 <= ord(ch) <= 0xDFFF for ch in decoded(b, member))
        return "a string with a lone surrogate" if lone else None
    return integer_fault(b, member)


# ---- SPEC 10.2 rules 7 and 8, 10.3 (e) and (f): the whole line's depth and strings

MAX_DEPTH = 127
ESCAPE = re.compile(rb"\\(?:u([0-9a-fA-F]{4})|.)", re.S)  # one escape, read left to right


def has_lone_surrogate(token):
    """Whether the raw string token (quotes included) escapes a lone surrogate (SPEC 10.1).

    Read from the escapes as written, never from a decoded text: a \\uD800-\\uDBFF escape
    is lone unless the next escape starts right after it and is \\uDC00-\\uDFFF; a
    \\uDC00-\\uDFFF escape is lone unless the escape right before it ends where this one starts
    and is \\uD800-\\uDBFF. Raw UTF-8 bytes are never surrogates (they are valid UTF-8).
    """
    escapes = [(e.start(), e.end(), int(e.group(1), 16) if e.group(1) else None)
               for e in ESCAPE.finditer(token)]
    high = lambda u: u is not None and 0xD800 <= u <= 0xDBFF
    low = lambda u: u is not None and 0xDC00 <= u <= 0xDFFF
    for k, (start, end, unit) in enumerate(escapes):
        if high(unit):
            after = escapes[k + 1] if k + 1 < len(escapes) else None
            if not (after and after[0] == end and low(after[2])):
                return True
        elif low(unit):
            before = escapes[k - 1] if k > 0 else None
            if not (before and before[1] == start and high(before[2])):
                return True
    return False


NUMBER = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def line_fault(b, start):
    """'depth', 'surrogate' or 'number', the first of the three rules the (valid JSON) line
    breaks, or None."""
    depth = deepest = 0
    lone = huge = False
    i = start
    while i < len(b):
        c = b[i:i + 1]
        if c == b'"':  # outside strings, only brackets and numbers matter; inside, only escapes
            end = scan_string(b, i)
            lone = lone or has_lone_surrogate(b[i:end])
            i = end
            continue
        if c in (b"{", b"["):
            depth += 1
            deepest = max(deepest, depth)
        elif c in (b"}", b"]"):
            depth -= 1
        elif c == b"-" or c.isdigit():
            token = NUMBER.match(b, i).group(0)
            huge = huge or math.isinf(float(token))  # read as a double, rounded to the nearest
            i += len(token)
            continue
        i += 1
    if deepest > MAX_DEPTH:
        return "depth"
    if lone:
        return "surrogate"
    return "number" if huge else None


LINE_FAULT_TEXT = {"depth": "an MCP message nests at most 127 levels deep",
                   "surrogate": "an MCP message has no string with a lone surrogate",
                   "number": "an MCP message has no number beyond the range of a double"}


# ---- SPEC sections 2-4 and 10.2-10.3

def method_text(b, member):
    """The decoded method string, each lone surrogate as U+FFFD (section 1)."""
    return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in decoded(b, member))


def reply(id_text, code, message):
    return '{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}' % (
        id_text, code, json.dumps(message))


def classify(line, mcp):
    """The record (FIELDS) for `line` (bytes), in the MCP profile or the JSON-RPC one."""
    r = dict(kind=None, id_kind="absent", id=None, method=None, jsonrpc_2_0=False,
             has_result=False, has_error=False, names_no_request=False, spans={},
             reason=None, reply_server=None, reply_client=None, substitute=None)
    try:
        b = line
        try:
            b.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ParseError("invalid UTF-8 at byte %d" % e.start)
        start = skip_ws(b, after_bom(b) if mcp else 0)  # 10.6 (a): the rest of the line
        if start == len(b):
            r["kind"] = "empty"
            return r
        end = skip_ws(b, scan_value(b, start))
        if end != len(b):
            raise ParseError("trailing data at byte %d" % end)
    except ParseError as e:
        r.update(kind="parse_error", reason=str(e), reply_server=reply("null", -32700, "Parse error"))
        found = mcp and damaged(b)  # 10.6 (c)
        if found:
            what, id_member, method = found
            id_text = b[id_member[0]:id_member[1]].decode("utf-8")
            r.update(id_kind=id_member[2], id=id_text,
                     spans={"id": [id_member[0], id_member[1] - id_member[0]]})
            if what == "request":
                r["method"] = method_text(b, method)
                r["spans"]["method"] = [method[0], method[1] - method[0]]
                r["reply_server"] = reply(id_text, -32700, "Parse error")
            else:
                r.update(reply_server=None, substitute=reply(id_text, -32603, SUBSTITUTE))
        return r
    top = value_kind(b, start)
    if top == "array":
        replies = batch_replies(b, start) if mcp else []  # 10.6 (b)
        r.update(kind="batch", reply_server="\n".join(replies) if replies else reply(
            "null", -32600, "Invalid Request: this server doesn't accept batches"))
        return r
    if top != "object":
        r.update(kind="not_object", reply_server=reply(
            "null", -32600, "Invalid Request: a message must be an object, not " + KIND_TEXT[top]))
        return r

    m = object_members(b, start)
    kind_of = lambda name: m[name][2] if name in m else "absent"
    idk, methodk = kind_of("id"), kind_of("method")
    r.update(id_kind=idk, has_result="result" in m, has_error="error" in m,
             jsonrpc_2_0=kind_of("jsonrpc") == "string" and decoded(b, m["jsonrpc"]) == "2.0",
             spans={n: [m[n][0], m[n][1] - m[n][0]] for n in SPANNED if n in m})
    if idk != "absent":
        r["id"] = b[m["id"][0]:m["id"][1]].decode("utf-8")
    if methodk == "string":
        r["method"] = method_text(b, m["method"])
    if methodk == "absent":
        if idk == "absent" and not (r["has_error"] and r["jsonrpc_2_0"]):
            r["kind"] = "not_jsonrpc"
            return r
        r["kind"] = "response"
        r["names_no_request"] = r["has_error"] and r["jsonrpc_2_0"] and idk in ("null", "absent")
        reason = mcp and response_fault(b, m, r["jsonrpc_2_0"], start)
        if reason:
            r.update(kind="invalid_response", reason=reason)
            if idk != "absent" and mcp_id_fault(b, m["id"]) is None:
                r["substitute"] = reply(r["id"], -32603, SUBSTITUTE)
        return r
    faults = []  # section 2's faults, with section 4's messages
    if methodk != "string":
        faults.append("the method must be a string, not " + KIND_TEXT[methodk])
    if idk in ("object", "array", "boolean"):
        faults.append("the id must be a string, a number or null, not " + KIND_TEXT[idk])
    if faults:
        message = "Invalid Request: " + "; ".join(faults)
    else:
        r["kind"] = "request" if idk != "absent" else "notification"
        message = mcp and request_fault(b, m, r["kind"], r["jsonrpc_2_0"], start)
    if message:
        echo = r["id"] if idk in ("string", "number") else "null"
        r.update(kind="invalid_request", reason=message,
                 reply_server=reply(echo, -32600, message), reply_client=reply(echo, -32600, message))
    return r


def request_fault(b, m, kind, jsonrpc_2_0, start):
    """SPEC 10.2: the message of the first rule a request or notification breaks, or None."""
    message = request_member_fault(b, m, kind, jsonrpc_2_0)  # rules 1 to 6
    if message:
        return message
    fault = line_fault(b, start)  # rules 7 and 8
    return "Invalid Request: " + LINE_FAULT_TEXT[fault] if fault else None


def request_member_fault(b, m, kind, jsonrpc_2_0):
    """SPEC 10.2 rules 1 to 6."""
    if kind == "request":
        what = mcp_id_fault(b, m["id"])
        if what:
            return "Invalid Request: an MCP id must be a string or an integer, not " + what
    if not jsonrpc_2_0:
        return "Invalid Request: MCP requires the member jsonrpc to be the string 2.0"
    if kind == "request" and set(m) - {"jsonrpc", "id", "method", "params"}:
        return "Invalid Request: an MCP request has no members but jsonrpc, id, method and params"
    if kind == "notification" and set(m) - {"jsonrpc", "method", "params"}:
        return "Invalid Request: an MCP notification has no members but jsonrpc, method and params"
    if "params" not in m:
        return None
    if m["params"][2] != "object":
        return "Invalid Request: the params must be an object, not " + KIND_TEXT[m["params"][2]]
    params = object_members(b, m["params"][0])
    if "_meta" not in params:
        return None
    if params["_meta"][2] != "object":
        return "Invalid Request: params._meta must be an object, not " + KIND_TEXT[params["_meta"][2]]
    meta = object_members(b, params["_meta"][0])
    what = "progressToken" in meta and mcp_id_fault(b, meta["progressToken"])
    if what:
        return "Invalid Request: params._meta.progressToken must be a string or an integer, not " + what
    return None


def response_fault(b, m, jsonrpc_2_0, start):
    """SPEC 10.3: the reason of the first rule, (a) to (f), a response breaks, or None."""
    reason = response_member_fault(b, m, jsonrpc_2_0)  # (a) to (d)
    if reason:
        return reason
    fault = line_fault(b, start)  # (e) and (f)
    return "Invalid Response: " + LINE_FAULT_TEXT[fault] if fault else None


def response_member_fault(b, m, jsonrpc_2_0):
    """SPEC 10.3 (a) to (d)."""
    if "id" in m and not ("error" in m and m["id"][2] == "null"):
        what = mcp_id_fault(b, m["id"])
        if what:
            return "Invalid Response: an MCP id must be a string or an integer, not " + what
    if not jsonrpc_2_0:
        return "Invalid Response: MCP requires the member jsonrpc to be the string 2.0"
    body = [n for n in ("result", "error") if n in m]
    if len(body) != 1 or set(m) - {"jsonrpc", "id", body[0]}:
        return ("Invalid Response: an MCP response has exactly one of result and error, "
                "and no members but jsonrpc and id besides")
    kind = m[body[0]][2]
    if kind != "object":
        return "Invalid Response: the %s must be an object, not %s" % (body[0], KIND_TEXT[kind])
    if body[0] == "result":
        return None
    error = object_members(b, m["error"][0])
    if "code" not in error:
        return "Invalid Response: the error has no code"
    what = error_code_fault(b, error["code"])
    if what:
        return "Invalid Response: the error's code must be an integer, not " + what
    if "message" not in error:
        return "Invalid Response: the error has no message"
    if error["message"][2] != "string":
        return "Invalid Response: the error's message must be a string, not " + KIND_TEXT[error["message"][2]]
    return None


# ---- SPEC 10.6: a byte order mark, a batch's requests, the readable members of a damaged line

BOM = b"\xef\xbb\xbf"
BATCH_MESSAGE = "Invalid Request: MCP has no batches; send each request on its own line"
TOO_LONG_MESSAGE = "Invalid Request: the line is longer than this peer reads"


def after_bom(b):
    """SPEC 10.6 (a): where the line's text begins, past a byte order mark at its very start."""
    return len(BOM) if b.startswith(BOM) else 0


def array_elements(b, i):
    """The elements of the (valid) array at b[i] ('['): a list of (start, end, kind)."""
    elements = []
    i = skip_ws(b, i + 1)
    if b[i:i + 1] == b"]":
        return elements
    while True:
        start = skip_ws(b, i)
        i = scan_value(b, start)
        elements.append((start, i, value_kind(b, start)))
        i = skip_ws(b, i)
        if b[i:i + 1] == b"]":
            return elements
        i += 1  # the ','


def batch_replies(b, start):
    """SPEC 10.6 (b): the replies a batch (the valid array at b[start]) owes, in its order: one
    for each element that is an object with a string method and an id that is an MCP id."""
    replies = []
    for element_start, _, kind in array_elements(b, start):
        if kind != "object":  # a nested array is not looked into
            continue
        m = object_members(b, element_start)  # unescaped names, the last of a duplicate counts
        if ("method" in m and m["method"][2] == "string" and "id" in m
                and mcp_id_fault(b, m["id"]) is None):
            replies.append(reply(b[m["id"][0]:m["id"][1]].decode("utf-8"), -32600, BATCH_MESSAGE))
    return replies


def utf8_damage(b):
    """The first byte at which b stops being the beginning of a UTF-8 text (Unicode's table 3-7
    of well-formed sequences: no overlong form, no surrogate, nothing beyond U+10FFFF), len(b)
    when it ends inside a sequence, None when all of b is UTF-8."""
    i, n = 0, len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            follow, low, high = 1, 0x80, 0xBF
        elif c == 0xE0:
            follow, low, high = 2, 0xA0, 0xBF
        elif 0xE1 <= c <= 0xEC or c in (0xEE, 0xEF):
            follow, low, high = 2, 0x80, 0xBF
        elif c == 0xED:
            follow, low, high = 2, 0x80, 0x9F
        elif c == 0xF0:
            follow, low, high = 3, 0x90, 0xBF
        elif 0xF1 <= c <= 0xF3:
            follow, low, high = 3, 0x80, 0xBF
        elif c == 0xF4:
            follow, low, high = 3, 0x80, 0x8F
        else:
            return i
        for k in range(1, follow + 1):
            if i + k >= n:
                return n
            if not (low <= b[i + k] <= high if k == 1 else 0x80 <= b[i + k] <= 0xBF):
                return i + k
        i += follow + 1
    return None


# The prefix readers below return (None, the index after what they read) when it is whole, or
# (damage, None) with damage the first byte at which the line can no longer continue it (JSON's
# grammar only; bytes of 0x80 and above are left to utf8_damage, inside strings).
HEX = b"0123456789abcdefABCDEF"
DIGITS = b"0123456789"


def string_prefix(b, i):
    """The string token at b[i] ('"')."""
    n = len(b)
    i += 1
    while i < n:
        c = b[i]
        if c == 0x22:  # '"'
            return None, i + 1
        if c < 0x20:  # a raw control character
            return i, None
        if c == 0x5C:  # '\'
            if i + 1 >= n:
                return n, None
            e = b[i + 1]
            if e == 0x75:  # 'u' and four hex digits
                for k in range(i + 2, i + 6):
                    if k >= n:
                        return n, None
                    if b[k] not in HEX:
                        return k, None
                i += 6
                continue
            if e not in b'"\\/bfnrt':
                return i + 1, None
            i += 2
            continue
        i += 1
    return n, None


def number_prefix(b, i):
    """The number token at b[i] ('-' or a digit): -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?"""
    n = len(b)

    def digits(i):  # one digit or more, from b[i]
        if i >= n:
            return n, None
        if b[i] not in DIGITS:
            return i, None
        while i < n and b[i] in DIGITS:
            i += 1
        return None, i

    if b[i] == 0x2D:  # '-'
        i += 1
        if i >= n:
            return n, None
    if i < n and b[i] == 0x30:  # '0', which no digit follows
        i += 1
    else:
        damage, i = digits(i)
        if damage is not None:
            return damage, None
    if i < n and b[i] == 0x2E:  # '.'
        damage, i = digits(i + 1)
        if damage is not None:
            return damage, None
    if i < n and b[i] in b"eE":
        i += 1
        if i < n and b[i] in b"+-":
            i += 1
        damage, i = digits(i)
        if damage is not None:
            return damage, None
    return None, i


def literal_prefix(b, i):
    """true, false or null at b[i]."""
    word = {ord("t"): b"true", ord("f"): b"false", ord("n"): b"null"}[b[i]]
    for k, c in enumerate(word):
        if i + k >= len(b):
            return len(b), None
        if b[i + k] != c:
            return i + k, None
    return None, i + len(word)


def name_prefix(b, i):
    """`"name" :` from b[i] (whitespace first): the index after the ':'."""
    i = skip_ws(b, i)
    if i >= len(b):
        return len(b), None
    if b[i] != 0x22:
        return i, None
    damage, i = string_prefix(b, i)
    if damage is not None:
        return damage, None
    i = skip_ws(b, i)
    if i >= len(b):
        return len(b), None
    if b[i] != 0x3A:  # ':'
        return i, None
    return None, i + 1


def value_prefix(b, i):
    """One JSON value from b[i] (whitespace first), at any depth, without recursion."""
    n = len(b)
    closers = []  # the byte that closes each open container, '}' or ']'
    want_value = True
    while True:
        i = skip_ws(b, i)
        if i >= n:
            return n, None
        c = b[i]
        damage = None
        if want_value:
            if c == 0x7B or c == 0x5B:  # '{' or '['
                closers.append(0x7D if c == 0x7B else 0x5D)
                i = skip_ws(b, i + 1)
                if i < n and b[i] == closers[-1]:  # empty
                    closers.pop()
                    i += 1
                    want_value = False
                elif c == 0x7B:
                    damage, i = name_prefix(b, i)
            elif c == 0x22:
                damage, i = string_prefix(b, i)
                want_value = False
            elif c in b"tfn":
                damage, i = literal_prefix(b, i)
                want_value = False
            elif c == 0x2D or c in DIGITS:
                damage, i = number_prefix(b, i)
                want_value = False
            else:
                damage = i
        elif c == 0x2C:  # ',': the next element, or the next member's name
            if closers[-1] == 0x7D:
                damage, i = name_prefix(b, i + 1)
            else:
                i += 1
            want_value = True
        elif c == closers[-1]:
            closers.pop()
            i += 1
        else:
            damage = i
        if damage is not None:
            return damage, None
        if not want_value and not closers:
            return None, i


def outer_members(b, i):
    """Reads the object at b[i] ('{') as far as JSON's grammar lets it, and what follows it.
    Returns (damage, members): damage is the first byte at which the line stops being the
    beginning of a JSON text by the grammar (None if it is one whole); members lists each member
    reached as [name token, index of its ':', value start, value end, index of the ',' or '}'
    after it], the last three None where not reached."""
    n = len(b)
    members = []
    i = skip_ws(b, i + 1)
    if i < n and b[i] == 0x7D:
        end = i + 1
    else:
        while True:
            i = skip_ws(b, i)
            if i >= n:
                return n, members
            if b[i] != 0x22:
                return i, members
            damage, name_end = string_prefix(b, i)
            if damage is not None:
                return damage, members
            colon = skip_ws(b, name_end)
            if colon >= n:
                return n, members
            if b[colon] != 0x3A:
                return colon, members
            start = skip_ws(b, colon + 1)
            member = [b[i:name_end], colon, start, None, None]
            members.append(member)
            damage, value_end = value_prefix(b, start)
            if damage is not None:
                return damage, members
            member[3] = value_end
            after = skip_ws(b, value_end)
            if after >= n:
                return n, members
            if b[after] not in (0x2C, 0x7D):
                return after, members
            member[4] = after
            if b[after] == 0x7D:
                end = after + 1
                break
            i = after + 1
    rest = skip_ws(b, end)  # data after the object is damage
    return (rest if rest < n else None), members


def readable_members(b):
    """SPEC 10.6 (c), and (d) for the first bytes of a line too long to read: None unless the
    line's first byte that is not whitespace (past a byte order mark) is '{'; else (damage,
    readable, being_read): the point of damage (None when nothing is damaged), the readable
    members of the outer object as {unescaped name: (value start, value end, kind)}, each with
    its last readable value, and the set of the names being read."""
    start = skip_ws(b, after_bom(b))
    if b[start:start + 1] != b"{":
        return None
    grammar, members = outer_members(b, start)
    damage = min((d for d in (grammar, utf8_damage(b)) if d is not None), default=None)
    before = lambda index: damage is None or index < damage
    readable, being_read = {}, set()
    for name, colon, value_start, value_end, after in members:
        if after is not None and before(after):
            readable[json.loads(name.decode("utf-8"))] = (value_start, value_end, value_kind(b, value_start))
        elif before(colon):
            being_read.add(json.loads(name.decode("utf-8")))
    return damage, readable, being_read


def damaged(b):
    """SPEC 10.6 (c): ("request", id, method) for a damaged request, ("response", id, None) for a
    damaged response, else None; id and method are members as readable_members gives them."""
    read = readable_members(b)
    if read is None:
        return None
    _, readable, being_read = read
    id_member, method = readable.get("id"), readable.get("method")
    if id_member is None or mcp_id_fault(b, id_member) is not None:
        return None
    if method is not None:
        return ("request", id_member, method) if method[2] == "string" else None
    if {"result", "error"} & (set(readable) | being_read):
        return ("response", id_member, None)
    return None


def too_long(first_bytes):
    """SPEC 10.6 (d), for a session in the MCP profile: the first bytes of a line too long to
    read (as many as the reader's limit) give (the server role's reply, or None; the substitute
    to hand on while the response's id is outstanding, or None). Not a single-line vector."""
    found = damaged(first_bytes)
    if found is None:
        return None, None
    id_text = first_bytes[found[1][0]:found[1][1]].decode("utf-8")
    if found[0] == "request":
        return reply(id_text, -32600, TOO_LONG_MESSAGE), None
    return None, reply(id_text, -32603, SUBSTITUTE)


# ---- the file: the shared named cases, every envelope line, then cases of our own

EXTRA = [  # (name, line): SPEC 10.2/10.3 rules and <what> texts the shared cases lack
    ("progressToken 2^53-1", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":9007199254740991}}}'),
    ("progressToken beyond 2^53 - 1", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":9007199254740992}}}'),
    ("progressToken with an exponent", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1e3}}}'),
    ("progressToken a surrogate pair", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":"\\ud83d\\ude00"}}}'),
    ("progressToken -0", '{"jsonrpc":"2.0","method":"notifications/progress","params":{"_meta":{"progressToken":-0},"progress":1}}'),
    ("progressToken duplicated, the last counts", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1.5,"progressToken":"t"}}}'),
    ("_meta an array", '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":[]}}'),
    ("escaped _meta is _meta", '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\\u005fmeta":5}}'),
    ("notification with params null", '{"jsonrpc":"2.0","method":"notifications/progress","params":null}'),
    ("notification with an extra member ID, which is not id", '{"jsonrpc":"2.0","method":"notifications/initialized","ID":1}'),
    ("request with an extra member Method, which is not method", '{"jsonrpc":"2.0","id":1,"method":"ping","Method":"x"}'),
    ("escaped p\\u0061rams is params", '{"jsonrpc":"2.0","id":1,"method":"ping","p\\u0061rams":5}'),
    ("duplicated params, the last an object", '{"jsonrpc":"2.0","id":1,"method":"ping","params":5,"params":{}}'),
    ("duplicated params, the last an array", '{"jsonrpc":"2.0","id":1,"method":"ping","params":{},"params":[]}'),
    ("id with an escaped backslash before ud800 has no surrogate", '{"jsonrpc":"2.0","id":"\\\\ud800","method":"ping"}'),
    ("id with a reversed surrogate pair: two lone surrogates", '{"jsonrpc":"2.0","id":"\\udc00\\ud800","method":"ping"}'),
    ("non-ASCII string id", '{"jsonrpc":"2.0","id":"工具","method":"ping"}'),
    ("method fault keeps its section 4 message before MCP faults", '{"id":1.5,"method":5,"x":1}'),
    ("CRLF request", '{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n'),
    ("deep nesting inside _meta is checked without recursion", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"x":' + "[" * 500 + "]" * 500 + '}}}'),
    ("response with an escaped r\\u0065sult", '{"jsonrpc":"2.0","id":1,"r\\u0065sult":{}}'),
    ("response with an escaped r\\u0065sult that is an array", '{"jsonrpc":"2.0","id":1,"r\\u0065sult":[]}'),
    ("error response with an id with a fraction: no substitute", '{"jsonrpc":"2.0","id":1.5,"error":{"code":1,"message":"m"}}'),
    ("response id 2^53-1", '{"jsonrpc":"2.0","id":9007199254740991,"result":{}}'),
    ("response id -2^53 has no substitute", '{"jsonrpc":"2.0","id":-9007199254740992,"result":{}}'),
    ("response id with a lone surrogate has no substitute", '{"jsonrpc":"2.0","id":"\\ud800","result":{}}'),
    ("response with an empty string id", '{"jsonrpc":"2.0","id":"","result":{}}'),
    ("substitute of a non-ASCII id", '{"jsonrpc":"2.0","id":"工具","result":[]}'),
    ("error code with an exponent", '{"jsonrpc":"2.0","id":1,"error":{"code":1e3,"message":"m"}}'),
    ("error code 1.0 has a fraction", '{"jsonrpc":"2.0","id":1,"error":{"code":1.0,"message":"m"}}'),
    ("error code -0 is refused", '{"jsonrpc":"2.0","id":1,"error":{"code":-0,"message":"m"}}'),
    ("error code 0 is fine", '{"jsonrpc":"2.0","id":1,"error":{"code":0,"message":"m"}}'),
    ("error code -(2^53-1) is beyond 32 bits", '{"jsonrpc":"2.0","id":1,"error":{"code":-9007199254740991,"message":"m"}}'),
    ("error code 2^31 with a string id has a substitute", '{"jsonrpc":"2.0","id":"r","error":{"code":2147483648,"message":"m"}}'),
    ("error code beyond 32 bits naming no request: no substitute", '{"jsonrpc":"2.0","id":null,"error":{"code":4294967296,"message":"m"}}'),
    ("error code a non-ASCII string", '{"jsonrpc":"2.0","id":1,"error":{"code":"é","message":"m"}}'),
    ("error code null", '{"jsonrpc":"2.0","id":1,"error":{"code":null,"message":"m"}}'),
    ("error message null", '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":null}}'),
    ("error data is free", '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":{"x":[null]}}}'),
    ("duplicated error, the last an array", '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"error":[]}'),
    ("null id, result and error: no substitute", '{"jsonrpc":"2.0","id":null,"result":{},"error":{"code":1,"message":"m"}}'),
    ("error naming no request with an extra member", '{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"x":1}'),
]


def nested(head, depth, tail):
    """head + arrays + tail, with as many arrays as make the line `depth` levels deep,
    where head opens `opened` containers (the root object included) before them."""
    outside = re.sub(r'"(?:[^"\\]|\\.)*"', "", head)  # brackets in strings do not nest
    opened = outside.count("{") + outside.count("[")
    return head + "[" * (depth - opened) + "]" * (depth - opened) + tail


EXTRA += [  # SPEC 10.2 rules 7 and 8, 10.3 (e) and (f)
    ("request 127 levels deep", nested('{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":', 127, "}}")),
    ("request 128 levels deep", nested('{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":', 128, "}}")),
    ("notification 127 levels deep", nested('{"jsonrpc":"2.0","method":"notifications/m","params":{"x":', 127, "}}")),
    ("notification 128 levels deep", nested('{"jsonrpc":"2.0","method":"notifications/m","params":{"x":', 128, "}}")),
    ("response 127 levels deep", nested('{"jsonrpc":"2.0","id":1,"result":{"x":', 127, "}}")),
    ("response 128 levels deep has a substitute", nested('{"jsonrpc":"2.0","id":"r","result":{"x":', 128, "}}")),
    ("error response 128 levels deep in data", nested('{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"m","data":', 128, "}}")),
    ("response 128 levels deep with an id with a fraction: (a) first, no substitute", nested('{"jsonrpc":"2.0","id":1.5,"result":{"x":', 128, "}}")),
    ("error naming no request 128 levels deep: no substitute", nested('{"jsonrpc":"2.0","error":{"code":1,"message":"m","data":', 128, "}}")),
    ("request 128 levels deep with objects only", '{"jsonrpc":"2.0","id":1,"method":"m","params":' + '{"a":' * 127 + "1" + "}" * 127 + "}"),
    ("request 127 levels deep, brackets inside strings do not count", nested('{"jsonrpc":"2.0","id":1,"method":"m","params":{"[{":', 127, ',"x":"]}[[[{{{"}}')),
    ("request with an extra member and 128 levels deep: rule 3 first", nested('{"jsonrpc":"2.0","id":1,"method":"m","x":', 128, "}")),
    ("request 128 levels deep and a lone surrogate: rule 7 first", nested('{"jsonrpc":"2.0","id":1,"method":"m","params":{"s":"\\ud800","x":', 128, "}}")),
    ("request with 1e400 in params", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1e400}}'),
    ("request with -1E+400 in params", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[-1E+400]}}'),
    ("notification with 1e309 in params", '{"jsonrpc":"2.0","method":"notifications/m","params":{"a":1e309}}'),
    ("request with 1e308 in params is fine", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1e308}}'),
    ("request with 1.7976931348623157e308, the largest double, is fine", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1.7976931348623157e308}}'),
    ("request with 1.8e308 in params", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1.8e308}}'),
    ("request with 1e-400 in params is fine (it reads as 0)", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1e-400}}'),
    ("request with a 309-digit integer in params is fine", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":' + "9" * 308 + '}}'),
    ("request with a 310-digit integer in params", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":' + "1" + "0" * 309 + '}}'),
    ("request with 1e400 inside a string is fine", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"1e400","1e400":0}}'),
    ("request with 1e400 and a lone surrogate: rule 8 first", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1e400,"s":"\\ud800"}}'),
    ("request with an extra member and 1e400: rule 3 first", '{"jsonrpc":"2.0","id":1,"method":"m","x":1e400}'),
    ("response with 1e400 in its result has a substitute", '{"jsonrpc":"2.0","id":"r","result":{"a":1e400}}'),
    ("error response with 1e400 in its data", '{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"m","data":1e400}}'),
    ("error naming no request with 1e400 in its data: no substitute", '{"jsonrpc":"2.0","error":{"code":1,"message":"m","data":[1e400]}}'),
    ("lone surrogate in the method", '{"jsonrpc":"2.0","id":1,"method":"\\ud800"}'),
    ("lone surrogate in the method of a notification", '{"jsonrpc":"2.0","method":"notifications/\\uDFFF"}'),
    ("lone surrogate in a member name of params", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"\\udc00":1}}'),
    ("lone surrogate in a nested string value", '{"jsonrpc":"2.0","method":"notifications/m","params":{"a":[{"b":"x\\ud83dy"}]}}'),
    ("lone surrogate in _meta, not in progressToken", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"note":"\\ud800"}}}'),
    ("lone surrogate in progressToken: rule 6 first", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":"\\ud800"}}}'),
    ("request with a lone surrogate in an extra member name: rule 3 first", '{"jsonrpc":"2.0","id":1,"method":"m","\\ud800":1}'),
    ("a surrogate pair split across two strings: two lone surrogates", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":["\\ud83d","\\ude00"]}}'),
    ("a high surrogate before another escape is lone", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\\ud83d\\n"}}'),
    ("a high surrogate before a raw character is lone", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\\ud83d\U0001F600"}}'),
    ("a low surrogate after a pair is lone", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\\ud83d\\ude00\\ude00"}}'),
    ("a high surrogate, then a pair: the first is lone", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\\ud83d\\ud83d\\ude00"}}'),
    ("a surrogate pair in upper case in params is fine", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"\\uD83D\\uDE00":"\\uD83D\\ude00"}}'),
    ("an escaped backslash before ud800 in params is not a surrogate", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\\\\ud800"}}'),
    ("an escaped backslash before an escaped ud800 is a surrogate", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\\\\\\ud800"}}'),
    ("a raw U+FFFD and a raw emoji are no surrogates", '{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":"\ufffd\U0001F600"}}'),
    ("lone surrogate in a result string has a substitute", '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"\\ud800"}]}}'),
    ("lone surrogate in a member name of the result", '{"jsonrpc":"2.0","id":"r","result":{"\\udbff":1}}'),
    ("lone surrogate in an error message has a substitute", '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"\\ude00"}}'),
    ("lone surrogate in error data", '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","data":["\\ud800"]}}'),
    ("lone surrogate in an error naming no request: no substitute", '{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"\\ud800"}}'),
    ("lone surrogate in an error with no code: (d) first", '{"jsonrpc":"2.0","id":1,"error":{"message":"\\ud800"}}'),
    ("lone surrogate in the result of a response with jsonrpc 1.0: (b) first", '{"jsonrpc":"1.0","id":1,"result":{"a":"\\ud800"}}'),
    ("a surrogate pair in a result is fine", '{"jsonrpc":"2.0","id":1,"result":{"a":"\\ud83d\\ude00"}}'),
]

EXTRA += [  # SPEC 10.6 (a) to (c); a line given as bytes is not UTF-8
    ("a byte order mark alone is empty", "\ufeff"),
    ("a byte order mark before a batch: its request is answered", '\ufeff[{"jsonrpc":"2.0","id":1,"method":"ping"}]'),
    ("a byte order mark, whitespace, then a request: spans count from the mark", '\ufeff \t{"jsonrpc":"2.0","id":"w","method":"ping"}'),
    ("a byte order mark before an invalid response: its substitute", '\ufeff{"jsonrpc":"2.0","id":2,"result":[]}'),
    ("a batch's string id escaping a lone surrogate is not answered, a pair's is", '[{"jsonrpc":"2.0","id":"\\ud800","method":"ping"},{"jsonrpc":"2.0","id":"\\ud83d\\ude00","method":"ping"}]'),
    ("a batch's id beyond 2^53 - 1 is not answered", '[{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}]'),
    ("a batch's element whose last method is not a string is not answered", '[{"jsonrpc":"2.0","id":1,"method":"ping","method":5},{"jsonrpc":"2.0","id":2,"method":5,"method":"ping"}]'),
    ("a batch answers each id as its exact text", '[{"id":"a\\u0062","method":"m"},{"id" : -0 ,"method":"m"}]'),
    ("a batch's element with a method and a result is answered", '[{"jsonrpc":"2.0","id":5,"method":"m","result":{}}]'),
    ("a damaged request keeps its string id's escapes exactly", '{"jsonrpc":"2.0","id":"a\\"b\\u0063\\/","method":"ping",}'),
    ("a damaged request whose id member name is escaped", '{"jsonrpc":"2.0","\\u0069d":2,"method":"ping","params":{'),
    ("a damaged request: the method is readable, the id after the damage is not", '{"jsonrpc":"2.0","method":"ping","params":{"a":tru},"id":3}'),
    ("a damaged response: the error being read, the last of two readable ids counts", '{"jsonrpc":"2.0","id":1,"id":"two","error":{"code":-32000,"message":"m'),
    ("a damaged response: an id being read after the readable one does not count", '{"jsonrpc":"2.0","id":7,"result":{},"id":['),
    ("a damaged request: a raw tab inside a string", '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"text":"a\tb"}}'),
    ("a damaged request cut right after the comma after its method", '{"jsonrpc":"2.0","id":4,"method":"ping",'),
    ("a damaged request: a UTF-8 sequence cut at the end of the line", b'{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"q":"\xe5\xb7'),
    ("a lone { is a parse error with nothing readable", "{"),
    ("data after a notification: no id, so the reply's id stays null", '{"jsonrpc":"2.0","method":"notifications/initialized"} x'),
    ("a damaged request with a null id is not answered by its id", '{"jsonrpc":"2.0","id":null,"method":"ping",}'),
    ("a damaged line whose readable method is not a string is no response either", '{"jsonrpc":"2.0","id":8,"method":null,"result":{},'),
    ("a damaged request's method escaping a lone surrogate reads as U+FFFD", '{"jsonrpc":"2.0","id":9,"method":"a\\ud800",'),
    ("a damaged line: an error name without its colon is not being read", '{"jsonrpc":"2.0","id":10,"error"'),
    ("a damaged response: an error name and colon before the damage are being read", '{"jsonrpc":"2.0","id":12,"error":'),
    ("a damaged request after whitespace: spans count from the line's start", ' \t{"jsonrpc":"2.0","id":11,"method":"ping",}'),
]


def line_bytes(record):
    return bytes.fromhex(record["line_hex"]) if "line_hex" in record else record["line"].encode("utf-8")


def build(name, line, result, parse_reason=None):
    """The file's record; a parse_error's reason is the convention's (the reference's is its own)."""
    record = {"name": name}
    try:
        record["line"] = line.decode("utf-8")
    except UnicodeDecodeError:
        record["line_hex"] = line.hex()
    record.update(result)
    if result["kind"] == "parse_error":
        record["reason"] = parse_reason
    return record


def read(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(text) for text in f]


def shared_cases():
    """The contract's named cases: the shared file, else those already in mcp.jsonl."""
    if os.path.exists(SHARED_MCP):
        return read(SHARED_MCP)
    ours = {name for name, _ in EXTRA}
    return [r for r in read(MCP) if not r["name"].startswith("envelope: ") and r["name"] not in ours]


def generate():
    records = [build(c["name"], line_bytes(c), classify(line_bytes(c), True), c["reason"])
               for c in shared_cases()]
    records += [build("envelope: " + e["name"], line_bytes(e), classify(line_bytes(e), True), e["reason"])
                for e in read(ENVELOPE)]
    for name, line in EXTRA:
        b = line if isinstance(line, bytes) else line.encode("utf-8")
        records.append(build(name, b, classify(b, True)))
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def compare(expected, got, fields):
    wrong = []
    for field in fields:
        if field == "reason" and expected["kind"] == "parse_error":
            if not got["reason"]:  # the reference's own text: there must be one
                wrong.append("reason: none for a parse_error")
        elif got[field] != expected[field]:
            wrong.append("%s: %r, want %r" % (field, got[field], expected[field]))
    return wrong


def check():
    failures = []
    envelope = read(ENVELOPE)
    for e in envelope:  # (a) the JSON-RPC profile, against envelope.jsonl
        got = classify(line_bytes(e), False)
        if got.pop("substitute") is not None or set(e) - {"name", "line", "line_hex"} != set(got):
            failures.append("envelope %r: fields differ" % e["name"])
        failures += ["envelope %r: %s" % (e["name"], w) for w in compare(e, got, FIELDS[:-1])]
    cases = shared_cases()
    for c in cases:  # (b) the MCP profile, against the contract's named cases
        got = classify(line_bytes(c), True)
        failures += ["mcp %r: %s" % (c["name"], w) for w in compare(c, got, FIELDS)]
    text = generate()
    lines = text.splitlines(True)
    if os.path.exists(SHARED_MCP):  # byte for byte, as the shared file writes them
        with open(SHARED_MCP, encoding="utf-8") as f:
            if f.readlines() != lines[:len(cases)]:
                failures.append("the shared cases are not written byte for byte as in " + SHARED_MCP)
    names = [json.loads(t)["name"] for t in lines]
    if len(set(names)) != len(names):
        failures.append("names are not unique in mcp.jsonl")
    if not os.path.exists(MCP) or open(MCP, encoding="utf-8").read() != text:  # (c)
        failures.append("tests/vectors/mcp.jsonl is not what --write makes: run it with --write")
    for f in failures:
        print("FAIL", f, file=sys.stderr)
    if not failures:
        print("mcp_reference: %d envelope lines, %d named MCP cases and mcp.jsonl (%d lines) agree"
              % (len(envelope), len(cases), len(lines)))
    return 1 if failures else 0


def random_lines(count, seed=33):
    """MCP-shaped lines at the rules' edges, the same ones for a seed."""
    rng = random.Random(seed)
    names = ["_meta", "\\u005fmeta", "_met\\u0061", "progressToken", "progress\\u0054oken", "code",
             "c\\u006fde", "message", "messag\\u0065", "x", "params", "error", "id", "meta", "_Meta"]
    scalars = ["1", "-1", "0", "-0", "1.5", "1e3", "1e400", "-1e309", "2e308", "1.7976931348623157e308",
               "17976931348623159e292", "9007199254740991", "9007199254740992", "-9007199254740991",
               "123456789012345", "1234567890123456", "99999999999999999", "4294967296", "-2147483648",
               "2147483648", '"t"', '"\\ud800"', '"\\ud83d\\ude00"', '"\\udc00x"', '"\\\\ud800"',
               '"\\uDBFF\\uDFFF"', "null", "true", "[]", '[1,{"_meta":1}]', '"a\\"b"', "{}", '"\\r"']
    ids = ["1", '"a"', "1.5", "null", "9007199254740992", '"\\ud800"', "-0", "12345678901234567", "[]"]

    def value(depth):
        r = rng.random()
        if depth > 3 or r < 0.5:
            return rng.choice(scalars)
        if r < 0.8:
            return "{" + ",".join('"%s":%s' % (rng.choice(names), value(depth + 1))
                                  for _ in range(rng.randint(0, 3))) + "}"
        return "[" + ",".join(value(depth + 1) for _ in range(rng.randint(0, 3))) + "]"

    lines = []
    for _ in range(count):
        kind = rng.choice(["request", "notification", "result", "error"])
        members = ['"jsonrpc":"2.0"' if rng.random() < 0.95 else '"jsonrpc":"1.0"']
        if kind != "notification" or rng.random() < 0.1:
            members.append('"id":' + rng.choice(ids))
        if kind in ("request", "notification"):
            members.append('"method":"m"')
            members += ['"params":' + value(1) for _ in range(rng.choice([0, 1, 1, 1, 1, 1, 1, 1, 2]))]
        elif kind == "result":
            members.append('"result":' + value(1))
        else:
            members += ['"error":' + value(1) for _ in range(rng.choice([1, 1, 1, 1, 1, 1, 1, 1, 2]))]
        if rng.random() < 0.05:
            members.append('"extra":1')
        rng.shuffle(members)
        space = rng.choice(["", "", "", " ", "\t", "\r", " \r "])
        lines.append(space + "{" + ("," + space).join(members) + "}" + rng.choice(["", "", " ", "\r"]))
    # A member given twice: only what the last one holds counts.
    lines += ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":1.5}},"params":{"_meta":{}}}',
              '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":1.5}},"params":{}}',
              '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":1.5},"_meta":{}}}',
              '{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"progressToken":1.5,"progressToken":2}}}',
              '{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"},"error":{"message":"m"}}',
              '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":5},"error":{"code":1}}',
              '{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":1e3,"message":"m"}}']
    for depth in (125, 126, 127, 128, 130):  # the depth limit, inside _meta and beside it
        lines.append('{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"a":%s%s}}}'
                     % ("[" * (depth - 3), "]" * (depth - 3)))
        lines.append('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":%s%s}}' % ("[" * (depth - 2), "]" * (depth - 2)))
    return [line.encode("utf-8") for line in lines]


def against(cli, count):
    """The CLI's classify --profile mcp against the reference, line by line."""
    lines = random_lines(count)
    out = subprocess.run([cli, "classify", "--profile", "mcp", "-"], input=b"\n".join(lines) + b"\n",
                         capture_output=True, check=True).stdout.decode("utf-8").splitlines()
    if len(out) != len(lines):
        print("FAIL the CLI wrote %d records for %d lines" % (len(out), len(lines)), file=sys.stderr)
        return 1
    failures = 0
    for line, text in zip(lines, out):
        wrong = compare(classify(line, True), json.loads(text), FIELDS)
        if wrong:
            failures += 1
            if failures <= 10:
                print("FAIL %s: %s" % (line.decode("utf-8")[:200], "; ".join(wrong)), file=sys.stderr)
    reasons = {json.loads(text)["reason"] for text in out}
    print("mcp_reference --against: %d random MCP-shaped lines (%d distinct reasons), %d differ"
          % (len(lines), len(reasons), failures))
    return 1 if failures else 0


def main(argv):
    if argv[1:2] == ["--against"] and len(argv) in (3, 4):
        return against(argv[2], int(argv[3]) if len(argv) == 4 else 6000)
    if argv[1:] == ["--write"]:
        text = generate()
        with open(MCP, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return 0
    if argv[1:] == ["--check"]:
        return check()
    print("usage: %s --write | --check | --against CLI [LINES]" % argv[0], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
