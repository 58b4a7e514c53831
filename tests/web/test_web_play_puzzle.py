"""The Puzzle as a player plays it, in Debian's chromium (fixtures in browser_fixtures.py): the day's deal
first, a solve with the keyboard alone, and the stats it leaves in the browser."""

from __future__ import annotations

import datetime as dt

import pytest
from web_helpers import greedy_log, optimal_log

pytest_plugins = ["browser_fixtures"]  # server, browser, new_page, page
pytestmark = pytest.mark.browser


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def keyboard_to(pg, slot: int, columns: int) -> None:  # type: ignore[no-untyped-def]
    here = int(pg.evaluate("document.activeElement.dataset.slot"))
    rows, cols = slot // columns - here // columns, slot % columns - here % columns
    for _ in range(abs(rows)):
        pg.keyboard.press("ArrowDown" if rows > 0 else "ArrowUp")
    for _ in range(abs(cols)):
        pg.keyboard.press("ArrowRight" if cols > 0 else "ArrowLeft")
    assert int(pg.evaluate("document.activeElement.dataset.slot")) == slot


def test_a_puzzle_solve_with_the_keyboard_alone(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/puzzle?flag=JP&grid=medium&seed=8")
    page.wait_for_selector(".ptile")
    deal = page.evaluate("puzzle.deal")
    log = optimal_log(deal["tiles_by_slot"], deal["classes"]) if len(deal["classes"]) <= 6 else None
    log = log or greedy_log(deal["tiles_by_slot"], deal["classes"])
    page.evaluate("document.activeElement.blur()")
    for _ in range(30):  # Tab from the top of the page to the board
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('ptile')"):
            break
    assert page.evaluate("document.activeElement.dataset.slot") == "0"
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    first = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert first.startswith("row 1, column 1: piece of row ")
    for i, (a, b) in enumerate(log):
        keyboard_to(page, a, 4)
        page.keyboard.press("Space")
        assert page.evaluate("document.activeElement.getAttribute('aria-label')").endswith(", picked")
        assert page.inner_text("#message") == f"Picked row {a // 4 + 1}, column {a % 4 + 1}."
        keyboard_to(page, b, 4)
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.getElementById('swaps').textContent === '{i + 1}'")
    page.wait_for_selector("#result:not([hidden])")
    assert page.get_attribute("#result", "data-swaps") == str(len(log))
    names = page.eval_on_selector_all(".ptile", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(n.endswith(", in place") for n in names)
    assert page.evaluate("document.activeElement.id") == "result"
    share = page.eval_on_selector("#share", "e => e.textContent").split("\n")
    assert share[0] == "flagcore Puzzle seed 8" and share[1].startswith(f"Japan, 4x3: solved in {len(log)} swap")


def test_first_visit_shows_the_puzzles_help_over_todays_deal(new_page, server) -> None:  # type: ignore[no-untyped-def]
    page = new_page(first_visit=True)
    page.goto(f"{server.url}/puzzle")
    page.wait_for_selector("#help[open] #rules-puzzle")
    page.wait_for_selector(".ptile")
    assert page.inner_text("#title").startswith(f"Today's deal {today()} · ")
    assert page.locator("#help #house-rules").count() == 0  # the categories' rules are Connections' own
    page.click("#help [data-close]")
    page.goto(f"{server.url}/connections")  # the other game's help is its own first visit
    page.wait_for_selector("#help[open] #rules-connections")


def test_todays_deal_first_and_its_stats_survive_a_reload(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/puzzle")
    page.wait_for_selector(".ptile")
    deal = page.evaluate("puzzle.deal")
    assert deal["daily"] == today() and page.inner_text("#title").startswith(f"Today's deal {today()} · {deal['name']}")
    assert page.evaluate("location.search") == f"?daily={today()}"
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    for i, (a, b) in enumerate(log):
        page.click(f'.ptile[data-slot="{a}"]')
        page.click(f'.ptile[data-slot="{b}"]')
        page.wait_for_function(f"document.getElementById('swaps').textContent === '{i + 1}'")
    page.wait_for_selector("#result:not([hidden])")
    over = int(page.get_attribute("#result", "data-over"))
    assert over == len(log) - int(page.get_attribute("#result", "data-par"))
    share = page.eval_on_selector("#share", "e => e.textContent").split("\n")
    assert share[0] == f"flagcore Puzzle {today()}"
    assert "Your stats are updated" in page.inner_text("#message")
    page.reload()
    page.wait_for_selector(".ptile")
    page.click("#stats-button")
    numbers = page.eval_on_selector_all(".numbers > div", "els => els.map(e => e.textContent)")
    assert numbers == ["1Played", "100%Win rate", "1Current streak", "1Best streak"]
    bars = page.eval_on_selector_all(".chart .bar", "els => els.map(e => e.textContent)")
    assert bars == ["1" if i == min(over, 3) else "0" for i in range(4)]
    assert page.inner_text("#stats-title") == "Puzzle stats" and "over par" in page.inner_text("#stats-dialog h3")
