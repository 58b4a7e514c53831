"""hash_pixel_data: byte for byte the spec's JavaScript hashPixelData, compiled and reference."""

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from flagcore import _signatures as core
from flagcore import signatures
from flagcore.reference import signatures as ref

IMPLS = [core, ref]
IDS = ["core", "ref"]
VECTORS = json.loads((Path(__file__).resolve().parents[1] / "data" / "hash_vectors.json").read_text())


def oracle(data: bytes, stride: int = 8) -> int:
    """A line-by-line transcription of the JavaScript, independent of both implementations."""

    def js_round(x):  # Math.round: floor(x + 0.5)
        import math

        return math.floor(x + 0.5)

    def quantize(c):
        return min(255, js_round(c / 32) * 32)

    def imul(a, b):
        return (a * b) & 0xFFFFFFFF

    h = 2166136261
    for index in range(0, len(data), stride):
        for k in range(3):
            c = data[index + k] if index + k < len(data) else 0
            h = imul(h ^ quantize(c), 16777619)
    return h


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_equals_javascript_vectors(impl):
    checked = 0
    for case in VECTORS["hashes"]:
        data = base64.b64decode(case["data"])
        assert impl.hash_pixel_data(data) == int(case["default"]), case["kind"]
        for stride, expected in case["hashes"].items():
            assert impl.hash_pixel_data(data, int(stride)) == int(expected), (case["kind"], stride)
            checked += 1
    assert checked > 500
    kinds = {case["kind"] for case in VECTORS["hashes"]}
    assert {"random", "edge", "ramp", "constant"} <= kinds


def test_vectors_cover_strides_4_and_8_and_odd_lengths():
    lengths = {len(base64.b64decode(c["data"])) for c in VECTORS["hashes"]}
    assert any(n % 2 for n in lengths) and any(n % 8 not in (0,) for n in lengths)
    assert all({"4", "8"} <= set(c["hashes"]) for c in VECTORS["hashes"])


def test_oracle_agrees_with_javascript():
    for case in VECTORS["hashes"][:20]:
        data = base64.b64decode(case["data"])
        assert oracle(data, 4) == int(case["hashes"]["4"])


def test_javascript_rounding_of_halves():
    # Math.round(0.5) is 1, Python's round(0.5) is 0: the quantizer must follow JavaScript.
    for value, quantized in [(15, 0), (16, 32), (47, 32), (48, 64), (80, 96), (239, 224), (240, 255), (255, 255)]:
        expected = oracle(bytes([quantized, 0, 0]), 8)
        for impl in IMPLS:
            assert impl.hash_pixel_data(bytes([value, 0, 0]), 8) == expected, value


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_empty_buffer_is_the_offset_basis(impl):
    assert impl.hash_pixel_data(b"") == 2166136261
    assert impl.hash_pixel_data(np.zeros((0, 4), np.uint8), 4) == 2166136261


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_alpha_is_ignored(impl):
    a = bytes([10, 200, 30, 0, 90, 90, 90, 255] * 5)
    b = bytes([10, 200, 30, 255, 90, 90, 90, 0] * 5)
    assert impl.hash_pixel_data(a) == impl.hash_pixel_data(b)


@given(data=st.binary(max_size=300), stride=st.integers(1, 40))
def test_core_equals_reference_and_oracle(data, stride):
    expected = oracle(data, stride)
    assert core.hash_pixel_data(data, stride) == expected
    assert ref.hash_pixel_data(data, stride) == expected


@given(data=st.binary(min_size=1, max_size=200), stride=st.integers(1, 12))
def test_every_buffer_type_gives_the_same_hash(data, stride):
    expected = core.hash_pixel_data(data, stride)
    arr = np.frombuffer(data, np.uint8)
    for impl in IMPLS:
        assert impl.hash_pixel_data(bytearray(data), stride) == expected
        assert impl.hash_pixel_data(memoryview(data), stride) == expected
        assert impl.hash_pixel_data(arr, stride) == expected


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
def test_non_contiguous_arrays_hash_in_c_order(impl):
    rng = np.random.default_rng(5)
    img = rng.integers(0, 256, (20, 30, 4), dtype=np.uint8)
    for view in (img[::2, 1::3], img.transpose(1, 0, 2), img[:, :, ::-1], img[3:9, 4:20]):
        assert not view.flags.c_contiguous
        assert impl.hash_pixel_data(view) == oracle(view.tobytes())
        assert impl.hash_pixel_data(memoryview(view), 4) == oracle(view.tobytes(), 4)
    # Any shape is read in C order, like tobytes().
    assert impl.hash_pixel_data(img.reshape(600, 4)) == impl.hash_pixel_data(img.tobytes())


def test_public_module_dispatches():
    assert signatures.hash_pixel_data(b"abc") == oracle(b"abc")


def test_large_buffer_core_equals_oracle_slice():
    rng = np.random.default_rng(9)
    data = rng.integers(0, 256, 1 << 16, dtype=np.uint8).tobytes()
    assert core.hash_pixel_data(data) == ref.hash_pixel_data(data)


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
@pytest.mark.parametrize("bad", [0, -8])
def test_bad_stride_value(impl, bad):
    with pytest.raises(ValueError, match="stride"):
        impl.hash_pixel_data(b"abcd", bad)


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
@pytest.mark.parametrize("bad", [8.0, "8", None, True, 2.5])
def test_bad_stride_type(impl, bad):
    with pytest.raises(TypeError, match="stride"):
        impl.hash_pixel_data(b"abcd", bad)


@pytest.mark.parametrize("impl", IMPLS, ids=IDS)
@pytest.mark.parametrize(
    "bad",
    [
        "abcd",
        [1, 2, 3],
        None,
        5,
        np.zeros(4, np.int16),
        np.zeros(4, np.float32),
        np.zeros(4, bool),
        memoryview(np.zeros(4, np.int8)),
    ],
)
def test_bad_buffer_type(impl, bad):
    with pytest.raises(TypeError, match="rgba"):
        impl.hash_pixel_data(bad)


def test_numpy_integer_stride_accepted():
    assert core.hash_pixel_data(b"abcdefgh", np.int64(4)) == oracle(b"abcdefgh", 4)
