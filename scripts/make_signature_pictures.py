"""Draw the hard cases of the tile signatures (docs/signatures.md): docs/images/signatures-hard-cases.webp.

    python scripts/make_signature_pictures.py

Each row is one pair of tiles of a bundled flag: the board as the game shows it with the two
tiles outlined, the two tiles enlarged side by side, and what each signature says about them
(flagcore.signature_audit's verdict in brackets). Run it with flagcore installed.
"""

from __future__ import annotations

import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from flagcore import puzzle, signatures
from flagcore.review import signature_audit

# (flag, grid, piece a, piece b, what it shows)
CASES = [
    ("JP", "easy", 0, 3, "Japan: slivers of the disc at the tiles' inner edges"),
    ("SE", "easy", 0, 2, "Sweden: a Nordic cross arm along one tile's edge"),
    ("CW", "medium", 1, 5, "Curacao: a thin stripe and star tips at the edges"),
    ("CH", "hard", 0, 5, "Switzerland: a corner of the cross in the next tile"),
    ("GR", "hard", 2, 10, "Greece: the same stripes (the spec cuts rows off-pixel)"),
]
ZOOM = 3
PAD = 12
BG = (250, 250, 248)
INK = (30, 30, 30)
MARK = ((230, 60, 40), (40, 110, 230))


def verdict(same: bool) -> str:
    return "look-alike" if same else "different"


def case_row(
    code: str, grid: str, a: int, b: int, title: str, font: ImageFont.ImageFont | ImageFont.FreeTypeFont
) -> Image.Image:
    columns, rows = puzzle.GRIDS[grid]
    board = Image.fromarray(signatures.render_flag(code, columns, rows), "RGBA")
    background = Image.new("RGBA", board.size, (255, 255, 255, 255))
    board = Image.alpha_composite(background, board).convert("RGB")
    tw, th = board.width // columns, board.height // rows
    k = 2 if columns == 3 else 1  # the easy board is small: draw it twice as large
    small = board.resize((board.width * k, board.height * k), Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(small)
    for piece, colour in zip((a, b), MARK):
        r, c = divmod(piece, columns)
        draw.rectangle((c * tw * k, r * th * k, (c + 1) * tw * k - 1, (r + 1) * th * k - 1), outline=colour, width=2)
    tiles = signature_audit.shown_tiles(code, columns, rows)
    big = [
        Image.fromarray(tiles[p].astype(np.uint8), "RGB").resize((tw * ZOOM, th * ZOOM), Image.Resampling.NEAREST)
        for p in (a, b)
    ]
    spec = signatures.piece_signatures(code, columns, rows, method="spec")
    visual = signatures.piece_signatures(code, columns, rows)
    assert spec is not None and visual is not None
    differ = signature_audit.visibly_differ(tiles[a], tiles[b])
    same = signature_audit.look_same(tiles[a], tiles[b])
    judged = "visibly differ" if differ else "look the same" if same else "in between"
    lines = [
        title,
        f"{code} {grid} ({columns}x{rows}), pieces {a} and {b}",
        f"spec hash: {verdict(spec[a] == spec[b])}",
        f"visual: {verdict(visual[a] == visual[b])}",
        f"[audit: {judged}]",
    ]
    text_w = 430
    width = small.width + 2 * tw * ZOOM + text_w + 5 * PAD
    height = max(small.height, th * ZOOM) + 2 * PAD
    row = Image.new("RGB", (width, height), BG)
    row.paste(small, (PAD, PAD))
    x = small.width + 2 * PAD
    rdraw = ImageDraw.Draw(row)
    for image, colour in zip(big, MARK):
        row.paste(image, (x, PAD))
        rdraw.rectangle((x - 2, PAD - 2, x + image.width + 1, PAD + image.height + 1), outline=colour, width=2)
        x += image.width + PAD
    for i, line in enumerate(lines):
        rdraw.text((x + PAD, PAD + i * 24), line, fill=INK, font=font)
    return row


def draw() -> Image.Image:
    """The picture: one row per hard case."""
    font = ImageFont.load_default(size=16)
    rows = [case_row(*case, font=font) for case in CASES]
    width = max(r.width for r in rows)
    out = Image.new("RGB", (width, sum(r.height for r in rows)), BG)
    y = 0
    for r in rows:
        out.paste(r, (0, y))
        y += r.height
    return out


def main() -> int:
    from write_images import IMAGES, save_webp  # this folder's picture writer

    path = save_webp(draw(), IMAGES / "signatures-hard-cases.webp", 800)
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
