"""stdio_server: the SDK's stdio server transport, reading stdin with the
library's relay in the direction a server reads (``Direction.TO_SERVER``)
and the MCP profile (SPEC sections 9 and 10.4).

It has the shape of ``mcp.server.stdio.stdio_server`` (same arguments, same
claim of fd 0 and 1, same two tasks in one task group, same streams and
encoding); only the reading of stdin differs: a chunk at a time, in a
worker thread as the SDK's own reads are, handed to the library's relay,
which splits it into lines and says what to do with each one; and every
line the SDK writes to stdout is told to the relay (``Relay.wrote``).
"""

from __future__ import annotations

import io
import sys
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, Optional, Tuple

import anyio
import anyio.lowlevel
import anyio.to_thread

from .. import DEFAULT_CHUNK_SIZE, Action, Direction, Profile, Relay, Role, goes
from ._lines import Lines
from ._sdk import (
    MCPServer,
    Server,
    SessionMessage,
    _claim_fd,
    _open_stdin_diversion,
    _open_stdout_diversion,
    _UnownedTextWrapper,
    create_context_streams,
    types,
)


def _byte_reader(stdin: anyio.AsyncFile[Any]) -> Callable[[int], bytes]:
    """A blocking ``read(n)`` of bytes from an async file given by the caller:
    the binary buffer under a text file (the library reads bytes, and says
    what invalid UTF-8 is), or a line at a time from a text file that has
    none (such as io.StringIO)."""
    fp = stdin.wrapped
    buffer = getattr(fp, "buffer", None)
    if buffer is not None:
        return getattr(buffer, "read1", None) or buffer.read
    if isinstance(fp, io.TextIOBase):
        return lambda _n: fp.readline().encode("utf-8", "surrogatepass")
    return getattr(fp, "read1", None) or fp.read


def _write_line(fp: Any, text: str) -> None:
    fp.write(text + "\n")
    fp.flush()


@asynccontextmanager
async def stdio_server(
    stdin: Optional[anyio.AsyncFile[str]] = None,
    stdout: Optional[anyio.AsyncFile[str]] = None,
    *,
    max_line: Optional[int] = None,
) -> AsyncIterator[Tuple[Any, Any]]:
    """Serve MCP over the process's stdin and stdout, as
    ``mcp.server.stdio.stdio_server`` does, with the envelope rules of the
    MCP profile, as the library's relay decides them for each line:

    - a line owed a ``server`` reply (not JSON, a batch, not an object, a
      request that is not valid MCP) is answered at once with the
      library's reply and never reaches the SDK: a damaged request whose
      id can be read gets that id, and a batch one reply per request, one
      line each, written whole (SPEC 10.6);
    - a line longer than ``max_line`` bytes is never held whole: answered
      when its first bytes hold a request's id and method, handed on as
      its substitute when they hold the id of a response the server waits
      for (SPEC 10.6 (d)), dropped otherwise; each with a log record;
    - an empty line and a JSON object that is not JSON-RPC are dropped,
      each with a log record;
    - a message after a byte order mark is handed on without it;
    - a response that is not valid MCP is replaced by its substitute (an
      error for the request it answers) while that request waits, and an
      error that names no request is given to the one request waiting;
      otherwise they are dropped with a log record;
    - the rest is handed to the SDK as its own transport hands it, and a
      line the SDK's validation still refuses never reaches it as an
      exception (it is answered or dropped, logged at error level).

    ``max_line`` is the longest line read, in bytes; None leaves it to the
    library: the MCP profile's default, ``profile_max_line("mcp")``.

    Yields ``(read_stream, write_stream)`` for ``Server.run``. While serving,
    fd 0 points at the null device and fd 1 at stderr, as with the SDK's.
    """
    restore_stdin: Optional[Callable[[], None]] = None
    restore_stdout: Optional[Callable[[], None]] = None
    # Made first, so that a bad max_line fails before fd 0 and 1 are
    # claimed; freed when the transport ends. Stdin is what a server reads;
    # what the SDK writes to stdout goes the other way, to the host.
    relay = Relay(Profile.MCP, max_line=max_line)
    read = Direction.read_by(Role.SERVER)
    written = goes(Action.ANSWER, read)  # the way back: where the library's answers go
    try:
        if not stdin:
            stdin_buffer, restore_stdin = _claim_fd(0, sys.stdin, "rb", _open_stdin_diversion)
            read_bytes = getattr(stdin_buffer, "read1", None) or stdin_buffer.read
        else:
            read_bytes = _byte_reader(stdin)
        if not stdout:
            stdout_buffer, restore_stdout = _claim_fd(1, sys.stdout, "wb", _open_stdout_diversion)
            stdout = anyio.wrap_file(_UnownedTextWrapper(stdout_buffer, encoding="utf-8"))
        out = stdout.wrapped
        # No checkpoint when free: a write costs no extra turn of the event loop.
        write_lock = anyio.Lock(fast_acquire=True)

        read_stream_writer, read_stream = create_context_streams[SessionMessage | Exception](0)
        write_stream, write_stream_reader = create_context_streams[SessionMessage](0)

        async def write_line(text: str) -> None:
            # One text per call, whole, in one worker-thread hop; the lock
            # keeps the library's replies and the SDK's messages apart. A
            # text of several lines (the library's answer to a batch) is
            # written whole, in the same call. The relay notes its own
            # answers itself.
            async with write_lock:
                await anyio.to_thread.run_sync(_write_line, out, text)

        async def write_message(json: str) -> None:
            # A line of the SDK's own: the relay hears of it before it
            # leaves, so that the host's answer always finds it.
            async with write_lock:
                relay.wrote(written, json)
                await anyio.to_thread.run_sync(_write_line, out, json)

        lines = Lines("stdin", relay, read, _validate, read_stream_writer.send, write_line)

        async def stdin_reader() -> None:
            try:
                async with read_stream_writer:
                    while True:
                        chunk = await anyio.to_thread.run_sync(read_bytes, DEFAULT_CHUNK_SIZE)
                        for decided in relay.feed(read, chunk) if chunk else relay.end(read):
                            await lines.act(decided)
                        if not chunk:
                            return
            except anyio.ClosedResourceError:  # pragma: no cover
                await anyio.lowlevel.checkpoint()

        async def stdout_writer() -> None:
            try:
                async with write_stream_reader:
                    async for session_message in write_stream_reader:
                        json = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
                        await write_message(json)
            except anyio.ClosedResourceError:  # pragma: no cover
                await anyio.lowlevel.checkpoint()

        async with anyio.create_task_group() as tg:
            tg.start_soon(stdin_reader)
            tg.start_soon(stdout_writer)
            yield read_stream, write_stream
    finally:
        relay.close()
        if restore_stdout is not None:
            restore_stdout()
        if restore_stdin is not None:
            restore_stdin()


def _validate(data: bytes) -> Any:
    """The SDK's own decoding of a line, as its stdio_server does it."""
    return types.jsonrpc_message_adapter.validate_json(data, by_name=False)


async def run_async(server: Any, *, max_line: Optional[int] = None) -> None:
    """Serves ``server`` (an ``MCPServer`` or a low-level ``Server``) on
    ``stdio_server()`` until stdin ends: what ``MCPServer.run_stdio_async``
    does on the SDK's own transport."""
    lowlevel = _lowlevel(server)
    async with stdio_server(max_line=max_line) as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def run(server: Any, *, max_line: Optional[int] = None) -> None:
    """``run(server)`` in place of ``server.run("stdio")``: the same, on
    ``stdio_server()``."""
    anyio.run(lambda: run_async(server, max_line=max_line))


def _lowlevel(server: Any) -> Server:
    if isinstance(server, MCPServer):
        # The SDK's own Client reaches the same attribute for an MCPServer.
        lowlevel = server._lowlevel_server
    else:
        lowlevel = server
    if not isinstance(lowlevel, Server):
        raise TypeError(f"run needs an MCPServer or a low-level mcp Server, not {type(server).__name__}")
    return lowlevel
