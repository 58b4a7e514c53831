"""Fixtures of the browser tests (``@pytest.mark.browser``): one uvicorn server and one headless
Debian chromium per test process (the machine is small and shared), a fresh browser context per
test. When chromium is missing these tests fail and say how to install it (never skip).

A plugin the browser test modules name in ``pytest_plugins``, not a tests/web/conftest.py: test
modules import the root tests/conftest.py as ``conftest``, which a second conftest would shadow."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import SECRET, ServerThread

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
LOCAL = "http://127.0.0.1:"
# A returning player: the How to play dialog opens by itself only on a first visit.
HELP_SEEN = "['connections', 'puzzle'].forEach(g => localStorage.setItem('flagcore.help-seen.' + g, '1'))"


def chromium_path() -> str:
    path = os.environ.get("FLAGCORE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            "the browser tests need Debian's chromium: `apt-get install -y chromium` "
            "(or set FLAGCORE_CHROMIUM to a Chromium binary); deselect them with -m 'not browser'",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def server() -> Iterator[ServerThread]:
    from flagcore.web import create_app

    with ServerThread(create_app(SECRET)) as running:
        yield running


@pytest.fixture(scope="session")
def bound_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """The app with a store (a SQLite file): games are the player's (the browser's cookie)."""
    from flagcore.store import SQLiteStore
    from flagcore.web import create_app

    store = SQLiteStore(tmp_path_factory.mktemp("store") / "games.db")
    with ServerThread(create_app(SECRET, store=store)) as running:
        yield running
    store.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: ServerThread) -> Iterator[Callable[..., Any]]:
    """``new_page(first_visit=False, **context_options)``: a page in a new context that may only
    reach the test server (the pages must work without the internet) and must raise no JavaScript
    error. Service workers are blocked (their requests would bypass that guard) unless a test
    passes service_workers="allow"; bypass_csp lets Playwright evaluate its wait conditions
    (test_pages_obey_their_csp runs without it)."""
    contexts: list[Any] = []
    outside: list[str] = []
    errors: list[str] = []

    def make(first_visit: bool = False, **options: Any) -> Any:
        defaults = {"viewport": {"width": 900, "height": 1000}, "bypass_csp": True, "service_workers": "block"}
        options = {**defaults, **options}
        context = browser.new_context(**options)
        contexts.append(context)
        if not first_visit:
            context.add_init_script(HELP_SEEN)

        def guard(route: Any) -> None:
            if route.request.url.startswith(LOCAL):  # the test servers (stateless and bound) only
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        context.route("**/*", guard)
        pg = context.new_page()
        pg.on("pageerror", lambda exc: errors.append(str(exc)))
        pg.set_default_timeout(15_000)
        return pg

    yield make
    for context in contexts:
        context.close()
    assert not outside, f"requests left the server: {outside}"
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    return new_page()
