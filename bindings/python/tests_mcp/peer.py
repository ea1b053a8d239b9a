"""A server program on real pipes, driven line by line: what it writes back
for each line sent to it, and whether it lives."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from typing import List, Optional, Tuple

PATIENCE = 20.0

import sys as _sys
from pathlib import Path as _Path

_sys.path.insert(0, str(_Path(__file__).resolve().parents[3] / "tests" / "support"))
from mcp_peer import INITIALIZE, INITIALIZED, encode  # noqa: E402  (shared with tests/guard)


class Server:
    """A server started on pipes and initialized; started again whenever
    a line ends it (`starts` counts how often)."""

    def __init__(self, command: List[str]) -> None:
        self.command = command
        self.starts = 0
        self.next_id = 100
        self.process: Optional[subprocess.Popen] = None
        self.stderr = b""

    def _start(self) -> None:
        self.starts += 1
        self.process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.lines: "queue.Queue[Optional[bytes]]" = queue.Queue()
        process = self.process
        threading.Thread(target=self._read, args=(process.stdout, self.lines), daemon=True).start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, args=(process.stderr,), daemon=True)
        self._stderr_thread.start()
        self._send(encode(INITIALIZE))
        replies, state = self._until("init")
        if state != "alive" or replies:
            raise RuntimeError(f"{self.command} did not initialize: {state} {replies!r} {self.stderr!r}")
        self._send(encode(INITIALIZED))

    @staticmethod
    def _read(stdout, lines) -> None:
        for line in stdout:
            lines.put(line)
        lines.put(None)

    def _read_stderr(self, stderr) -> None:
        for line in stderr:
            self.stderr += line

    def _send(self, data: bytes) -> bool:
        try:
            self.process.stdin.write(data)
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, ValueError):
            return False

    def _until(self, id_) -> Tuple[List[bytes], str]:
        """The lines (without LF) before the response with `id_`, and the
        server's state: alive, exited (stdout ended) or silent."""
        replies = []
        while True:
            try:
                line = self.lines.get(timeout=PATIENCE)
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

    def probe(self, line: bytes) -> Tuple[List[bytes], str]:
        """Sends `line` and a ping: what came back before the ping's answer,
        and whether the server answered it."""
        if self.process is None:
            self._start()
        self.next_id += 1
        ping = self.next_id
        sent = self._send(line + b"\n") and self._send(encode({"jsonrpc": "2.0", "id": ping, "method": "ping"}))
        replies, state = self._until(ping)
        if not sent and state == "alive":
            state = "exited"
        if state != "alive":
            self.close()
        return replies, state

    def call(self, method: str, params: dict) -> dict:
        """A request, and its response."""
        if self.process is None:
            self._start()
        self.next_id += 1
        self._send(encode({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        replies, state = self._until(self.next_id)
        assert state == "alive" and replies == [], (state, replies)
        return self.last

    def close(self) -> Optional[int]:
        process, self.process = self.process, None
        if process is None:
            return None
        try:
            process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            status: Optional[int] = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            status = None
        self._stderr_thread.join(timeout=10)
        return status
