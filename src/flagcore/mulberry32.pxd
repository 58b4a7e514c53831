# Declarations of mulberry32.h for cimport by every compiled module.
from libc.stdint cimport uint32_t, int32_t

cdef extern from "mulberry32.h" nogil:
    uint32_t fc_mulberry32_next(uint32_t *state)
    uint32_t fc_mulberry32_below(uint32_t *state, uint32_t bound)
    void fc_shuffle_i32(int32_t *items, Py_ssize_t n, uint32_t *state)
    uint32_t fc_fnv1a32(const unsigned char *data, size_t n)
