"""Every bundled flag has an English name (flags/names.json for the flags that are not countries),
and no surface that deals or lists a flag shows its code as its name."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from flagcore.cli import main
from flagcore.library import bundled_path, flag_name, flag_names, load_library
from flagcore.signatures import bundled_codes
from flagcore.web.app import create_app

SECRET = "Xq3v9ZtKe_Lw0pRj7HcUy2mNfA8sDgB4"  # 32 base64url characters, as the web tests use


def test_every_bundled_flag_has_a_name_that_is_not_its_code() -> None:
    names = flag_names()
    assert set(names) == set(bundled_codes())
    assert [c for c, n in names.items() if not n.strip() or n.strip().upper() == c] == []


def test_names_file_names_only_flags_that_are_not_countries() -> None:
    others = json.loads((bundled_path() / "names.json").read_text(encoding="utf-8"))["names"]
    library = load_library()
    assert not set(others) & set(library.codes)
    assert set(others) | set(library.codes) == set(bundled_codes())
    assert all(flag_name(c) == library.name(c) for c in library.codes)


def test_api_lists_and_deals_every_flag_by_name() -> None:
    client = TestClient(create_app(SECRET, store="none"))
    listed = client.get("/api/flags").json()
    assert {f["code"] for f in listed} == set(bundled_codes())
    assert [f for f in listed if f["name"] == f["code"]] == []
    assert {f["code"]: f["name"] for f in listed}["GB-NIR"] == "Northern Ireland"
    for f in listed:
        dealt = client.post("/api/puzzle/deal", json={"flag": f["code"], "grid": "easy", "seed": 1}).json()
        assert dealt["name"] == f["name"] != f["code"]


def test_random_deals_are_named() -> None:
    client = TestClient(create_app(SECRET, store="none"))
    dealt = [client.post("/api/puzzle/deal", json={"grid": "easy", "seed": s}).json() for s in range(40)]
    assert len({d["flag"] for d in dealt}) > 20
    assert [d["flag"] for d in dealt if d["name"] == d["flag"]] == []


@pytest.mark.parametrize(("code", "name"), [("AI", "Anguilla"), ("GB-WLS", "Wales"), ("EU", "European Union")])
def test_cli_puzzle_title_names_the_flag(capsys, code: str, name: str) -> None:
    assert main(["puzzle", "--flag", code, "--grid", "easy", "--seed", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(f"Puzzle {name} ({code}) 3x2")
