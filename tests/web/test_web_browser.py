"""The browser game's tools and the deals opened by address, in a real browser: Playwright drives
Debian's headless chromium against a uvicorn server on 127.0.0.1 (fixtures in browser_fixtures.py).
Marked ``browser``: deselect with ``-m "not browser"``. The games as a player plays them are in
test_web_play_*.py; ``FLAGCORE_SCREENSHOTS=docs pytest tests/web/test_web_play_screens.py``
writes the README's pictures.
"""

from __future__ import annotations

import pytest
from web_helpers import answers, optimal_log

# a returning player: no help dialog over the page
HELP_SEEN = "['connections', 'puzzle'].forEach(g => localStorage.setItem('flagcore.help-seen.' + g, '1'))"
pytest_plugins = ["browser_fixtures"]  # server, browser, new_page, page
pytestmark = pytest.mark.browser


def test_connections_daily_and_board_id(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/connections?daily=2026-11-30")
    page.wait_for_selector("#tiles .tile")
    assert page.inner_text("#board-label") == "Daily 2026-11-30"
    board_id = page.evaluate("game.boardId")
    first = page.eval_on_selector_all("#tiles .tile", "els => els.map(e => e.dataset.code)")
    page.goto(f"{server.url}/connections")
    page.wait_for_selector("#tiles .tile")
    page.click("#more summary")  # the board id box is in the "more" panel
    page.fill("#board-id", board_id)
    page.click("#open")
    page.wait_for_function(f"document.getElementById('board-label').textContent === 'Board {board_id}'")
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
    swaps = f"{len(log)} swap{'s' if len(log) != 1 else ''}"
    assert page.inner_text("#verdict") == f"Perfect: solved in {swaps}, par {len(log)}"  # one line of outcome
    assert page.get_attribute("#result", "data-par") == page.get_attribute("#result", "data-swaps") == str(len(log))
    assert "Verified by the server" in page.inner_text("#message")


def test_step_the_simulator_through_seed_12(page, server) -> None:  # type: ignore[no-untyped-def]
    from flagcore.connections import generate

    board = generate(12, "flags", trace=True, difficulty=None)  # the simulator's default: the search alone
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
    context.add_init_script(HELP_SEEN)
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    pg.on("pageerror", lambda exc: problems.append(str(exc)))
    for path, ready in (
        ("/", ".cards a"),
        ("/connections?seed=1", "#tiles .tile"),
        ("/puzzle?seed=4", ".ptile"),
        ("/static/help.html", "#house-rules"),
        ("/simulator", "#position:has-text('step 0 /')"),
        ("/bench", ".btile"),
    ):
        pg.goto(server.url + path)
        pg.wait_for_selector(ready)
    context.close()
    assert not problems


def test_reloading_a_bound_game_keeps_its_mistakes_and_its_end(browser, bound_server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 900, "height": 1000}, bypass_csp=True, service_workers="block")
    context.add_init_script(HELP_SEEN)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))

    def guess(codes: list[str]) -> None:
        pg.evaluate("game.selected.clear()")
        for code in codes:
            pg.click(f'#tiles .tile[data-code="{code}"]')
        pg.click("#submit")

    pg.goto(f"{bound_server.url}/connections?seed=2026")
    pg.wait_for_selector("#tiles .tile")
    groups = [list(g.codes) for g in answers(pg.evaluate("game.boardId")).groups]
    guess(groups[0])
    pg.wait_for_function("document.querySelectorAll('#solved .group').length === 1")
    guess([groups[1][0], groups[1][1], groups[2][0], groups[3][0]])
    pg.wait_for_function("document.querySelectorAll('#mistakes span').length === 3")
    pg.reload()  # the page reopens the board by its id: the stored game, not a new one
    pg.wait_for_selector("#tiles .tile")
    assert pg.locator("#mistakes span").count() == 3
    assert pg.locator("#solved .group").count() == 1 and pg.locator("#tiles .tile").count() == 12
    for k in range(1, 4):  # three more mistakes: the game is lost
        guess([groups[1][0], groups[1][k % 4], groups[2][k], groups[3][k]])
        pg.wait_for_function(f"document.querySelectorAll('#mistakes span').length === {3 - k}")
    pg.wait_for_selector("#end:not([hidden])")
    pg.reload()  # a finished game stays finished, its found groups still apart from the revealed ones
    pg.wait_for_selector("#end:not([hidden])")
    assert pg.inner_text("#outcome") == "Not solved: 1 of 4 groups found, 4 mistakes"
    assert not pg.is_visible("#submit")
    assert pg.locator("#solved .group").count() == 1 and pg.locator("#revealed .group.revealed").count() == 3
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_the_stats_dialog_shows_the_servers_stats_which_follow_the_player(browser, bound_server) -> None:  # type: ignore[no-untyped-def]
    """With a store, the stats dialog shows the server's figures for the cookie's player: a second
    browser with the same cookie, whose localStorage says otherwise, sees the server's."""
    import datetime

    now = datetime.datetime.now(datetime.timezone.utc).date()
    today = now.isoformat()
    earlier = [(now - datetime.timedelta(days=k)).isoformat() for k in (1, 2)]
    local_wins = (  # what the second browser's localStorage says: two more days won
        "localStorage.setItem('flagcore.stats.connections', JSON.stringify({days: {"
        + ", ".join(f"'{day}': {{won: true, score: 0, done: true}}" for day in earlier)
        + "}}))"
    )

    def open_context(cookies: list | None = None, local: str = ""):  # type: ignore[no-untyped-def]
        context = browser.new_context(viewport={"width": 900, "height": 1000}, bypass_csp=True, service_workers="block")
        context.add_init_script(HELP_SEEN + ";" + local)
        if cookies:
            context.add_cookies(cookies)
        pg = context.new_page()
        pg.set_default_timeout(15_000)
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        return context, pg

    def shown_stats(pg) -> dict[str, str]:  # type: ignore[no-untyped-def]
        pg.click("#stats-button")
        pg.wait_for_selector("#stats-dialog[open] p:has-text('Kept by the server')")
        cells = pg.eval_on_selector_all(
            ".numbers > div", "els => els.map(e => [e.lastChild.textContent, e.firstChild.textContent])"
        )
        bars = pg.eval_on_selector_all(
            ".chart .bar", "els => els.map(e => [e.textContent, e.classList.contains('today')])"
        )
        pg.click("#stats-dialog [data-close]")
        return {**dict(cells), "bars": bars}

    errors: list[str] = []
    first, pg = open_context()
    pg.goto(f"{bound_server.url}/connections")  # today's board
    pg.wait_for_selector("#tiles .tile")
    assert pg.evaluate("game.daily") == today
    groups = [list(g.codes) for g in answers(pg.evaluate("game.boardId")).groups]
    assert shown_stats(pg)["Played"] == "0"
    for codes in [[groups[0][0], groups[1][0], groups[2][0], groups[3][0]], *groups]:  # one mistake, then a win
        pg.evaluate("game.selected.clear()")
        for code in codes:
            pg.click(f'#tiles .tile[data-code="{code}"]')
        with pg.expect_response("**/api/connections/guess"):
            pg.click("#submit")
    pg.wait_for_selector("#end:not([hidden])")
    won = {"Played": "1", "Win rate": "100%", "Current streak": "1", "Best streak": "1"}
    won_bars = [["0", False], ["1", True], ["0", False], ["0", False]]  # one win with one mistake, today's
    assert shown_stats(pg) == {**won, "bars": won_bars}
    cookies = first.cookies()
    assert [c["name"] for c in cookies] == ["flagcore_player"] and cookies[0]["httpOnly"]
    first.close()
    second, other = open_context(cookies, local_wins)  # another browser of the same player
    other.goto(f"{bound_server.url}/connections")
    other.wait_for_selector("#end:not([hidden])")  # today's game, won: the server kept it too
    assert len(other.evaluate("JSON.parse(localStorage.getItem('flagcore.stats.connections')).days")) == 3
    assert shown_stats(other) == {**won, "bars": won_bars}  # the server's figures, not this browser's three
    second.close()
    assert not errors, f"JavaScript errors: {errors}"
