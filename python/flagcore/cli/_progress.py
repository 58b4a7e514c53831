"""One progress display for every long command: a tqdm bar on stderr.

On a terminal tqdm redraws its line in place. Anywhere else (a log file, CI, a pipe) redrawing
with carriage returns leaves a run of half-lines, so the same bar is written as plain lines
instead: one at each tenth of the work and one at the end.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from tqdm import tqdm


class _Lines:
    """A file for tqdm that turns each redraw ("\\r" + bar) into one line of its own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.last = ""

    def write(self, text: str) -> None:
        line = text.replace("\r", "").strip()
        if line and line != self.last:  # tqdm's close() redraws the final state once more
            self.last = line
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress(total: int, desc: str) -> tqdm[Any]:
    """A bar over ``total`` steps; use it as a context manager and call ``update(n)``."""
    stream = sys.stderr
    if stream.isatty():
        return tqdm(total=total, desc=desc, file=stream, dynamic_ncols=True)
    return tqdm(
        total=total,
        desc=desc,
        file=_Lines(stream),
        ascii=True,
        ncols=80,
        mininterval=0,
        miniters=max(1, -(-total // 10)),
        maxinterval=float("inf"),
    )


@contextmanager
def steps(total: int, desc: str) -> Iterator[Callable[[str], None]]:
    """progress() for library code that calls ``step(label)`` after each unit of its work
    (nothing is drawn when ``total`` is 0: there is no work to show)."""
    if total <= 0:
        yield lambda label: None
        return
    with progress(total, desc) as bar:

        def step(label: str) -> None:
            bar.set_description(f"{desc} {label}", refresh=False)
            bar.update(1)

        yield step
