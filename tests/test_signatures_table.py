"""The bundled artwork and the precomputed signature table shipped in the wheel."""
import hashlib
import importlib.resources
import json
import re

import pytest

from flagcore import signatures
from flagcore._svg_render import render_svg

TABLE = json.loads((importlib.resources.files("flagcore") / "flags" / "signatures.json")
                   .read_text("utf-8"))
GRIDS = [f"{c}x{r}" for c, r in signatures.TABLE_GRIDS]


def test_artwork_is_bundled_one_file_per_code():
    codes = signatures.bundled_codes()
    assert len(codes) >= 250
    assert all(re.fullmatch(r"[A-Z]{2}(-[A-Z]{3})?", c) for c in codes)
    for code in ("FR", "NL", "JP", "US", "GB", "NP", "CH", "XK"):
        assert code in codes


def test_table_covers_every_bundled_flag_at_every_grid():
    codes = signatures.bundled_codes()
    assert sorted(TABLE["flags"]) == codes
    assert TABLE["grids"] == GRIDS
    for code in codes:
        for grid in GRIDS:
            sigs = TABLE["flags"][code][grid]
            columns, rows = map(int, grid.split("x"))
            assert sigs is not None and len(sigs) == columns * rows, (code, grid)
            assert all(0 <= s < 2**32 for s in sigs)


def test_every_bundled_flag_gets_signatures_at_all_three_grids():
    for code in signatures.bundled_codes():
        for columns, rows in signatures.TABLE_GRIDS:
            sigs = signatures.piece_signatures(code, columns, rows)
            assert sigs is not None and len(sigs) == columns * rows, (code, columns, rows)


def test_table_matches_the_artwork_it_was_made_from():
    for code in signatures.bundled_codes():
        digest = hashlib.sha256(signatures.flag_svg(code)).hexdigest()
        assert TABLE["flags"][code]["sha256"] == digest, code


# A sample across simple stripes, emblems, <use>-heavy artwork, odd aspect ratios and the
# non-rectangular Nepal; plus a stride through the whole list.
SAMPLE = sorted({"FR", "NL", "JP", "US", "GB", "NP", "CH", "QA", "BO", "SV", "BR", "CA", "KR",
                 "VA", "BT"} | set(signatures.bundled_codes()[::23]))


@pytest.mark.parametrize("code", SAMPLE)
def test_recomputed_sample_equals_table(code):
    data = signatures.flag_svg(code)
    for columns, rows in signatures.TABLE_GRIDS:
        image = render_svg(data, columns * signatures.TILE_WIDTH)
        assert signatures.tile_signatures(image, columns, rows) == \
            TABLE["flags"][code][f"{columns}x{rows}"], (code, columns, rows)


def test_lookalike_structure_is_plausible():
    # Striped flags have few classes; no flag at 5x3 has more classes than tiles.
    assert len(set(TABLE["flags"]["DE"]["5x3"])) == 3
    assert len(set(TABLE["flags"]["FR"]["5x3"])) <= 5
    assert len(set(TABLE["flags"]["JP"]["5x3"])) < 15
