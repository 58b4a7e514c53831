"""Light pages: the HTML, CSS and JavaScript each page loads (the game pages' help dialog loads
help.html too) stay under 60 KB together, uncompressed. A size, not a timing: the time to
interactive is measured by benchmarks/web_pages.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import flagcore.web

STATIC = Path(flagcore.web.__file__).parent / "static"
LIMIT = 60 * 1024
PAGES = ["index", "connections", "puzzle", "tools", "simulator", "bench", "help", "offline", "404"]


def page_files(name: str) -> list[Path]:
    """The page and the styles, scripts and HTML it loads from /static/."""
    html = (STATIC / f"{name}.html").read_text()
    linked = re.findall(r'(?:src|href)="/static/([\w.-]+\.(?:css|js))"', html)
    files = [STATIC / f"{name}.html", *(STATIC / f for f in linked)]
    if "help-body" in html:  # the How to play dialog shows sections of help.html
        files.append(STATIC / "help.html")
    return files


@pytest.mark.parametrize("name", PAGES)
def test_each_page_weighs_under_60_kb(name: str) -> None:
    files = page_files(name)
    assert all(f.exists() for f in files), files
    assert STATIC / "app.css" in files
    total = sum(f.stat().st_size for f in files)
    assert total < LIMIT, f"{name}: {total} bytes in {[f.name for f in files]}"


def test_the_game_pages_count_their_scripts_and_help() -> None:
    names = {f.name for f in page_files("connections")}
    assert names == {"connections.html", "app.css", "common.js", "connections.js", "help.html"}
