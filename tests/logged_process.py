"""A server process for the tests whose output goes to a file, never to a pipe.

A pipe nobody reads holds 64 KiB; a server that logs a line per failing request (a killed store)
or per malformed request (uvicorn) fills it within seconds, and then it is the test that stalls
the server. The file is unlinked at once (the process and the test keep their handles), and
``proc.stderr`` reads it from its start: stdout and stderr, in the order written. ``serving`` runs
``flagcore serve`` so, until it answers, for the tests of real servers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from redis_server import free_port


def popen_logged(args: Sequence[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """Start ``args``; its stdout and stderr go to a file that ``proc.stderr`` reads."""
    fd, path = tempfile.mkstemp(prefix="flagcore-test-", suffix=".log")
    try:
        with os.fdopen(fd, "ab") as out:
            proc = subprocess.Popen(args, env=env, stdout=out, stderr=out, text=True)
        proc.stderr = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115 (the process's own, closed with it)
    finally:
        os.unlink(path)
    return proc


FLAGCORE_SERVE = [sys.executable, "-m", "flagcore", "serve"]


@contextmanager
def serving(
    args: Sequence[str], env: dict[str, str], wrap: Sequence[str] = (), start_seconds: float = 240
) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """``flagcore serve`` with ``args`` on a free port of 127.0.0.1 (its output logged to a file,
    popen_logged), once its /healthz answers (within ``start_seconds``: a worker deals its first
    boards before it serves, flagcore.web.app, seconds on a loaded machine): (port, process);
    stopped (SIGTERM, then SIGKILL after 30 s) at the end, if the test did not stop it. ``wrap``: a
    command that runs the server (its arguments follow)."""
    port = free_port()
    proc = popen_logged([*wrap, *FLAGCORE_SERVE, "--port", str(port), "--no-access-log", *args], env)
    try:
        deadline = time.monotonic() + start_seconds
        while not _healthy(port):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"server did not start: {proc.communicate(timeout=5)}")
            time.sleep(0.2)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as reply:
            return bool(reply.status == 200)
    except OSError:  # not listening yet, or an HTTP error (urllib's are OSErrors)
        return False
