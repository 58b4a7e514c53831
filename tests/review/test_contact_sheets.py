"""``flagcore data sheet``: one contact sheet per category group, arguable codes marked in orange."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
from PIL import Image

from flagcore.cli import main
from flagcore.library import bundled_path, load_library
from flagcore.review.contact_sheets import GROUPS, sheet_group, sheet_groups

FLAGS = json.loads((bundled_path() / "flag_tags.json").read_text(encoding="utf-8"))["flags"]
ORANGE = np.array([230, 120, 20])
RED = np.array([200, 30, 60])


def coloured_pixels(path: Path, colour: np.ndarray) -> int:
    rgb = np.asarray(Image.open(path).convert("RGB")).astype(int)
    return int((np.abs(rgb - colour).sum(axis=2) < 10).sum())


def orange_pixels(path: Path) -> int:
    return coloured_pixels(path, ORANGE)


def test_every_category_is_on_exactly_one_sheet() -> None:
    lib = load_library()
    groups = sheet_groups(lib)
    ids = [c.id for cats in groups.values() for c in cats]
    every = {c.id for mode in ("flags", "trivia") for c in lib.categories(mode)}
    assert sorted(ids) == sorted(every) and len(ids) == len(set(ids))
    assert set(groups) <= set(GROUPS)
    by_id = {c.id: c for mode in ("flags", "trivia") for c in lib.categories(mode)}
    assert sheet_group(by_id["tag:colour:red"]) == "colours"
    assert sheet_group(by_id["flag:horizontal-tricolour"]) == "stripes"
    assert sheet_group(by_id["tag:sun"]) == "symbols"
    assert sheet_group(by_id["geo:landlocked"]) == "geography"


def test_sheet_command_draws_pool_and_marked_arguable_codes(tmp_path: Path, capsys) -> None:
    flags = copy.deepcopy(FLAGS)
    striped = next(c for c in sorted(flags) if flags[c]["stripes"] == {"orientation": "horizontal", "count": 3})
    flags[striped]["arguable"] = {"stripe_count": {"5": "thin lines read as stripes"}}
    lib_file = tmp_path / "lib.json"
    lib_file.write_text(json.dumps({"flags": flags}), encoding="utf-8")
    lib = load_library(lib_file)
    stripes = sheet_groups(lib, ["flags"])["stripes"]
    assert any(striped in c.arguable for c in stripes)

    out = tmp_path / "sheets"
    assert (
        main(
            [
                "data",
                "sheet",
                "--out",
                str(out),
                "--library",
                str(lib_file),
                "--mode",
                "flags",
                "--group",
                "stripes",
                "--tile-width",
                "48",
                "--columns",
                "10",
            ]
        )
        == 0
    )
    sheet = out / "stripes.png"
    assert capsys.readouterr().out.split() == [str(sheet)]
    image = Image.open(sheet)
    rows = sum(-(-(len(c.pool) + len(c.arguable)) // 10) for c in stripes)
    assert image.width == 2 * 16 + 10 * (48 + 8) and image.height > rows * (32 + 16 + 8)
    # the arguable flag's frame and its "? code" are drawn in the marker colour
    del flags[striped]["arguable"]
    lib_file.write_text(json.dumps({"flags": flags}), encoding="utf-8")
    plain = tmp_path / "plain"
    assert (
        main(
            [
                "data",
                "sheet",
                "--out",
                str(plain),
                "--library",
                str(lib_file),
                "--mode",
                "flags",
                "--group",
                "stripes",
                "--tile-width",
                "48",
                "--columns",
                "10",
            ]
        )
        == 0
    )
    assert orange_pixels(sheet) > orange_pixels(plain / "stripes.png") + 100
    # the same flag is doubtful in "Three horizontal stripes": a red frame
    assert any(striped in c.doubtful for c in stripes)
    assert coloured_pixels(sheet, RED) > coloured_pixels(plain / "stripes.png", RED) + 100


def test_sheet_command_refuses_bad_options(tmp_path: Path, capsys) -> None:
    assert main(["data", "sheet", "--out", str(tmp_path), "--group", "flavours"]) == 2
    assert "unknown sheet groups ['flavours']" in capsys.readouterr().err
    assert main(["data", "sheet", "--out", str(tmp_path), "--tile-width", "5"]) == 2
    assert "tile_width" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
