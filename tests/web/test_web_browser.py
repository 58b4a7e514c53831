"""The browser game in a real browser: Playwright drives Debian's headless chromium against a
uvicorn server on 127.0.0.1. Marked ``browser``: deselect with ``-m "not browser"``; when chromium
is missing these tests fail and say how to install it (they never skip silently).

``FLAGCORE_SCREENSHOTS=docs pytest tests/web/test_web_browser.py`` also writes the README's pictures.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import SECRET, ServerThread, answers, optimal_log

from flagcore.web import create_app

pytestmark = pytest.mark.browser

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    path = os.environ.get("FLAGCORE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            "the browser tests need Debian's chromium: `apt-get install -y chromium` "
            "(or set FLAGCORE_CHROMIUM to a Chromium binary); deselect them with -m 'not browser'",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread(create_app(SECRET)) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):  # type: ignore[no-untyped-def]
    # bypass_csp lets Playwright evaluate its wait conditions; test_pages_obey_their_csp runs without it
    context = browser.new_context(viewport={"width": 900, "height": 1000}, bypass_csp=True)
    pg = context.new_page()
    outside: list[str] = []

    def guard(route) -> None:  # type: ignore[no-untyped-def]
        if route.request.url.startswith(server.url):
            route.continue_()
        else:  # the pages must work offline: nothing may leave 127.0.0.1
            outside.append(route.request.url)
            route.abort()

    pg.route("**/*", guard)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(15_000)
    yield pg
    context.close()
    assert not outside, f"requests left the server: {outside}"
    assert not errors, f"JavaScript errors: {errors}"


def shot(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    folder = os.environ.get("FLAGCORE_SCREENSHOTS")
    if folder:
        pg.screenshot(path=str(Path(folder) / f"web-{name}.png"), full_page=True)


def open_connections(pg, server: ServerThread, seed: str) -> tuple[str, list[list[str]]]:  # type: ignore[no-untyped-def]
    pg.goto(f"{server.url}/connections?seed={seed}")
    pg.wait_for_selector("#tiles .tile")
    label = pg.inner_text("#board-label")
    board_id = label.split()[0]
    return board_id, [list(g.codes) for g in answers(board_id).groups]


def click_guess(pg, codes: list[str]) -> None:  # type: ignore[no-untyped-def]
    if pg.locator("#tiles .tile.selected").count():  # a wrong guess stays selected, as in the original
        pg.click("#deselect")
    for code in codes:
        pg.click(f'#tiles .tile[data-code="{code}"]')
    assert pg.locator("#tiles .tile.selected").count() == 4
    pg.click("#submit")


def test_win_connections_by_clicks(page, server) -> None:  # type: ignore[no-untyped-def]
    board_id, groups = open_connections(page, server, "2024")
    assert page.locator("#tiles .tile").count() == 16
    assert page.locator("#mistakes span").count() == 4
    page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
    shot(page, "connections-board")
    page.click("#shuffle")
    for solved, codes in enumerate(groups, start=1):
        if solved == 2:  # one mistake on the way: three of a group and one other
            click_guess(page, groups[1][:3] + [groups[2][0]])
            page.wait_for_function("document.getElementById('message').textContent.includes('One away')")
            assert page.locator("#mistakes span").count() == 3
        click_guess(page, codes)
        page.wait_for_function(f"document.querySelectorAll('#solved .group').length === {solved}")
        assert page.locator("#tiles .tile").count() == 16 - 4 * solved
    page.wait_for_selector("#end:not([hidden])")
    assert "Solved with 1 mistake" in page.inner_text("#outcome")
    tiers = page.eval_on_selector_all("#solved .group", "els => els.map(e => e.dataset.tier)")
    assert tiers == ["yellow", "green", "blue", "purple"]
    colour = page.eval_on_selector("#solved .group", "e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(249, 223, 109)"  # the yellow tier
    share = page.eval_on_selector("#share", "e => e.textContent")
    assert share.startswith(f"flagcore Connections {board_id}") and share.count("\n") == 6
    rows = page.eval_on_selector_all(
        "#share-grid > div:not(.muted)", "rows => rows.map(r => [...r.children].map(s => s.className))"
    )
    assert len(rows) == 5 and all(len(r) == 4 for r in rows) and rows[-1] == ["sq tier-purple"] * 4
    shot(page, "connections")


def test_lose_connections_by_four_mistakes(page, server) -> None:  # type: ignore[no-untyped-def]
    _, groups = open_connections(page, server, "2025")
    for k in range(4):
        click_guess(page, [groups[0][k], groups[1][k], groups[2][k], groups[3][k]])
        page.wait_for_function(f"document.querySelectorAll('#mistakes span').length === {3 - k}")
    page.wait_for_selector("#end:not([hidden])")
    assert "Out of mistakes" in page.inner_text("#outcome")
    shown = page.eval_on_selector_all("#solved .group .label", "els => els.map(e => e.textContent)")
    assert shown == [g.label for g in answers(page.inner_text("#board-label").split()[0]).groups]
    assert page.locator("#tiles .tile").count() == 0 and page.is_disabled("#submit")


def test_connections_daily_and_board_id(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/connections?daily=2026-11-30")
    page.wait_for_selector("#tiles .tile")
    assert "daily 2026-11-30" in page.inner_text("#board-label")
    board_id = page.inner_text("#board-label").split()[0]
    first = page.eval_on_selector_all("#tiles .tile", "els => els.map(e => e.dataset.code)")
    page.goto(f"{server.url}/connections")
    page.fill("#board-id", board_id)
    page.click("#open")
    page.wait_for_function(f"document.getElementById('board-label').textContent === '{board_id}'")
    assert page.eval_on_selector_all("#tiles .tile", "els => els.map(e => e.dataset.code)") == first
    page.fill("#board-id", "not-an-id")
    page.click("#open")
    page.wait_for_function("document.getElementById('message').textContent.includes('board id')")


def test_solve_a_puzzle_by_clicks_and_see_the_verified_result(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/puzzle?flag=JP&grid=easy&seed=8")
    page.wait_for_selector(".ptile")
    deal = page.evaluate("puzzle.deal")
    assert deal["flag"] == "JP" and page.locator(".ptile").count() == 6
    style = page.eval_on_selector('.ptile[data-slot="0"]', "e => [e.style.backgroundImage, e.style.backgroundSize]")
    assert style == ['url("/flags/JP.svg")', "300% 200%"]
    log = optimal_log(deal["tiles_by_slot"], deal["classes"])
    assert log, "the deal must not start solved"
    for i, (a, b) in enumerate(log):
        if i == 0:  # drag the first tile onto the second
            src, dst = page.locator(f'.ptile[data-slot="{a}"]'), page.locator(f'.ptile[data-slot="{b}"]')
            src.hover()
            page.mouse.down()
            dst.hover()
            page.mouse.up()
        else:  # tap, tap
            page.click(f'.ptile[data-slot="{a}"]')
            page.click(f'.ptile[data-slot="{b}"]')
        page.wait_for_function(f"document.getElementById('swaps').textContent === '{i + 1}'")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#verdict") == "Perfect solve!"
    assert page.inner_text("#r-par") == str(len(log)) and page.inner_text("#r-swaps") == str(len(log))
    assert "Verified by the server" in page.inner_text("#message")
    page.goto(f"{server.url}/puzzle?flag=JP&grid=hard&seed=3")
    page.wait_for_selector(".ptile")
    shot(page, "puzzle")


def test_step_the_simulator_through_seed_12(page, server) -> None:  # type: ignore[no-untyped-def]
    from flagcore.connections import generate

    board = generate(12, "flags", trace=True)
    assert board.events
    page.goto(f"{server.url}/simulator")
    page.wait_for_function("sim.steps.length > 0")
    assert page.input_value("#seed") == "12"
    for i, ev in enumerate(board.events, start=1):
        page.click("#step")
        assert page.inner_text("#stepno") == str(i)
        assert page.inner_text("#depth") == str(ev["depth"])
        if ev["event"] == "try":
            assert page.inner_text("#candidate") == ev["label"]
    assert page.is_disabled("#step")
    assert page.inner_text("#attempts") == str(board.stats["moves_tried"])
    assert page.inner_text("#backtracks") == str(board.stats["backtracks"])
    chips = page.eval_on_selector_all("#board span", "els => els.map(e => e.textContent)")
    assert sorted(chips) == sorted(board.tiles)
    stack = page.eval_on_selector_all("#stack .tier", "els => els.map(e => e.className)")
    assert stack == [f"tier tier-{t}" for t in ("yellow", "green", "blue", "purple")]
    assert page.locator("#spill span").count() > 0
    page.click("#back")
    assert page.inner_text("#stepno") == str(len(board.events) - 1)
    shot(page, "simulator")
    page.click("#reset")
    page.click("#play")
    page.wait_for_function(f"document.getElementById('stepno').textContent === '{len(board.events)}'", timeout=30_000)


def test_swap_bench(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/bench")
    page.wait_for_selector(".btile")
    page.select_option("#size", "9")
    page.click("#new")
    # the reply for this very board is on screen (not one for the board the size change made)
    page.wait_for_function(
        "document.querySelectorAll('.btile').length === 9 && bench.swaps === 0 && bench.shown === bench.gen"
    )
    shot(page, "bench")
    tiles = page.evaluate("bench.tiles")
    cycles = int(page.inner_text("#cycles"))
    assert int(page.inner_text("#min")) == 9 - cycles
    swaps = 0
    for slot in range(9):  # put tile `slot` home: each such swap splits a cycle, so cycles + 1
        if tiles[slot] == slot:
            continue
        other = tiles.index(slot)
        page.click(f'.btile[data-slot="{slot}"]')
        page.click(f'.btile[data-slot="{other}"]')
        tiles[slot], tiles[other] = tiles[other], tiles[slot]
        swaps += 1
        cycles += 1
        page.wait_for_function(
            f"document.getElementById('swaps').textContent === '{swaps}'"
            f" && document.getElementById('cycles').textContent === '{cycles}'"
        )
        assert page.inner_text("#min") == str(9 - cycles)
    assert cycles == 9
    assert "the minimum" in page.inner_text("#message")


def test_pages_obey_their_csp(browser, server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    pg.on("pageerror", lambda exc: problems.append(str(exc)))
    for path, ready in (
        ("/", ".cards a"),
        ("/connections?seed=1", "#tiles .tile"),
        ("/puzzle", ".ptile"),
        ("/simulator", "#position:has-text('step 0 /')"),
        ("/bench", ".btile"),
    ):
        pg.goto(server.url + path)
        pg.wait_for_selector(ready)
    context.close()
    assert not problems


@pytest.fixture(scope="module")
def bound_server(tmp_path_factory) -> Iterator[ServerThread]:  # type: ignore[no-untyped-def]
    """The app with a store (a SQLite file): games are the player's (the browser's cookie)."""
    from flagcore.store import SQLiteStore

    store = SQLiteStore(tmp_path_factory.mktemp("store") / "games.db")
    with ServerThread(create_app(SECRET, store=store)) as running:
        yield running
    store.close()


def test_reloading_a_bound_game_keeps_its_mistakes_and_its_end(browser, bound_server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 900, "height": 1000}, bypass_csp=True)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    _, groups = open_connections(pg, bound_server, "2026")
    click_guess(pg, groups[0])
    pg.wait_for_function("document.querySelectorAll('#solved .group').length === 1")
    click_guess(pg, [groups[1][0], groups[1][1], groups[2][0], groups[3][0]])
    pg.wait_for_function("document.querySelectorAll('#mistakes span').length === 3")
    pg.reload()  # the page reopens the board by its id: the stored game, not a new one
    pg.wait_for_selector("#tiles .tile")
    assert pg.locator("#mistakes span").count() == 3
    assert pg.locator("#solved .group").count() == 1 and pg.locator("#tiles .tile").count() == 12
    for k in range(1, 4):  # three more mistakes: the game is lost
        click_guess(pg, [groups[1][0], groups[1][k % 4], groups[2][k], groups[3][k]])
        pg.wait_for_function(f"document.querySelectorAll('#mistakes span').length === {3 - k}")
    pg.wait_for_selector("#end:not([hidden])")
    pg.reload()  # a finished game stays finished
    pg.wait_for_selector("#end:not([hidden])")
    assert "Out of mistakes" in pg.inner_text("#outcome") and pg.is_disabled("#submit")
    context.close()
    assert not errors, f"JavaScript errors: {errors}"
