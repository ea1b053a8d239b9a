"""stdio_client: the SDK's stdio client transport, reading the server's
stdout with the library's relay in the direction a client reads
(``Direction.TO_HOST``) and the MCP profile (SPEC sections 9 and 10.4).

It has the shape of ``mcp.client.stdio.stdio_client`` (the same spawn, the
same two pipe tasks in one task group, the same encodings, the same
shielded shutdown, through the SDK's own helpers); only the reading of the
server's stdout differs: each chunk goes to the library's relay, which
splits it into lines and says what to do with each one (the handshake rule
and the substitutes included, for which every line the SDK writes to the
server is told to it).
"""

from __future__ import annotations

import sys
from contextlib import asynccontextmanager, suppress
from typing import Any, AsyncIterator, Optional, TextIO, Tuple

import anyio
import anyio.lowlevel

from .. import Action, Direction, Profile, Relay, Role, goes
from ._lines import Lines, logger
from . import _sdk as sdk


@asynccontextmanager
async def stdio_client(
    server: sdk.StdioServerParameters,
    errlog: TextIO = sys.stderr,
    *,
    max_line: Optional[int] = None,
) -> AsyncIterator[Tuple[Any, Any]]:
    """Spawns an MCP server subprocess and connects to it over stdin/stdout,
    as ``mcp.client.stdio.stdio_client`` does, with the envelope rules of
    the MCP profile, as the library's relay decides them for each line:

    - a broken request from the server (not valid MCP) is answered with the
      library's ``client`` reply;
    - a banner, print() output, a JSON log line, an empty line, a batch, a
      bare value, a line longer than ``max_line`` bytes (never held
      whole): logged, never handed to the session; but a damaged or
      too-long response whose id can be read in it is replaced by its
      substitute while that request waits (SPEC 10.6);
    - an error that names no request (``"id": null`` or no id), while
      exactly one request is outstanding, is handed to the session as that
      request's error, so the call fails at once with the server's error;
      with none or several outstanding it is logged and dropped;
    - a response that is not valid MCP is replaced by its substitute (an
      error for the request it answers) while that request waits, and is
      dropped with a log record otherwise;
    - the rest is handed to the session as the SDK's own transport hands
      it, and a line the SDK's validation still refuses never reaches it as
      an exception (it is answered or dropped, logged at error level).

    ``max_line`` is the longest line read, in bytes; None leaves it to the
    library: the MCP profile's default, ``profile_max_line("mcp")``.

    Raises:
        OSError: If the server process cannot be spawned.
        ValueError: If the spawn parameters are invalid (embedded NUL bytes).
    """
    # Made first, so that a bad max_line fails before a process is spawned;
    # freed when the transport ends. The server's stdout is what a client
    # reads; what the SDK writes to the server's stdin goes the other way.
    relay = Relay(Profile.MCP, max_line=max_line)
    read = Direction.read_by(Role.CLIENT)
    written = goes(Action.ANSWER, read)  # the way back: where the library's answers go
    try:
        command = await sdk._get_executable_command(server.command)

        process = await sdk._create_platform_compatible_process(
            command=command,
            args=server.args,
            env=sdk.get_default_environment() | (server.env or {}),
            errlog=errlog,
            cwd=server.cwd,
        )

        # The spawn succeeded; no awaits until the task group is entered, or a
        # cancellation delivered in the gap would leak the live process.
        read_stream_writer, read_stream = anyio.create_memory_object_stream[sdk.SessionMessage | Exception](0)
        write_stream, write_stream_reader = anyio.create_memory_object_stream[sdk.SessionMessage](0)

        shutting_down = False
        writer_done = anyio.Event()
        # No checkpoint when free: a write costs no extra turn of the event loop.
        send_lock = anyio.Lock(fast_acquire=True)

        async def send_line(text: str, sdk_own: bool) -> None:
            # Whole texts, one at a time: the SDK's messages and the
            # library's replies share the server's stdin. A text of several
            # lines (the library's answer to a batch) goes whole, in one
            # write. The relay hears of each of the SDK's own lines before it
            # leaves, so that its answer always finds it; it notes its own
            # answers itself.
            data = (text + "\n").encode(encoding=server.encoding, errors=server.encoding_error_handler)
            async with send_lock:
                if sdk_own:
                    relay.wrote(written, data[:-1])
                await process.stdin.send(data)

        async def send_reply(text: str) -> None:
            # A server gone or not reading its stdin ends the session elsewhere.
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await send_line(text, False)

        def validate(data: bytes) -> Any:
            # The SDK's own decoding of a line of the server's stdout.
            text = data.decode(server.encoding, server.encoding_error_handler)
            return sdk.types.jsonrpc_message_adapter.validate_json(text, by_name=False)

        lines = Lines("stdout", relay, read, validate, read_stream_writer.send, send_reply)

        async def stdout_reader() -> None:
            assert process.stdout, "Opened process is missing stdout"

            async def deliver(decided: Any) -> bool:
                for d in decided:
                    try:
                        await lines.act(d)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return False  # the session is gone; only the drain remains
                return True

            try:
                async with read_stream_writer:
                    try:
                        # One chunk at a time; no read-ahead while a delivery is blocked.
                        async for chunk in process.stdout:
                            if not await deliver(relay.feed(read, chunk)):
                                return
                        await deliver(relay.end(read))
                    finally:
                        await sdk._drain_stdout(process)
            except anyio.ClosedResourceError:
                pass  # our own shutdown closed the stdout stream under the read
            except (anyio.BrokenResourceError, ConnectionError):
                # Teardown noise during shutdown, a real failure otherwise; either way
                # the session sees clean closure when the read stream closes.
                if not shutting_down:
                    logger.exception("Reading from the MCP server's stdout failed mid-session")

        async def stdin_writer() -> None:
            assert process.stdin, "Opened process is missing stdin"

            try:
                async with write_stream_reader:
                    async for session_message in write_stream_reader:
                        json = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
                        await send_line(json, True)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                # The server may still be alive: close the read stream so the session
                # sees the connection end instead of a request hanging forever.
                await read_stream_writer.aclose()
            finally:
                writer_done.set()

        async def shutdown() -> None:
            """Winds the transport down: stop traffic, flush, stop the server, release the streams."""
            # Unblock the reader into its drain: a server stuck writing stdout cannot
            # read its stdin, so draining is what lets the flush below complete.
            read_stream.close()
            # Bounded window for the writer to flush already-accepted messages.
            write_stream.close()
            with anyio.move_on_after(sdk._WRITER_FLUSH_TIMEOUT) as flush_scope:
                await writer_done.wait()
            if flush_scope.cancelled_caught:
                await anyio.lowlevel.cancel_shielded_checkpoint()
            await sdk._stop_server_process(process)
            await sdk._aclose_all(read_stream, write_stream, read_stream_writer, write_stream_reader)
            # One pass so unblocked tasks exit via their except paths before the cancel.
            await anyio.lowlevel.checkpoint()

        async with anyio.create_task_group() as tg:
            tg.start_soon(stdout_reader)
            tg.start_soon(stdin_writer)
            try:
                yield read_stream, write_stream
            finally:
                shutting_down = True
                # Shutdown must finish even under caller cancellation, or the server
                # process would leak; every wait inside is bounded.
                with anyio.CancelScope(shield=True):
                    await shutdown()
                # Unstick pipe tasks a kill survivor's open pipe end could still block.
                tg.cancel_scope.cancel()
        # The cancel lands via throw(); one yield resyncs 3.11 coverage (gh-106749).
        await anyio.lowlevel.cancel_shielded_checkpoint()
    finally:
        relay.close()
