from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

_RawResult = tuple[int, list[int], list[int], list[int], list[int], list[int], int, int, list[tuple[int, ...]] | None]

LAYOUT: dict[str, int]

class Prepared:
    def __init__(self, tables: Any, kit: Any) -> None: ...
    @property
    def tables(self) -> Any: ...
    @property
    def kit(self) -> Any: ...

def prepare(tables: Any, kit: Any) -> Prepared: ...
def search_one(prep: Prepared, state: int, legacy: bool, decoy: bool, trace: bool) -> _RawResult: ...
def search_many(
    prep: Prepared,
    states: npt.NDArray[np.uint32],
    legacy: bool,
    decoy: bool,
    status: npt.NDArray[np.int8],
    cats: npt.NDArray[np.int32],
    group_tiles: npt.NDArray[np.int32],
    tiles: npt.NDArray[np.int32],
    decoys: npt.NDArray[np.int32],
    counters: npt.NDArray[np.int32],
    ambiguous: npt.NDArray[np.int8],
    arguable: npt.NDArray[np.int8],
) -> None: ...
def search_board(prep: Prepared, state: int, seed: int | str, legacy: bool, decoy: bool, trace: bool) -> Any: ...
def second_split(prep: Prepared, group_tiles: Any) -> list[tuple[int, int]]: ...
def decoy_fours(prep: Prepared, group_tiles: Any) -> int: ...
def repair_draw(prep: Prepared, orders: Any) -> tuple[list[int], int]: ...
def repair_members(
    prep: Prepared,
    readers: Sequence[tuple[Any, ...]],
    taken: Sequence[int],
    recent: Any,
    fours: Sequence[Sequence[int]],
    left: Sequence[int],
    repairs: int,
    tries: int,
) -> tuple[list[list[int]], list[int]] | None: ...
def wide_repair_members(
    prep: Prepared,
    readers: Sequence[tuple[Any, ...]],
    taken: Sequence[int],
    recent: Any,
    starts: Sequence[tuple[Any, Any]],
    beam: int,
    steps: int,
    tries: int,
) -> tuple[list[list[int]], list[int]] | None: ...
def search_categories(
    prep: Prepared, order_flat: npt.NDArray[np.int32], order_off: npt.NDArray[np.int32]
) -> tuple[int, list[int], list[int]]: ...

# the difficulty model's counting kernel (connections_model.pxi; twin: flagcore.reference.connections_model)
class ModelPrepared:
    def __init__(
        self,
        tables: Any,
        salience: Any,
        named_flat: Any,
        named_off: Any,
        simpler: Any,
        hides: Any,
        learned: Any = None,
    ) -> None: ...
    @property
    def fits(self) -> Any: ...
    @property
    def named(self) -> Any: ...
    @property
    def salience(self) -> Any: ...
    @property
    def hides(self) -> Any: ...
    @property
    def simpler(self) -> tuple[str | None, ...]: ...
    @property
    def learned(self) -> tuple[tuple[float, ...], tuple[float, ...]] | None: ...

def prepare_model(
    tables: Any, salience: Any, named_flat: Any, named_off: Any, simpler: Any, hides: Any, learned: Any = None
) -> ModelPrepared: ...
def board_model(
    mp: ModelPrepared, group_tiles: Any, cats: Any
) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int, int, int]]]: ...
def search_board_model(
    prep: Prepared,
    mp: ModelPrepared,
    state: int,
    seed: int | str,
    decoy: bool,
    lo: int,
    hi: int,
    attempts: int,
    pair_cap: int,
    trace: bool,
) -> Any: ...
def search_many_model(
    prep: Prepared,
    mp: ModelPrepared,
    states: npt.NDArray[np.uint32],
    decoy: bool,
    lo: int,
    hi: int,
    attempts: int,
    pair_cap: int,
    status: npt.NDArray[np.int8],
    cats: npt.NDArray[np.int32],
    group_tiles: npt.NDArray[np.int32],
    tiles: npt.NDArray[np.int32],
    decoys: npt.NDArray[np.int32],
    counters: npt.NDArray[np.int32],
    ambiguous: npt.NDArray[np.int8],
    arguable: npt.NDArray[np.int8],
    model: npt.NDArray[np.int32],
) -> None: ...
