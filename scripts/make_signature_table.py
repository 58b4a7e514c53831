"""Precompute both tile signatures of every bundled flag at the game's three grids.

    python scripts/make_signature_table.py            # writes flags/signatures.json

Run it with flagcore installed (pip install .) after changing flags/svg/ or the renderer; the
artwork is read from this checkout's flags/svg/. The table ships in the wheel and
flagcore.signatures.piece_signatures answers bundled flags at 3x2, 4x3 and 5x3 from it, so
every server gives the same signatures whatever cairo it has. Each flag's row holds the SHA-256
of its artwork, the visual signatures ("visual": the game's default) and the spec's hashes
("spec"), grid by grid. tests/signatures/test_signatures_table.py re-derives every row and checks the
SHA-256 of every artwork.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import cairosvg  # type: ignore[import-untyped]

from flagcore import signatures

ROOT = Path(__file__).resolve().parent.parent


def build(svg_dir: Path) -> dict[str, object]:
    flags: dict[str, dict[str, object]] = {}
    paths = sorted(svg_dir.glob("*.svg"))
    for number, path in enumerate(paths, 1):
        data = path.read_bytes()
        row: dict[str, object] = {"sha256": hashlib.sha256(data).hexdigest()}
        for method in signatures.METHODS:
            by_grid: dict[str, list[int] | None] = {}
            for columns, rows in signatures.TABLE_GRIDS:
                try:
                    by_grid[f"{columns}x{rows}"] = signatures.compute_signatures(data, columns, rows, method)
                except ValueError as exc:
                    print(f"\n{path.stem} {method} {columns}x{rows}: {exc}", file=sys.stderr)
                    by_grid[f"{columns}x{rows}"] = None
            row[method] = by_grid
        flags[path.stem] = row
        print(f"\r{number}/{len(paths)} {path.stem:<7}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return {
        "about": "tile signatures of flags/svg/*.svg rendered columns*48 px wide: 'visual' "
        "(flagcore.signatures.visual_signatures, lowest look-alike piece) and 'spec' "
        "(tile_signatures, the browser's hash); made by scripts/make_signature_table.py",
        "methods": list(signatures.METHODS),
        "tile_width": signatures.TILE_WIDTH,
        "inset": signatures.INSET,
        "stride": 8,
        "grids": [f"{c}x{r}" for c, r in signatures.TABLE_GRIDS],
        "cairosvg": cairosvg.__version__,
        "flags": flags,
    }


def write(table: dict[str, object], out: Path) -> None:
    # One flag per line: a re-render that changes one flag changes one line of the diff.
    flags = table["flags"]
    assert isinstance(flags, dict)
    head = {k: v for k, v in table.items() if k != "flags"}
    lines = [json.dumps(head)[:-1] + ', "flags": {']
    items = [f"  {json.dumps(code)}: {json.dumps(row, separators=(',', ':'))}" for code, row in flags.items()]
    lines.append(",\n".join(items))
    lines.append("}}")
    out.write_text("\n".join(lines) + "\n", "utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg-dir", type=Path, default=ROOT / "flags" / "svg")
    parser.add_argument("--out", type=Path, default=ROOT / "flags" / signatures.TABLE_FILE)
    args = parser.parse_args()
    table = build(args.svg_dir)
    write(table, args.out)
    json.loads(args.out.read_text("utf-8"))  # the hand-laid-out JSON must parse
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
