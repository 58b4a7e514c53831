"""The one progress display of the long commands: redrawn in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

import io

import pytest

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


def test_steps_reports_each_unit_and_stays_silent_without_work(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    with _progress.steps(3, "work") as step:
        for label in ("a", "b", "c"):
            step(label)
    assert stream.getvalue().splitlines()[-1].startswith("work c: 100%")
    stream.truncate(0)
    with _progress.steps(0, "nothing") as step:
        step("ignored")
    assert stream.getvalue() == ""


def test_data_check_steps_once_per_rendered_flag(monkeypatch):
    from flagcore.library import load_library
    from flagcore.review import colour_check
    from flagcore.review.library_check import check_library

    seen: list[str] = []
    # the render is what is slow; the step contract does not depend on it
    monkeypatch.setattr(colour_check, "check_colours", lambda svg, declared: colour_check.ColourReport({}, (), ()))
    library = load_library()
    result = check_library(library, step=seen.append)
    assert seen == list(library.codes) and result.ok


@pytest.mark.slow
def test_data_commands_show_progress_on_stderr(tmp_path, capsys):
    from flagcore.cli import main

    assert (
        main(["data", "sheet", "--out", str(tmp_path), "--group", "stripes", "--mode", "flags", "--tile-width", "24"])
        == 0
    )
    err = capsys.readouterr().err
    assert "\r" not in err and "1/1" in err.splitlines()[-1]
    assert main(["data", "check", "--no-colours"]) == 0
    assert capsys.readouterr().err == ""  # no rendering, no progress bar
