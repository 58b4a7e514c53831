"""Render untrusted SVG flag artwork to RGBA pixels with cairosvg, never touching anything else.

What is refused, and where:

* More than MAX_SVG_BYTES bytes, or anything but well-formed XML whose root is <svg>: checked
  before cairosvg sees the data. The XML is parsed with defusedxml with DTDs forbidden, so a
  DOCTYPE of any kind (external entities, "billion laughs" entity expansion, external DTDs)
  is rejected outright; gzip-compressed input (which cairosvg would inflate without limit) is
  not XML and is rejected too. At most MAX_ELEMENTS elements nested at most MAX_DEPTH deep.
* Every resource the SVG refers to, checked twice. Before rendering, an href that is not
  "#fragment", a CSS url(...) that is not "url(#id)", an @import or an xml:base is refused.
  While rendering, cairosvg fetches <image href>, <use href="other.svg#x">,
  <tref> and CSS @import through its ``url_fetcher``; ours refuses every URL (file:, http:,
  relative paths, and data: too, since a flag needs no embedded raster) and records the
  attempt, and a render that tried to fetch anything fails even when cairosvg swallowed the
  refusal. References inside the document (href="#id") never reach the fetcher.
* Exponential drawing work: <use> and url(#id) references make cairosvg draw an element once per
  reference, so ten <g> elements each using the previous one ten times draw 10**10 shapes from a
  few hundred bytes (a "billion laughs" made of references). Before rendering, the number of
  elements the references expand to is counted (a marker counts once per number in the path
  data, as it is drawn at every vertex; a url(#id) in a <style> sheet is charged to every
  element) and capped at MAX_EXPANDED; a reference cycle is refused.
* An absurd canvas: the width is the caller's (validated) and the height follows the
  artwork's aspect ratio; both are checked against MAX_SIDE before cairo allocates a pixel.

Pixels: cairo's ARGB32 surface holds premultiplied colour in native-endian 32-bit words. A
canvas ``getImageData`` returns un-premultiplied RGBA, so colours are divided back out with the
rounding cairo's own PNG writer uses, ``(c * 255 + a // 2) // a`` (0 where a == 0): the result
is byte for byte what ``svg2png`` decoded by Pillow gives. Flag artwork is opaque almost
everywhere, where both conventions agree exactly; browsers may differ from cairo by one level
on semi-transparent anti-aliased pixels. The canvas starts transparent, as a fresh canvas does.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import numpy.typing as npt
from defusedxml import ElementTree as SafeET  # type: ignore[import-untyped]

from .errors import CairoMissingError
from .errors import SvgRenderError as SvgRenderError  # re-exported: its old home

MAX_SVG_BYTES = 1 << 20  # the largest bundled flag is about 240 kB
MAX_ELEMENTS = 20_000  # the most complex bundled flag has about 1,000
MAX_DEPTH = 64  # bundled flags nest at most 9 deep
MAX_SIDE = 4096  # pixels, either side of the canvas
MAX_EXPANDED = 5_000  # drawn elements after references; the bundled flags need at most ~1,100


def _cairosvg() -> tuple[Any, Any]:
    """cairosvg's (parser, surface) modules, or CairoMissingError with a one-line install hint.

    cairosvg loads libcairo through cairocffi when first imported, and cairocffi reports a
    missing library as a multi-line OSError listing every file name it tried.
    """
    try:
        import cairosvg.parser  # type: ignore[import-untyped]
        import cairosvg.surface  # type: ignore[import-untyped]
    except OSError:
        raise CairoMissingError() from None
    return cairosvg.parser, cairosvg.surface


def check_svg(data: bytes) -> None:
    """Reject what cairosvg must never be handed (see the module docstring)."""
    if len(data) > MAX_SVG_BYTES:
        raise SvgRenderError(f"svg is {len(data)} bytes, more than the {MAX_SVG_BYTES} byte cap")
    try:
        root = SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except Exception as exc:  # ParseError, DTDForbidden, EntitiesForbidden, ...
        raise SvgRenderError(f"svg is not acceptable XML: {type(exc).__name__}: {exc}") from None
    if not isinstance(root.tag, str) or root.tag.rsplit("}", 1)[-1] != "svg":
        raise SvgRenderError(f"svg root element is {root.tag!r}, not <svg>")
    count = 0
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        count += 1
        if count > MAX_ELEMENTS:
            raise SvgRenderError(f"svg has more than {MAX_ELEMENTS} elements")
        if depth > MAX_DEPTH:
            raise SvgRenderError(f"svg nests elements more than {MAX_DEPTH} deep")
        _check_references(element)
        stack.extend((child, depth + 1) for child in element)
    _check_expansion(root)


# url(...) in an attribute or a stylesheet, and @import; only "#fragment" targets are local.
_CSS_URL = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)", re.IGNORECASE)
_CSS_IMPORT = re.compile(r"@import", re.IGNORECASE)


def _check_references(element: Any) -> None:
    """Refuse any reference that is not to an element of the same document."""
    for name, value in element.attrib.items():
        local = name.rsplit("}", 1)[-1]
        if local == "href" and not value.strip().startswith("#"):
            raise SvgRenderError(f"svg refers to an external resource: {value[:100]!r}")
        if local == "base":  # xml:base only ever serves to resolve external references
            raise SvgRenderError("svg sets xml:base")
        _check_css(value)
    if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "style":
        _check_css(element.text or "")


def _check_css(text: str) -> None:
    if "url" not in text.lower() and "@" not in text:
        return
    if _CSS_IMPORT.search(text):
        raise SvgRenderError("svg style sheet uses @import")
    for target in _CSS_URL.findall(text):
        if not target.startswith("#"):
            raise SvgRenderError(f"svg refers to an external resource: url({target[:100]})")


_LOCAL_URL = re.compile(r"url\(\s*['\"]?\s*#([^'\")\s]+)", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _local_refs(element: Any, sheet_refs: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """(target id, times drawn) for every reference ``element`` makes to its own document."""
    refs = list(sheet_refs)
    for name, value in element.attrib.items():
        local = name.rsplit("}", 1)[-1]
        if local == "href" and value.strip().startswith("#"):
            refs.append((value.strip()[1:], 1))
            continue
        targets = _LOCAL_URL.findall(value)
        if not targets:
            continue
        weight = 1
        if "marker" in local or (local == "style" and "marker" in value.lower()):
            geometry = (element.get("d") or "") + " " + (element.get("points") or "")
            weight = max(1, len(_NUMBER.findall(geometry)))
        refs.extend((target, weight) for target in targets)
    return refs


def _check_expansion(root: Any) -> None:
    """Refuse an SVG whose references expand to more than MAX_EXPANDED drawn elements, or loop.

    Iterative post-order over the element tree plus its reference edges (a reference chain can
    be as long as the document, too deep for Python recursion); sizes saturate at the cap so the
    numbers stay small whatever the fan-out.
    """
    ids: dict[str, Any] = {}
    sheet_refs: list[tuple[str, int]] = []
    for element in root.iter():
        ident = element.get("id")
        if ident is not None:
            ids.setdefault(ident, element)
        if isinstance(element.tag, str) and element.tag.rsplit("}", 1)[-1] == "style":
            sheet_refs.extend((target, 1) for target in _LOCAL_URL.findall(element.text or ""))
    edges: dict[int, list[tuple[Any, int]]] = {}
    size: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        element, finished = stack.pop()
        key = id(element)
        if finished:
            total = 1 + sum(weight * size[id(dep)] for dep, weight in edges[key])
            size[key] = min(total, MAX_EXPANDED + 1)
            active.discard(key)
            continue
        if key in size:
            continue
        if key in active:
            raise SvgRenderError("svg references form a cycle")
        active.add(key)
        deps = [(child, 1) for child in element]
        deps += [(ids[target], weight) for target, weight in _local_refs(element, sheet_refs) if target in ids]
        edges[key] = deps
        stack.append((element, True))
        stack.extend((dep, False) for dep, _ in deps if id(dep) not in size)
    if size[id(root)] > MAX_EXPANDED:
        raise SvgRenderError(f"svg references expand to more than {MAX_EXPANDED} drawn elements")


def _refusing_fetcher(attempts: list[str]) -> Any:
    def fetch(url: str, resource_type: str) -> bytes:
        attempts.append(url)
        raise SvgRenderError(f"svg refers to an external resource ({resource_type}): {url[:100]!r}")

    return fetch


def _surface_class() -> Any:
    _cairosvg()  # CairoMissingError when libcairo2 is missing; afterwards the import below is cached
    from cairosvg.surface import PNGSurface, cairo

    class BoundedSurface(PNGSurface):  # type: ignore[misc]
        """PNGSurface that checks the canvas size before allocating it."""

        def _create_surface(self, width: float, height: float) -> tuple[Any, int, int]:
            if not (math.isfinite(width) and math.isfinite(height)):
                raise SvgRenderError(f"svg has no finite size ({width} x {height})")
            # Math.round, as a canvas sized from the image's natural size would be.
            w, h = math.floor(width + 0.5), math.floor(height + 0.5)
            if self.height_multiple is not None and 1 <= h <= MAX_SIDE:
                # A whole number of equal tile rows: the artwork is stretched to fill them.
                m = self.height_multiple
                h = m * max(1, math.floor(height / m + 0.5))
                if h > MAX_SIDE:
                    h -= m
                self.stretched_height = h
            if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
                raise SvgRenderError(f"canvas would be {w} x {h} px; each side must be in [1, {MAX_SIDE}]")
            return cairo.ImageSurface(cairo.FORMAT_ARGB32, w, h), w, h

        def set_context_size(self, width: float, height: float, viewbox: Any, tree: Any) -> None:
            # Called for the root first (then for nested <svg> elements, left alone).
            if self.stretched_height is not None:
                height, self.stretched_height = self.stretched_height, None
                tree["preserveAspectRatio"] = "none"
            super().set_context_size(width, height, viewbox, tree)

    BoundedSurface.height_multiple = None
    BoundedSurface.stretched_height = None
    return BoundedSurface


_BOUNDED_SURFACE: Any = None


def render_svg(data: bytes, width: int, height_multiple: int | None = None) -> npt.NDArray[np.uint8]:
    """Render SVG bytes ``width`` px wide at their own aspect ratio -> (H, W, 4) uint8 RGBA.

    With ``height_multiple`` m the height is the natural one rounded to a multiple of m (at
    least m) and the artwork is stretched to fill it (by less than half a pixel per tile row),
    so a grid of m rows cuts it into tiles of whole pixels, as a CSS background sized
    ``rows * 100%`` lays each tile exactly onto its own box.
    """
    global _BOUNDED_SURFACE
    check_svg(data)
    Tree = _cairosvg()[0].Tree
    if _BOUNDED_SURFACE is None:
        _BOUNDED_SURFACE = _surface_class()
    attempts: list[str] = []
    try:
        tree = Tree(bytestring=data, url_fetcher=_refusing_fetcher(attempts), unsafe=False)
        surface = _BOUNDED_SURFACE.__new__(_BOUNDED_SURFACE)
        surface.height_multiple = height_multiple
        surface.__init__(tree, None, 96, output_width=width)
        surface.cairo.flush()
        pixels = _unpremultiplied_rgba(surface.cairo)
        surface.cairo.finish()
    except SvgRenderError:
        raise
    except Exception as exc:  # cairosvg raises anything from KeyError to RecursionError
        raise SvgRenderError(f"svg could not be rendered: {type(exc).__name__}: {exc}") from None
    if attempts:
        raise SvgRenderError(f"svg refers to an external resource: {attempts[0][:100]!r}")
    return pixels


def _unpremultiplied_rgba(image_surface: Any) -> npt.NDArray[np.uint8]:
    w, h = image_surface.get_width(), image_surface.get_height()
    stride = image_surface.get_stride()
    words = np.frombuffer(image_surface.get_data(), dtype=np.uint32)
    argb = words.reshape(h, stride // 4)[:, :w]
    alpha = (argb >> 24).astype(np.uint32)
    out = np.empty((h, w, 4), dtype=np.uint8)
    safe_alpha = np.maximum(alpha, 1)
    for channel, shift in ((0, 16), (1, 8), (2, 0)):
        premultiplied = (argb >> shift) & 0xFF
        value = (premultiplied * 255 + alpha // 2) // safe_alpha
        out[:, :, channel] = np.where(alpha == 0, 0, np.minimum(value, 255))
    out[:, :, 3] = alpha
    return out
