"""The server pieces the browser game needs: the Puzzle's daily deal and the files a browser asks
for at the site's root (service worker, manifest, favicon), without a browser."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient
from web_helpers import SECRET

from flagcore import puzzle
from flagcore.web import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(SECRET))


def test_the_days_deal_is_the_same_for_everyone_and_says_its_day(client: TestClient) -> None:
    first = client.post("/api/puzzle/deal", json={"daily": "2026-11-29"}).json()
    again = client.post("/api/puzzle/deal", json={"daily": "2026-11-29"}).json()
    other = client.post("/api/puzzle/deal", json={"daily": "2026-11-30"}).json()
    # the served schedule is keyed (docs/server.md, "Secret dailies"): the seed names the day and a
    # MAC of it under the server's season key, never the public schedule's "puzzle:<day>"
    assert first["daily"] == "2026-11-29" and first["seed"].startswith("puzzle:2026-11-29:")
    keep = ("flag", "grid", "tiles_by_slot", "seed")
    assert {k: first[k] for k in keep} == {k: again[k] for k in keep}
    assert other["seed"].startswith("puzzle:2026-11-30:") and other["tiles_by_slot"] != first["tiles_by_slot"]
    # the same deal as asking for its flag, grid and seed by hand, once the day has begun
    by_hand = {"flag": first["flag"], "grid": first["grid"]["name"], "seed": first["seed"]}
    assert client.post("/api/puzzle/deal", json=by_hand).json()["tiles_by_slot"] == first["tiles_by_slot"]
    public = puzzle.daily("2026-11-29")  # the public schedule's deal of the day: not the served one
    assert first["seed"] != public.seed
    verified = client.post("/api/puzzle/verify", json={"token": first["token"], "swaps": []})
    assert verified.status_code == 422  # an unsolved board is still rejected


@pytest.mark.parametrize(
    "body,code",
    [
        ({"daily": "2026-13-01"}, "bad_date"),
        ({"daily": "1 Dec"}, "bad_date"),
        ({"daily": 20261201}, "bad_date"),
        ({"daily": True}, "bad_date"),
        ({"daily": "2026-11-29", "seed": 3}, "bad_request"),
        ({"daily": "2026-11-29", "flag": "JP"}, "bad_request"),
        ({"daily": "2999-01-01"}, "future_daily"),  # not out yet: the same rule as the Connections dailies
        ({"daily": "2025-12-31"}, "bad_date"),  # before the season's schedule began
    ],
)
def test_a_bad_day_is_a_bad_request(client: TestClient, body: dict, code: str) -> None:
    r = client.post("/api/puzzle/deal", json=body)
    assert r.status_code == 400 and r.json()["error"]["code"] == code


@pytest.mark.parametrize(
    "path,kind",
    [
        ("/sw.js", "text/javascript"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/favicon.ico", "image/vnd.microsoft.icon"),
    ],
)
def test_root_files_have_their_type_and_the_pages_policy(client: TestClient, path: str, kind: str) -> None:
    r = client.get(path)
    assert r.status_code == 200 and r.headers["content-type"].split(";")[0] == kind
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_the_manifest_names_icons_that_exist(client: TestClient) -> None:
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["start_url"] == "/connections" and manifest["scope"] == "/"
    for icon in manifest["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.headers["content-type"].split(";")[0] == icon["type"]


def test_the_service_worker_keeps_pages_that_exist_and_never_the_api(client: TestClient) -> None:
    import re

    script = client.get("/sw.js").text
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", script, re.S).group(1))
    assert "/static/offline.html" in shell
    for path in shell:
        assert client.get(path).status_code == 200, path
    assert 'url.pathname.startsWith("/api/")) return;' in script  # API calls go to the network, uncached


def test_the_help_page_shows_the_packages_house_rules(client: TestClient) -> None:
    from flagcore.library import house_rules, house_rules_html
    from flagcore.web.app import HOUSE_RULES_SLOT, STATIC

    page = client.get("/static/help.html")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Content-Security-Policy" in page.headers
    assert house_rules_html() in page.text and HOUSE_RULES_SLOT not in page.text
    # the static file holds the slot, not a copy of the rules
    assert HOUSE_RULES_SLOT in (STATIC / "help.html").read_text(encoding="utf-8")
    assert not any(rule.text[:40] in (STATIC / "help.html").read_text(encoding="utf-8") for rule in house_rules())


def test_a_mistyped_address_answers_a_browser_in_html_and_the_api_in_json(client: TestClient) -> None:
    page = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}  # what a browser asks for
    r = client.get("/conections", headers=page)
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "No such page" in r.text and 'href="/connections"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for path, headers in (("/api/nope", page), ("/conections", {"accept": "*/*"}), ("/static/nope.js", {})):
        r = client.get(path, headers=headers)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", path
