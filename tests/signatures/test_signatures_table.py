"""The bundled artwork and the precomputed signature table shipped in the wheel."""

import hashlib
import importlib.resources
import json
import re

import pytest

from flagcore import signatures
from flagcore._svg_render import render_svg

TABLE = json.loads((importlib.resources.files("flagcore") / "flags" / "signatures.json").read_text("utf-8"))
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
    assert TABLE["grids"] == GRIDS and TABLE["methods"] == list(signatures.METHODS)
    for code in codes:
        for grid in GRIDS:
            columns, rows = map(int, grid.split("x"))
            spec = TABLE["flags"][code]["spec"][grid]
            assert spec is not None and len(spec) == columns * rows, (code, grid)
            assert all(0 <= s < 2**32 for s in spec)
            visual = TABLE["flags"][code]["visual"][grid]
            assert visual is not None and len(visual) == columns * rows, (code, grid)
            # Each tile names the lowest piece of its class, and that piece names itself.
            assert all(0 <= s <= i and visual[s] == s for i, s in enumerate(visual)), (code, grid)


def test_every_bundled_flag_gets_signatures_at_all_three_grids():
    for code in signatures.bundled_codes():
        for columns, rows in signatures.TABLE_GRIDS:
            sigs = signatures.piece_signatures(code, columns, rows)
            assert sigs is not None and len(sigs) == columns * rows, (code, columns, rows)


def test_table_matches_the_artwork_it_was_made_from():
    for code in signatures.bundled_codes():
        digest = hashlib.sha256(signatures.flag_svg(code)).hexdigest()
        assert TABLE["flags"][code]["sha256"] == digest, code


@pytest.mark.parametrize("code", signatures.bundled_codes())
def test_every_row_is_rederived(code):
    # Both signatures of every bundled flag at every grid, from the artwork, by two paths: the
    # visual one from the board render, the spec's from its canvas (render_svg directly).
    data = signatures.flag_svg(code)
    for columns, rows in signatures.TABLE_GRIDS:
        grid = f"{columns}x{rows}"
        board = signatures.render_flag(data, columns, rows)
        assert signatures.visual_signatures(board, columns, rows) == TABLE["flags"][code]["visual"][grid], (code, grid)
        canvas = render_svg(data, columns * signatures.TILE_WIDTH)
        assert signatures.tile_signatures(canvas, columns, rows) == TABLE["flags"][code]["spec"][grid], (code, grid)


def test_lookalike_structure_is_plausible():
    # Striped flags have few classes; no flag at 5x3 has more classes than tiles.
    flags = TABLE["flags"]
    for method in signatures.METHODS:
        assert len(set(flags["DE"][method]["5x3"])) == 3
        assert len(set(flags["FR"][method]["5x3"])) <= 5
        assert len(set(flags["JP"][method]["5x3"])) < 15
