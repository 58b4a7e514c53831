"""Schema fuzz: schemathesis generates requests from the OpenAPI description (valid and invalid
bodies, query strings and paths); the server must answer every one with JSON and never a 5xx.
Each test runs on the stateless app and on the app with each store (a real SQLite file, a real
redis-server), since with a store every board, guess and verify also reads and writes it."""

from __future__ import annotations

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from stores import KINDS, make_store
from web_helpers import SECRET

from flagcore.web import create_app


@pytest.fixture(scope="module", params=["none", *KINDS])
def app(request, tmp_path_factory, redis_server):
    """The stateless app, and the app on each store (a test using it runs once for each)."""
    if request.param == "none":
        yield create_app(SECRET, store="none")
        return
    store = make_store(request.param, tmp_path_factory.mktemp("store"), redis_server)
    yield create_app(SECRET, store=store)
    store.close()


@pytest.fixture(scope="module")
def apps(tmp_path_factory, redis_server):
    """The stateless app and the app on each store, together (for schemathesis' cases, which
    cannot take a parametrized fixture)."""
    stores = [make_store(kind, tmp_path_factory.mktemp("store"), redis_server) for kind in KINDS]
    yield [create_app(SECRET, store="none"), *(create_app(SECRET, store=store) for store in stores)]
    for store in stores:
        store.close()


@pytest.fixture(scope="module")
def client(app) -> TestClient:
    return TestClient(app)


# the document is the same for every app; each case is sent to each app (case.call(app=...))
schema = schemathesis.openapi.from_asgi("/api/openapi.json", create_app(SECRET, store="none"))
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def _check(response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = json.loads(response.text)
        assert body["error"]["code"] and body["error"]["message"]


@schema.parametrize()
@FUZZ
def test_schema_fuzz_never_500(apps, case) -> None:
    for app in apps:
        _check(case.call(app=app))


POSTS = ["/api/connections/guess", "/api/puzzle/deal", "/api/puzzle/verify", "/api/puzzle/cycles"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)
FIELDS = st.sampled_from(["token", "codes", "flag", "grid", "seed", "swaps", "tiles_by_slot"])


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("url", POSTS)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    body=st.binary(max_size=300)
    | JSON.map(lambda v: json.dumps(v).encode())
    | st.dictionaries(FIELDS, JSON, max_size=4).map(lambda v: json.dumps(v).encode())
)
def test_any_body_gets_a_json_answer_below_500(client: TestClient, url: str, body: bytes) -> None:
    _check(client.post(url, content=body))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    codes=st.lists(st.sampled_from(["FR", "DE", "JP", "BR", "XX", "", "fr"]) | st.text(max_size=9), max_size=6),
    pick=st.lists(st.integers(0, 15), min_size=4, max_size=4),
)
def test_guesses_with_a_genuine_token(client: TestClient, codes: list, pick: list) -> None:
    board = client.get("/api/connections/board", params={"seed": "fuzz"}).json()
    tiles = [t["code"] for t in board["tiles"]]
    for body in (
        {"token": board["token"], "codes": codes},
        {"token": board["token"], "codes": [tiles[i] for i in pick]},
    ):
        _check(client.post("/api/connections/guess", json=body))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(swaps=st.lists(st.lists(st.integers(-3, 20), min_size=0, max_size=3), max_size=20))
def test_swap_logs_with_a_genuine_token(client: TestClient, swaps: list) -> None:
    deal = client.post("/api/puzzle/deal", json={"flag": "JP", "grid": "hard", "seed": 3}).json()
    _check(client.post("/api/puzzle/verify", json={"token": deal["token"], "swaps": swaps}))
