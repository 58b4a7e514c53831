"""What a new player meets, at 1280 and 390 pixels, light and dark (fixtures in browser_fixtures.py):
help that fits its dialog with the house rules behind "More rules", country names (and flags) in the
solved rows after a reload, an end screen without dead controls that counts down to the next daily,
true text on the home page, the tools apart, a day not begun that says when it opens, tile names of
12 px or more, the high-contrast setting and reduced motion."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from web_helpers import answers

pytest_plugins = ["browser_fixtures"]  # server, bound_server, browser, new_page, page
pytestmark = pytest.mark.browser
SIZES = {1280: 800, 390: 844}  # width -> height of the first screen
OPENS = f"{dt.date(2998, 12, 31):%a}, 31 Dec 2998"  # as en-GB writes the day before 2999-01-01
SCREENS = [(w, s) for w in SIZES for s in ("light", "dark")]


def screen(new_page, width: int, scheme: str, **options):  # type: ignore[no-untyped-def]
    return new_page(viewport={"width": width, "height": SIZES[width]}, color_scheme=scheme, **options)


def guess(pg, codes: list[str]) -> None:  # type: ignore[no-untyped-def]
    pg.evaluate("game.selected.clear()")
    for code in codes:
        pg.click(f'#tiles .tile[data-code="{code}"]')
    with pg.expect_response("**/api/connections/guess"):
        pg.click("#submit")


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_first_visit_help_is_short_with_a_picture_and_each_game_its_own(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme, first_visit=True)
    for game, picture in (("connections", "help-connections.svg"), ("puzzle", "help-puzzle.svg")):
        page.goto(f"{server.url}/{game}")
        page.wait_for_selector(f"#help[open] #rules-{game} img.how")
        page.wait_for_function("[...document.querySelectorAll('#help img')].every(i => i.complete && i.naturalWidth)")
        img = page.eval_on_selector("#help img.how", "e => [e.getAttribute('src'), e.alt.length]")
        assert img[0] == f"/static/{picture}" and img[1] > 20
        # the whole of it in the dialog, the dialog on the screen: nothing to scroll
        box = page.evaluate(
            "(() => { const d = document.getElementById('help'), r = d.getBoundingClientRect();"
            " return [d.scrollHeight - d.clientHeight, r.top >= 0 && r.bottom <= innerHeight]; })()"
        )
        assert box == [0, True], f"{game}'s first help scrolls at {width}px"
        assert not page.is_visible(f"#help #rules-{game}-more")  # behind "More rules"
        page.click("#help #more-rules summary")
        assert page.is_visible(f"#help #rules-{game}-more") and page.is_visible("#help #rules-stats")
        # the categories' house rules (colours, stripes) are Connections' alone
        assert page.locator("#help #house-rules").count() == (1 if game == "connections" else 0)
        if game == "connections":
            assert page.is_visible("#help #house-rules li")
        page.click("#help [data-close]")


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_names_and_flags_in_solved_rows_after_a_reload_and_an_end_screen_that_only_acts(  # type: ignore[no-untyped-def]
    new_page, bound_server, width, scheme
) -> None:
    page = screen(new_page, width, scheme, locale="en-GB", timezone_id="America/New_York")
    page.goto(f"{bound_server.url}/connections?seed={width}{scheme}")
    page.wait_for_selector("#tiles .tile")
    board = answers(page.evaluate("game.boardId"))
    groups = [list(g.codes) for g in board.groups]
    # the names the tiles showed before any was solved
    shown = dict(page.eval_on_selector_all("#tiles .tile", "els => els.map(e => [e.dataset.code, e.textContent])"))
    names = shown.__getitem__

    def rows() -> list[str]:
        return page.eval_on_selector_all(
            "#solved .group .codes, #revealed .group .codes", "els => els.map(e => e.textContent)"
        )

    guess(page, groups[0])
    guess(page, [groups[1][0], groups[1][1], groups[2][0], groups[3][0]])  # a mistake
    page.reload()  # the stored game: its solved row's tiles are gone from the board, their names not
    page.wait_for_selector("#solved .group")
    assert rows() == [", ".join(names(c) for c in groups[0])]
    flags = page.eval_on_selector_all("#solved .group .flags img", "els => els.map(e => e.getAttribute('src'))")
    assert flags == [f"/flags/{c}.svg" for c in groups[0]]
    for codes in groups[1:]:
        guess(page, codes)
    page.wait_for_selector("#end:not([hidden])")
    page.reload()  # the finished game, as a returning player finds it
    page.wait_for_selector("#end:not([hidden])")
    assert rows() == [", ".join(names(c) for c in g) for g in groups]
    assert page.locator("#solved .group .flags img").count() == 16
    # no control that cannot act: no Shuffle, Deselect all, Submit or "Mistakes left"
    for gone in ("#shuffle", "#deselect", "#submit", "#mistakes-text"):
        assert not page.is_visible(gone), gone
    assert page.inner_text("#outcome") == "Solved with 1 mistake"
    assert page.inner_text("#message") == ""  # the outcome is said once
    assert page.locator("#share-grid > div").count() == 5 and page.is_visible("#copy")
    # the board's figures of every player who finished it (the server's "today"): this one player
    assert page.inner_text("#aggregate") == "100% of 1 player solved this board; 4 ◆ purple was found last by 100%."
    # the next daily (a UTC day) in the player's time zone: New York's 19:00 in winter
    shown = page.inner_text("#next-daily")
    match = re.fullmatch(r"Next daily in (\d\d):(\d\d):(\d\d), at (\d\d:\d\d) your time\.", shown)
    assert match and match.group(4) == ("19:00" if dt.date.today().month in (1, 2, 12) else match.group(4))
    now = dt.datetime.now(dt.timezone.utc)
    left = (dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), dt.timezone.utc) - now).total_seconds()
    h, m, s = (int(match.group(k)) for k in (1, 2, 3))
    assert abs(h * 3600 + m * 60 + s - left) < 5
    page.wait_for_function(f"document.getElementById('next-daily').textContent !== {shown!r}")  # it ticks


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_a_lost_game_says_its_outcome_once(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme)
    page.goto(f"{server.url}/connections?seed=2025")
    page.wait_for_selector("#tiles .tile")
    groups = [list(g.codes) for g in answers(page.evaluate("game.boardId")).groups]
    for k in range(4):
        guess(page, [groups[0][k], groups[1][k], groups[2][k], groups[3][k]])
    page.wait_for_selector("#end:not([hidden])")
    text = page.inner_text("main")
    assert page.inner_text("#outcome") == "Not solved: 0 of 4 groups found, 4 mistakes"
    assert text.count("4 mistakes") == 1 and "Mistakes" not in text and "Out of mistakes" not in text
    revealed = page.eval_on_selector_all(
        "#revealed .group", "els => els.map(e => e.querySelectorAll('.flags img').length)"
    )
    assert revealed == [4, 4, 4, 4]


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_home_says_where_stats_are_kept_and_the_tools_have_their_own_page(  # type: ignore[no-untyped-def]
    new_page, server, bound_server, width, scheme
) -> None:
    page = screen(new_page, width, scheme)
    for running, kept in ((server, "Your stats are kept in this browser."), (bound_server, "kept by the server")):
        page.goto(running.url + "/")
        page.wait_for_function("document.getElementById('kept').textContent !== ''")
        assert kept in page.inner_text("#kept")
        text = page.inner_text("main")
        assert "keeps no game state" not in text and "stay in this browser" not in text
    games = page.eval_on_selector_all("main .cards a", "els => els.map(e => e.getAttribute('href'))")
    assert games == ["/connections", "/puzzle"]  # the games first, and only them
    links = page.eval_on_selector_all("main a", "els => els.map(e => e.getAttribute('href'))")
    assert "/simulator" not in links and "/bench" not in links and "/tools" in links
    page.click("main a[href='/tools']")
    page.wait_for_selector("h1:has-text('Tools')")
    tools = page.eval_on_selector_all("main .cards a", "els => els.map(e => e.getAttribute('href'))")
    assert tools == ["/simulator", "/bench", "/api/openapi.json"]


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_a_mistyped_address_is_a_page_with_the_way_back(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme)
    reply = page.goto(f"{server.url}/conections")
    assert reply.status == 404 and reply.headers["content-type"].startswith("text/html")
    assert page.inner_text("h1") == "No such page"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.click("main a[href='/connections']")
    page.wait_for_selector("#tiles .tile")


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_a_day_not_begun_says_when_it_opens(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme, locale="en-GB", timezone_id="Europe/Paris")
    page.goto(f"{server.url}/connections?daily=2999-01-01")
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    assert page.inner_text("#board-label") == "Daily 2999-01-01"
    # it opens when 1 January begins in UTC+14: 10:00 UTC on 31 December, 11:00 in Paris
    assert (
        page.inner_text("#message")
        == f"The daily of 2999-01-01 is not out yet: it opens on {OPENS} at 11:00 your time."
    )
    assert not page.is_visible("#submit") and not page.is_visible("#how")  # nothing to find yet
    page.goto(f"{server.url}/puzzle?daily=2999-01-01")
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    assert page.inner_text("#title") == "Daily 2999-01-01"
    assert page.inner_text("#message").startswith(
        f"The daily of 2999-01-01 is not out yet: it opens on {OPENS} at 11:00"
    )
    assert not page.is_visible("#swaps") and not page.is_visible("#board")  # no deal: no empty frame
    assert not page.is_visible("#how")
    page.click("#more summary")  # today's deal from there: the frame, the how-to line and par are back
    page.click("#daily")
    page.wait_for_selector(".ptile")
    assert page.is_visible("#board") and page.is_visible("#how") and page.is_visible("#par")


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_tile_names_are_12px_or_more(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme)
    page.goto(f"{server.url}/connections?seed=5")
    page.wait_for_selector("#tiles .tile")
    sizes = page.eval_on_selector_all(
        "#tiles .tile .name", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert len(sizes) == 16 and min(sizes) >= 12
    # and no country's one-word name is broken mid-word ("Turkmenista / n"): each fits a tile's line
    words = page.evaluate(
        "fetch('/api/flags').then(r => r.json()).then(list => [...new Set(list.flatMap(f => f.name.split(' ')))])"
    )
    broken = page.evaluate(
        """words => { const name = document.querySelector('#tiles .tile .name'); name.textContent = 'Chad';
        const line = name.offsetHeight;
        return words.filter(w => !w.includes('-'))
          .filter(w => { name.textContent = w; return name.offsetHeight > line; }); }""",
        sorted(words, key=len, reverse=True)[:60],
    )
    assert broken == [], f"names broken mid-word at {width}px"


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_high_contrast_is_a_setting_kept_in_this_browser(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme)
    page.goto(f"{server.url}/connections?seed=5")
    page.wait_for_selector("#tiles .tile")
    tile = "getComputedStyle(document.querySelector('#tiles .tile')).borderTopColor"
    before = page.evaluate(tile)
    page.click("#settings-button")
    page.wait_for_selector("#settings[open]")
    page.check("#contrast")
    assert page.evaluate("document.documentElement.classList.contains('contrast')")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert page.evaluate(tile) == ink != before  # tiles drawn in the ink
    page.click("#settings [data-close]")
    page.goto(f"{server.url}/puzzle?flag=JP&grid=easy&seed=3")  # kept, and on every page
    page.wait_for_selector(".ptile")
    assert page.evaluate("document.documentElement.classList.contains('contrast')")
    # the Puzzle's tiles keep no border of their own: the board's lines part them, a whole flag is whole
    assert page.evaluate("getComputedStyle(document.querySelector('.ptile')).borderTopWidth") == "0px"
    page.click("#settings-button")
    assert page.is_checked("#contrast")
    page.uncheck("#contrast")
    assert not page.evaluate("document.documentElement.classList.contains('contrast')")


@pytest.mark.parametrize("width,scheme", SCREENS)
def test_reduced_motion_is_respected_on_every_page(new_page, server, width, scheme) -> None:  # type: ignore[no-untyped-def]
    page = screen(new_page, width, scheme, reduced_motion="reduce")
    page.add_init_script(
        "window.animated = []; const animate = Element.prototype.animate; Element.prototype.animate ="
        " function (...a) { animated.push(this.className); return animate.apply(this, a); }"
    )
    page.goto(f"{server.url}/connections?seed=77")
    page.wait_for_selector("#tiles .tile")
    groups = [list(g.codes) for g in answers(page.evaluate("game.boardId")).groups]
    guess(page, [groups[0][0], groups[1][0], groups[2][0], groups[3][0]])
    guess(page, groups[0])
    page.wait_for_selector("#solved .group")
    running = page.evaluate("document.getAnimations().length")
    assert page.evaluate("animated") == [] and running == 0
    page.click("#settings-button")
    assert page.inner_text("#motion-note").startswith("Motion: off")
