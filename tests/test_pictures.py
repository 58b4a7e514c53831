"""--png pictures: real flag pixels where the board says they are."""
import numpy as np
from PIL import Image

from flagcore import pictures
from flagcore.connections.board import Board, Group

CODES = "FR DE IT ES JP CN US GB SE NO DK FI BR AR CL PE".split()


def _board():
    groups = tuple(Group(t, f"label {t}", tuple(CODES[4 * t:4 * t + 4]), f"cat{t}") for t in range(4))
    return Board(tiles=tuple(CODES), groups=groups, seed=1, mode="flags")


def test_connections_png_draws_flags_and_tier_outlines(tmp_path):
    path = tmp_path / "c.png"
    pictures.connections_png(_board(), path, reveal=True)
    img = np.asarray(Image.open(path).convert("RGB")).astype(int)
    # The first tile is France: its left third is blue, its right third red.
    cell = img[pictures._PAD:pictures._PAD + pictures._CELL_H, pictures._PAD:pictures._PAD + pictures._CELL_W]
    mid = cell[cell.shape[0] // 2]
    assert mid[40][2] > 100 and mid[40][0] < 60          # blue band
    assert mid[-40][0] > 180 and mid[-40][2] < 100       # red band
    # With reveal, the outline of the first (yellow) group is drawn in the yellow tier colour.
    assert (np.abs(img - np.array(pictures.TIER_RGB[0])).sum(axis=2) < 10).sum() > 1000
    assert (np.abs(img - np.array(pictures.TIER_RGB[3])).sum(axis=2) < 10).sum() > 1000


def test_puzzle_png_places_pieces_by_slot(tmp_path):
    # Japan 3x2 with the two middle pieces swapped: the disc's halves move to the board's edges.
    path = tmp_path / "p.png"
    pictures.puzzle_png("JP", [0, 1, 2, 3, 4, 5], 3, 2, 0, path)
    solved = np.asarray(Image.open(path).convert("RGB")).astype(int)
    swapped_path = tmp_path / "q.png"
    pictures.puzzle_png("JP", [1, 0, 2, 4, 3, 5], 3, 2, 2, swapped_path)
    swapped = np.asarray(Image.open(swapped_path).convert("RGB")).astype(int)
    assert solved.shape == swapped.shape
    assert (solved != swapped).any()


def test_puzzle_png_rejects_wrong_length(tmp_path):
    import pytest

    with pytest.raises(ValueError, match="tiles_by_slot"):
        pictures.puzzle_png("JP", [0, 1, 2], 3, 2, 0, tmp_path / "x.png")


def test_cli_png_commands_write_pictures(tmp_path, monkeypatch):
    from flagcore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["puzzle", "--flag", "JP", "--grid", "hard", "--seed", "3", "--png", "p.png"]) == 0
    assert main(["connections", "--seed", "12", "--reveal", "--png", "c.png"]) == 0
    for name, min_size in (("p.png", (300, 150)), ("c.png", (800, 800))):
        with Image.open(tmp_path / name) as img:
            assert img.format == "PNG" and img.width >= min_size[0] and img.height >= min_size[1]
    assert main(["puzzle", "--grid", "hard", "--png", "x.png"]) == 2  # no flag: one-line error
    assert not (tmp_path / "x.png").exists()
