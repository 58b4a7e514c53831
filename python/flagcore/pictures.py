"""Pictures of boards for ``--png``: real flag artwork composed with Pillow.

The Connections board is a 4x4 grid of flags with names (groups outlined in tier colours when
revealed); the Puzzle board is the scrambled start beside the solved flag, with par under it.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Sequence

import numpy as np
from PIL import Image, ImageDraw, ImageFont

if TYPE_CHECKING:
    from .connections.board import Board

# The tier colours players know from the original game (yellow, green, blue, purple).
TIER_RGB = ((249, 223, 109), (160, 195, 90), (176, 196, 239), (186, 129, 197))
_BACKGROUND = (250, 250, 248)
_INK = (30, 30, 30)
_CELL_W, _CELL_H, _PAD, _LABEL_H = 200, 150, 14, 34


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


def _flag_image(code: str, width: int) -> Image.Image:
    from .signatures import render_flag

    # render_flag draws columns * 48 px wide; ask for enough columns to be sharp at ``width``.
    rgba = render_flag(code, max(1, -(-width // 48)))
    image = Image.fromarray(np.ascontiguousarray(rgba), "RGBA")
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.LANCZOS)


def _fit(image: Image.Image, box_w: int, box_h: int) -> Image.Image:
    scale = min(box_w / image.width, box_h / image.height)
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    return image.resize(size, Image.Resampling.LANCZOS)


def _save(image: Image.Image, path: str | os.PathLike[str]) -> None:
    image.convert("RGB").save(os.fspath(path), format="PNG")


def connections_png(board: "Board", path: str | os.PathLike[str], *, reveal: bool = False,
                    names: dict[str, str] | None = None) -> None:
    """Draw ``board`` as a 4x4 grid of flags; with ``reveal`` each tile is outlined in its tier colour."""
    names = names or {}
    tier_of = {code: g.tier for g in board.groups for code in g.codes}
    width = 4 * _CELL_W + 5 * _PAD
    height = 4 * (_CELL_H + _LABEL_H) + 5 * _PAD + (4 * 22 + _PAD if reveal else 0)
    canvas = Image.new("RGBA", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    label_font = _font(15)
    for i, code in enumerate(board.tiles):
        x = _PAD + (i % 4) * (_CELL_W + _PAD)
        y = _PAD + (i // 4) * (_CELL_H + _LABEL_H + _PAD)
        flag = _fit(_flag_image(code, _CELL_W), _CELL_W - 16, _CELL_H - 16)
        fx, fy = x + (_CELL_W - flag.width) // 2, y + (_CELL_H - flag.height) // 2
        canvas.alpha_composite(flag, (fx, fy))
        draw.rectangle((fx - 1, fy - 1, fx + flag.width, fy + flag.height), outline=(200, 200, 200))
        if reveal:
            draw.rounded_rectangle((x, y, x + _CELL_W, y + _CELL_H + _LABEL_H), radius=10,
                                   outline=TIER_RGB[tier_of[code]], width=6)
        text = f"{names.get(code, code)} ({code})" if code in names else code
        draw.text((x + _CELL_W // 2, y + _CELL_H + _LABEL_H // 2), text, fill=_INK,
                  font=label_font, anchor="mm")
    if reveal:
        y = 4 * (_CELL_H + _LABEL_H + _PAD) + _PAD
        for g in board.groups:
            draw.rectangle((_PAD, y + 3, _PAD + 14, y + 17), fill=TIER_RGB[g.tier])
            draw.text((_PAD + 22, y), f"{g.label}: {', '.join(g.codes)}", fill=_INK, font=label_font)
            y += 22
    _save(canvas, path)


def _cut(image: Image.Image, columns: int, rows: int) -> list[Image.Image]:
    """Pieces in row-major order; piece i belongs in slot i."""
    xs = [round(c * image.width / columns) for c in range(columns + 1)]
    ys = [round(r * image.height / rows) for r in range(rows + 1)]
    return [image.crop((xs[c], ys[r], xs[c + 1], ys[r + 1])) for r in range(rows) for c in range(columns)]


def puzzle_png(flag: str, tiles_by_slot: Sequence[int], columns: int, rows: int, par: int,
               path: str | os.PathLike[str]) -> None:
    """Draw the scrambled start board beside the solved flag, with par written under it."""
    if len(tiles_by_slot) != columns * rows:
        raise ValueError("tiles_by_slot: length must be columns * rows")
    gap = 3
    solved = _flag_image(flag, 96 * columns)
    pieces = _cut(solved, columns, rows)
    tile_w = max(p.width for p in pieces)
    tile_h = max(p.height for p in pieces)
    board_w = columns * tile_w + (columns - 1) * gap
    board_h = rows * tile_h + (rows - 1) * gap
    width = _PAD * 3 + board_w + solved.width
    height = _PAD * 2 + max(board_h, solved.height) + 40
    canvas = Image.new("RGBA", (width, height), _BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    # Dark seams between tiles so that look-alike white tiles still read as separate pieces.
    draw.rectangle((_PAD - gap, _PAD - gap, _PAD + board_w + gap - 1, _PAD + board_h + gap - 1),
                   fill=(90, 90, 90))
    for slot, piece in enumerate(tiles_by_slot):
        x = _PAD + (slot % columns) * (tile_w + gap)
        y = _PAD + (slot // columns) * (tile_h + gap)
        canvas.alpha_composite(pieces[int(piece)], (x, y))
    canvas.alpha_composite(solved, (2 * _PAD + board_w, _PAD))
    font = _font(18)
    base = _PAD + max(board_h, solved.height) + 20
    draw.text((_PAD + board_w // 2, base), f"start: par {par} swap{'s' if par != 1 else ''}",
              fill=_INK, font=font, anchor="mm")
    draw.text((2 * _PAD + board_w + solved.width // 2, base), f"{flag} solved", fill=_INK,
              font=font, anchor="mm")
    _save(canvas, path)
