"""``flagcore ratings fit`` and ``show``: the file, the table, the chart, exit 2 on bad input."""

from __future__ import annotations

import json

from PIL import Image
from synth import games, hidden

from flagcore.cli import main
from flagcore.ratings import write_records


def test_fit_then_show(tmp_path, capsys) -> None:
    recs = tmp_path / "r.jsonl"
    write_records(games("flags", 600, hidden("flags")), recs)
    with open(recs, "a") as f:
        f.write("not a record\n")
    out = tmp_path / "ratings.json"
    assert main(["ratings", "fit", "--records", str(recs), "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "from 600 records" in said.out and "skipped 1" in said.out and "line 601" in said.err
    doc = json.loads(out.read_text())
    assert doc["format"] == 1 and doc["records"] == {"flags": 600}
    png = tmp_path / "chart.png"
    assert main(["ratings", "show", str(out), "--png", str(png), "--limit", "5"]) == 0
    text = capsys.readouterr().out
    assert "colour calibration" in text and "95% interval" in text
    assert Image.open(png).size[0] > 300


def test_bad_ratings_file_exits_2(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "categories": {"flags": {"tag:cross": {"difficulty": NaN, "sd": 1, "plays": 1}}}}')
    assert main(["ratings", "show", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "NaN" in err
    assert main(["ratings", "fit", "--records", str(tmp_path / "missing.jsonl"), "--out", str(bad)]) == 2


def test_import_export_and_fit_from_a_store(tmp_path, capsys) -> None:
    recs = tmp_path / "r.jsonl"
    games_ = games("trivia", 300, hidden("trivia"))
    write_records(games_, recs)
    url = f"sqlite:///{tmp_path / 'store.db'}"
    assert main(["ratings", "import", str(recs), "--store", url]) == 0
    assert "300 records added" in capsys.readouterr().out
    assert main(["ratings", "import", str(recs), "--store", url]) == 0  # the same file again adds nothing
    assert "0 records added" in capsys.readouterr().out
    out = tmp_path / "back.jsonl"
    assert main(["ratings", "export", "--store", url, "--out", str(out)]) == 0
    assert out.read_text() == recs.read_text()
    fitted = tmp_path / "ratings.json"
    assert main(["ratings", "fit", "--store", url, "--mode", "trivia", "--out", str(fitted)]) == 0
    assert json.loads(fitted.read_text())["records"] == {"trivia": 300}
    assert main(["ratings", "fit", "--store", "none", "--out", str(fitted)]) == 2
