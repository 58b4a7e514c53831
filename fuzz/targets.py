"""Fuzz targets: one per compiled entry point, each a function of raw bytes.

Every target decodes its bytes into arguments (often deliberately wrong: odd types, dtypes,
shapes, huge or negative numbers), calls the compiled function and, where one exists, its
pure-Python twin, and checks:

* the call either returns or raises TypeError / ValueError (the documented families; a
  LibraryError is a ValueError, NoBoardError is documented for user libraries);
* the compiled core and the twin agree: same result, or the same exception type;
* results satisfy the invariants a caller relies on (a board's 16 distinct tiles partitioned by
  its groups, each group inside its category's pool, no tile fitting another group; batches
  equal to one-by-one generation).

Anything else raises FuzzFailure (a real bug); a memory error in compiled code kills the process,
which run.py reports. Rendering (cairosvg) is not compiled and is covered by
tests/hardening/test_hardening_svg.py instead.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from flagcore import _puzzle, _rng, _signatures, connections, puzzle
from flagcore._args.puzzle import as_classes, as_permutation
from flagcore.connections.search import generate_with
from flagcore.library import Category, Library
from flagcore.reference import connections as ref_connections
from flagcore.reference import puzzle as ref_puzzle
from flagcore.reference import rng as ref_rng
from flagcore.reference import signatures as ref_signatures

ALLOWED = (TypeError, ValueError)


class FuzzFailure(AssertionError):
    """The code under test misbehaved on this input."""


class Data:
    """Decodes a byte string into values; reads past the end give zeros (so every input is valid)."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.pos = 0

    def take(self, n: int) -> bytes:
        out = self.raw[self.pos : self.pos + n]
        self.pos += n
        return out + bytes(n - len(out))

    def u8(self) -> int:
        return self.take(1)[0]

    def below(self, n: int) -> int:
        return struct.unpack("<I", self.take(4))[0] % n if n > 1 else 0

    def chance(self, one_in: int) -> bool:
        return self.below(one_in) == 0

    def rest(self, limit: int) -> bytes:
        return self.take(min(limit, max(0, len(self.raw) - self.pos)))

    def integer(self) -> Any:
        """An int from a wide range, sometimes a numpy integer, bool, float, str or None."""
        kind = self.below(12)
        if kind == 0:
            return [None, True, False, 1.5, float("nan"), "7", b"7", [3], object()][self.below(9)]
        if kind == 1:
            return -struct.unpack("<Q", self.take(8))[0] >> self.below(64)
        if kind == 2:
            return int.from_bytes(self.take(self.below(20)), "little")  # up to 2**160
        if kind == 3:
            return np.array(self.below(2**31)).astype(
                [np.int8, np.uint16, np.int32, np.int64, np.uint64][self.below(5)]
            )[()]
        if kind in (4, 5):
            return (1 << self.below(66)) + self.below(3) - 1  # around powers of two
        return self.below(1 << [4, 8, 16, 32][self.below(4)])

    def seed(self) -> Any:
        if self.chance(3):
            return self.take(self.below(12)).decode("utf-8", "surrogateescape")
        return self.integer()


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "ok", fn()
    except ALLOWED as exc:  # anything else (OverflowError, IndexError, ...) propagates: a bug
        return type(exc).__name__, None


def _same(label: str, core: Callable[[], Any], ref: Callable[[], Any]) -> tuple[str, Any]:
    a, b = _outcome(core), _outcome(ref)
    if a[0] != b[0] or (a[0] == "ok" and a[1] != b[1]):
        raise FuzzFailure(f"{label}: core {a!r} != reference {b!r}")
    return a


# --------------------------------------------------------------------------------- targets


def target_rng(d: Data) -> None:
    seed = d.seed()
    kind, state = _same("Rng(seed)", lambda: _rng.Rng(seed).state, lambda: ref_rng.Rng(seed).state)
    if kind != "ok":
        return
    core, ref = _rng.Rng(seed), ref_rng.Rng(seed)
    for _ in range(d.below(6)):
        bound = d.integer()
        _same("below", lambda: core.below(bound), lambda: ref.below(bound))
        if core.state != ref.state:
            raise FuzzFailure("state diverged after below()")
    if core.next_uint32() != ref.next_uint32() or core() != ref():
        raise FuzzFailure("draws diverged")
    items = list(d.rest(64))
    out = _rng.shuffle(items, _rng.Rng(state))
    if out != ref_rng.shuffle(items, ref_rng.Rng(state)) or sorted(out) != sorted(items):
        raise FuzzFailure("shuffle diverged or is not a permutation")


def _buffer(d: Data) -> Any:
    raw = d.rest(d.below(4096) + 1)
    form = d.below(8)
    if form == 0:
        return bytearray(raw)
    if form == 1:
        return memoryview(raw)
    if form == 2:
        return np.frombuffer(raw, dtype=np.uint8)[:: 1 + d.below(3)]  # strided view
    if form == 3:
        arr = np.frombuffer(raw, dtype=np.uint8)
        return arr[: len(arr) // 4 * 4].reshape(-1, 4)
    if form == 4:
        return np.frombuffer(raw[: len(raw) // 2 * 2], dtype=[np.int16, np.uint16, np.float16][d.below(3)])
    if form == 5:
        return [list(raw), raw.decode("latin-1"), None, 17][d.below(4)]
    return raw


def target_hash(d: Data) -> None:
    stride = d.integer() if d.chance(2) else d.below(40) + 1
    buf = _buffer(d)
    _same(
        "hash_pixel_data",
        lambda: _signatures.hash_pixel_data(buf, stride),
        lambda: ref_signatures.hash_pixel_data(buf, stride),
    )


def target_tiles(d: Data) -> None:
    h, w = d.below(90), d.below(90)
    raw = d.rest(h * w * 4)
    image: Any = np.frombuffer(raw + bytes(h * w * 4 - len(raw)), dtype=np.uint8).reshape(h, w, 4)
    shape = d.below(10)
    if shape == 0:
        image = image[::-1, ::2]
    elif shape == 1:
        image = image.astype(np.int16)
    elif shape == 2:
        image = image[:, :, :3]
    elif shape == 3:
        image = image.reshape(-1)
    elif shape == 4:
        image = np.asfortranarray(image)
    small = d.chance(4)
    columns = d.integer() if small else d.below(12) + 1
    rows = d.integer() if d.chance(4) else d.below(12) + 1
    inset = d.integer() if d.chance(4) else d.below(6)
    _same(
        "tile_signatures",
        lambda: _signatures.tile_signatures(image, columns, rows, inset),
        lambda: ref_signatures.tile_signatures(image, columns, rows, inset),
    )
    _same(
        "visual_signatures",
        lambda: _signatures.visual_signatures(image, columns, rows),
        lambda: ref_signatures.visual_signatures(image, columns, rows),
    )


def _check_board(board: Any, lib: Library | None) -> None:
    tiles = board.tiles
    grouped = [c for g in board.groups for c in g.codes]
    if len(tiles) != 16 or len(set(tiles)) != 16 or sorted(grouped) != sorted(tiles):
        raise FuzzFailure(f"malformed board {board}")
    if board.legacy:
        return
    if connections.find_ambiguities(board, lib):
        raise FuzzFailure(f"fixed search made an ambiguous board: seed {board.seed!r}")


def target_generate(d: Data) -> None:
    seed = d.seed()
    mode = ["flags", "trivia", "Flags", None][d.below(8) % 4 if d.chance(4) else d.below(2)]
    legacy, decoy = d.chance(2), not d.chance(4)
    kind, board = _outcome(lambda: connections.generate(seed, mode, legacy=legacy, decoy=decoy))
    if kind == "ok":
        _check_board(board, None)
        if d.chance(20):  # the twin is ~50x slower: compare a sample
            twin = generate_with(ref_connections, seed, mode, legacy=legacy, decoy=decoy)
            if twin != board:
                raise FuzzFailure(f"generate({seed!r}) differs from the reference")
        game = connections.ConnectionsGame(board)
        for _ in range(d.below(8)):
            pick = (
                [board.tiles[d.below(16)] for _ in range(4)]
                if d.chance(4)
                else [board.tiles[i] for i in sorted({d.below(16) for _ in range(6)})][:4]
            )
            before = (game.mistakes, game.remaining_tiles, game.guesses)
            k, _ = _outcome(lambda: game.guess(pick))
            if k != "ok" and before != (game.mistakes, game.remaining_tiles, game.guesses):
                raise FuzzFailure("a rejected guess changed the game")


def target_generate_many(d: Data) -> None:
    n = d.below(48)
    form = d.below(6)
    if form == 0:
        seeds: Any = [d.seed() for _ in range(n)]
    else:
        dtype = [np.uint32, np.int64, np.uint64, np.int8, np.uint16][form - 1]
        seeds = np.frombuffer(d.take(n * 8), dtype=np.uint64).astype(dtype)
    threads = d.below(5) + 1 if not d.chance(10) else d.integer()
    legacy = d.chance(3)
    kind, batch = _outcome(lambda: connections.generate_many(seeds, threads=threads, legacy=legacy))
    if kind != "ok":
        return
    if len(batch) != n:
        raise FuzzFailure("batch length")
    for i in range(0, n, 1 + d.below(8)):
        seed = seeds[i] if isinstance(seeds, list) else int(seeds[i])
        if batch[i] != connections.generate(seed, legacy=legacy):
            raise FuzzFailure(f"generate_many[{i}] != generate({seed!r})")


def _library(d: Data) -> Library:
    """A small random Library (sometimes broken) to drive the compiled tables and search."""
    n_codes = d.below(140) + 4  # past 64 and 128: more than one and two bitset words
    codes = [f"{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(n_codes)]
    tags: dict[str, set[str]] = {c: set() for c in codes}
    cats = []
    for k in range(d.below(24)):
        size = d.below(min(n_codes, 20) + 1) + (0 if d.chance(8) else 4)
        pool = frozenset(codes[d.below(n_codes)] for _ in range(size))
        tier = d.below(4) if not d.chance(30) else d.integer()
        # arguable codes, now and then overlapping the pool (which the Library must refuse)
        arguable = frozenset(codes[d.below(n_codes)] for _ in range(d.below(6)))
        if not d.chance(20):
            arguable -= pool
        if d.chance(2):
            tag = f"t{d.below(6)}"
            for c in pool:
                tags[c].add(tag)
            cats.append(Category(f"s{k}", f"S {k}", tier, "synthetic", pool, tag=tag, arguable=arguable))
        else:
            cats.append(Category(f"l{k}", f"L {k}", tier, "library", pool, arguable=arguable))
    return Library({c: c for c in codes}, tags, cats, source="<fuzz>")


def target_library(d: Data) -> None:
    try:
        lib = _library(d)
    except ALLOWED:
        return  # the Library constructor refused it: that is the boundary working
    seed, legacy = d.below(2**32), d.chance(3)
    try:
        board = connections.generate(seed, library=lib, legacy=legacy)
    except connections.NoBoardError:
        board = None
    except ALLOWED:
        return
    if board is not None:
        _check_board(board, lib)
        pools = {c.id: c.pool for c in lib.categories("flags")}
        if any(not set(g.codes) <= pools[g.category_id] for g in board.groups):
            raise FuzzFailure("a group holds a code outside its category's pool")
    if d.chance(4):
        try:
            twin = generate_with(ref_connections, seed, library=lib, legacy=legacy)
        except connections.NoBoardError:
            twin = None
        if twin != board:
            raise FuzzFailure(f"user library: core {board} != reference {twin}")
    batch = connections.generate_many([seed, seed ^ 1], library=lib, legacy=legacy, threads=2)
    if bool(batch.ok[0]) != (board is not None) or (board is not None and batch[0] != board):
        raise FuzzFailure("generate_many disagrees with generate on a user library")


def target_puzzle(d: Data) -> None:
    n = d.below(19)
    perm: Any = list(range(n))
    for i in range(n - 1, 0, -1):
        j = d.below(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    if d.chance(5) and n:
        perm[d.below(n)] = d.integer()  # break it: duplicate, out of range, wrong type
    if d.chance(4):
        perm = (
            np.array(perm, dtype=[np.int8, np.uint8, np.int64, np.uint64, np.int32][d.below(5)])
            if all(isinstance(x, int) and 0 <= x < 128 for x in perm)
            else perm
        )
    elif d.chance(4):
        perm = tuple(perm)
    k_max = 1 + d.below(6)
    sigs: Any = (
        None
        if d.chance(6)
        else [None if d.chance(30) else d.below(k_max) * 2654435761 for _ in range(n + (1 if d.chance(20) else 0))]
    )
    # the compiled boundary reads these in C; the twin checks them in Python: same verdict
    kind, cycles = _same(
        "count_cycles", lambda: puzzle.count_cycles(perm), lambda: ref_puzzle.checked_count_cycles(perm)
    )
    _same(
        "min_swaps_to_visual_solve",
        lambda: puzzle.min_swaps_to_visual_solve(perm, sigs),
        lambda: ref_puzzle.checked_min_swaps(perm, sigs, "exact", puzzle.DEFAULT_MAX_NODES),
    )
    if kind != "ok":
        return
    tiles = as_permutation(perm)
    if cycles != ref_puzzle.count_cycles(tiles) or puzzle.min_swaps_to_identity(perm) != n - cycles:
        raise FuzzFailure("count_cycles disagrees with the reference")
    kind, par = _outcome(lambda: puzzle.min_swaps_to_visual_solve(perm, sigs))
    if kind != "ok":
        return
    if sigs is not None:
        classes, k = as_classes(sigs, n)
        if par > n - cycles:
            raise FuzzFailure(f"par {par} above the identity count {n - cycles}")
    if sigs is not None and n <= 10:  # the spec's enumeration and the twin are slow past that
        spec = _puzzle.min_swaps_enumerate(tiles, classes, k)
        ref_par = ref_puzzle.min_swaps_exact(tiles, classes, k)
        if par != ref_par or spec != ref_puzzle.min_swaps_enumerate(tiles, classes, k):
            raise FuzzFailure(f"par: core {par} != reference {ref_par} (or enumerate differs)")
        if spec < par or (k <= 3 and spec != par):
            raise FuzzFailure(f"par {par} inconsistent with enumerate {spec} / identity {n - cycles}")
        if bool(_puzzle.is_visually_solved(tiles, classes)) != ref_puzzle.is_visually_solved(tiles, classes):
            raise FuzzFailure("is_visually_solved disagrees")
    log = [(d.below(n + 1), d.below(n + 1)) for _ in range(d.below(12))] if n else []
    _same(
        "verify",
        lambda: puzzle.verify(perm, log, sigs).swaps,
        lambda: ref_puzzle.checked_verify(perm, log, sigs, puzzle.DEFAULT_MAX_NODES)[0],
    )
    if n >= 2 and d.chance(3):
        grid = (1 + d.below(6), 2 + d.below(4))
        kind, game = _outcome(
            lambda: puzzle.new_game(
                None if d.chance(2) else [d.below(3) for _ in range(grid[0] * grid[1])], grid, seed=d.below(2**32)
            )
        )
        if kind == "ok" and (game.solved or game.par < 1):
            raise FuzzFailure("new_game dealt a solved board")


TARGETS: dict[str, Callable[[Data], None]] = {
    "rng": target_rng,
    "hash": target_hash,
    "tiles": target_tiles,
    "generate": target_generate,
    "generate_many": target_generate_many,
    "library": target_library,
    "puzzle": target_puzzle,
}
