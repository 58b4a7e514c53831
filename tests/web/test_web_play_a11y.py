"""Every page and state through axe-core (the axe-playwright-python package) in light and dark,
and the pieces that install the game: the manifest, the service worker and its offline page."""

from __future__ import annotations

import pytest
from web_helpers import answers, greedy_log

pytest_plugins = ["browser_fixtures"]  # server, bound_server, browser, new_page, page
pytestmark = pytest.mark.browser

PAGES = [  # (address, what shows when it is ready)
    ("/", ".cards a"),
    ("/connections?seed=5", "#tiles .tile"),
    ("/puzzle?flag=BR&grid=hard&seed=5", ".ptile"),
    ("/tools", ".cards a"),
    ("/simulator", "#position:has-text('step 0 /')"),
    ("/bench", ".btile"),
    ("/static/help.html", "#house-rules"),
    ("/static/offline.html", "h1"),
]


def serious(pg) -> list[str]:  # type: ignore[no-untyped-def]
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(pg).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page_or_state(new_page, server, scheme) -> None:  # type: ignore[no-untyped-def]
    page = new_page(color_scheme=scheme)
    console: list[str] = []  # e.g. a 404 for /favicon.ico
    page.on("console", lambda msg: console.append(f"{page.url}: {msg.text}") if msg.type == "error" else None)
    problems: dict[str, list[str]] = {}
    for path, ready in PAGES:
        page.goto(server.url + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("load")
        problems[path] = serious(page)
    assert console == []
    page.goto(f"{server.url}/connections?seed=5")  # the states of a game: dialogs, one away, lost
    page.wait_for_selector("#tiles .tile")
    page.click("#help-button")
    page.wait_for_selector("#help[open] #rules-connections")
    page.click("#help #more-rules summary")
    page.wait_for_selector("#help[open] #house-rules")
    problems["help dialog"] = serious(page)
    page.click("#help [data-close]")
    page.click("#more summary")
    problems["more panel"] = serious(page)
    groups = [list(g.codes) for g in answers(page.evaluate("game.boardId")).groups]
    page.click(f'#tiles .tile[data-code="{groups[0][0]}"]')
    problems["a tile selected"] = serious(page)
    for k in range(4):
        page.evaluate("game.selected.clear()")
        for code in (groups[0][k], groups[1][k], groups[2][k], groups[3][k]):
            page.click(f'#tiles .tile[data-code="{code}"]')
        page.click("#submit")
        page.wait_for_function(f"document.querySelectorAll('#mistakes span').length === {3 - k}")
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_timeout(600)  # the last animations end
    problems["lost game"] = serious(page)
    page.click("#end-stats")
    page.wait_for_selector("#stats-dialog[open]")
    problems["stats dialog"] = serious(page)
    page.click("#stats-dialog [data-close]")
    page.click("#settings-button")
    page.wait_for_selector("#settings[open]")
    problems["settings dialog"] = serious(page)
    page.check("#contrast")
    page.click("#settings [data-close]")
    problems["lost game, high contrast"] = serious(page)
    page.goto(f"{server.url}/connections?seed=6")  # high contrast: a board with a tile selected, a win
    page.wait_for_selector("#tiles .tile")
    groups = [list(g.codes) for g in answers(page.evaluate("game.boardId")).groups]
    page.click(f'#tiles .tile[data-code="{groups[0][0]}"]')
    problems["high contrast board"] = serious(page)
    page.click(f'#tiles .tile[data-code="{groups[0][0]}"]')
    for n, codes in enumerate(groups, start=1):
        for code in codes:
            page.click(f'#tiles .tile[data-code="{code}"]')
        page.click("#submit")
        page.wait_for_function(f"document.querySelectorAll('#solved .group').length === {n}")
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_timeout(600)
    problems["won game, high contrast"] = serious(page)
    page.evaluate("localStorage.removeItem('flagcore.contrast')")
    page.goto(f"{server.url}/puzzle?flag=JP&grid=easy&seed=4")  # a Puzzle: its help, solved
    page.wait_for_selector(".ptile")
    page.click("#help-button")
    page.wait_for_selector("#help[open] #rules-puzzle")
    page.click("#help #more-rules summary")
    problems["puzzle help"] = serious(page)
    page.click("#help [data-close]")
    deal = page.evaluate("puzzle.deal")
    for a, b in greedy_log(deal["tiles_by_slot"], deal["classes"]):
        page.click(f'.ptile[data-slot="{a}"]')
        page.click(f'.ptile[data-slot="{b}"]')
    page.wait_for_selector("#result:not([hidden])")
    problems["puzzle solved"] = serious(page)
    page.goto(f"{server.url}/no-such-page")  # a mistyped address: the HTML 404 page
    page.wait_for_selector("h1:has-text('No such page')")
    problems["404 page"] = serious(page)
    page.goto(f"{server.url}/connections?daily=2999-01-01")  # a day not begun
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    problems["a day not begun"] = serious(page)
    assert {k: v for k, v in problems.items() if v} == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_the_states_a_store_brings(new_page, bound_server, scheme) -> None:  # type: ignore[no-untyped-def]
    """With a store (flagcore serve's default): a Puzzle kept mid-game, its end with the day's
    figures and the countdown, reopened finished, in high contrast; Connections won with the
    board's figures; a Puzzle day not begun."""
    page = new_page(color_scheme=scheme)
    problems: dict[str, list[str]] = {}
    page.goto(f"{bound_server.url}/puzzle")
    page.wait_for_selector(".ptile")
    deal = page.evaluate("puzzle.deal")
    log = greedy_log(deal["tiles_by_slot"], deal["classes"])
    page.click(f'.ptile[data-slot="{log[0][0]}"]')
    with page.expect_response("**/api/puzzle/progress"):
        page.click(f'.ptile[data-slot="{log[0][1]}"]')
    page.reload()
    page.wait_for_selector(".ptile")
    problems["puzzle kept mid-game"] = serious(page)
    for a, b in log[1:]:
        page.click(f'.ptile[data-slot="{a}"]')
        page.click(f'.ptile[data-slot="{b}"]')
    page.wait_for_selector("#aggregate:not([hidden])")
    page.wait_for_selector("#next-daily:has-text('Next daily in')")
    problems["puzzle end, the day's figures"] = serious(page)
    page.reload()
    page.wait_for_selector("#aggregate:not([hidden])")
    problems["puzzle reopened finished"] = serious(page)
    page.click("#settings-button")
    page.check("#contrast")
    page.click("#settings [data-close]")
    problems["puzzle end, high contrast"] = serious(page)
    page.evaluate("localStorage.removeItem('flagcore.contrast')")
    page.goto(f"{bound_server.url}/connections")
    page.wait_for_selector("#tiles .tile")
    for n, codes in enumerate((list(g.codes) for g in answers(page.evaluate("game.boardId")).groups), start=1):
        for code in codes:
            page.click(f'#tiles .tile[data-code="{code}"]')
        page.click("#submit")
        page.wait_for_function(f"document.querySelectorAll('#solved .group').length === {n}")
    page.wait_for_selector("#aggregate:not([hidden])")
    page.wait_for_timeout(600)  # the last animations end
    problems["connections won, the board's figures"] = serious(page)
    page.goto(f"{bound_server.url}/puzzle?daily=2999-01-01")
    page.wait_for_function("document.getElementById('message').textContent !== ''")
    problems["a Puzzle day not begun"] = serious(page)
    assert {k: v for k, v in problems.items() if v} == {}


def test_dark_theme_follows_the_system(new_page, server) -> None:  # type: ignore[no-untyped-def]
    colours = {}
    for scheme in ("light", "dark"):
        page = new_page(color_scheme=scheme)
        page.goto(f"{server.url}/connections?seed=5")
        page.wait_for_selector("#tiles .tile")
        colours[scheme] = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert colours == {"light": "rgb(250, 250, 250)", "dark": "rgb(22, 22, 26)"}


def test_manifest_service_worker_and_offline_page(new_page, server) -> None:  # type: ignore[no-untyped-def]
    page = new_page(service_workers="allow")
    page.goto(f"{server.url}/connections")
    page.wait_for_selector("#tiles .tile")
    scope, script = page.evaluate("navigator.serviceWorker.ready.then(r => [r.scope, r.active.scriptURL])")
    assert (scope, script) == (f"{server.url}/", f"{server.url}/sw.js")
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href)"
        ".then(async r => [r.headers.get('content-type'), await r.json()])"
    )
    assert manifest[0] == "application/manifest+json"
    assert manifest[1]["start_url"] == "/connections" and manifest[1]["display"] == "standalone"
    icons = {i["sizes"] for i in manifest[1]["icons"]}
    assert {"192x192", "512x512"} <= icons
    for icon in manifest[1]["icons"]:
        assert page.request.get(server.url + icon["src"]).ok
    favicon = page.request.get(f"{server.url}/favicon.ico")
    assert favicon.ok and favicon.headers["content-type"] == "image/vnd.microsoft.icon"
    page.wait_for_function("navigator.serviceWorker.controller !== null")  # it controls the page (clients.claim)
    page.context.set_offline(True)
    page.reload()  # the page itself comes from the worker's copy; the board needs the server
    page.wait_for_function("document.getElementById('message').textContent.startsWith('You are offline')")
    page.goto(f"{server.url}/simulator")  # a page never saved: the offline page
    assert page.inner_text("h1") == "You are offline"
    page.context.set_offline(False)
