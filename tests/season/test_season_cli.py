"""``flagcore season``: the report's figures, its JSON, the chart, the progress bar; dailies from threads."""

from __future__ import annotations

import collections
import datetime as dt
import json
from concurrent.futures import ThreadPoolExecutor

from PIL import Image

from flagcore.cli import main
from flagcore.connections import board_difficulty, daily, generate
from flagcore.connections.tables import default_library
from flagcore.library import load_library


def test_json_report_counts_what_it_says(capsys, tmp_path):
    png = tmp_path / "season.png"
    assert (
        main(["season", "--from", "2027-02-01", "--days", "40", "--mode", "trivia", "--json", "--png", str(png)]) == 0
    )
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["days"] == 40 and report["mode"] == "trivia" and report["from"] == "2027-02-01"
    days = [dt.date(2027, 2, 1) + dt.timedelta(days=j) for j in range(40)]
    cats = {c.id: c for c in default_library().categories("trivia")}
    for name, boards in (
        ("scheduled", [daily(d, "trivia") for d in days]),
        ("plain", [generate(f"daily:{d.isoformat()}", "trivia") for d in days]),
    ):
        ids = [{g.category_id for g in b.groups} for b in boards]
        labels = [{g.label for g in b.groups} for b in boards]  # as shown (the model's simpler labels)
        f = report[name]
        assert f["shown"]["label_repeat_within_1"] == sum(1 for j in range(1, 40) if labels[j] & labels[j - 1])
        # by family, with the library's categories (a family of the day before; a week holding one 3 times)
        fams = [[cats[g.category_id].family for g in b.groups] for b in boards]
        assert f["shown"]["family_repeat_within_1"] == sum(1 for j in range(1, 40) if set(fams[j]) & set(fams[j - 1]))
        crowded = sum(
            1
            for j in range(40)
            if max(collections.Counter(x for d in fams[max(0, j - 6) : j + 1] for x in d).values()) > 2
        )
        assert f["shown"]["family_more_than_twice_in_7"] == crowded
        most = {
            x: max(sum(1 for d in fams[max(0, j - 6) : j + 1] for y in d if y == x) for j in range(40))
            for x in f["shown"]["families"]
        }
        assert {x: v["most_in_7_days"] for x, v in f["shown"]["families"].items()} == most
        assert f["repeat_within_1"] == sum(1 for j in range(1, 40) if ids[j] & ids[j - 1])
        assert f["repeat_within_7"] == sum(1 for j in range(1, 40) if ids[j] & set().union(*ids[max(0, j - 7) : j]))
        assert sum(t["used"] for t in f["tiers"]) == len(set().union(*ids))
        assert f["boards_rule_ambiguous"] == 0
    assert report["scheduled"]["repeat_within_1"] == 0
    # per weekday, the groups' mean score (what the weekly rhythm arranges) beside the board score
    mondays = [daily(d, "trivia") for d in days if d.weekday() == 0]
    groups = [sum(g.score for g in board_difficulty(b).groups) / 4 for b in mondays]
    assert report["weekdays"]["scheduled"]["Mon"]["groups"] == round(sum(groups) / len(groups), 1)
    assert report["puzzle"]["distinct_flags"] == 40 and sum(report["puzzle"]["grids"].values()) == 40
    with Image.open(png) as img:
        assert img.format == "PNG" and img.width >= 40 and img.height > 100
    assert err.strip() == f"flagcore: wrote {png}"  # 40 days is not a long span: no progress bar


def test_text_report_and_progress_on_long_spans(capsys):
    assert main(["season", "--from", "2027-01-01", "--days", "60"]) == 0
    out, err = capsys.readouterr()
    assert "days that repeat a category from the day before" in out and "daily: seeds" in out
    assert "Puzzle daily:" in out
    assert "60/60" in err  # a bar on stderr from LONG_SPAN days on, as plain lines off a terminal


def test_dailies_from_threads_match_one_thread():
    days = [dt.date(2027, 6, 1) + dt.timedelta(days=j) for j in range(48)]
    lib = load_library()
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda d: daily(d, "flags", library=lib), days))
    alone = [daily(d, "flags", library=load_library()) for d in days]
    assert [b.tiles for b in threaded] == [b.tiles for b in alone]
    assert threaded == alone
