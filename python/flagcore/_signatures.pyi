from typing import Any

import numpy as np
import numpy.typing as npt

def hash_pixel_data(
    rgba: bytes | bytearray | memoryview | npt.NDArray[np.uint8], stride: int = 8
) -> int: ...
def tile_signatures(
    image: npt.NDArray[np.uint8], columns: int, rows: int, inset: int = 4
) -> list[int]: ...
def visual_signatures(image: npt.NDArray[np.uint8], columns: int, rows: int) -> list[int]: ...
