"""Connections as a player plays it, in Debian's chromium (fixtures in browser_fixtures.py): today's board
and the help on a first visit, stats and streaks that survive a reload, a win with the keyboard
alone, the game's feel (one away, wrong, reduced motion) and the lost state."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from web_helpers import answers

import flagcore.web
from flagcore.library import house_rules

pytest_plugins = ["browser_fixtures"]  # server, browser, new_page, page
pytestmark = pytest.mark.browser
STATIC = Path(flagcore.web.__file__).parent / "static"


def today() -> str:
    return dt.datetime.now(dt.timezone.utc).date().isoformat()


def open_board(pg, url: str) -> list[list[str]]:  # type: ignore[no-untyped-def]
    """Open a Connections address; the board's groups (known to the test, which holds the secret)."""
    pg.goto(url)
    pg.wait_for_selector("#tiles .tile")
    return [list(g.codes) for g in answers(pg.evaluate("game.boardId")).groups]


def click_guess(pg, codes: list[str]) -> None:  # type: ignore[no-untyped-def]
    if pg.locator("#tiles .tile.selected").count():  # a wrong guess stays selected, as in the original
        pg.click("#deselect")
    for code in codes:
        pg.click(f'#tiles .tile[data-code="{code}"]')
    assert pg.locator("#tiles .tile.selected").count() == 4
    pg.click("#submit")


def stats_numbers(pg) -> dict[str, str]:  # type: ignore[no-untyped-def]
    pg.click("#stats-button")
    pg.wait_for_selector("#stats-dialog[open] .numbers")
    cells = pg.eval_on_selector_all(
        ".numbers > div", "els => els.map(e => [e.lastChild.textContent, e.firstChild.textContent])"
    )
    pg.click("#stats-dialog [data-close]")
    return dict(cells)


def test_first_visit_shows_the_help_over_todays_board(new_page, server) -> None:  # type: ignore[no-untyped-def]
    page = new_page(first_visit=True)
    page.goto(f"{server.url}/connections")
    page.wait_for_selector("#help[open] #rules-connections")
    page.wait_for_selector("#tiles .tile")
    assert page.inner_text("#board-label") == f"Today's board {today()}"
    assert not page.is_visible("#help #house-rules")  # the house rules wait behind "More rules"
    page.click("#help #more-rules summary")
    assert page.locator("#tiles .tile").count() == 16
    # the house rules shown are the package's one text (flagcore.library.house_rules), not a copy in the scripts
    shown = page.inner_text("#help #house-rules li:first-child")
    first = house_rules()[0]
    assert first.topic in shown and first.text in shown
    assert not any(first.text[:40] in p.read_text() for p in STATIC.glob("*.*") if p.suffix in (".js", ".html"))
    page.click("#help [data-close]")
    page.reload()
    page.wait_for_selector("#tiles .tile")
    assert not page.is_visible("#help")  # only on the first visit; then behind the button
    page.click("#help-button")
    page.wait_for_selector("#help[open] #rules-connections")


def test_winning_today_updates_stats_and_streak_which_survive_a_reload(page, server) -> None:  # type: ignore[no-untyped-def]
    yesterday = (dt.datetime.now(dt.timezone.utc).date() - dt.timedelta(days=1)).isoformat()
    groups = open_board(page, f"{server.url}/connections")
    page.evaluate(  # a win yesterday, as the page recorded it then
        f"localStorage.setItem('flagcore.stats.connections', JSON.stringify({{days: {{'{yesterday}': "
        "{won: true, score: 2, done: true}}}))"
    )
    assert stats_numbers(page) == {"Played": "1", "Win rate": "100%", "Current streak": "1", "Best streak": "1"}
    click_guess(page, groups[0][:3] + [groups[1][0]])  # one away
    page.wait_for_function("document.getElementById('message').textContent.startsWith('One away')")
    for codes in groups:
        click_guess(page, codes)
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#outcome") == "Solved with 1 mistake"
    share = page.eval_on_selector("#share", "e => e.textContent").split("\n")
    assert share[:2] == [f"flagcore Connections {today()}", "solved with 1 mistake"] and len(share) == 7
    assert "Your stats are updated" in page.inner_text("#message")
    expected = {"Played": "2", "Win rate": "100%", "Current streak": "2", "Best streak": "2"}
    assert stats_numbers(page) == expected
    page.reload()
    page.wait_for_selector("#tiles .tile")
    assert stats_numbers(page) == expected
    stored = json.loads(page.evaluate("localStorage.getItem('flagcore.stats.connections')"))
    assert stored["days"][today()] == {"won": True, "score": 1, "done": True}
    page.click("#stats-button")  # the chart of mistakes per win: one win with 1, one with 2, today's marked
    bars = page.eval_on_selector_all(
        ".chart .bar", "els => els.map(e => [e.textContent, e.classList.contains('today')])"
    )
    assert bars == [["0", False], ["1", True], ["1", False], ["0", False]]
    # playing today's board again does not count twice
    open_board(page, f"{server.url}/connections?daily={today()}")
    click_guess(page, groups[0])
    page.wait_for_function("document.querySelectorAll('#solved .group').length === 1")
    assert json.loads(page.evaluate("localStorage.getItem('flagcore.stats.connections')"))["days"] == stored["days"]


def test_an_archive_day_is_practice(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/connections")
    page.wait_for_selector("#tiles .tile")
    page.click("#more summary")
    links = page.eval_on_selector_all("#archive a", "els => els.map(e => e.getAttribute('href'))")
    day = (dt.datetime.now(dt.timezone.utc).date() - dt.timedelta(days=3)).isoformat()
    assert len(links) == 14 and links[2] == f"/connections?daily={day}&mode=flags"
    page.click(f'#archive a[href="{links[2]}"]')
    groups = open_board(page, page.url)
    assert page.inner_text("#board-label") == f"Daily {day}"
    for codes in groups:
        click_guess(page, codes)
    page.wait_for_selector("#end:not([hidden])")
    assert page.eval_on_selector("#share", "e => e.textContent").startswith(f"flagcore Connections {day} (archive)\n")
    assert page.evaluate("localStorage.getItem('flagcore.stats.connections')") is None


def keyboard_to(pg, code: str) -> None:  # type: ignore[no-untyped-def]
    """Move the focus to a tile with the arrow keys only (the grid is 4 wide)."""
    order = pg.eval_on_selector_all("#tiles .tile", "els => els.map(e => e.dataset.code)")
    here = order.index(pg.evaluate("document.activeElement.dataset.code"))
    there = order.index(code)
    rows, cols = there // 4 - here // 4, there % 4 - here % 4
    for _ in range(abs(rows)):
        pg.keyboard.press("ArrowDown" if rows > 0 else "ArrowUp")
    for _ in range(abs(cols)):
        pg.keyboard.press("ArrowRight" if cols > 0 else "ArrowLeft")
    assert pg.evaluate("document.activeElement.dataset.code") == code


def tab_until(pg, test: str, back: bool = False) -> None:  # type: ignore[no-untyped-def]
    for _ in range(30):
        if pg.evaluate(f"(() => {{ const e = document.activeElement; return {test}; }})()"):
            return
        pg.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {test}")


def test_a_full_win_with_the_keyboard_alone(page, server) -> None:  # type: ignore[no-untyped-def]
    groups = open_board(page, f"{server.url}/connections?seed=2024")
    assert page.get_attribute("#message", "role") == "status"  # a live region: what it says is announced
    labels = [g.label for g in answers(page.evaluate("game.boardId")).groups]
    page.evaluate("document.activeElement.blur()")
    tab_until(page, "e.classList.contains('tile')")
    # one tile is in the tab order; its focus ring is visible
    assert page.locator("#tiles .tile[tabindex='0']").count() == 1
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    for n, codes in enumerate(groups, start=1):
        for code in codes:
            keyboard_to(page, code)
            page.keyboard.press("Space" if n % 2 else "Enter")
            name = page.evaluate("document.activeElement.getAttribute('aria-label')")
            assert name.endswith(", selected") and page.evaluate("document.activeElement.dataset.code") == code
        tab_until(page, "e.id === 'submit'")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#solved .group').length === {n}")
        if n < 4:  # the focus is back on the board, ready for the next group; the result is announced
            page.wait_for_function("document.activeElement.classList.contains('tile')")
            assert page.inner_text("#message") == f"Correct: {labels[n - 1]}."
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#outcome") == "Solved with 0 mistakes"
    assert page.evaluate("document.activeElement.id") == "end"  # the end, named by its outcome
    tab_until(page, "e.id === 'copy'")
    # each solved group says so to a screen reader, with its tier and countries
    assert page.eval_on_selector("#solved .group", "e => e.textContent").startswith("1 ●Solved, yellow group: ")


def test_wrong_and_one_away_shake_and_say_so_unless_motion_is_reduced(new_page, server) -> None:  # type: ignore[no-untyped-def]
    for motion in ("no-preference", "reduce"):
        page = new_page(reduced_motion=motion)
        groups = open_board(page, f"{server.url}/connections?seed=77")
        click_guess(page, groups[0][:3] + [groups[1][0]])
        page.wait_for_function("document.getElementById('message').textContent.startsWith('One away')")
        assert page.inner_text("#message") == "One away: three of these four belong together. 3 mistakes left."
        anim = page.eval_on_selector_all("#tiles .tile.away", "els => els.map(e => getComputedStyle(e).animationName)")
        assert anim == (["bump"] * 4 if motion == "no-preference" else ["none"] * 4)
        click_guess(page, [groups[0][0], groups[1][1], groups[2][0], groups[3][0]])
        page.wait_for_function("document.getElementById('message').textContent.startsWith('Not a group')")
        anim = page.eval_on_selector_all("#tiles .tile.shake", "els => els.map(e => getComputedStyle(e).animationName)")
        assert anim == (["shake"] * 4 if motion == "no-preference" else ["none"] * 4)
        # the solved group and the tiles slide (Web Animations, counted here), unless motion is reduced
        page.evaluate(
            "window.slid = []; const animate = Element.prototype.animate; Element.prototype.animate ="
            " function (...a) { slid.push(this.className); return animate.apply(this, a); }; 0"
        )
        click_guess(page, groups[0])
        page.wait_for_function("document.querySelectorAll('#solved .group').length === 1")
        slid = page.evaluate("slid")
        if motion == "no-preference":
            assert slid.count(page.eval_on_selector("#solved .group", "e => e.className")) == 1 and "tile" in slid
        else:
            assert slid == []


def test_a_lost_game_shows_found_groups_apart_and_the_mistakes(page, server) -> None:  # type: ignore[no-untyped-def]
    groups = open_board(page, f"{server.url}/connections?seed=2025")
    board = answers(page.evaluate("game.boardId"))
    click_guess(page, groups[2])  # one group found
    page.wait_for_function("document.querySelectorAll('#solved .group').length === 1")
    others = [g for i, g in enumerate(groups) if i != 2]
    for k in range(4):
        click_guess(page, [others[0][k], others[1][k], others[2][k], others[0][(k + 1) % 4]])  # wrong: 2, 1, 1
        page.wait_for_function(f"document.querySelectorAll('#mistakes span').length === {3 - k}")
    page.wait_for_selector("#end:not([hidden])")
    assert page.inner_text("#outcome") == "Not solved: 1 of 4 groups found, 4 mistakes"
    found = page.eval_on_selector_all("#solved .group", "els => els.map(e => [e.dataset.tier, e.className])")
    assert found == [[board.groups[2].tier_name, f"group tier-{board.groups[2].tier_name}"]]
    revealed = page.eval_on_selector_all("#revealed .group .label", "els => els.map(e => e.textContent)")
    assert revealed == [g.label for i, g in enumerate(board.groups) if i != 2]
    assert page.locator("#revealed .group.revealed").count() == 3
    assert page.inner_text("#solved .part-title") == "You found 1 of 4"
    assert page.inner_text("#revealed .part-title") == "Not found: the answers"
    share = page.eval_on_selector("#share", "e => e.textContent").split("\n")
    assert re.fullmatch(r"flagcore Connections board \w+", share[0])
    assert share[1] == "not solved: 1 of 4 groups, 4 mistakes"
    assert page.locator("#tiles .tile").count() == 0 and not page.is_visible("#play")
    # tiers differ by more than colour: each group carries its number and shape
    marks = page.eval_on_selector_all(".group .badge", "els => els.map(e => e.textContent)")
    assert sorted(marks) == ["1 ●", "2 ▲", "3 ■", "4 ◆"]
