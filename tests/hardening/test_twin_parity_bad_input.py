"""Every row of the bad-input tables raises the same exception, with the same message, from both twins.

The tables live in test_hardening_bad_input.py and test_puzzle_bad_input.py (which check the
exception type and the argument it names); here each row runs once on the compiled core and once
on the reference twin (conftest.use_twin for the public API), and the two errors must agree
exactly: the compiled boundary reads inputs in C but takes every rule and message from
flagcore._args, as the twin does.
"""

from __future__ import annotations

import numpy as np
import pytest
import test_hardening_bad_input as hard
import test_puzzle_bad_input as pbad
from conftest import TWINS, use_twin

from flagcore import puzzle


def _error(call):
    try:
        call()
    except Exception as exc:  # the row decides which type is right; here only both twins' agreement
        return type(exc), str(exc)
    return None, "no error"


def _both(monkeypatch, call):
    out = {}
    for name in TWINS:
        with monkeypatch.context() as m:
            use_twin(m, name)
            out[name] = _error(call)
    return out


def _assert_same(out, exc):
    assert out["compiled"] == out["python"], out
    assert out["compiled"][0] is not None and issubclass(out["compiled"][0], exc), out


# ---------------------------------------------------------------- test_hardening_bad_input.py


@pytest.mark.parametrize("name,call,exc,word", hard.RNG_ROWS, ids=[r[0] for r in hard.RNG_ROWS])
def test_rng_rows(name, call, exc, word):
    _assert_same({t: _error(lambda: call(TWINS[t]["rng"])) for t in TWINS}, exc)


@pytest.mark.parametrize("name,call,exc,word", hard.SIG_ROWS, ids=[r[0] for r in hard.SIG_ROWS])
def test_signature_rows(name, call, exc, word):
    _assert_same({t: _error(lambda: call(TWINS[t]["signatures"])) for t in TWINS}, exc)


@pytest.mark.parametrize("name,call,exc,word", hard.PUBLIC_ROWS, ids=[r[0] for r in hard.PUBLIC_ROWS])
def test_public_rows(monkeypatch, name, call, exc, word):
    _assert_same(_both(monkeypatch, call), exc)


# ---------------------------------------------------------------- test_puzzle_bad_input.py


def _puzzle_rows():
    rows = []
    for i, (value, exc, _) in enumerate(pbad.BAD_PERMUTATIONS):
        for j, fn in enumerate(pbad.PERMUTATION_FNS):
            rows.append((f"permutation{i}-fn{j}", lambda fn=fn, v=value: fn(v), exc))
    for i, (value, exc, _) in enumerate(pbad.BAD_SIGNATURES):
        for method in ("exact", "enumerate"):
            rows.append(
                (
                    f"signatures{i}-{method}",
                    lambda v=value, m=method: puzzle.min_swaps_to_visual_solve([2, 0, 1], v, method=m),
                    exc,
                )
            )
        rows.append((f"signatures{i}-visual", lambda v=value: puzzle.is_visually_solved([2, 0, 1], v), exc))
    for i, (value, exc, _) in enumerate(pbad.BAD_BATCHES):
        for j, fn in enumerate(pbad.BATCH_FNS):
            rows.append((f"batch{i}-fn{j}", lambda fn=fn, v=value: fn(v), exc))
    for i, (grid, exc) in enumerate(pbad.BAD_GRIDS):
        rows.append((f"grid{i}", lambda g=grid: puzzle.new_game(None, g, seed=1), exc))
    for i, (swaps, exc) in enumerate(pbad.BAD_SWAP_LOGS):
        rows.append((f"swaps{i}", lambda s=swaps: puzzle.verify([1, 0, 2], s, None), exc))
    more = [
        ("method", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [0, 1], method="fast"), ValueError),
        ("batch method", lambda: puzzle.min_swaps_batch(np.array([[1, 0]]), [0, 1], method=None), ValueError),
        (
            "batch sig rows",
            lambda: puzzle.min_swaps_batch(np.array([[1, 0, 2], [0, 2, 1]]), np.zeros((1, 3), int)),
            ValueError,
        ),
        ("game sig count", lambda: puzzle.new_game([0, 1, 2, 3, 4], "easy", seed=1), ValueError),
        ("game sig float", lambda: puzzle.new_game([0.5] * 6, "easy", seed=1), TypeError),
        ("game flag", lambda: puzzle.new_game("Ghana", "easy", seed=1), ValueError),
        ("game seed", lambda: puzzle.new_game(None, "easy", seed=-1), ValueError),
        ("verify start dup", lambda: puzzle.verify([0, 0, 1], [(0, 1)], None), ValueError),
        ("verify start short", lambda: puzzle.verify([0], [], None), ValueError),
        ("verify solved start", lambda: puzzle.verify([0, 1], [(0, 1)], None), ValueError),
        ("verify after solved", lambda: puzzle.verify([1, 0, 2], [(0, 1), (0, 2)], None), ValueError),
        ("verify below par", lambda: puzzle.verify([1, 2, 0], [(0, 1)], [5, 5, 6]), ValueError),
        ("verify max_nodes", lambda: puzzle.verify([1, 0], [(0, 1)], None, max_nodes=0), ValueError),
        ("par max_nodes type", lambda: puzzle.min_swaps_to_visual_solve([1, 0], [0, 1], max_nodes=1.5), TypeError),
        ("tuple of numpy ints dup", lambda: puzzle.count_cycles((np.int64(0), np.int64(0))), ValueError),
        ("int16 array dup", lambda: puzzle.count_cycles(np.array([1, 1, 0], np.int16)), ValueError),
        ("big list dup", lambda: puzzle.count_cycles(list(range(99)) + [5]), ValueError),
        ("big array out of range", lambda: puzzle.count_cycles(np.arange(1, 101, dtype=np.int32)), ValueError),
        ("signatures huge int", lambda: puzzle.is_visually_solved([1, 0], [2**70, None, 3]), ValueError),
    ]
    return rows + more


PUZZLE_ROWS = _puzzle_rows()


@pytest.mark.parametrize("name,call,exc", PUZZLE_ROWS, ids=[r[0] for r in PUZZLE_ROWS])
def test_puzzle_rows(monkeypatch, name, call, exc):
    _assert_same(_both(monkeypatch, call), exc)


def test_valid_unusual_inputs_agree(monkeypatch):
    """Inputs the compiled boundary hands to flagcore._args to convert give the twin's answers."""
    cases = [
        lambda: puzzle.count_cycles((np.int64(1), np.int64(0), 2)),
        lambda: puzzle.count_cycles(np.array([2, 0, 1], np.int16)),
        lambda: puzzle.count_cycles(range(5)),
        lambda: puzzle.count_cycles(np.array([1, 0, 3, 2], np.int32)[::-1]),
        lambda: puzzle.min_swaps_to_visual_solve([3, 2, 1, 0], [2**70, 2**70, None, 1]),
        lambda: puzzle.min_swaps_to_visual_solve(list(reversed(range(80))), [i % 7 for i in range(80)]),
        lambda: puzzle.min_swaps_to_visual_solve(np.arange(6)[::-1].copy(), np.array([1, 1, 2, 2, 3, 3], np.uint8)),
        lambda: puzzle.verify((1, 0, 2), [[0, 1]], (7, 8, 9)).swaps,
        lambda: puzzle.verify([1, 0, 2], ((np.int32(0), 1),), None).swaps,
    ]
    for call in cases:
        out = {}
        for name in TWINS:
            with monkeypatch.context() as m:
                use_twin(m, name)
                out[name] = call()
        assert out["compiled"] == out["python"]
