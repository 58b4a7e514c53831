"""The Puzzle with a store, as a player plays it at 1280 and 390 pixels, light and dark: its par
before the first swap, a game in progress kept across a reload and another browser of the same
player, a finished daily shown finished, and the day's figures of every player who solved it,
after the end and never before (fixtures in browser_fixtures.py)."""

from __future__ import annotations

import datetime as dt
import math

import pytest
from web_helpers import greedy_log

pytest_plugins = ["browser_fixtures"]  # server, bound_server, browser, new_page, page
pytestmark = pytest.mark.browser
SIZES = {1280: 800, 390: 844}
SCREENS = [(w, s) for w in SIZES for s in ("light", "dark")]


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def board(pg) -> list[int]:  # type: ignore[no-untyped-def]
    return pg.eval_on_selector_all(".ptile", "els => els.map(e => Number(e.dataset.piece))")


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_the_days_puzzle_is_kept_across_reloads_and_browsers_and_stays_finished(  # type: ignore[no-untyped-def]
    new_page, bound_server, width, scheme
) -> None:
    options = {"viewport": {"width": width, "height": SIZES[width]}, "color_scheme": scheme}
    page = new_page(**options)
    page.goto(f"{bound_server.url}/puzzle")
    page.wait_for_selector(".ptile")
    deal = page.evaluate("puzzle.deal")
    assert deal["daily"] == today() and deal["kept"] is True
    assert page.is_visible("#par") and page.inner_text("#par") == str(deal["par"])  # par before the start
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    assert len(log) >= 3
    for a, b in log[:2]:
        page.click(f'.ptile[data-slot="{a}"]')
        with page.expect_response("**/api/puzzle/progress"):
            page.click(f'.ptile[data-slot="{b}"]')
    after_two = board(page)
    page.reload()  # the game in progress, not a new deal
    page.wait_for_selector(".ptile")
    assert page.inner_text("#swaps") == "2" and board(page) == after_two
    assert page.inner_text("#message") == "Your game so far: 2 swaps."
    cookies = page.context.cookies()
    other = new_page(**options)  # another browser of the same player
    other.context.add_cookies(cookies)
    other.goto(f"{bound_server.url}/puzzle")
    other.wait_for_selector(".ptile")
    assert other.inner_text("#swaps") == "2" and board(other) == after_two
    for a, b in log[2:]:
        other.click(f'.ptile[data-slot="{a}"]')
        other.click(f'.ptile[data-slot="{b}"]')
    other.wait_for_selector("#result:not([hidden])")
    over = len(log) - deal["par"]
    figures = {k: other.get_attribute("#result", f"data-{k}") for k in ("swaps", "par", "over")}
    assert figures == {"swaps": str(len(log)), "par": str(deal["par"]), "over": str(over)}
    par = f"{len(log)} swaps, par {deal['par']}"
    verdict = f"Perfect: solved in {par}" if over == 0 else f"Solved in {par} ({over} over)"
    assert other.inner_text("#verdict") == verdict  # one line of outcome: no counters above it say it again
    assert not other.is_visible("#counters")
    for pg in (page, other):  # a reload of either browser: the deal is finished, the flag whole
        pg.reload()
        pg.wait_for_selector("#result:not([hidden])")
        assert board(pg) == list(range(len(deal["tiles_by_slot"])))
        assert pg.inner_text("#verdict") == verdict and not pg.is_visible("#counters")
        assert "Not accepted" not in pg.inner_text("main")
        assert pg.inner_text("#next-daily").startswith("Next daily in ")
        pg.click(".ptile")  # a finished board takes no swaps
        assert board(pg) == list(range(len(deal["tiles_by_slot"]))) and pg.inner_text("#message") == ""


def figures(today_: dict) -> str:  # type: ignore[type-arg]
    """The line the page writes from a finished daily's "today" (puzzle.js figuresText)."""
    if today_["plays"] == 1:
        return "You are the first to solve today's deal."
    median = today_["median_over_par"]
    at = ", median at par" if median == 0 else f", median {median} over par"
    return f"{today_['plays']} players solved today's deal: {math.floor(100 * today_['perfect'] + 0.5)}% at par{at}."


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_the_days_figures_show_after_a_finished_daily_never_before(  # type: ignore[no-untyped-def]
    new_page, bound_server, width, scheme
) -> None:
    options = {"viewport": {"width": width, "height": SIZES[width]}, "color_scheme": scheme}
    for player in range(2):  # two players: the second sees both games in the figures
        page = new_page(**options)
        with page.expect_response("**/api/puzzle/deal") as dealt:
            page.goto(f"{bound_server.url}/puzzle")
        page.wait_for_selector(".ptile")
        assert "today" not in dealt.value.json() and not page.is_visible("#aggregate")  # never before the end
        deal = page.evaluate("puzzle.deal")
        log = greedy_log(deal["tiles_by_slot"], deal["classes"])
        page.click(f'.ptile[data-slot="{log[0][0]}"]')
        with page.expect_response("**/api/puzzle/progress"):
            page.click(f'.ptile[data-slot="{log[0][1]}"]')
        page.reload()  # mid-game: still nothing
        page.wait_for_selector(".ptile")
        assert page.inner_text("#swaps") == "1" and not page.is_visible("#aggregate")
        for a, b in log[1:-1]:
            page.click(f'.ptile[data-slot="{a}"]')
            page.click(f'.ptile[data-slot="{b}"]')
        page.click(f'.ptile[data-slot="{log[-1][0]}"]')
        with page.expect_response("**/api/puzzle/verify") as verified:
            page.click(f'.ptile[data-slot="{log[-1][1]}"]')
        page.wait_for_selector("#result:not([hidden])")
        today_ = verified.value.json()["today"]
        assert today_["plays"] >= player + 1 and sum(today_["over_par"]) == today_["plays"]
        assert page.is_visible("#aggregate") and page.inner_text("#aggregate") == figures(today_)
        assert page.is_visible("#next-daily")
        page.reload()  # the finished deal reopened: the same figures (nobody else finished meanwhile)
        page.wait_for_selector("#result:not([hidden])")
        assert page.inner_text("#aggregate") == figures(today_)
    assert today_["plays"] >= 2 and " players solved today's deal: " in figures(today_)
