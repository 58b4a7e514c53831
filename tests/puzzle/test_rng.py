"""mulberry32 and Fisher-Yates: compiled vs reference, and fixed test vectors."""

import importlib.machinery

import pytest
from hypothesis import given
from hypothesis import strategies as st

import flagcore
from flagcore import _rng as core
from flagcore.reference import rng as ref

IMPLS = [core, ref]


def js_mulberry32(seed):
    """A literal transcription of the JavaScript (imul, >>>) as the independent oracle."""

    def imul(a, b):
        r = (a * b) & 0xFFFFFFFF
        return r - (1 << 32) if r >= 1 << 31 else r

    a = seed & 0xFFFFFFFF
    while True:
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), a | 1) & 0xFFFFFFFF
        t = (t ^ (t + imul(t ^ (t >> 7), t | 61))) & 0xFFFFFFFF
        yield ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296


# First draws of mulberry32(1), as any browser prints them.
SEED1 = [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]


@pytest.mark.parametrize("impl", IMPLS, ids=["core", "ref"])
def test_known_vector(impl):
    r = impl.Rng(1)
    assert [r() for _ in range(3)] == SEED1


@pytest.mark.parametrize("impl", IMPLS, ids=["core", "ref"])
@given(seed=st.integers(0, 2**32 - 1))
def test_stream_matches_js(impl, seed):
    r, js = impl.Rng(seed), js_mulberry32(seed)
    assert [r() for _ in range(20)] == [next(js) for _ in range(20)]


def test_str_seed_is_fnv1a_of_utf8():
    # FNV-1a 32 of b"" is the offset basis; of b"a" it is 0xe40c292c (published test vector).
    assert core.seed_to_state("") == 2166136261 == ref.seed_to_state("")
    assert core.seed_to_state("a") == 0xE40C292C == ref.seed_to_state("a")
    assert core.seed_to_state("daily:2026-11-29") == ref.seed_to_state("daily:2026-11-29")
    assert core.seed_to_state("ü🇫🇷") == ref.seed_to_state("ü🇫🇷")


@given(seed=st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=30)), items=st.lists(st.integers(), max_size=40))
def test_shuffle_core_equals_reference(seed, items):
    assert core.shuffle(items, core.Rng(seed)) == ref.shuffle(items, ref.Rng(seed))


def test_shuffle_is_spec_fisher_yates():
    js = js_mulberry32(7)
    arr = list(range(10))
    for i in range(len(arr) - 1, 0, -1):
        j = int(next(js) * (i + 1))  # Math.floor(Math.random() * (i + 1))
        arr[i], arr[j] = arr[j], arr[i]
    assert flagcore.shuffle(range(10), flagcore.Rng(7)) == arr


def test_shuffle_returns_a_copy():
    items = [1, 2, 3, 4]
    out = flagcore.shuffle(items, flagcore.Rng(3))
    assert items == [1, 2, 3, 4] and sorted(out) == items


@pytest.mark.parametrize("impl", IMPLS, ids=["core", "ref"])
@pytest.mark.parametrize(
    "bad,exc",
    [(-1, ValueError), (2**32, ValueError), (1.5, TypeError), (None, TypeError), (True, TypeError), (b"x", TypeError)],
)
def test_bad_seed(impl, bad, exc):
    with pytest.raises(exc, match="seed"):
        impl.Rng(bad)


def test_the_compiled_core_is_importable():
    # Tests run against an installed package (a wheel, or an editable install whose compiled
    # modules live in site-packages): the compiled core must be there, not silently missing.
    from flagcore import _rng

    assert _rng.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), _rng.__file__
