"""What the tests that drive an MCP server over pipes share: the handshake's
two messages, how a message is written as a line, a program on pipes
(`Peer`) and a server driven line by line (`Server`). Imported by
tests/guard and bindings/python/tests_mcp (each puts this folder on
sys.path); the dist tests stay self-contained, as they run from the
artifacts alone."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from typing import List, Optional, Tuple

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": "init",
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "abuse", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}

# How long a test waits for a line before it calls the server silent.
PATIENCE = 20.0


def encode(message: dict) -> bytes:
    """`message` as one compact line with its LF."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class Peer:
    """A program on pipes, its stdout read line by line on a thread, so that
    waiting for a line has a deadline; its stderr collected in `stderr`."""

    def __init__(self, command: List[str]) -> None:
        self.command = command
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_thread.start()

    def _read_stdout(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self.stderr += line

    def send(self, data: bytes) -> bool:
        """Writes to stdin; False when the program no longer reads it."""
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, ValueError):
            return False

    def line(self, timeout: float) -> Optional[bytes]:
        """The next stdout line; None at its end. Raises queue.Empty on timeout."""
        return self.lines.get(timeout=timeout)

    def close(self, timeout: float = 10) -> Optional[int]:
        """Closes stdin and waits for the exit status (None: it had to be
        killed)."""
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            status: Optional[int] = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status = None
        self._stderr_thread.join(timeout=timeout)
        return status


class Server:
    """An MCP server on pipes, initialized, and probed with pings whose ids
    never repeat; started again whenever a line ends it (`starts` counts
    how often)."""

    def __init__(self, command: List[str]) -> None:
        self.command = command
        self.starts = 0
        self.next_id = 1000
        self.peer: Optional[Peer] = None
        self.last: Optional[dict] = None
        self._stderr = b""

    @property
    def stderr(self) -> bytes:
        """What the last start of the server wrote to stderr."""
        return self.peer.stderr if self.peer else self._stderr

    def _start(self) -> Peer:
        self.starts += 1
        self.peer = peer = Peer(self.command)
        peer.send(encode(INITIALIZE))
        replies, state = self._until("init")
        if state != "alive" or replies:
            raise RuntimeError(f"{self.command} did not initialize: {state} {replies!r} {peer.stderr!r}")
        peer.send(encode(INITIALIZED))
        return peer

    def _until(self, id_) -> Tuple[List[bytes], str]:
        """The lines (without LF) before the response with `id_`, and the
        server's state: alive, exited (stdout ended) or silent."""
        replies = []
        while True:
            try:
                line = self.peer.line(PATIENCE)
            except queue.Empty:
                return replies, "silent"
            if line is None:
                return replies, "exited"
            try:
                message = json.loads(line)
            except ValueError:
                message = None
            if isinstance(message, dict) and message.get("id") == id_ and "method" not in message:
                self.last = message
                return replies, "alive"
            replies.append(line.rstrip(b"\n"))

    def probe(self, data: bytes) -> Tuple[List[bytes], str]:
        """Sends `data` (a line with its ending) and a ping: what came back
        before the ping's answer, and the server's state after it ("alive":
        the ping was answered; "exited"; "silent": no answer in PATIENCE)."""
        peer = self.peer or self._start()
        self.next_id += 1
        ping = self.next_id
        sent = peer.send(data) and peer.send(encode({"jsonrpc": "2.0", "id": ping, "method": "ping"}))
        replies, state = self._until(ping)
        if not sent and state == "alive":
            state = "exited"
        if state != "alive":
            self.close()
        return replies, state

    def call(self, method: str, params: dict) -> dict:
        """A request, and its response."""
        peer = self.peer or self._start()
        self.next_id += 1
        peer.send(encode({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        replies, state = self._until(self.next_id)
        assert state == "alive" and replies == [], (state, replies)
        return self.last

    def close(self) -> Optional[int]:
        """Ends the server; its exit status (None if it was not running or
        had to be killed)."""
        peer, self.peer = self.peer, None
        if peer is None:
            return None
        status = peer.close()
        self._stderr = peer.stderr
        return status
