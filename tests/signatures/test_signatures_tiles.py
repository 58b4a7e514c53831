"""tile_signatures: each tile's interior cut as the spec's canvas would, hashed as its JavaScript."""

import base64
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import _signatures as core
from flagcore import signatures
from flagcore.reference import signatures as ref

IMPLS = [core, ref]
IDS = ["core", "ref"]
VECTORS = json.loads((Path(__file__).resolve().parents[1] / "data" / "hash_vectors.json").read_text())


def brute_force(image, columns, rows, inset):
    """Slice each tile with numpy and hash it with the reference hash: an independent path."""
    h, w = image.shape[:2]
    tw, th = w / columns, h / rows
    iw, ih = math.trunc(tw - 2 * inset), math.trunc(th - 2 * inset)
    out = []
    for r in range(rows):
        for c in range(columns):
            x, y = math.trunc(c * tw + inset), math.trunc(r * th + inset)
            out.append(ref.hash_pixel_data(image[y : y + ih, x : x + iw].tobytes()))
    return out


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_equals_javascript_canvas_cut(impl):
    for case in VECTORS["tiles"]:
        image = np.frombuffer(base64.b64decode(case["image"]), np.uint8).reshape(case["height"], case["width"], 4)
        got = impl.tile_signatures(image, case["columns"], case["rows"], case["inset"])
        assert got == [int(s) for s in case["signatures"]], case


@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 70),
    w=st.integers(1, 70),
    columns=st.integers(1, 7),
    rows=st.integers(1, 7),
    inset=st.integers(0, 5),
    seed=st.integers(0, 2**32 - 1),
    levels=st.sampled_from([2, 256]),
)
def test_core_equals_reference_and_brute_force(h, w, columns, rows, inset, seed, levels):
    rng = np.random.default_rng(seed)
    image = (rng.integers(0, levels, (h, w, 4)) * (255 // (levels - 1))).astype(np.uint8)
    tw, th = w / columns, h / rows
    if math.trunc(tw - 2 * inset) < 1 or math.trunc(th - 2 * inset) < 1:
        for impl in IMPLS:
            with pytest.raises(ValueError, match="empty tile interior"):
                impl.tile_signatures(image, columns, rows, inset)
        return
    expected = brute_force(image, columns, rows, inset)
    assert core.tile_signatures(image, columns, rows, inset) == expected
    assert ref.tile_signatures(image, columns, rows, inset) == expected


def test_uniform_image_gives_one_signature_even_with_fractional_rows():
    # 160 / 3 = 53.33 px rows: every interior has the same size, so look-alike tiles match.
    image = np.full((160, 240, 4), 200, np.uint8)
    sigs = core.tile_signatures(image, 5, 3)
    assert len(set(sigs)) == 1 and len(sigs) == 15


def test_slots_are_row_major():
    image = np.zeros((96, 144, 4), np.uint8)
    image[48:, 96:] = 255  # bottom-right tile of a 3x2 grid
    sigs = core.tile_signatures(image, 3, 2)
    assert sigs[:5] == [sigs[0]] * 5 and sigs[5] != sigs[0]


def test_inset_excludes_seams():
    image = np.zeros((96, 144, 4), np.uint8)
    image[:, 47:49] = 255  # a seam line between columns 0 and 1
    assert len(set(core.tile_signatures(image, 3, 2, inset=4))) == 1
    assert len(set(core.tile_signatures(image, 3, 2, inset=0))) > 1


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_non_contiguous_image(impl):
    rng = np.random.default_rng(3)
    big = rng.integers(0, 256, (100, 200, 4), dtype=np.uint8)
    view = big[::2, 10:190]
    assert impl.tile_signatures(view, 3, 2) == brute_force(np.ascontiguousarray(view), 3, 2, 4)


def test_public_module_dispatches():
    image = np.full((96, 144, 4), 7, np.uint8)
    assert signatures.tile_signatures(image, 3, 2) == ref.tile_signatures(image, 3, 2)


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
@pytest.mark.parametrize(
    "args,exc,match",
    [
        ((np.zeros((96, 144, 3), np.uint8), 3, 2), ValueError, "shape"),
        ((np.zeros((96, 144), np.uint8), 3, 2), ValueError, "shape"),
        ((np.zeros((96, 144, 4), np.float32), 3, 2), TypeError, "uint8"),
        ((b"\0" * 100, 3, 2), TypeError, "image"),
        ((np.zeros((96, 144, 4), np.uint8), 0, 2), ValueError, "columns"),
        ((np.zeros((96, 144, 4), np.uint8), 3, -1), ValueError, "rows"),
        ((np.zeros((96, 144, 4), np.uint8), "3", 2), TypeError, "columns"),
        ((np.zeros((96, 144, 4), np.uint8), 3, 2.0), TypeError, "rows"),
        ((np.zeros((96, 144, 4), np.uint8), 3, 2, -1), ValueError, "inset"),
        ((np.zeros((96, 144, 4), np.uint8), 3, 2, 24), ValueError, "empty tile interior"),
        ((np.zeros((96, 144, 4), np.uint8), 200, 2), ValueError, "empty tile interior"),
    ],
)
def test_bad_input(impl, args, exc, match):
    with pytest.raises(exc, match=match):
        impl.tile_signatures(*args)
