"""The Python API itself: types in and out, immutability, helpers, errors."""

from __future__ import annotations

import copy
import ctypes
import io
import pickle
from typing import Any

import json

import pytest

import jsonrpc_envelope as je

REQUEST = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}'


def test_kinds_are_strings() -> None:
    c = je.classify(REQUEST)
    assert c.kind == "request" and c.kind is je.Kind.REQUEST
    assert c.id_kind == "number" and c.id_kind is je.IdKind.NUMBER
    assert str(c.kind) == "request" and f"{c.kind}" == "request"
    assert isinstance(c.kind, str) and isinstance(c.id_kind, str)
    assert je.Role("server") is je.Role.SERVER and je.Role.CLIENT == "client"


def test_classification_fields() -> None:
    c = je.classify(REQUEST)
    assert c.line == REQUEST
    assert c.id == "7" and c.id_value == 7
    assert c.method == "tools/call"
    assert c.params_bytes == b'{"name":"echo"}'
    assert c.result_bytes is None and c.error_bytes is None
    assert c.jsonrpc_2_0 is True and c.has_result is False and c.has_error is False
    assert c.names_no_request is False
    assert c.reason is None and c.reply_server is None and c.reply_client is None
    assert c.spans == {"id": (22, 1), "method": (33, 12), "params": (55, 15)}
    assert repr(c) == "Classification(kind='request', id='7', method='tools/call')"


def test_str_bytearray_memoryview_and_bytes_subclasses() -> None:
    class Sub(bytes):
        pass

    expected = je.classify(REQUEST).to_dict()
    for line in (REQUEST.decode(), bytearray(REQUEST), memoryview(REQUEST), Sub(REQUEST),
                 memoryview(b"xx" + REQUEST)[2:]):
        assert je.classify(line).to_dict() == expected  # type: ignore[arg-type]


def test_a_str_with_a_lone_surrogate_is_not_utf8() -> None:
    c = je.classify('{"id":1,"method":"\ud800"}')
    assert c.kind == "parse_error" and c.reason


def test_nul_bytes_are_bytes_like_any_other() -> None:
    c = je.classify(b'{"id":1,"method":"a\x00b"}')
    assert c.kind == "parse_error"  # an unescaped control character in a string
    c = je.classify(b'{"id":1,"method":"a\\u0000b"}')
    assert c.kind == "request" and c.method == "a\x00b"
    assert je.log_value(b"a\x00b") == "a\\u0000b"


@pytest.mark.parametrize(
    "raw, method",
    [
        (r'"a\u0062c"', "abc"),
        (r'"tools\/call"', "tools/call"),
        (r'"\ud83d\ude00"', "\U0001F600"),
        (r'"\ud800"', "\ufffd"),  # a lone surrogate escape becomes U+FFFD
        ('"caf\u00e9"', "caf\u00e9"),  # raw UTF-8, no escape
        (r'"\"q\""', '"q"'),
        (r'"\\"', "\\"),
        ('""', ""),
    ],
)
def test_methods_with_and_without_escapes(raw: str, method: str) -> None:
    line = ('{"jsonrpc":"2.0","id":1,"method":%s}' % raw).encode()
    assert je.classify(line).method == method
    # The same through the many-lines call (escapes anywhere in the chunk).
    import io

    (got_line, c), = je.read_messages(io.BytesIO(line))
    assert got_line == line and c.method == method


def test_method_that_is_not_a_string_has_no_method() -> None:
    c = je.classify(b'{"jsonrpc":"2.0","id":1,"method":12}')
    assert c.kind == "invalid_request" and c.method is None and "method" in c.spans


@pytest.mark.parametrize(
    "id_text, value",
    [
        ("12345678901234567890123", 12345678901234567890123),
        ("-0", 0),
        ("1.50", 1.5),
        ("1E+2", 100.0),
        ('"a\\u0062"', "ab"),
        ('""', ""),
        ("null", None),
    ],
)
def test_id_value(id_text: str, value: Any) -> None:
    c = je.classify(('{"jsonrpc":"2.0","id":%s,"method":"ping"}' % id_text).encode())
    assert c.id == id_text
    assert c.id_value == value and type(c.id_value) is type(value)


def test_id_value_of_ids_no_host_can_match() -> None:
    for id_text in ('{"a":1}', "[1]", "true"):
        c = je.classify(('{"jsonrpc":"2.0","id":%s,"result":1}' % id_text).encode())
        assert c.kind == "response" and c.id == id_text and c.id_value is None
    assert je.classify(b'{"jsonrpc":"2.0","method":"x"}').id_value is None


def test_reply_needs_a_role() -> None:
    c = je.classify(b"[1]")
    with pytest.raises(TypeError):
        c.reply()
    assert c.reply("client") is None
    assert c.reply("server") == c.reply_server
    assert je.classify(b"[1]", role="server").reply() == c.reply_server
    assert je.classify(b"[1]", role=je.Role.CLIENT).reply() is None
    with pytest.raises(ValueError):
        c.reply("peer")
    with pytest.raises(TypeError):
        c.reply(1)  # type: ignore[arg-type]


def test_immutable() -> None:
    c = je.classify(REQUEST)
    with pytest.raises(AttributeError):
        c.kind = je.Kind.EMPTY  # type: ignore[misc]
    with pytest.raises(AttributeError):
        c.anything = 1  # type: ignore[attr-defined]
    t = je.TooLong(5)
    with pytest.raises(AttributeError):
        t.length = 6  # type: ignore[misc]


def test_equality_hash_copy_pickle() -> None:
    a, b = je.classify(REQUEST), je.classify(bytearray(REQUEST))
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != je.classify(b"{}")
    assert a != tuple(a)
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    assert pickle.loads(pickle.dumps(a)) == a
    assert je.TooLong(3) == je.TooLong(3) != je.TooLong(4)


@pytest.mark.parametrize("bad", [None, 1, 1.5, ["{}"], {"a": 1}, object()])
def test_wrong_types_raise_type_error(bad: Any) -> None:
    with pytest.raises(TypeError):
        je.classify(bad)
    with pytest.raises(TypeError):
        je.invalid_reply(bad)
    with pytest.raises(TypeError):
        je.log_value(bad)


def test_roles() -> None:
    with pytest.raises(ValueError):
        je.invalid_reply(b"[1]", "Server")
    with pytest.raises(TypeError):
        je.invalid_reply(b"[1]", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        je.invalid_reply(b"[1]", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        je.classify(b"[1]", role="both")


def test_the_library_refuses_an_unknown_role() -> None:
    """The library's own check (Python never passes such a role itself)."""
    from jsonrpc_envelope import _ffi

    reply = _ffi.lib.jsonrpc_invalid_reply(b"[1]", 3, 7, 1)
    try:
        assert reply.status == _ffi.CONSTANTS["JSONRPC_STATUS_UNKNOWN_ROLE"]
        assert not reply.text.ptr
    finally:
        _ffi.lib.jsonrpc_string_free(reply.text)


def test_the_library_refuses_an_unknown_profile() -> None:
    """The library's own checks of a profile value (Python never passes
    such a profile itself)."""
    from jsonrpc_envelope import _ffi

    constants = _ffi.CONSTANTS
    for bad in (0, 3, 7, 2**32 - 1):
        reply = _ffi.lib.jsonrpc_invalid_reply(b"[1]", 3, constants["JSONRPC_ROLE_SERVER"], bad)
        try:
            assert reply.status == constants["JSONRPC_STATUS_UNKNOWN_PROFILE"] and not reply.text.ptr
        finally:
            _ffi.lib.jsonrpc_string_free(reply.text)
        c = _ffi.lib.jsonrpc_classify(b"[1]", 3, bad)
        try:
            assert c.kind == constants["JSONRPC_KIND_NONE"] and c.reason.ptr
        finally:
            _ffi.lib.jsonrpc_classification_free(c)
        out = _ffi.JsonRpcClassification()
        status = _ffi.lib.jsonrpc_classify_into(b"[1]", 3, bad, out, None, 0)
        _ffi.lib.jsonrpc_classification_free(out)
        assert status == constants["JSONRPC_STATUS_UNKNOWN_PROFILE"]
        assert not _ffi.lib.jsonrpc_reader_new(0, bad)
        assert not _ffi.lib.jsonrpc_session_new(constants["JSONRPC_ROLE_CLIENT"], bad, 0)
    assert not _ffi.lib.jsonrpc_session_new(7, constants["JSONRPC_PROFILE_MCP"], 0)


@pytest.mark.parametrize("bad", [0, 3, "MCP", "json-rpc", ""])
def test_a_profile_that_is_none_is_a_value_error(bad: Any) -> None:
    with pytest.raises(ValueError, match="profile"):
        je.classify(b"{}", profile=bad)
    with pytest.raises(ValueError, match="profile"):
        je.invalid_reply(b"{}", profile=bad)
    with pytest.raises(ValueError, match="profile"):
        je.Reader(profile=bad)
    with pytest.raises(ValueError, match="profile"):
        je.read_messages(io.BytesIO(b"{}\n"), profile=bad)
    with pytest.raises(ValueError, match="profile"):
        je.Session("server", profile=bad)


@pytest.mark.parametrize("bad", [None, True, 1.0, b"mcp", object()])
def test_a_profile_of_another_type_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="profile"):
        je.classify(b"{}", profile=bad)
    with pytest.raises(TypeError, match="profile"):
        je.invalid_reply(b"{}", profile=bad)
    with pytest.raises(TypeError, match="profile"):
        je.Reader(profile=bad)
    with pytest.raises(TypeError, match="profile"):
        je.Session("client", profile=bad)


def test_profiles() -> None:
    assert je.Profile.JSONRPC == 1 and je.Profile.MCP == 2  # the header's numbers
    assert str(je.Profile.MCP) == "mcp" and f"{je.Profile.JSONRPC}" == "jsonrpc"
    line = b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}'  # not an MCP id
    assert je.classify(line).kind == "request"
    for mcp in (je.Profile.MCP, "mcp", 2):
        assert je.classify(line, profile=mcp).kind == "invalid_request"
    with pytest.raises(TypeError):
        je.classify(line, None, je.Profile.MCP)  # type: ignore[misc]  # keyword only


def test_frees_are_harmless_twice() -> None:
    """Each free zeroes what it freed (the header's promise, which the
    binding's `finally` blocks rely on never to double free)."""
    from jsonrpc_envelope import _ffi

    c = _ffi.lib.jsonrpc_classify(b"[1]", 3, 1)
    assert c.reply_server.ptr
    _ffi.lib.jsonrpc_classification_free(c)
    assert c.kind == 0 and not c.reply_server.ptr and not c.storage
    _ffi.lib.jsonrpc_classification_free(c)
    s = _ffi.lib.jsonrpc_log_value(b"x", 1)
    _ffi.lib.jsonrpc_string_free(s)
    assert not s.ptr and s.len == 0
    _ffi.lib.jsonrpc_string_free(s)
    reader = _ffi.lib.jsonrpc_reader_new(0, 1)
    batch = _ffi.JsonRpcBatch()
    assert _ffi.lib.jsonrpc_reader_feed(reader, b"{}\n[]\n", 6, batch) == 0 and batch.count == 2
    _ffi.lib.jsonrpc_reader_free(reader)
    _ffi.lib.jsonrpc_reader_free(None)
    session = _ffi.lib.jsonrpc_session_new(1, 2, 0)
    decision = _ffi.JsonRpcDecision()
    line = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    assert _ffi.lib.jsonrpc_session_refused(session, line, len(line), decision) == 0 and decision.text.ptr
    _ffi.lib.jsonrpc_string_free(decision.text)
    assert not decision.text.ptr
    _ffi.lib.jsonrpc_string_free(decision.text)
    _ffi.lib.jsonrpc_session_free(session)
    _ffi.lib.jsonrpc_session_free(None)


def test_log_value() -> None:
    assert je.log_value("a\u202eb") == "a\\u202eb"
    assert je.log_value(b"\xff") == "\ufffd"
    assert je.log_value(b"") == ""
    long = je.log_value("x" * 1000)
    assert len(long) == 257 and long.endswith("\u2026")


def test_versions() -> None:
    assert je.ABI_VERSION == 3
    assert je.__version__ == je.library_version()
    assert all(part.isdigit() for part in je.__version__.split(".")[:2])


def test_the_package_is_typed() -> None:
    import os

    assert os.path.isfile(os.path.join(os.path.dirname(je.__file__), "py.typed"))


def test_the_docstring_examples() -> None:
    import doctest

    failures, tried = doctest.testmod(je)
    assert tried > 0 and failures == 0


def test_the_readme_example(subprocess_env: Any) -> None:
    import re
    import subprocess
    import sys

    from conftest import PACKAGE

    with open(f"{PACKAGE}/README.md", encoding="utf-8") as readme:
        code = re.search(r"```python\n(.*?)```", readme.read(), re.S).group(1)  # type: ignore[union-attr]
    lines = b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n[1]\n{"jsonrpc":"2.0","id":7,"result":{}}\n'
    result = subprocess.run(
        [sys.executable, "-c", code], input=lines, env=subprocess_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().splitlines() == [
        '{"jsonrpc":"2.0","id":null,"result":{}}',
        je.invalid_reply(b"[1]"),
    ]
    assert result.stderr.decode() == 'not answered: response {"jsonrpc":"2.0","id":7,"result":{}}\n'


# ---- classify() through jsonrpc_classify_into ----------------------------


def reference(line: bytes, profile: Any = je.Profile.JSONRPC) -> Any:
    """The vector fields of ``line``, computed apart from the code under
    test: through the other entry point, ``jsonrpc_classify`` (an allocation
    per call), its result read field by field through ctypes attributes
    (the declarations tests/test_header.py holds against the header), and
    the names asked of the library; none of the binding's readers of
    results (its struct layouts, its records, Classification) is used."""
    from jsonrpc_envelope import _ffi

    lib = _ffi.lib

    def text(s: Any) -> Any:
        return ctypes.string_at(s.ptr, s.len).decode("utf-8") if s.ptr else None

    result = lib.jsonrpc_classify(line, len(line), int(profile))
    try:
        assert result.kind != _ffi.CONSTANTS["JSONRPC_KIND_NONE"], text(result.reason)
        spans = {}
        for name in ("id", "method", "params", "result", "error"):
            span = getattr(result, name + "_span")
            if span.len:
                spans[name] = [span.offset, span.len]
        return {
            "kind": lib.jsonrpc_kind_name(result.kind).decode(),
            "id_kind": lib.jsonrpc_id_kind_name(result.id_kind).decode(),
            "id": text(result.id),
            "method": text(result.method),
            "jsonrpc_2_0": result.jsonrpc_2_0,
            "has_result": result.has_result,
            "has_error": result.has_error,
            "names_no_request": result.names_no_request,
            "spans": spans,
            "reason": text(result.reason),
            "reply_server": text(result.reply_server),
            "reply_client": text(result.reply_client),
            "substitute": text(result.substitute),
        }
    finally:
        lib.jsonrpc_classification_free(result)


# Lines whose strings (id, method, reason, replies) fit the 1 KiB scratch,
# and lines whose strings do not, which then get the library's allocation.
BIG_ID = '"' + "i" * 700 + '"'
SCRATCH_LINES = [
    REQUEST,
    b'{"jsonrpc":"2.0","id":1,"method":"a\\u0062"}',
    b'{"jsonrpc":"2.0","id":{"a":1},"method":3}',
    b"[1,2]",
    b'{"jsonrpc":"2.0","id":',
    b"",
    ('{"jsonrpc":"2.0","id":%s,"method":"m"}' % BIG_ID).encode(),  # one long string: fits
    ('{"jsonrpc":"2.0","id":%s,"method":3}' % BIG_ID).encode(),  # id and two replies: 2 KiB+
    ('{"jsonrpc":"2.0","id":1,"method":"%s"}' % ("\\u0061" * 2000)).encode(),  # a 2000-byte method
    ('{"jsonrpc":"2.0","id":1,"method":"%s"}' % ("m" * 3000)).encode(),
    ('{"jsonrpc":"2.0","id":' + "1" * 5000 + "}").encode(),
]


# MCP lines with a substitute: in the scratch, and (with a long id) not.
MCP_SCRATCH_LINES = [
    b'{"jsonrpc":"2.0","id":7,"result":[]}',
    ('{"jsonrpc":"2.0","id":%s,"result":1}' % BIG_ID).encode(),
    ('{"jsonrpc":"2.0","id":%s,"error":{"code":1.5,"message":"m"}}' % ('"' + "j" * 400 + '"')).encode(),
]


@pytest.mark.parametrize("line", SCRATCH_LINES, ids=range(len(SCRATCH_LINES)))
def test_classify_into_agrees_with_classify(line: bytes) -> None:
    assert je.classify(line).to_dict() == reference(line)
    assert je.classify(line, profile=je.Profile.MCP).to_dict() == reference(line, je.Profile.MCP)


@pytest.mark.parametrize("line", MCP_SCRATCH_LINES, ids=range(len(MCP_SCRATCH_LINES)))
def test_classify_into_agrees_with_classify_on_substitutes(line: bytes) -> None:
    c = je.classify(line, profile=je.Profile.MCP)
    assert c.kind == "invalid_response" and c.substitute and c.reply_server is None
    assert c.to_dict() == reference(line, je.Profile.MCP)
    # The substitute names the line's id, exactly as it stood in the line.
    assert json.loads(c.substitute)["id"] == json.loads(line)["id"]


def test_results_own_their_strings_after_the_scratch_is_reused() -> None:
    first = je.classify(SCRATCH_LINES[2])  # reason and replies, from the scratch
    expected = reference(SCRATCH_LINES[2])
    for line in SCRATCH_LINES * 3:
        je.classify(line)
    assert first.to_dict() == expected


def test_the_scratch_overflows_into_an_allocation_that_is_freed() -> None:
    """A result whose strings do not fit the scratch owns storage; classify
    frees it, and leaves no slot holding anything to free."""
    from jsonrpc_envelope import _classify, _ffi

    out = _ffi.JsonRpcClassification()
    line = SCRATCH_LINES[7]
    scratch = (ctypes.c_ubyte * _classify.SCRATCH_SIZE)()
    status = _ffi.lib.jsonrpc_classify_into(line, len(line), 1, out, ctypes.addressof(scratch), len(scratch))
    assert status == 0 and out.storage, "the line's strings were meant not to fit 1 KiB"
    _ffi.lib.jsonrpc_classification_free(out)
    status = _ffi.lib.jsonrpc_classify_into(REQUEST, len(REQUEST), 1, out, ctypes.addressof(scratch), len(scratch))
    assert status == 0 and not out.storage and out.id.ptr == ctypes.addressof(scratch)
    je.classify(line)
    assert _classify._free_slots and not any(out_ref._obj.storage for _, _, out_ref, *_ in _classify._free_slots)


def test_a_call_interrupting_another_on_the_same_thread_gets_its_own_slot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A signal handler or a finalizer may classify between the library's
    answer and its copy, on the same thread: it must not write over the
    slot in use."""
    from jsonrpc_envelope import _classify

    real = _classify._classify_into
    inner: list = []

    def interrupted(*args: Any) -> None:
        real(*args)
        if not inner:
            inner.append(None)
            inner[0] = je.classify(SCRATCH_LINES[7])  # strings everywhere

    monkeypatch.setattr(_classify, "_classify_into", interrupted)
    outer = je.classify(SCRATCH_LINES[1])
    monkeypatch.undo()
    assert outer.to_dict() == reference(SCRATCH_LINES[1])
    assert inner[0].to_dict() == reference(SCRATCH_LINES[7])
    assert len(_classify._free_slots) >= 2  # both slots are kept


def test_the_classify_into_arguments_are_the_declared_types() -> None:
    """classify() calls jsonrpc_classify_into through a function object
    without argtypes (_ffi.classify_into): its arguments must be exactly
    the ctypes types the declaration (checked against the header) says."""
    from jsonrpc_envelope import _classify, _ffi

    _, argtypes = _ffi.SIGNATURES["jsonrpc_classify_into"]
    # Its status goes unread (a failure shows as JSONRPC_KIND_NONE), and it
    # keeps the GIL.
    assert _ffi.classify_into.restype is None and _ffi.classify_into.argtypes is None
    assert _ffi.classify_into._flags_ & ctypes._FUNCFLAG_PYTHONAPI
    image, _, out_ref, scratch, view, base = _classify._new_slot()
    assert argtypes[0] is ctypes.c_char_p  # given `bytes`, passed as is
    # The sizes and the profile are what the declared type's own conversion
    # makes of them.
    assert argtypes[1] is argtypes[5] is ctypes.c_size_t
    assert argtypes[2] is ctypes.c_uint32
    for profile in je.Profile:
        assert repr(_classify._PROFILE_ARG[profile]) == repr(ctypes.c_uint32.from_param(profile.value))
    for n in (0, 1, 180, _classify._LENGTHS_CACHED - 1, _classify._LENGTHS_CACHED, 1 << 40):
        assert repr(_classify._length(n)) == repr(ctypes.c_size_t.from_param(n))
    assert repr(_classify._SCRATCH_LEN) == repr(ctypes.c_size_t.from_param(_classify.SCRATCH_SIZE))
    assert _classify.SCRATCH_SIZE == len(view) == 1024
    for argtype, arg in zip(argtypes[3:5], (out_ref, scratch)):
        assert argtype.from_param(arg) is arg  # a pointer, taken as it is
    assert ctypes.cast(scratch, ctypes.c_void_p).value == base
    out = out_ref._obj
    assert type(out) is _ffi.JsonRpcClassification
    assert image.obj is out and image.nbytes == ctypes.sizeof(out) and image.format == "B"


def test_a_batch_of_methods_with_and_without_escapes_and_no_string() -> None:
    """read_messages builds a batch column by column only when no method in
    it needs a copy: each line must still say what the library says,
    whatever the mix in one chunk (no escape anywhere; escapes beside plain
    methods; methods that are no string, of one and two bytes)."""
    plain = b'{"jsonrpc":"2.0","id":1,"method":"tools/call"}'
    mixes = [
        [plain, b'{"jsonrpc":"2.0","method":"ab"}', b'{"jsonrpc":"2.0","id":2,"result":{}}'],
        [plain, b'{"jsonrpc":"2.0","method":"a\\/b"}', b'{"jsonrpc":"2.0","id":3,"method":"\\u0061"}'],
        [b'{"jsonrpc":"2.0","id":4,"method":1}', b'{"jsonrpc":"2.0","method":"a\\/b"}', plain],
        [b'{"jsonrpc":"2.0","id":5,"method":12}', plain, b'{"method":[]}', b'{"id":"\\\\","method":"x"}'],
    ]
    for lines in mixes:
        for profile in je.Profile:
            got = list(je.read_messages(io.BytesIO(b"\n".join(lines) + b"\n"), profile=profile))
            assert [line for line, _ in got] == lines
            for line, c in got:
                assert c.to_dict() == reference(line, profile), line
