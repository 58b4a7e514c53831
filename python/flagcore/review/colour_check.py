"""Cross-check a flag's declared colours against its rendered pixels.

Every opaque pixel is classified to the nearest reference shade of the palette (several shades
per colour name, because "blue" spans navy to sky blue and "red" spans scarlet to maroon);
pixels far from every shade (emblem browns, purples, anti-aliased edges) count as "other".
A declared colour must cover at least ``PRESENT`` of the flag; an undeclared colour must not
cover more than ``LARGE``. Between the two, declaring it or not are both honest.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

PALETTE = ("red", "white", "blue", "green", "yellow", "black", "orange")

# Reference shades taken from the official colour specifications of representative flags.
SHADES: Mapping[str, tuple[tuple[int, int, int], ...]] = {
    "red": (
        (206, 17, 38),
        (218, 41, 28),
        (237, 41, 57),
        (230, 0, 0),
        (190, 0, 39),
        (141, 27, 61),
        (158, 48, 57),
        (200, 16, 46),
        (252, 61, 50),
    ),
    "white": ((255, 255, 255), (238, 238, 238)),
    "blue": (
        (0, 56, 168),
        (0, 35, 149),
        (0, 36, 125),
        (0, 47, 108),
        (0, 114, 198),
        (65, 137, 221),
        (116, 172, 223),
        (0, 181, 226),
        (91, 146, 229),
        (0, 82, 180),
        (16, 42, 92),
        (0, 0, 102),
        (102, 204, 255),
        (56, 110, 198),
    ),
    "green": (
        (0, 122, 61),
        (0, 154, 68),
        (0, 106, 78),
        (20, 181, 58),
        (0, 93, 45),
        (60, 150, 60),
        (0, 72, 40),
        (70, 130, 70),
        (0, 130, 100),
    ),
    "yellow": (
        (252, 209, 22),
        (255, 223, 0),
        (255, 199, 44),
        (248, 232, 47),
        (241, 191, 0),
        (255, 240, 0),
        (230, 190, 80),
        (205, 160, 55),
    ),
    "black": ((0, 0, 0), (40, 40, 40)),
    "orange": (
        (255, 130, 0),
        (255, 153, 51),
        (247, 127, 0),
        (230, 81, 0),
        (214, 110, 30),
        (255, 100, 0),
        (242, 168, 0),
    ),
}
OTHER = "other"
MAX_DISTANCE = 70.0  # RGB distance beyond which a pixel matches no palette shade
PRESENT = 0.004  # a declared colour must cover at least 0.4 % of the flag
LARGE = 0.04  # an undeclared colour covering 4 % or more is a missing declaration
RENDER_WIDTH = 240

_names: list[str] = []
_refs: list[tuple[int, int, int]] = []
for _name, _shades in SHADES.items():
    for _shade in _shades:
        _names.append(_name)
        _refs.append(_shade)
_REF = np.array(_refs, dtype=np.float32)
_NAME_INDEX = np.array([PALETTE.index(n) for n in _names], dtype=np.int64)


@dataclass(frozen=True)
class ColourReport:
    """How a flag's rendered pixels compare with its declared colours."""

    shares: dict[str, float]  # palette colour (or "other") -> share of opaque pixels
    missing: tuple[str, ...]  # declared but below PRESENT
    undeclared: tuple[str, ...]  # not declared but at or above LARGE

    @property
    def ok(self) -> bool:
        """True when no declared colour is missing and no large colour is undeclared."""
        return not self.missing and not self.undeclared


@functools.lru_cache(maxsize=512)
def render_rgba(svg: bytes, width: int = RENDER_WIDTH) -> np.ndarray:
    """Render SVG bytes to an (H, W, 4) uint8 array with the package's safe cairosvg renderer
    (the one tile signatures use: no external references, hostile SVG rejected).

    Kept per process (read-only arrays): ``flagcore data check`` and the library tests look at
    every flag several times, and drawing them is the slow part."""
    from .._svg_render import render_svg

    rgba = render_svg(svg, width)
    rgba.setflags(write=False)
    return rgba


def colour_shares(rgba: np.ndarray) -> dict[str, float]:
    """Share of opaque pixels nearest to each palette colour (plus "other")."""
    pixels = rgba.reshape(-1, 4)
    opaque = pixels[pixels[:, 3] >= 128, :3]
    if len(opaque) == 0:
        raise ValueError("rgba: the image has no opaque pixel")  # found in the pixels: not an argument rule
    # Classify each distinct colour once (flags have few), weighted by how many pixels have it.
    colours, counts = np.unique(opaque, axis=0, return_counts=True)
    d = ((colours.astype(np.float32)[:, None, :] - _REF[None, :, :]) ** 2).sum(axis=2)
    nearest = d.argmin(axis=1)
    close = d[np.arange(len(colours)), nearest] <= MAX_DISTANCE**2
    per_name = np.bincount(_NAME_INDEX[nearest[close]], weights=counts[close], minlength=len(PALETTE))
    total = float(len(opaque))
    shares = {name: float(per_name[i]) / total for i, name in enumerate(PALETTE)}
    shares[OTHER] = float(counts[~close].sum()) / total
    return shares


def check_colours(svg: bytes, declared: frozenset[str] | set[str]) -> ColourReport:
    """Render ``svg`` and compare its pixels with the ``declared`` colour names (from PALETTE).

    ValueError for a name outside PALETTE or artwork that cannot be rendered.
    """
    unknown = set(declared) - set(PALETTE)
    if unknown:
        raise ValueError(f"declared: colours {sorted(unknown)} are not in the palette {PALETTE}")  # data, not argument
    shares = colour_shares(render_rgba(svg))
    missing = tuple(c for c in PALETTE if c in declared and shares[c] < PRESENT)
    undeclared = tuple(c for c in PALETTE if c not in declared and shares[c] >= LARGE)
    return ColourReport(shares, missing, undeclared)
