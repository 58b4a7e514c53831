"""Remake the pictures of the docs site (docs/images/), as small WebP files.

    python scripts/write_images.py                                         # boards, signature cases, a contact sheet
    FLAGCORE_SCREENSHOTS=docs pytest tests/web/test_web_play_screens.py    # the gallery's screenshots

Run from a checkout with flagcore installed. Every picture goes through ``save_webp`` (the
screenshot test uses it too): scaled down to the width the page shows it at, lossy WebP. The
site's sources, pictures included, stay under 1.5 MB (tests/package/test_docs.py checks it).
"""

from __future__ import annotations

import io
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
QUALITY = 55  # WebP quality: text on flat colours stays legible, a screenshot is 5 to 30 KB


def save_webp(picture: Any, path: str | Path, width: int | None = None, *, quality: int = QUALITY) -> Path:
    """Write ``picture`` (a PIL image, PNG bytes or a file path) to ``path`` as WebP, scaled to ``width``."""
    from PIL import Image

    if not isinstance(picture, Image.Image):
        picture = Image.open(io.BytesIO(picture) if isinstance(picture, bytes) else picture)
    image = picture
    image = image.convert("RGB")
    if width is not None and image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, format="WEBP", quality=quality, method=6)
    return path


def main() -> int:
    from PIL import Image

    from flagcore.cli import main as flagcore

    with tempfile.TemporaryDirectory() as tmp:
        board, deal = Path(tmp) / "board.png", Path(tmp) / "deal.png"
        # the tour's pictures (docs/index.md), drawn by the commands the page shows
        assert flagcore(["connections", "--seed", "12", "--reveal", "--png", str(board)]) == 0
        assert flagcore(["puzzle", "--flag", "JP", "--grid", "hard", "--seed", "3", "--png", str(deal)]) == 0
        save_webp(board, IMAGES / "connections-seed12.webp", 640)
        save_webp(deal, IMAGES / "puzzle-jp-hard-seed3.webp", 640)
        # a sample contact sheet (docs/data.md): the top of the stripes sheet
        assert flagcore(["data", "sheet", "--out", tmp, "--group", "stripes"]) == 0
        sheet = Image.open(Path(tmp) / "stripes.png")
        top = sheet.crop((0, 0, sheet.width, min(sheet.height, sheet.width * 5 // 4)))
        save_webp(top, IMAGES / "sheet-stripes.webp", 640)
    # the signatures' hard cases (docs/signatures.md)
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_signature_pictures

    save_webp(make_signature_pictures.draw(), IMAGES / "signatures-hard-cases.webp", 800)
    for path in sorted(IMAGES.glob("*.webp")):
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size:,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
