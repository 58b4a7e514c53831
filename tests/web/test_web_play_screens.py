"""Every page and state at 1280 and 390 pixels, light and dark, on a server with a store (as
``flagcore serve`` runs, so a finished daily shows the day's figures): nothing wider than the
screen, and today's board (its sixteen tiles and Submit; the Puzzle's tiles) on the first screen
of a phone without scrolling. ``FLAGCORE_SCREENSHOTS=docs pytest tests/web/test_web_play_screens.py``
also writes the gallery's pictures (docs/gallery.md), docs/images/web-<state>-<width>-<scheme>.webp:
the first screen for today's boards, dialogs and the long How to play page, the whole page for
the other states, made small for the docs site by scripts/write_images.py's save_webp (half width
at 1280 px, 312 px wide at 390)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from web_helpers import answers, greedy_log

pytest_plugins = ["browser_fixtures"]  # bound_server, browser, new_page
pytestmark = [pytest.mark.browser, pytest.mark.slow]  # about 15 s per size and scheme
SIZES = {1280: 800, 390: 844}  # width -> height of the first screen
PICTURE_WIDTH = {1280: 640, 390: 312}  # the width a gallery picture is saved at


def save_webp(png: bytes, path: Path, width: int) -> None:
    """The docs' one picture writer (scripts/write_images.py), loaded from the checkout."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "write_images.py"
    spec = importlib.util.spec_from_file_location("write_images", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.save_webp(png, path, width)


def fits(pg, selector: str) -> bool:  # type: ignore[no-untyped-def]
    """Every element matching selector lies inside the first screen."""
    return pg.eval_on_selector_all(
        selector,
        "els => els.length > 0 && els.every(e => { const r = e.getBoundingClientRect();"
        " return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; })",
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", list(SIZES))
def test_every_page_and_state_fits_and_todays_board_is_on_the_first_screen(  # type: ignore[no-untyped-def]
    new_page, bound_server, width, scheme
) -> None:
    server = bound_server
    folder = os.environ.get("FLAGCORE_SCREENSHOTS")
    page = new_page(first_visit=True, viewport={"width": width, "height": SIZES[width]}, color_scheme=scheme)
    seen: list[str] = []

    def state(name: str, first_screen: bool = False) -> None:
        page.wait_for_function("[...document.images].every(i => i.complete)")
        page.wait_for_timeout(500)  # animations end
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than the screen at {width}px"
        seen.append(name)
        if folder:
            path = Path(folder) / "images" / f"web-{name}-{width}-{scheme}.webp"
            save_webp(page.screenshot(full_page=not first_screen), path, PICTURE_WIDTH[width])

    page.goto(server.url + "/connections")
    page.wait_for_selector("#help[open] #rules-connections")
    page.wait_for_selector("#tiles .tile")
    state("connections-help", first_screen=True)
    page.click("#help [data-close]")
    assert fits(page, "#tiles .tile") and fits(page, "#submit")
    state("connections", first_screen=True)
    page.click("#more summary")
    state("connections-more")
    page.click("#more summary")
    groups = [list(g.codes) for g in answers(page.evaluate("game.boardId")).groups]
    for i, codes in enumerate([groups[0][:3] + [groups[1][0]], *groups]):
        page.evaluate("game.selected.clear()")
        for code in codes:
            page.click(f'#tiles .tile[data-code="{code}"]')
        page.click("#submit")
        if i == 0:  # one away
            page.wait_for_function("document.querySelectorAll('#mistakes span').length === 3")
            state("connections-one-away", first_screen=True)
        else:
            page.wait_for_function(f"document.querySelectorAll('#solved .group').length === {i}")
    page.wait_for_selector("#end:not([hidden])")
    state("connections-won")
    page.click("#end-stats")
    page.wait_for_selector("#stats-dialog[open]")
    state("connections-stats", first_screen=True)

    page.goto(server.url + "/connections?seed=2025")
    page.wait_for_selector("#tiles .tile")
    groups = [list(g.codes) for g in answers(page.evaluate("game.boardId")).groups]
    guesses = [groups[2]] + [[groups[0][k], groups[1][k], groups[3][k], groups[0][(k + 1) % 4]] for k in range(4)]
    for n, codes in enumerate(guesses):  # one group found, then four wrong guesses
        page.evaluate("game.selected.clear()")
        for code in codes:
            page.click(f'#tiles .tile[data-code="{code}"]')
        page.click("#submit")
        done = "#solved .group" if n == 0 else "#mistakes span"
        page.wait_for_function(f"document.querySelectorAll('{done}').length === {1 if n == 0 else 4 - n}")
    page.wait_for_selector("#end:not([hidden])")
    state("connections-lost")

    page.goto(server.url + "/connections?seed=99")  # high contrast (Settings), a tile selected
    page.wait_for_selector("#tiles .tile")
    page.click("#settings-button")
    page.check("#contrast")
    page.click("#settings [data-close]")
    page.click("#tiles .tile")
    state("connections-contrast", first_screen=True)
    page.evaluate("localStorage.removeItem('flagcore.contrast')")
    page.goto(server.url + "/connections?daily=2999-01-01")  # a day not begun
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    state("not-begun", first_screen=True)

    page.goto(server.url + "/puzzle")
    page.wait_for_selector("#help[open] #rules-puzzle")  # the Puzzle's first visit too
    page.wait_for_selector(".ptile")
    page.click("#help [data-close]")
    assert fits(page, ".ptile")
    state("puzzle", first_screen=True)
    deal = page.evaluate("puzzle.deal")
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    for a, b in log[:-1]:
        page.click(f'.ptile[data-slot="{a}"]')
        page.click(f'.ptile[data-slot="{b}"]')
    page.click(f'.ptile[data-slot="{log[-1][0]}"]')
    state("puzzle-picked", first_screen=True)
    page.click(f'.ptile[data-slot="{log[-1][1]}"]')
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_function("document.getElementById('next-daily').textContent !== ''")
    state("puzzle-solved")

    for path, name, ready in (
        ("/", "home", ".cards a"),
        ("/tools", "tools", ".cards a"),
        ("/simulator", "simulator", "#position:has-text('step 0 /')"),
        ("/bench", "bench", ".btile"),
        ("/static/help.html", "help", "#house-rules"),
        ("/static/offline.html", "offline", "h1"),
        ("/no-such-page", "not-found", "h1:has-text('No such page')"),
    ):
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        state(name, first_screen=name == "help")  # the rules page is long: its first screen
    assert len(seen) == 19
