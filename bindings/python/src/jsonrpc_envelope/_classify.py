"""``classify``: one line, one crossing into the library.

``classify`` calls ``jsonrpc_classify_into`` with a result structure and a
scratch buffer of its own that are reused (a slot, see ``_free_slots``):
the library then allocates nothing unless the line's strings outgrow the
scratch, and only then is the result freed. The call goes through a
function object whose arguments are ready-made ctypes argument objects
(``_ffi.classify_into``, ``_length``), which spares a conversion and an
allocation per argument. What the Classification keeps is copied out of
the slot (its record in one ``tobytes()``; its strings only when
``needs_strings`` says) before the slot is given back.
"""

from __future__ import annotations

import ctypes
from ctypes import string_at
from typing import Any, List, Tuple, Union

from ._arguments import as_bytes, as_profile, as_role
from ._classification import KIND_OF_LINE, REASON, Classification
from ._enums import Profile, Role
from ._errors import EnvelopeError
from ._ffi import JsonRpcClassification, classify_into, lib
from ._layout import NEEDS_AT, RECORD_SIZE, STRINGS_AT, read_needs_and_storage, read_strings

__all__ = ["SCRATCH_SIZE", "classify"]

#: The scratch buffer of ``classify``, per call: the header says 1 KiB
#: holds the strings of almost every line; longer ones get an allocation.
SCRATCH_SIZE = 1024

_classify_into = classify_into
_KINDS = len(KIND_OF_LINE)
_classification_free = lib.jsonrpc_classification_free


def _new_slot() -> Tuple[Any, ...]:
    """A result and a scratch buffer for one ``jsonrpc_classify_into`` call
    at a time, as the tuple ``(image, record, out_ref, scratch_ref,
    scratch, scratch_at)`` (a plain tuple: classify unpacks it at every
    call, which a NamedTuple makes slower):

    - ``image``: the result's bytes, a memoryview;
    - ``record``: its first ``RECORD_SIZE`` bytes, whose ``tobytes()`` is
      what a Classification keeps (faster than ``bytes()`` of the
      structure, which asks ctypes for a buffer at every call);
    - ``out_ref``, ``scratch_ref``: &result and &scratch, as the call is
      given them (see _ffi.classify_into);
    - ``scratch``, ``scratch_at``: the scratch's bytes and its address, for
      reading strings back."""
    out = JsonRpcClassification()
    scratch = (ctypes.c_ubyte * SCRATCH_SIZE)()
    image = memoryview(out).cast("B")
    return (
        image,
        image[:RECORD_SIZE],
        ctypes.byref(out),
        ctypes.byref(scratch),  # a uint8_t * to its first byte
        memoryview(scratch).cast("B"),
        ctypes.addressof(scratch),
    )


# The slots that no call is using. A call takes one for itself and gives it
# back: list.pop and list.append are atomic, so threads in classify() at
# once never share a slot, nor does a call that interrupts another on its
# own thread (a signal handler, a finalizer). There are as many slots as
# calls ever ran at once. (Slots per thread, in a threading.local, would be
# as safe, but its lookup costs more than the pop and the append.)
_free_slots: List[Tuple[Any, ...]] = []
_take_slot = _free_slots.pop
_give_slot = _free_slots.append

# Sizes and the profile as classify_into is given them: the argument
# objects that ctypes' own conversion makes (c_size_t.from_param,
# c_uint32.from_param), which ctypes passes as they are, with no conversion
# or allocation per call. They are immutable, so one serves every thread; a
# line's length is looked up (made once per length below _LENGTHS_CACHED,
# and per call above it).
_SCRATCH_LEN = ctypes.c_size_t.from_param(SCRATCH_SIZE)
_PROFILE_ARG = {profile: ctypes.c_uint32.from_param(profile.value) for profile in Profile}
_LENGTHS_CACHED = 16384
_LENGTHS: List[Any] = [None] * _LENGTHS_CACHED


def _length(n: int) -> Any:
    """The argument object for a line of n bytes."""
    arg = ctypes.c_size_t.from_param(n)
    if n < _LENGTHS_CACHED:
        _LENGTHS[n] = arg
    return arg


def _scratch_text(scratch: memoryview, scratch_at: int, ptr: int, length: int) -> Any:
    """A string of a classify_into result (pointer, length) as str, or None:
    read from the scratch buffer when it lies there (the header: the strings
    stand in the scratch when they all fit), else from where it is (the
    result's storage)."""
    if not ptr:
        return None
    at = ptr - scratch_at
    if 0 <= at and at + length <= len(scratch):
        return str(scratch[at : at + length], "utf-8")
    return string_at(ptr, length).decode("utf-8")


def classify(
    line: Union[bytes, bytearray, memoryview, str],
    role: Union[Role, str, None] = None,
    *,
    profile: Union[Profile, str] = Profile.JSONRPC,
) -> Classification:
    """Classifies one line (SPEC §2, §3) by ``profile`` (SPEC §10 for
    ``Profile.MCP``; JSON-RPC 2.0 alone by default).

    ``line`` is bytes-like, or a str (UTF-8 encoded). It normally has no line
    break; surrounding JSON whitespace is allowed. ``role``, if given, is
    the default of ``Classification.reply()``. Every input has a
    classification; TypeError for a wrong type.
    """
    data = line if type(line) is bytes else as_bytes(line, "line")
    if role is not None:
        role = as_role(role)
    profile_arg = _PROFILE_ARG[profile if type(profile) is Profile else as_profile(profile)]
    # A slot of its own for this call (see _free_slots), given back after.
    try:
        slot = _take_slot()
    except IndexError:
        slot = _new_slot()
    image, record_view, out_ref, scratch_ref, scratch, scratch_at = slot
    n = len(data)
    length = (_LENGTHS[n] if n < _LENGTHS_CACHED else None) or _length(n)
    storage = True  # until read: jsonrpc_classification_free is always correct
    try:
        # One crossing, and mostly no allocation: the result's strings are in
        # the slot's scratch, or (when they did not fit) in its storage.
        # What is needed is copied out before the slot is given back. Its
        # status goes unread: a failure leaves the result JSONRPC_KIND_NONE.
        _classify_into(data, length, profile_arg, out_ref, scratch_ref, _SCRATCH_LEN)
        code, m_span, m_len, r_ptr, s_ptr, c_ptr, u_ptr, storage = read_needs_and_storage(image, NEEDS_AT)
        record = record_view.tobytes()
        strings = None
        # needs_strings(), written out here (a call per line costs more).
        if r_ptr or s_ptr or c_ptr or u_ptr or (m_span and m_len + 2 != m_span):
            mp, ml, rp, rl, sp, sl, cp, cl, up, ul = read_strings(image, STRINGS_AT)
            # In the order of the Strings (see _classification).
            strings = (
                _scratch_text(scratch, scratch_at, mp, ml),
                _scratch_text(scratch, scratch_at, rp, rl),
                _scratch_text(scratch, scratch_at, sp, sl),
                _scratch_text(scratch, scratch_at, cp, cl),
                _scratch_text(scratch, scratch_at, up, ul),
            )
    finally:
        if storage:
            _classification_free(out_ref)
        _give_slot(slot)
    kind = KIND_OF_LINE[code] if code < _KINDS else None
    if kind is None:
        reason = strings[REASON] if strings is not None else None
        raise EnvelopeError(f"the library could not classify the line: {reason or 'no reason given'}")
    return Classification((kind, data, record, strings, role))
