"""Pictures of boards for ``--png``: real flag artwork composed with Pillow.

The Connections board is a 4x4 grid of flags with names (groups outlined in tier colours when
revealed); the Puzzle board is the scrambled start beside the solved flag, with par under it.

Text is set in DejaVu Sans, shipped in ``flagcore/fonts/`` with its licence (LICENSE-DejaVu.txt),
so names such as "Türkiye" and "São Tomé and Príncipe" draw the same on every machine; a name
too wide for its cell is set smaller, then shortened with an ellipsis. The picture's format
follows the file name's extension (see ``FORMATS``).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .._args.review import as_picture_path, as_tile_count
from ..library import flag_name

if TYPE_CHECKING:
    from ..connections.board import Board

# The tier colours players know from the original game (yellow, green, blue, purple).
TIER_RGB = ((249, 223, 109), (160, 195, 90), (176, 196, 239), (186, 129, 197))
BACKGROUND = (250, 250, 248)
INK = (30, 30, 30)
_CELL_W, _CELL_H, _PAD, _LABEL_H = 200, 150, 14, 44
_FRAME = 6  # the tier outline of a revealed cell, drawn inside it: a name on two lines stays above it
FONT_FILE = Path(__file__).parents[1] / "fonts" / "DejaVuSans.ttf"
# File extension -> Pillow format name; anything else is refused before any drawing.
FORMATS = {
    ".png": "PNG",
    ".jpg": "JPEG",
    ".jpeg": "JPEG",
    ".webp": "WEBP",
    ".gif": "GIF",
    ".bmp": "BMP",
    ".tif": "TIFF",
    ".tiff": "TIFF",
}
_SMALLEST_TEXT = 10  # px: below this a name is shortened rather than shrunk further


@functools.cache
def font_of_size(size: int) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at ``size`` px (loaded once per size)."""
    return ImageFont.truetype(str(FONT_FILE), size)


def fit_text(
    draw: ImageDraw.ImageDraw, text: str, size: int, width: int, lines: int = 1
) -> tuple[str, ImageFont.FreeTypeFont]:
    """``text`` (with line breaks) and a font that keep it within ``width`` px on at most
    ``lines`` lines: at ``size`` on one line when it fits, else smaller (down to
    _SMALLEST_TEXT px) on one line, then broken at a space, then shortened with an ellipsis."""

    def wide(t: str, font: ImageFont.FreeTypeFont) -> float:
        return max(draw.textlength(part, font=font) for part in t.split("\n"))

    words = text.split(" ")
    layouts = [text] + (
        ["\n".join((" ".join(words[:i]), " ".join(words[i:]))) for i in range(1, len(words))] if lines >= 2 else []
    )
    for s in range(size, _SMALLEST_TEXT - 1, -1):
        if wide(text, font_of_size(s)) <= width:
            return text, font_of_size(s)
        if len(layouts) > 1:  # the most even break
            best = min(layouts[1:], key=lambda t: wide(t, font_of_size(s)))
            if wide(best, font_of_size(s)) <= width:
                return best, font_of_size(s)
    font = font_of_size(_SMALLEST_TEXT)
    while len(text) > 1 and draw.textlength(text + "\u2026", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026", font


def picture_format(path: str | os.PathLike[str]) -> str:
    """The Pillow format for ``path`` from its extension; ValueError for a name no picture can
    have (empty, no known extension) and OSError naming a folder that does not exist."""
    return as_picture_path(path, FORMATS)


def _flag_image(code: str, width: int) -> Image.Image:
    from ..signatures import render_flag

    # render_flag draws columns * 48 px wide; ask for enough columns to be sharp at ``width``.
    rgba = render_flag(code, max(1, -(-width // 48)))
    image = Image.fromarray(np.ascontiguousarray(rgba), "RGBA")
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def fit_image(image: Image.Image, box_w: int, box_h: int) -> Image.Image:
    """``image`` scaled to fit a ``box_w`` x ``box_h`` box, keeping its aspect ratio."""
    scale = min(box_w / image.width, box_h / image.height)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS)


def save_picture(image: Image.Image, path: str | os.PathLike[str]) -> None:
    """Write ``image`` to ``path`` in the format its extension names (see ``picture_format``)."""
    image.convert("RGB").save(os.fspath(path), format=picture_format(path))


def connections_png(
    board: Board, path: str | os.PathLike[str], *, reveal: bool = False, names: dict[str, str] | None = None
) -> None:
    """Draw ``board`` as a 4x4 grid of flags; with ``reveal`` each tile is outlined in its tier colour.

    ``names`` maps codes to the names written under the flags (else the codes are written).
    The format follows ``path``'s extension (``FORMATS``); see ``picture_format`` for errors.
    """
    picture_format(path)  # refuse a bad name before drawing anything
    names = names or {}
    tier_of = {code: g.tier for g in board.groups for code in g.codes}
    width = 4 * _CELL_W + 5 * _PAD
    height = 4 * (_CELL_H + _LABEL_H) + 5 * _PAD + (4 * 22 + _PAD if reveal else 0)
    canvas = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    for i, code in enumerate(board.tiles):
        x = _PAD + (i % 4) * (_CELL_W + _PAD)
        y = _PAD + (i // 4) * (_CELL_H + _LABEL_H + _PAD)
        flag = fit_image(_flag_image(code, _CELL_W), _CELL_W - 16, _CELL_H - 16)
        fx, fy = x + (_CELL_W - flag.width) // 2, y + (_CELL_H - flag.height) // 2
        canvas.alpha_composite(flag, (fx, fy))
        draw.rectangle((fx - 1, fy - 1, fx + flag.width, fy + flag.height), outline=(200, 200, 200))
        if reveal:
            draw.rounded_rectangle(
                (x, y, x + _CELL_W, y + _CELL_H + _LABEL_H), radius=10, outline=TIER_RGB[tier_of[code]], width=_FRAME
            )
        text = f"{names.get(code, code)} ({code})" if code in names else code
        text, font = fit_text(draw, text, 15, _CELL_W - 8, lines=2)
        draw.multiline_text(
            (x + _CELL_W // 2, y + _CELL_H + (_LABEL_H - _FRAME) // 2),
            text,
            fill=INK,
            font=font,
            anchor="mm",
            align="center",
            spacing=1,
        )
    if reveal:
        y = 4 * (_CELL_H + _LABEL_H + _PAD) + _PAD
        for g in board.groups:
            draw.rectangle((_PAD, y + 3, _PAD + 14, y + 17), fill=TIER_RGB[g.tier])
            text, font = fit_text(draw, f"{g.label}: {', '.join(g.codes)}", 15, width - 2 * _PAD - 22)
            draw.text((_PAD + 22, y), text, fill=INK, font=font)
            y += 22
    save_picture(canvas, path)


def _cut(image: Image.Image, columns: int, rows: int) -> list[Image.Image]:
    """Pieces in row-major order; piece i belongs in slot i."""
    xs = [round(c * image.width / columns) for c in range(columns + 1)]
    ys = [round(r * image.height / rows) for r in range(rows + 1)]
    return [image.crop((xs[c], ys[r], xs[c + 1], ys[r + 1])) for r in range(rows) for c in range(columns)]


def puzzle_png(
    flag: str, tiles_by_slot: Sequence[int], columns: int, rows: int, par: int, path: str | os.PathLike[str]
) -> None:
    """Draw the scrambled start board beside the solved flag, with par written under it.

    The format follows ``path``'s extension (``FORMATS``); see ``picture_format`` for errors.
    """
    picture_format(path)
    as_tile_count(tiles_by_slot, columns, rows)
    gap = 3
    solved = _flag_image(flag, 96 * columns)
    pieces = _cut(solved, columns, rows)
    tile_w = max(p.width for p in pieces)
    tile_h = max(p.height for p in pieces)
    board_w = columns * tile_w + (columns - 1) * gap
    board_h = rows * tile_h + (rows - 1) * gap
    width = _PAD * 3 + board_w + solved.width
    height = _PAD * 2 + max(board_h, solved.height) + 40
    canvas = Image.new("RGBA", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    # Dark seams between tiles so that look-alike white tiles still read as separate pieces.
    draw.rectangle((_PAD - gap, _PAD - gap, _PAD + board_w + gap - 1, _PAD + board_h + gap - 1), fill=(90, 90, 90))
    for slot, piece in enumerate(tiles_by_slot):
        x = _PAD + (slot % columns) * (tile_w + gap)
        y = _PAD + (slot // columns) * (tile_h + gap)
        canvas.alpha_composite(pieces[int(piece)], (x, y))
    canvas.alpha_composite(solved, (2 * _PAD + board_w, _PAD))
    font = font_of_size(18)
    base = _PAD + max(board_h, solved.height) + 20
    draw.text(
        (_PAD + board_w // 2, base),
        f"start: par {par} swap{'s' if par != 1 else ''}",
        fill=INK,
        font=font,
        anchor="mm",
    )
    caption, font = fit_text(draw, f"{flag_name(flag)} solved", 18, solved.width)
    draw.text((2 * _PAD + board_w + solved.width // 2, base), caption, fill=INK, font=font, anchor="mm")
    save_picture(canvas, path)
