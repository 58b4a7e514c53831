# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled mulberry32 (flagcore.Rng) and the spec's Fisher-Yates (flagcore.shuffle)."""
from libc.stdint cimport uint32_t
from mulberry32 cimport fc_mulberry32_next, fc_mulberry32_below, fc_fnv1a32

from flagcore._args.common import as_bound, as_seed, check_rng


def seed_to_state(seed):
    """Validate a seed and return its uint32 state: int in [0, 2**32) or str (FNV-1a 32 of UTF-8)."""
    if type(seed) is int and 0 <= seed < 4294967296:
        return <uint32_t>seed
    seed = as_seed(seed)
    if isinstance(seed, str):
        data = seed.encode("utf-8", "surrogatepass")
        return fc_fnv1a32(<const unsigned char *>(<bytes>data), len(data))
    return <uint32_t>seed


cdef class Rng:
    """mulberry32, the same stream as the JavaScript original: Rng(seed)() -> float in [0, 1).

    ``state`` is the generator's uint32 state: save it and assign it back to resume the stream.
    """
    cdef public uint32_t state

    def __init__(self, seed=0):
        self.state = seed_to_state(seed)

    def __call__(self):
        return fc_mulberry32_next(&self.state) / 4294967296.0

    def next_uint32(self):
        """The next draw as the integer u (the float is u / 2**32)."""
        return fc_mulberry32_next(&self.state)

    def below(self, bound):
        """Math.floor(rng() * bound) for 1 <= bound < 2**32."""
        cdef uint32_t checked = as_bound(bound)
        return fc_mulberry32_below(&self.state, checked)

    def __repr__(self):
        return f"Rng(state={self.state:#010x})"


def shuffle(seq, rng):
    """The spec's shuffleArray: Fisher-Yates on a copy, rng in place of Math.random."""
    check_rng(rng, Rng)
    cdef list out = list(seq)
    cdef Rng r = <Rng>rng
    cdef Py_ssize_t i, j
    for i in range(len(out) - 1, 0, -1):
        j = fc_mulberry32_below(&r.state, <uint32_t>(i + 1))
        out[i], out[j] = out[j], out[i]
    return out
