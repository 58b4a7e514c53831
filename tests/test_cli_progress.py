"""The one progress display of the long commands: redrawn in place on a terminal, plain lines elsewhere."""
from __future__ import annotations

import io

from flagcore.cli import _progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(monkeypatch, stream: io.StringIO, total: int) -> str:
    monkeypatch.setattr("sys.stderr", stream)
    with _progress.progress(total, "work") as bar:
        for i in range(total):
            bar.set_description(f"step {i}", refresh=False)
            bar.update(1)
    return stream.getvalue()


def test_plain_lines_off_a_terminal(monkeypatch):
    out = run(monkeypatch, io.StringIO(), 95)
    lines = out.splitlines()
    assert "\r" not in out and out.endswith("\n")
    assert 10 <= len(lines) <= 12  # the start, each tenth, the end; never the same line twice
    assert len(set(lines)) == len(lines)
    assert lines[-1].startswith("step 94: 100%") and "95/95" in lines[-1]


def test_redrawn_in_place_on_a_terminal(monkeypatch):
    out = run(monkeypatch, Terminal(), 95)
    assert out.count("\r") >= 2 and "95/95" in out
