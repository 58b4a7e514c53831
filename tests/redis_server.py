"""A real redis-server (Debian's package) for the tests: on a free port of 127.0.0.1, no persistence.

Used by the store and web tests (their conftest.py files make fixtures of it). Not a mock: the
tests of atomicity and of faults mean something only against the real server. CI installs the
package (.ci/run); without it the fixture fails and says how to install it, rather than skipping.
"""

from __future__ import annotations

import atexit
import shutil
import signal
import socket
import subprocess
import time

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT = 10.0  # seconds for redis-server to accept connections (it takes milliseconds)


_LIVE: set[RedisServer] = set()  # started and not yet stopped: stopped when the test process exits


@atexit.register
def _stop_leftovers() -> None:
    # a test that fails before its own stop() would otherwise leave its redis-server running after
    # the test process (one leaked server per failed run of a fault test)
    for server in list(_LIVE):
        if server.process is not None:
            server.process.send_signal(signal.SIGCONT)  # a SIGSTOPped server cannot act on SIGTERM
        server.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One redis-server process; ``kill()`` and ``start()`` again on the same port for fault tests.

    data_dir: None for no persistence (what most tests want: nothing on disk); a folder for an
    append-only file written at every command (appendfsync always), so a killed server comes back
    with every write it acknowledged.
    """

    def __init__(self, port: int | None = None, data_dir: str | None = None) -> None:
        self.port = port or free_port()
        self.data_dir = data_dir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if not shutil.which(REDIS_SERVER):
            raise RuntimeError("these tests need Debian's redis-server: apt-get install redis-server")
        if self.data_dir is None:
            persistence = ["--save", "", "--appendonly", "no"]
        else:
            persistence = ["--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", self.data_dir]
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                *persistence,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--daemonize",
                "no",
                "--protected-mode",
                "yes",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _LIVE.add(self)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode} (port {self.port} taken?)")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} within {START_TIMEOUT} s")

    def kill(self) -> None:
        """SIGKILL: the server dies mid-whatever, as in a crash."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
        _LIVE.discard(self)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        _LIVE.discard(self)
