"""--png pictures: real flag pixels where the board says they are."""

import numpy as np
import pytest
from PIL import Image

from flagcore.connections.board import Board, Group
from flagcore.review import pictures

CODES = "FR DE IT ES JP CN US GB SE NO DK FI BR AR CL PE".split()


def _board():
    groups = tuple(Group(t, f"label {t}", tuple(CODES[4 * t : 4 * t + 4]), f"cat{t}") for t in range(4))
    return Board(tiles=tuple(CODES), groups=groups, seed=1, mode="flags")


def test_connections_png_draws_flags_and_tier_outlines(tmp_path):
    path = tmp_path / "c.png"
    pictures.connections_png(_board(), path, reveal=True)
    img = np.asarray(Image.open(path).convert("RGB")).astype(int)
    # The first tile is France: its left third is blue, its right third red.
    cell = img[pictures._PAD : pictures._PAD + pictures._CELL_H, pictures._PAD : pictures._PAD + pictures._CELL_W]
    mid = cell[cell.shape[0] // 2]
    assert mid[40][2] > 100 and mid[40][0] < 60  # blue band
    assert mid[-40][0] > 180 and mid[-40][2] < 100  # red band
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


# ---------------------------------------------------------------- text: the bundled font, long names


def _glyph(char: str) -> bytes:
    from PIL import ImageFont

    font = ImageFont.truetype(str(pictures.FONT_FILE), 20)
    return bytes(font.getmask(char))


def test_bundled_font_draws_every_letter_of_every_name():
    """Each character of every bundled country name has its own glyph, not the missing-glyph box."""
    from flagcore.library import load_library

    lib = load_library()
    chars = {ch for code in lib.codes for ch in lib.name(code) if not ch.isspace()}
    assert {"ü", "ã", "é", "í"} <= chars  # Türkiye, São Tomé and Príncipe
    missing_box = _glyph("\U0010fffd")  # a private-use code point: no font draws it
    assert [ch for ch in sorted(chars) if _glyph(ch) == missing_box] == []
    assert (pictures.FONT_FILE.parent / "LICENSE-DejaVu.txt").is_file()


def test_long_names_fit_their_cell():
    from PIL import Image, ImageDraw

    from flagcore.library import load_library

    lib = load_library()
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    width = pictures._CELL_W - 8
    for code in lib.codes:
        text, font = pictures.fit_text(draw, f"{lib.name(code)} ({code})", 15, width, lines=2)
        assert text.count("\n") <= 1 and "\u2026" not in text, (code, text)  # whole, on 1 or 2 lines
        assert max(draw.textlength(t, font=font) for t in text.split("\n")) <= width, (code, text)
        bbox = draw.multiline_textbbox((0, 0), text, font=font, spacing=1)
        assert bbox[3] - bbox[1] <= pictures._LABEL_H - pictures._FRAME, (code, text)  # above the outline
    text, font = pictures.fit_text(draw, "Saint Vincent and the Grenadines (VC)", 15, width, lines=2)
    assert text.replace("\n", " ") == "Saint Vincent and the Grenadines (VC)" and "\n" in text
    text, font = pictures.fit_text(draw, "Saint Vincent and the Grenadines (VC)", 15, width)
    assert text.endswith("\u2026") and font.size == 10  # one line only: smallest size, shortened
    assert draw.textlength(text, font=font) <= width
    assert pictures.fit_text(draw, "Japan (JP)", 15, width) == ("Japan (JP)", pictures.font_of_size(15))


def test_connections_png_keeps_names_inside_the_picture(tmp_path):
    """The gutters between cells and the right margin stay background where the names are written."""
    codes = ["VC", "ST", "TR", "CI", *CODES[4:]]
    groups = tuple(Group(t, f"label {t}", tuple(codes[4 * t : 4 * t + 4]), f"cat{t}") for t in range(4))
    board = Board(tiles=tuple(codes), groups=groups, seed=1, mode="flags")
    from flagcore.library import load_library

    lib = load_library()
    path = tmp_path / "names.png"
    pictures.connections_png(board, path, names={c: lib.name(c) for c in codes})
    img = np.asarray(Image.open(path).convert("RGB")).astype(int)
    top = pictures._PAD + pictures._CELL_H
    band = img[top : top + pictures._LABEL_H]  # the first row's names
    ink = (np.abs(band - np.array(pictures.BACKGROUND)).sum(axis=2) > 60).any(axis=0)
    for column in range(4):  # the gutter right of each cell
        start = pictures._PAD + column * (pictures._CELL_W + pictures._PAD) + pictures._CELL_W
        assert not ink[start : start + pictures._PAD].any(), column
    assert ink[pictures._PAD : pictures._PAD + pictures._CELL_W].any()  # but the name is there


# ---------------------------------------------------------------- file names and formats


@pytest.mark.parametrize("name,fmt", [("b.png", "PNG"), ("b.JPG", "JPEG"), ("b.jpeg", "JPEG"), ("b.webp", "WEBP")])
def test_format_follows_the_file_name(tmp_path, name, fmt):
    pictures.puzzle_png("JP", [1, 0, 2, 3, 4, 5], 3, 2, 1, tmp_path / name)
    with Image.open(tmp_path / name) as img:
        assert img.format == fmt


@pytest.mark.parametrize(
    "name,error,match",
    [
        ("", ValueError, "empty"),
        ("board", ValueError, "picture format"),
        ("board.svg", ValueError, "picture format"),
        ("missing/board.png", FileNotFoundError, "does not exist"),
    ],
)
def test_bad_file_names_are_refused_before_drawing(tmp_path, name, error, match):
    path = str(tmp_path / name) if name else name
    with pytest.raises(error, match=match):
        pictures.connections_png(_board(), path)
    with pytest.raises(error, match=match):
        pictures.puzzle_png("JP", [0, 1, 2, 3, 4, 5], 3, 2, 0, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["connections", "--seed", "12"], ["puzzle", "--flag", "JP", "--seed", "3"]])
@pytest.mark.parametrize(
    "name,match", [("", "empty"), ("b.txt", "picture format"), ("nowhere/b.png", "folder 'nowhere' does not exist")]
)
def test_cli_png_bad_names_are_one_line_errors(tmp_path, monkeypatch, capsys, command, name, match):
    from flagcore.cli import main

    monkeypatch.chdir(tmp_path)
    assert main([*command, "--png", name]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert match in captured.err and "Errno" not in captured.err
    assert list(tmp_path.iterdir()) == []
