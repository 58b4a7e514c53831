# Layout of the compiled exact par search (flagcore._puzzle): its status codes and its state.
# Declarations only, like connections_search.pxd; the code is in the puzzle_*.pxi files that
# _puzzle.pyx includes.
from libc.stdint cimport int32_t, int64_t, uint64_t

# What a par computation returns besides a value >= 0. The entry points turn each into the
# exception the reference twin raises for the same board.
cdef enum ParStatus:
    PAR_NO_MEMORY = -2          # MemoryError
    PAR_TOO_MANY_CLASSES = -3   # more than MAX_DENSE classes interleave: ValueError
    PAR_NODE_LIMIT = -4         # the node budget ran out: ParSearchLimit
    PAR_ENUM_CAP = -1           # the spec's enumeration is past its cap (internal: the caller falls back)

# Scratch memory of one search. Every search node takes its buffers from the top of the arena and
# gives them back when it returns (a stack: mark on entry, release on exit), so a search does no
# malloc per node: the first chunk lives on the caller's C stack, and bigger searches add heap
# chunks that are kept until the search ends.
cdef struct Chunk:
    Chunk *prev
    size_t size
    size_t used
    char *data

cdef struct Arena:
    Chunk *top
    Chunk *spare                # the last heap chunk popped, kept for the next push
    Chunk first                 # data points at the caller's buffer

cdef struct Mark:
    Chunk *chunk
    size_t used

# The memo: an open-addressing table from a component (its edge list, vertices ranked) to what
# the search proved about it. Keys live in one growing int32 pool (slots hold offsets into it).
cdef struct MemoSlot:
    uint64_t hash               # 0: empty
    int64_t key                 # offset of the key in Memo.pool
    int32_t len
    int32_t value
    char exact                  # 1: value is the maximum; 0: an upper bound below the target

cdef struct Memo:
    MemoSlot *slots             # NULL until the first store (most boards never branch)
    Py_ssize_t cap
    Py_ssize_t size
    int32_t *pool
    int64_t pool_len
    int64_t pool_cap

cdef struct Ctx:
    Memo memo
    Arena arena
    int oom
    int stop                    # the node budget ran out: unwind, the result is thrown away
    int64_t nodes               # search nodes so far (the twin's _Budget counts the same ones)
    int64_t max_nodes           # < 0: no limit

# The r x s pairing tables of one branching vertex, grown at the top of the arena.
cdef struct Tables:
    int32_t *data
    Py_ssize_t count
    Py_ssize_t cap
    int cells

cdef struct Child:
    int32_t *mat
    int gain
    int bound
    int idx

cdef enum:
    ARENA_STACK_BYTES = 16384   # the arena's first chunk, on the C stack of _par_exact
    SMALL_N = 64                # boards up to this many tiles are read into stack buffers
