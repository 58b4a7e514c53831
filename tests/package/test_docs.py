"""The docs site (docs/, mkdocs.yml): every code block of its pages held to the rule of its class
(code_blocks.py; CONTRIBUTING.md, "Docs"), and what mkdocs cannot check: every page in the
navigation, the pictures small and all in use, the gallery complete, the layout table true, the
generated figures equal to what scripts/write_figures.py writes. CI builds the site itself
(`mkdocs build --strict` in .ci/run): links, anchors and the API reference.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from code_blocks import (
    CLASSES,
    INSTALL,
    REPO,
    bash_commands,
    blocks,
    check_command,
    check_install_line,
    check_json_excerpt,
    command_params,
    folders_fixture,
    pages,
    run_python,
    runnable,
)

DOCS = REPO / "docs"
PAGES = pages("docs/**/*.md")
BLOCKS = blocks(PAGES)
PYTHON = [b for b in BLOCKS if b.lang == "python"]
RUN = runnable(BLOCKS)
IMAGE = re.compile(r"\]\((images/[^)\s]+)\)|src=\"(images/[^\"]+)\"")


def nav_pages() -> list[str]:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text(encoding="utf-8").replace("!!python/name:", ""))

    def walk(entry: object) -> list[str]:
        if isinstance(entry, str):
            return [entry]
        if isinstance(entry, dict):
            return [p for v in entry.values() for p in walk(v)]
        if isinstance(entry, list):
            return [p for v in entry for p in walk(v)]
        return []

    return walk(config["nav"])


def test_every_block_has_a_class():
    assert [b.id for b in BLOCKS if b.lang not in CLASSES] == []
    assert len(PYTHON) >= 8 and len(RUN) >= 25


@pytest.mark.parametrize("command", [c for _, c in bash_commands(BLOCKS) if INSTALL.search(c)])
def test_install_line_installs_what_exists(command):
    check_install_line(command)


def test_json_blocks_parse():
    assert any(b.lang == "json" for b in BLOCKS)
    for block in BLOCKS:
        if block.lang == "json":
            check_json_excerpt(block.body)


folders = folders_fixture(BLOCKS)


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_python_block_runs(folders, block):
    res = run_python(block.body, folders(block.page))
    assert res.returncode == 0, f"{block.id}:\n{res.stderr[-3000:]}"


@pytest.mark.parametrize("command,page", command_params(RUN))
def test_bash_command_runs(folders, command, page, monkeypatch, capsys):
    check_command(command, folders(page), monkeypatch, capsys)


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page():
    nav = nav_pages()
    on_disk = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(nav) == on_disk
    # the pages other work lands in keep their names (issue 33)
    assert {"ratings.md", "server.md", "season.md", "performance.md"} <= set(nav)


def test_generate_is_two_clicks_from_home():
    """Home links the reference page of flagcore.connections at generate's own anchor."""
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "(reference/connections.md#flagcore.connections.generate)" in home
    assert "::: flagcore.connections\n" in (DOCS / "reference" / "connections.md").read_text(encoding="utf-8")
    import flagcore.connections

    assert "generate" in flagcore.connections.__all__  # so mkdocstrings renders it on that page


def test_the_site_sources_are_small():
    """Everything mkdocs serves from docs/, pictures included, is at most 1.5 MB."""
    total = sum(p.stat().st_size for p in DOCS.rglob("*") if p.is_file())
    assert total <= 1_500_000, f"docs/ holds {total:,} bytes"


def test_every_picture_is_small_webp_and_in_use_and_every_use_exists():
    used = {m.group(1) or m.group(2) for p in PAGES for m in IMAGE.finditer(p.read_text(encoding="utf-8"))}
    files = {p.relative_to(DOCS).as_posix() for p in (DOCS / "images").iterdir()}
    assert sorted(used - files) == [], "pictures the pages show that docs/images lacks"
    assert sorted(files - used) == [], "pictures no page shows"
    assert all(f.endswith(".webp") for f in files)


def test_the_gallery_shows_every_page_and_state():
    gallery = (DOCS / "gallery.md").read_text(encoding="utf-8")
    shots = sorted(p.name for p in (DOCS / "images").glob("web-*.webp"))
    assert len(shots) == 19 * 4  # 19 states (tests/web/test_web_play_screens.py) x 2 widths x 2 schemes
    for name in shots:
        assert f"(images/{name})" in gallery, name


def test_the_layout_table_names_real_paths():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert len(rows) >= 15
    for row in rows:
        for path in re.findall(r"`([^`]+)`", row.split("|")[1]):
            assert (REPO / path).exists(), path
    # every room of the package is in it
    for room in Path(REPO / "python" / "flagcore").iterdir():
        if room.is_dir() and not room.name.startswith("__") and room.name != "fonts":
            assert f"`python/flagcore/{room.name}/`" in table, room.name


def test_the_benchmark_tables_are_what_write_figures_writes():
    """The tables between <!-- figures:NAME --> marks come from benchmarks/results/*.json, not by hand."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("write_figures", REPO / "scripts" / "write_figures.py")
    assert spec and spec.loader
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    pages_with_tables = sorted({page for page, _ in figures.TABLES.values()})
    assert pages_with_tables == ["docs/performance.md", "docs/season.md"]
    for page in pages_with_tables:
        text = (REPO / page).read_text(encoding="utf-8")
        assert figures.written(page) == text, f"{page}: run python scripts/write_figures.py"
        for name, (where, _) in figures.TABLES.items():
            if where == page:
                assert figures.region(name).search(text).group(2).count("\n| ") >= 3, name  # a table, not empty
    assert set(figures.TABLES) == {"year", "season", "public", "kernels"}
