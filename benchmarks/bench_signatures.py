"""Both tile signatures (spec hash, visual), compiled core vs the pure-Python reference.

    pytest benchmarks/bench_signatures.py --benchmark-enable --benchmark-only \
        --benchmark-columns=median,iqr,rounds --benchmark-sort=name

The "GB/s" in extra_info is bytes of input per second at the median (see --benchmark-json).
"""

import numpy as np
import pytest

from flagcore import _signatures as core
from flagcore import signatures
from flagcore.reference import signatures as ref

IMPLS = {"core": core, "ref": ref}
RNG = np.random.default_rng(20260927)
BUFFER = RNG.integers(0, 256, 1 << 20, dtype=np.uint8)  # 1 MiB of RGBA
BIG_BUFFER = RNG.integers(0, 256, 64 << 20, dtype=np.uint8)  # 64 MiB, core only
FLAG_5X3 = signatures.render_flag("BR", 5)  # 240 x 168 px, a real flag
BOARD_5X3 = signatures.render_flag("BR", 5, 3)  # the same as the game shows it
# Worst case for the visual signature, at 4x the game's size: 15 tiles alike but for one pixel
# near each tile's far corner, so all 105 pairs are compared nearly to the end.
UNIFORM_BIG = np.full((3 * 212, 5 * 192, 4), 255, dtype=np.uint8)
for _t in range(15):
    _r, _c = divmod(_t, 5)
    UNIFORM_BIG[_r * 212 + 210, _c * 192 + 190, :2] = (64 * (_t % 4), 64 * (_t // 4))
BIG_IMAGE = RNG.integers(0, 256, (1500, 2400, 4), dtype=np.uint8)


def _rate(benchmark, nbytes):
    benchmark.extra_info["bytes"] = nbytes
    if benchmark.stats is None:  # --benchmark-disable (the test run): ran once, nothing timed
        return
    benchmark.extra_info["GB/s"] = round(nbytes / benchmark.stats.stats.median / 1e9, 3)


@pytest.mark.parametrize("impl", IMPLS)
def test_hash_pixel_data_1mib(benchmark, impl):
    fn = IMPLS[impl].hash_pixel_data
    benchmark.pedantic(fn, args=(BUFFER,), rounds=3 if impl == "ref" else 200, warmup_rounds=1)
    _rate(benchmark, BUFFER.nbytes)


def test_hash_pixel_data_64mib_core(benchmark):
    benchmark.pedantic(core.hash_pixel_data, args=(BIG_BUFFER,), rounds=10, warmup_rounds=1)
    _rate(benchmark, BIG_BUFFER.nbytes)


@pytest.mark.parametrize("impl", IMPLS)
def test_tile_signatures_5x3_flag(benchmark, impl):
    fn = IMPLS[impl].tile_signatures
    benchmark.pedantic(fn, args=(FLAG_5X3, 5, 3), rounds=20 if impl == "ref" else 2000, warmup_rounds=2)
    _rate(benchmark, FLAG_5X3.nbytes)


@pytest.mark.parametrize("impl", IMPLS)
def test_visual_signatures_5x3_flag(benchmark, impl):
    fn = IMPLS[impl].visual_signatures
    benchmark.pedantic(fn, args=(BOARD_5X3, 5, 3), rounds=20 if impl == "ref" else 2000, warmup_rounds=2)
    _rate(benchmark, BOARD_5X3.nbytes)


@pytest.mark.parametrize("impl", IMPLS)
def test_visual_signatures_5x3_worst_4x(benchmark, impl):
    fn = IMPLS[impl].visual_signatures
    benchmark.pedantic(fn, args=(UNIFORM_BIG, 5, 3), rounds=10 if impl == "ref" else 200, warmup_rounds=1)
    _rate(benchmark, UNIFORM_BIG.nbytes)


def test_tile_signatures_5x3_large_image_core(benchmark):
    # Kernel throughput with four interleaved chains, away from the per-call overhead.
    benchmark.pedantic(core.tile_signatures, args=(BIG_IMAGE, 5, 3, 0), rounds=20, warmup_rounds=1)
    _rate(benchmark, BIG_IMAGE.nbytes)


def test_hash_one_chain_large_image_core(benchmark):
    # The same bytes as one buffer, one chain: what interleaving gains over the latency bound.
    benchmark.pedantic(core.hash_pixel_data, args=(BIG_IMAGE,), rounds=20, warmup_rounds=1)
    _rate(benchmark, BIG_IMAGE.nbytes)


def test_render_flag_5_columns(benchmark):
    benchmark(signatures.render_flag, "BR", 5)


def test_render_flag_5x3_board(benchmark):
    benchmark(signatures.render_flag, "BR", 5, 3)


def test_piece_signatures_table_hit(benchmark):
    benchmark(signatures.piece_signatures, "BR", 5, 3)


def test_piece_signatures_cache_hit(benchmark):
    svg = signatures.flag_svg("BR")
    signatures.piece_signatures(svg, 5, 3)
    benchmark(signatures.piece_signatures, svg, 5, 3)
