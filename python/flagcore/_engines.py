"""What the package calls on each engine, as Protocols: the type of ``flagcore._impl.core``'s slots.

Each engine exists twice, the compiled ``flagcore._<engine>`` (typed by its .pyi stub) and the
reference twin ``flagcore.reference.<engine>``; a Protocol here lists the members the public
modules read, so a call through ``core.puzzle`` is checked against one signature whichever twin
runs, and ``flagcore._impl.loaders`` makes mypy check that both twins' modules satisfy it.
Parameters are positional-only: the twins name some of them differently, and the public modules
pass them by position.

Prepared tables (``prepare``'s and ``prepare_model``'s results) are each twin's own class, only
ever handed back to the same twin: they are opaque here (``Any``). So are the searches' Boards:
the assembler the caller hands in (``prepare``'s kit) builds them, and naming Board here would
make this module depend on the Connections package that depends on it; flagcore.connections.search
types them where it returns them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T")
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]


class RandomStream(Protocol):
    """A seeded mulberry32 stream: either twin's ``Rng``."""

    @property
    def state(self) -> int: ...
    def next_uint32(self) -> int: ...
    def below(self, bound: int, /) -> int: ...
    def __call__(self) -> float: ...


class PuzzleEngine(Protocol):
    """flagcore._puzzle and flagcore.reference.puzzle, as flagcore.puzzle calls them."""

    @property
    def MAX_VISUAL_RESHUFFLE_ATTEMPTS(self) -> int: ...  # noqa: N802 - the modules' constant
    def checked_count_cycles(self, tiles_by_slot: Any, /) -> int: ...
    def checked_min_swaps_to_identity(self, tiles_by_slot: Any, /) -> int: ...
    def checked_is_strictly_solved(self, tiles_by_slot: Any, /) -> bool: ...
    def checked_is_visually_solved(self, tiles_by_slot: Any, signatures: Any, /) -> bool: ...
    def checked_min_swaps(self, tiles_by_slot: Any, signatures: Any, method: Any, max_nodes: Any, /) -> int: ...
    def checked_verify(self, start: Any, swaps: Any, signatures: Any, max_nodes: Any, /) -> tuple[int, int]: ...
    def count_cycles_batch(self, boards: I32, /) -> I64: ...
    def min_swaps_to_identity_batch(self, boards: I32, /) -> I64: ...
    def min_swaps_batch(self, boards: I32, classes: I32, ks: I32, method: str, max_nodes: int, /) -> I64: ...
    def deal(
        self, n: int, classes: I32 | None, k: int, state: int, max_nodes: int, /
    ) -> tuple[tuple[int, ...], int]: ...


class RngEngine(Protocol):
    """flagcore._rng and flagcore.reference.rng: the seeded randomness."""

    def Rng(self, seed: int | str = ..., /) -> RandomStream: ...  # noqa: N802 - the modules' class
    def seed_to_state(self, seed: int | str, /) -> int: ...
    def shuffle(self, seq: Iterable[T], rng: Any, /) -> list[T]: ...


class SignaturesEngine(Protocol):
    """flagcore._signatures and flagcore.reference.signatures: the tile hashes."""

    def hash_pixel_data(self, rgba: Any, stride: int = ..., /) -> int: ...
    def tile_signatures(
        self, image: npt.NDArray[np.uint8], columns: int, rows: int, inset: int = ..., /
    ) -> list[int]: ...
    def visual_signatures(self, image: npt.NDArray[np.uint8], columns: int, rows: int, /) -> list[int]: ...


class ConnectionsEngine(Protocol):
    """flagcore._connections and flagcore.reference.connections: the board search and the model."""

    @property
    def __name__(self) -> str: ...  # the module's name: caches keyed by engine hold it, not the module

    def prepare(self, tables: Any, kit: Any, /) -> Any: ...
    def search_board(
        self, prep: Any, state: int, seed: int | str, legacy: bool, decoy: bool, trace: bool, /
    ) -> Any: ...
    def search_board_model(
        self,
        prep: Any,
        mp: Any,
        state: int,
        seed: int | str,
        decoy: bool,
        lo: int,
        hi: int,
        attempts: int,
        pair_cap: int,
        trace: bool,
        /,
    ) -> Any: ...
    def search_many(
        self,
        prep: Any,
        states: npt.NDArray[np.uint32],
        legacy: bool,
        decoy: bool,
        status: npt.NDArray[np.int8],
        cats: I32,
        group_tiles: I32,
        tiles: I32,
        decoys: I32,
        counters: I32,
        ambiguous: npt.NDArray[np.int8],
        arguable: npt.NDArray[np.int8],
        /,
    ) -> None: ...
    def search_many_model(
        self,
        prep: Any,
        mp: Any,
        states: npt.NDArray[np.uint32],
        decoy: bool,
        lo: int,
        hi: int,
        attempts: int,
        pair_cap: int,
        status: npt.NDArray[np.int8],
        cats: I32,
        group_tiles: I32,
        tiles: I32,
        decoys: I32,
        counters: I32,
        ambiguous: npt.NDArray[np.int8],
        arguable: npt.NDArray[np.int8],
        model: I32,
        /,
    ) -> None: ...
    def search_categories(self, prep: Any, order_flat: I32, order_off: I32, /) -> tuple[int, list[int], list[int]]: ...
    def second_split(self, prep: Any, group_tiles: Any, /) -> list[tuple[int, int]]: ...
    def decoy_fours(self, prep: Any, group_tiles: Any, /) -> int: ...
    def repair_members(
        self,
        prep: Any,
        readers: Sequence[tuple[Any, ...]],
        taken: Sequence[int],
        recent: Any,
        fours: Sequence[Sequence[int]],
        left: Sequence[int],
        repairs: int,
        tries: int,
        /,
    ) -> tuple[list[list[int]], list[int]] | None: ...
    def wide_repair_members(
        self,
        prep: Any,
        readers: Sequence[tuple[Any, ...]],
        taken: Sequence[int],
        recent: Any,
        starts: Sequence[tuple[Any, Any]],
        beam: int,
        steps: int,
        tries: int,
        /,
    ) -> tuple[list[list[int]], list[int]] | None: ...
    def prepare_model(
        self,
        tables: Any,
        salience: Any,
        named_flat: Any,
        named_off: Any,
        simpler: Any,
        hides: Any,
        learned: Any = None,
        /,
    ) -> Any: ...
    def board_model(
        self, mp: Any, group_tiles: Any, cats: Any, /
    ) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int, int, int]]]: ...
