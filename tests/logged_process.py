"""A server process for the tests whose output goes to a file, never to a pipe.

A pipe nobody reads holds 64 KiB; a server that logs a line per failing request (a killed store)
or per malformed request (uvicorn) fills it within seconds, and then it is the test that stalls
the server. The file is unlinked at once (the process and the test keep their handles), and
``proc.stderr`` reads it from its start: stdout and stderr, in the order written.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Sequence


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
