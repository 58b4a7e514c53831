"""The published dailies are stored (issue 31): every daily before version 3 (2026-01-01 ..
2027-01-31) of the public schedule and the bundled library is the board kept in
connections/daily/published.json.gz, whatever the flags data in use, and version 3's days are
computed from the data (docs/season.md, "Published dailies are stored")."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore.connections import daily
from flagcore.connections import tables as _tables
from flagcore.connections.daily import published, schedule, version_of
from flagcore.connections.daily.decoys import shown_before
from flagcore.connections.daily.tiles import board_of_day, computed
from flagcore.days import date_of
from flagcore.library import bundled_path, load_library
from flagcore.ratings import load_ratings
from flagcore.ratings.shipped import SHIPPED

# sha256 of the file's JSON text, as scripts/write_published_dailies.py --write wrote it: the
# published boards never change, so neither does this (a new version of the file is a new pin)
PINNED = "885664dbc4b8e267a5d1fe26181659dcdc915692d421b653aba2dec3fb3d09a3"
MODES = ("flags", "trivia")
KEY = b"a season key of the test, 32 b."


def test_the_stored_file_is_the_pinned_one() -> None:
    text = published.read_text()
    assert published.digest(text) == PINNED
    doc = json.loads(text)
    assert doc["format"] == published.FORMAT and doc["end"] == published.END == 396
    assert all(len(doc["modes"][mode]) == published.END for mode in MODES)
    assert version_of(published.END - 1) == 2 and version_of(published.END) == 3


def test_every_published_daily_is_the_stored_board() -> None:
    ratings = load_ratings(SHIPPED)
    for mode in MODES:
        for i in range(published.END):
            day = date_of(i)
            assert daily(day, mode) is published.model_board(mode, i)
            assert daily(day, mode, ratings=ratings) is published.coloured_board(mode, i, ratings.for_day(day).digest)
            assert board_of_day(schedule(None, mode, None, version_of(i)), i) is published.plain_board(mode, i)


def test_a_stored_board_is_what_the_code_dealt() -> None:
    # the stored boards' form: tiles, groups, seed, stats and board id as daily() gave them
    b = daily("2026-12-04", "flags")
    assert b.seed == "season:2026-12-04" and b.mode == "flags" and not b.legacy and b.events is None
    assert [g.tier for g in b.groups] == [0, 1, 2, 3] and sorted(b.tiles) == sorted(
        x for g in b.groups for x in g.codes
    )
    assert b.stats["scheduled"] and b.stats["day"] == 337 and set(b.stats["model"]) >= {"scores", "search_tiers"}
    assert b.to_dict(reveal=True)["board_id"]


@settings(max_examples=12, deadline=None)
@given(mode=st.sampled_from(MODES), i=st.integers(0, published.END + 60), rated=st.booleans())
def test_an_entry_rebuilds_its_boards_exactly(mode, i, rated) -> None:
    # encode/decode on keyed boards (computed whatever the file holds): the same Board, stats too
    s = schedule(None, mode, KEY, version_of(i))
    ratings = load_ratings(SHIPPED).for_day(date_of(i)) if rated else None
    plain, coloured = board_of_day(s, i), computed(s, i, None, ratings)
    key = published.MODEL if ratings is None else ratings.digest
    e = json.loads(json.dumps(published.encode(plain, {key: coloured})))
    again = published.decode_plain(mode, i, e)
    assert again == plain and repr(again.stats) == repr(plain.stats)
    rebuilt = published.decode_coloured(again, e[3][key])
    assert rebuilt == coloured and repr(rebuilt.stats) == repr(coloured.stats)


def test_a_keyed_schedule_and_another_library_are_computed() -> None:
    i = 300
    keyed = schedule(None, "flags", KEY, version_of(i))
    assert not published.stores(keyed, i) and daily(date_of(i), "flags", key=KEY) == computed(keyed, i, None)
    other = load_library()  # the bundled data, another Library object: not the stored schedule
    s = schedule(other, "flags", None, version_of(i))
    assert not published.stores(s, i) and daily(date_of(i), "flags", library=other) == computed(s, i, other)
    assert published.stores(schedule(None, "flags", None, version_of(i)), i)
    assert not published.stores(schedule(None, "flags", None, 3), i)  # a day of version 2 scheduled by version 3


def _reworded(tmp_path: Path) -> tuple[Path, str, int]:
    """A copy of the bundled categories with the label of one that a day of version 3's first week
    shows as it is written reworded: (the folder, the category id, the day)."""
    doc = json.loads((bundled_path() / "categories.json").read_text(encoding="utf-8"))
    rows = {c["id"]: c for c in doc["categories"]}
    i, row = next(
        (i, rows[g.category_id])
        for i in range(published.END, published.END + 7)
        for g in daily(date_of(i), "flags").groups
        if g.category_id in rows and rows[g.category_id]["label"] == g.label
    )
    row["label"] += " (reworded)"
    folder = tmp_path / "flags"
    folder.mkdir()
    (folder / "categories.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder, row["id"], i


def test_a_change_of_the_bundled_data_keeps_the_published_dailies(tmp_path, monkeypatch) -> None:
    # a label that version 3 shows is reworded in the bundled library itself: the published days
    # keep their boards (and the old wording), version 3's follow the data
    first = published.END
    folder, target, day = _reworded(tmp_path)
    before = daily(date_of(day), "flags")
    lib = load_library(folder)
    monkeypatch.setattr(_tables, "_default", [lib])
    assert _tables.default_library() is lib
    old = [i for i in range(first) if any(g.category_id == target for g in published.model_board("flags", i).groups)]
    assert old  # published days that show the category, in its old wording
    for mode in MODES:
        for i in range(first):
            assert daily(date_of(i), mode) is published.model_board(mode, i)
    after = daily(date_of(day), "flags")
    assert after != before and any(g.label.endswith("(reworded)") for g in after.groups)
    # the seam week reads the labels the stored days showed
    s = schedule(None, "flags", None, 3)
    ids = {c.id: k for k, c in enumerate(s.tables.categories)}
    week = [published.plain_board("flags", j) for j in range(first - 7, first)]
    assert shown_before(s, first) == {s.identity[ids[g.category_id]] for b in week for g in b.groups}


def test_the_script_names_the_days_the_file_does_not_hold(tmp_path, capsys) -> None:
    # --check against a copy with one day altered: that day is named (whatever else the data in
    # use changed since the file was written) and the check fails
    import gzip
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "scripts" / "write_published_dailies.py"
    spec = importlib.util.spec_from_file_location("write_published_dailies", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    doc = json.loads(published.read_text())
    entry = doc["modes"]["trivia"][5]
    entry[0] = " ".join(reversed(entry[0].split()))
    altered = tmp_path / "published.json.gz"
    altered.write_bytes(gzip.compress(json.dumps(doc).encode()))
    assert script.main(["--check", "--file", str(altered)]) == 1
    out = capsys.readouterr().out
    assert "trivia 2026-01-06 (day 5): the code and data in use give another board" in out


def test_a_published_day_away_from_today_builds_no_schedule(monkeypatch) -> None:
    # the stored board needs no schedule (counted in this thread: another test's planner may build
    # its own meanwhile)
    import importlib
    import threading

    from flagcore.days import day_number, latest_day

    me, asked = threading.get_ident(), []

    def counted(*args, **kwargs):
        if threading.get_ident() == me:
            asked.append(args)
        return schedule(*args, **kwargs)

    monkeypatch.setattr(importlib.import_module("flagcore.connections.daily"), "schedule", counted)
    today = day_number(latest_day())
    far = [i for i in (0, 100, 364, 365, published.END - 1) if abs(i - today) > 1]
    ratings = load_ratings(SHIPPED)
    for mode in MODES:
        for i in far:
            assert daily(date_of(i), mode) is published.model_board(mode, i)
            rated = daily(date_of(i), mode, ratings=ratings)
            assert rated is published.coloured_board(mode, i, ratings.for_day(date_of(i)).digest)
    assert asked == []
    daily(date_of(published.END), "flags")  # version 3 is computed
    assert asked == [(None, "flags", None, 3)]
