"""visual_signatures: tiles compared as a player sees them; compiled core vs reference twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flagcore import _signatures as core
from flagcore import puzzle, signatures
from flagcore._args.signatures import SEAM_TOLERANCE, SHOWN_TOLERANCE
from flagcore.reference import signatures as ref

IMPLS = [core, ref]
IDS = ["core", "ref"]


def oracle(image, columns, rows):
    """Pixel by pixel in plain Python, classes by repeated relabelling until nothing changes."""
    h, w = image.shape[:2]
    tw, th = w // columns, h // rows

    def shown(tile, y, x):
        r, c = divmod(tile, columns)
        px = [int(v) for v in image[r * th + y, c * tw + x]]
        return [(px[k] * px[3] + 255 * (255 - px[3]) + 127) // 255 for k in range(3)]

    def linked(a, b):
        for y in range(th):
            for x in range(tw):
                edge = y in (0, th - 1) or x in (0, tw - 1)
                limit = SEAM_TOLERANCE if edge else SHOWN_TOLERANCE
                if any(abs(p - q) > limit for p, q in zip(shown(a, y, x), shown(b, y, x))):
                    return False
        return True

    n = columns * rows
    label = list(range(n))
    edges = [(a, b) for a in range(n) for b in range(a + 1, n) if linked(a, b)]
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            low = min(label[a], label[b])
            if label[a] != low or label[b] != low:
                label[a] = label[b] = low
                changed = True
    return label


def tiles_image(values, columns, rows, th=6, tw=5):
    """Uniform grey tiles: values[i] is tile i's grey level."""
    image = np.full((rows * th, columns * tw, 4), 255, np.uint8)
    for i, v in enumerate(values):
        r, c = divmod(i, columns)
        image[r * th : (r + 1) * th, c * tw : (c + 1) * tw, :3] = v
    return image


@settings(max_examples=80, deadline=None)
@given(
    columns=st.integers(1, 5),
    rows=st.integers(1, 4),
    tw=st.integers(1, 7),
    th=st.integers(1, 7),
    seed=st.integers(0, 2**32 - 1),
    palette=st.lists(st.integers(0, 255), min_size=1, max_size=4),
    noise=st.sampled_from([0, 20, 40, 140]),
    alpha=st.booleans(),
)
def test_core_equals_reference_and_oracle(columns, rows, tw, th, seed, palette, noise, alpha):
    rng = np.random.default_rng(seed)
    # Few base colours (so tiles often look alike) plus noise around the tolerances.
    base = np.array(palette, np.int32)[rng.integers(0, len(palette), (rows, columns))]
    image = np.repeat(np.repeat(base, th, 0), tw, 1)[:, :, None].repeat(4, 2)
    image = image + rng.integers(-noise, noise + 1, image.shape) * (rng.random(image.shape) < 0.1)
    image[:, :, 3] = rng.choice([255, 0, 128], image.shape[:2]) if alpha else 255
    image = np.clip(image, 0, 255).astype(np.uint8)
    expected = oracle(image, columns, rows)
    assert core.visual_signatures(image, columns, rows) == expected
    assert ref.visual_signatures(image, columns, rows) == expected


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_tolerances(impl):
    # Interior differences up to SHOWN_TOLERANCE join; one level more splits.
    assert impl.visual_signatures(tiles_image([100, 100 + SHOWN_TOLERANCE], 2, 1), 2, 1) == [0, 0]
    assert impl.visual_signatures(tiles_image([100, 101 + SHOWN_TOLERANCE], 2, 1), 2, 1) == [0, 1]
    # A chain of small steps is one class (connected components), named by its lowest piece.
    assert impl.visual_signatures(tiles_image([160, 60, 130, 100], 4, 1), 4, 1) == [0, 1, 0, 0]


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_seam_band(impl):
    image = tiles_image([255, 255, 255], 3, 1, th=8, tw=8)
    image[:, 15, :3] = 255 - SEAM_TOLERANCE  # a faint anti-aliased line on tile 1's right edge
    image[3, 16 + 4, :3] = 0  # one dark pixel inside tile 2
    assert impl.visual_signatures(image, 3, 1) == [0, 0, 2]
    image[:, 15, :3] = 254 - SEAM_TOLERANCE  # stronger than half contrast: a visible line
    assert impl.visual_signatures(image, 3, 1) == [0, 1, 2]


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_transparent_pixels_show_the_white_page(impl):
    image = tiles_image([255, 0], 2, 1)
    image[:, 5:, 3] = 0  # tile 1 is black but fully transparent: white on the page
    assert impl.visual_signatures(image, 2, 1) == [0, 0]
    image[:, 5:, 3] = 128
    assert impl.visual_signatures(image, 2, 1) == [0, 1]


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
@pytest.mark.parametrize(
    "args, error, match",
    [
        ((np.zeros((7, 10, 4), np.uint8), 2, 2), ValueError, "whole-pixel tiles"),
        ((np.zeros((8, 10, 4), np.uint8), 3, 2), ValueError, "whole-pixel tiles"),
        ((np.zeros((0, 0, 4), np.uint8), 1, 1), ValueError, "no pixels"),
        ((np.zeros((8, 10, 4), np.uint8), 0, 2), ValueError, "columns"),
        ((np.zeros((8, 10, 4), np.uint8), 2, True), TypeError, "rows"),
        ((np.zeros((8, 10, 3), np.uint8), 2, 2), ValueError, "shape"),
        ((np.zeros((8, 10, 4), np.int16), 2, 2), TypeError, "uint8"),
        (([[0]], 1, 1), TypeError, "numpy"),
    ],
)
def test_bad_input(impl, args, error, match):
    with pytest.raises(error, match=match):
        impl.visual_signatures(*args)


def test_render_flag_with_rows_cuts_whole_pixel_tiles():
    for code in ("JP", "GR", "US", "NP"):
        for columns, rows in signatures.TABLE_GRIDS:
            spec_canvas = signatures.render_flag(code, columns)
            board = signatures.render_flag(code, columns, rows)
            assert board.shape[1] == spec_canvas.shape[1] == columns * signatures.TILE_WIDTH
            assert board.shape[0] % rows == 0
            assert abs(board.shape[0] - spec_canvas.shape[0]) <= rows / 2 + 1
    with pytest.raises(ValueError, match="rows"):
        signatures.render_flag("JP", 3, 0)
    with pytest.raises(ValueError, match="rows"):
        signatures.render_flag("JP", 3, signatures.MAX_ROWS + 1)


def test_japan_easy_pieces_0_and_3_are_distinct():
    visual = signatures.piece_signatures("JP", 3, 2)
    spec = signatures.piece_signatures("JP", 3, 2, method="spec")
    assert visual[0] != visual[3]
    swapped = [3, 1, 2, 0, 4, 5]
    # The spec's hash calls this board solved (the report); the visual signature does not.
    assert spec[0] == spec[3] and puzzle.min_swaps_to_visual_solve(swapped, spec) == 0
    assert puzzle.min_swaps_to_visual_solve(swapped, visual) == 1
    assert not puzzle.is_visually_solved(swapped, visual)
    assert puzzle.verify(swapped, [(0, 3)], visual).min_possible == 1
    with pytest.raises(ValueError, match="already solved"):
        puzzle.verify(swapped, [(0, 3)], spec)


@pytest.mark.parametrize(
    "code, columns, rows, expected",
    [
        ("FR", 3, 2, [0, 1, 2, 0, 1, 2]),
        ("FR", 4, 3, [0, 1, 2, 3] * 3),
        ("FR", 5, 3, [0, 1, 2, 3, 4] * 3),
        ("DE", 5, 3, [0] * 5 + [5] * 5 + [10] * 5),
        ("NL", 4, 3, [0] * 4 + [4] * 4 + [8] * 4),
    ],
)
def test_plain_stripes_keep_their_look_alike_classes(code, columns, rows, expected):
    assert signatures.piece_signatures(code, columns, rows) == expected
    spec = signatures.piece_signatures(code, columns, rows, method="spec")
    # The same partition as the spec's hash on these flags.
    assert [spec.index(s) for s in spec] == expected


def test_greece_rows_a_player_cannot_tell_apart_are_one_class():
    # Nine stripes in three tile rows: the top-right and bottom tiles show blue-white-blue at the
    # same place. The spec's hash on its canvas (rows 53.33 px apart) splits them.
    visual = signatures.piece_signatures("GR", 5, 3)
    spec = signatures.piece_signatures("GR", 5, 3, method="spec")
    assert visual[4] == visual[10] == visual[14]
    assert spec[4] != spec[10]


def test_default_and_methods():
    assert signatures.METHODS[0] == "visual"
    svg = signatures.flag_svg("JP")
    for method in signatures.METHODS:
        # Table answers (bundled code) equal fresh renders (SVG bytes), for both methods.
        assert signatures.piece_signatures(svg, 3, 2, method) == signatures.piece_signatures("JP", 3, 2, method=method)
    assert signatures.piece_signatures("JP", 4, 3) == signatures.visual_signatures(
        signatures.render_flag("JP", 4, 3), 4, 3
    )
    assert puzzle.new_game("JP", "easy", seed=3).signatures == signatures.piece_signatures("JP", 3, 2)
    with pytest.raises(ValueError, match="method"):
        signatures.piece_signatures("JP", 3, 2, method="exact")
    with pytest.raises(TypeError, match="method"):
        signatures.piece_signatures("JP", 3, 2, method=None)
    # Not a bundled grid: rendered and cached, per method.
    assert signatures.piece_signatures("JP", 2, 2) == [0, 1, 2, 3]
    assert len(set(signatures.piece_signatures("JP", 2, 2, method="spec"))) == 4
    assert signatures.piece_signatures("<svg", 2, 2) is None  # malformed: strict identity
