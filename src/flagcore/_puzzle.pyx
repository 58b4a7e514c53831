# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Puzzle engine: cycles, solve checks, the spec's par (closed form + sigma enumeration),
the exact par (maximum cycle decomposition of the colour multigraph), dealing and verifying games.

Two kinds of entry points:

* kernels (``count_cycles``, ``min_swaps_exact``, the ``*_batch`` functions, ...) take trusted
  input: permutations of 0..n-1 as int32, dense class ids 0..k-1. The loops run with bounds
  checks off and without the GIL, so a caller must have checked everything they index.
* ``checked_*`` and ``deal`` are what flagcore.puzzle calls: they take the public arguments as
  the user passed them and check them in C on the way in (puzzle_boundary.pxi), so a call from
  a list costs about what the kernel costs. The reference twin (flagcore.reference.puzzle) has
  the same entry points with the same checks written in Python.

The code is split by idea into the puzzle_*.pxi files included below; the search's status codes
and state are declared in puzzle_search.pxd. The twin of the exact search is
python/flagcore/reference/_cycle_packing.py, whose docstring documents the algorithm, its proof
sketch and its complexity; the code here mirrors it step for step.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memset, memcmp
from mulberry32 cimport fc_shuffle_i32
from puzzle_search cimport (ParStatus, PAR_NO_MEMORY, PAR_TOO_MANY_CLASSES, PAR_NODE_LIMIT, PAR_ENUM_CAP,
                            Chunk, Arena, Mark, MemoSlot, Memo, Ctx, Tables, Child, ARENA_STACK_BYTES, SMALL_N)

import numpy as np

from flagcore._args.puzzle import as_max_nodes, as_method
from flagcore._args import puzzle as _rules  # verify's status codes and messages
from flagcore.errors import ParSearchLimit

cdef int64_t ENUMERATION_CAP = 750000
cdef int64_t EST_CAP = 1099511627776  # 2**40: saturation of the pairing-count estimate (as the twin)
cdef int MAX_DENSE = 4096             # classes in one exact search (a dense MAX_DENSE**2 int32 matrix)
cdef int MAX_RESHUFFLES = 24          # deal: reshuffles of a visually solved start before pair swaps

ENUMERATION_CAP_VALUE = ENUMERATION_CAP
MAX_EXACT_CLASSES = MAX_DENSE
MAX_VISUAL_RESHUFFLE_ATTEMPTS = MAX_RESHUFFLES

include "puzzle_spec.pxi"
include "puzzle_memo.pxi"
include "puzzle_bounds.pxi"
include "puzzle_exact.pxi"
include "puzzle_boundary.pxi"


cdef _raise_for(int64_t code, int n=0, int k=0, int64_t max_nodes=-1, row=None):
    if code == PAR_NODE_LIMIT:
        raise ParSearchLimit(n, k, max_nodes, row)
    if code == PAR_TOO_MANY_CLASSES:
        raise _rules.too_many_classes_error(MAX_DENSE)
    raise MemoryError()


# ------------------------------------------------------------------ kernels (trusted input)

def count_cycles(const int32_t[::1] tiles_by_slot):
    cdef Py_ssize_t n = tiles_by_slot.shape[0]
    cdef unsigned char *seen = <unsigned char *>malloc(n + 1)
    cdef int64_t c
    if seen == NULL:
        raise MemoryError()
    with nogil:
        c = _cycles(&tiles_by_slot[0] if n else NULL, n, seen)
    free(seen)
    return c


def min_swaps_to_identity(const int32_t[::1] tiles_by_slot):
    return tiles_by_slot.shape[0] - count_cycles(tiles_by_slot)


def is_strictly_solved(const int32_t[::1] tiles_by_slot):
    return _strictly_solved(&tiles_by_slot[0] if tiles_by_slot.shape[0] else NULL, tiles_by_slot.shape[0])


def is_visually_solved(const int32_t[::1] tiles_by_slot, const int32_t[::1] classes):
    cdef Py_ssize_t n = tiles_by_slot.shape[0]
    return _visually_solved(&tiles_by_slot[0] if n else NULL, &classes[0] if n else NULL, n)


def min_swaps_enumerate(const int32_t[::1] tiles_by_slot, const int32_t[::1] classes, int k):
    cdef int n = tiles_by_slot.shape[0]
    cdef unsigned char *seen = <unsigned char *>malloc(n + 1)
    cdef int64_t r
    if seen == NULL:
        raise MemoryError()
    with nogil:
        r = _par_enumerate(&tiles_by_slot[0] if n else NULL, &classes[0] if n else NULL, n, k, seen)
    free(seen)
    if r < 0:
        raise MemoryError()
    return r


def min_swaps_exact(const int32_t[::1] tiles_by_slot, const int32_t[::1] classes, int k,
                    int64_t max_nodes=-1):
    """Exact par; ParSearchLimit past max_nodes search nodes (negative: no limit)."""
    cdef int n = tiles_by_slot.shape[0]
    cdef unsigned char *seen = <unsigned char *>malloc(n + 1)
    cdef int64_t r
    if seen == NULL:
        raise MemoryError()
    with nogil:
        r = _par_exact(&tiles_by_slot[0] if n else NULL, &classes[0] if n else NULL, n, k, seen, max_nodes)
    free(seen)
    if r < 0:
        _raise_for(r, n, k, max_nodes)
    return r


def exact_search_nodes(const int32_t[::1] tiles_by_slot, const int32_t[::1] classes, int k):
    """(par, search nodes it took) with no limit: how far a board is from any max_nodes."""
    cdef int n = tiles_by_slot.shape[0]
    cdef unsigned char *seen = <unsigned char *>malloc(n + 1)
    cdef int64_t r, nodes = 0
    if seen == NULL:
        raise MemoryError()
    with nogil:
        r = _par_exact(&tiles_by_slot[0] if n else NULL, &classes[0] if n else NULL, n, k, seen, -1, &nodes)
    free(seen)
    if r < 0:
        _raise_for(r, n, k, -1)
    return r, nodes


# ------------------------------------------------------------------ checked entry points (public arguments)
# Small boards keep the GIL: their work costs less than handing the GIL to another thread and
# taking it back. Boards past SMALL_N tiles release it.

cdef int64_t _par(const int32_t *pi, const int32_t *cls, int n, int k, unsigned char *seen, int64_t max_nodes,
                  bint exact) noexcept nogil:
    """Par of a checked board: strict (cls NULL), exact, or the spec's enumeration."""
    if cls == NULL:
        return n - _cycles(pi, n, seen)
    if exact:
        return _par_exact(pi, cls, n, k, seen, max_nodes)
    return _par_enumerate(pi, cls, n, k, seen)


cdef int64_t _budget(object max_nodes) except? -2:
    """max_nodes as the cores encode it (as_max_nodes), with the default's case read directly."""
    if type(max_nodes) is int and 1 <= max_nodes < (1 << 62):
        return <int64_t>max_nodes
    return as_max_nodes(max_nodes)


cdef object _scratch(Py_ssize_t n, unsigned char *small, unsigned char **out):
    """n + 1 bytes of scratch: small (SMALL_N + 1 bytes) or a numpy buffer (returned: keep it)."""
    cdef unsigned char[::1] mv
    if n <= SMALL_N:
        out[0] = small
        return None
    keep = np.empty(n + 1, dtype=np.uint8)
    mv = keep
    out[0] = &mv[0]
    return keep


cdef int64_t _checked_cycles(object tiles_by_slot, Py_ssize_t *n) except -1:
    cdef Ints t
    cdef unsigned char small[SMALL_N + 1]
    cdef unsigned char *seen
    cdef int64_t c
    keep = _as_perm(tiles_by_slot, &t, "tiles_by_slot", True)
    keep_seen = _scratch(t.n, small, &seen)
    if t.n > SMALL_N:
        with nogil:
            c = _cycles_checked(t.p, t.n, seen)
    else:
        c = _cycles_checked(t.p, t.n, seen)
    if c < 0:
        _reject_perm(tiles_by_slot, "tiles_by_slot")
    n[0] = t.n
    return c


def checked_count_cycles(tiles_by_slot):
    cdef Py_ssize_t n
    return _checked_cycles(tiles_by_slot, &n)


def checked_min_swaps_to_identity(tiles_by_slot):
    cdef Py_ssize_t n
    cdef int64_t c = _checked_cycles(tiles_by_slot, &n)
    return n - c


def checked_is_strictly_solved(tiles_by_slot):
    cdef Ints t
    keep = _as_perm(tiles_by_slot, &t, "tiles_by_slot")
    return _strictly_solved(t.p, t.n)


def checked_is_visually_solved(tiles_by_slot, signatures):
    cdef Ints t, c
    cdef int k
    keep = _as_perm(tiles_by_slot, &t, "tiles_by_slot")
    if signatures is None:
        return _strictly_solved(t.p, t.n)
    keep_c = _as_classes(signatures, t.n, &c, &k)
    return _visually_solved(t.p, c.p, t.n)


def checked_min_swaps(tiles_by_slot, signatures, method, max_nodes):
    """min_swaps_to_visual_solve: checks in the public function's order, then the par."""
    cdef Ints t, c
    cdef int k
    cdef bint exact
    cdef int64_t budget, r
    cdef unsigned char small[SMALL_N + 1]
    cdef unsigned char *seen
    if method == "exact":
        exact = True
    elif method == "enumerate":
        exact = False
    else:
        as_method(method)
        raise AssertionError("flagcore._args accepted method, the compiled check did not")
    budget = _budget(max_nodes)
    keep = _as_perm(tiles_by_slot, &t, "tiles_by_slot")
    keep_seen = _scratch(t.n, small, &seen)
    if signatures is None:
        return t.n - _cycles(t.p, t.n, seen)
    keep_c = _as_classes(signatures, t.n, &c, &k)
    if t.n > SMALL_N:
        with nogil:
            r = _par(t.p, c.p, <int>t.n, k, seen, budget, exact)
    else:
        r = _par(t.p, c.p, <int>t.n, k, seen, budget, exact)
    if r < 0:
        _raise_for(r, <int>t.n, k, budget)
    return r


cdef void _shuffled_board(int32_t *board, int n, uint32_t *state) noexcept nogil:
    """The spec's createShuffledBoard: Fisher-Yates of the solved board until it is not solved."""
    cdef int i
    while True:
        for i in range(n):
            board[i] = i
        fc_shuffle_i32(board, n, state)
        if not _strictly_solved(board, n):
            return


cdef bint _break_solved_layout(int32_t *board, const int32_t *cls, int n) noexcept nogil:
    """Keep the first pair swap (i < j, in order) that leaves the board not visually solved."""
    cdef int i, j
    cdef int32_t t
    for i in range(n):
        for j in range(i + 1, n):
            t = board[i]; board[i] = board[j]; board[j] = t
            if not _visually_solved(board, cls, n):
                return True
            t = board[i]; board[i] = board[j]; board[j] = t
    return False


cdef int64_t DEAL_UNBROKEN = -100


cdef int64_t _deal(int32_t *board, const int32_t *cls, int n, int k, uint32_t *state, unsigned char *seen,
                   int64_t max_nodes) noexcept nogil:
    """Shuffle, reshuffle while visually solved, break by a pair swap, then par (cls NULL: strict)."""
    cdef int attempts = 0
    _shuffled_board(board, n, state)
    if cls == NULL:
        return n - _cycles(board, n, seen)
    while _visually_solved(board, cls, n) and attempts < MAX_RESHUFFLES:
        _shuffled_board(board, n, state)
        attempts += 1
    if _visually_solved(board, cls, n) and not _break_solved_layout(board, cls, n):
        return DEAL_UNBROKEN
    return _par_exact(board, cls, n, k, seen, max_nodes)


def deal(int n, classes, int k, uint32_t state, int64_t max_nodes):
    """A new game's start board and its par: (tuple, par).

    Trusted input (checked by flagcore.puzzle.new_game): 2 <= n <= 1024, ``classes`` None or the
    board's dense class ids (k classes), ``state`` the seeded Rng's state. Draws exactly what
    the twin draws: shuffles until the board is not solved, up to MAX_RESHUFFLES more while it
    is visually solved, then the first pair swap that breaks it.
    """
    cdef Ints b
    cdef const int32_t[::1] cls
    cdef const int32_t *cp = NULL
    cdef bint visual = classes is not None and k != 1
    cdef int64_t par
    cdef unsigned char small[SMALL_N + 1]
    cdef unsigned char *seen
    cdef int32_t *board
    keep = _buffer(&b, n)
    board = <int32_t *>b.p
    keep_seen = _scratch(n, small, &seen)
    if visual:
        cls = classes
        cp = &cls[0]
    if n > SMALL_N:
        with nogil:
            par = _deal(board, cp, n, k, &state, seen, max_nodes)
    else:
        par = _deal(board, cp, n, k, &state, seen, max_nodes)
    if par == DEAL_UNBROKEN:
        raise AssertionError("unreachable: boards with two tile classes always have a breaking swap")
    if par < 0:
        _raise_for(par, n, k, max_nodes)
    return tuple([board[i] for i in range(n)]), par


def checked_verify(start_tiles_by_slot, swaps, signatures, max_nodes):
    """puzzle.verify's replay: (moves, par), or the error the twin raises for the same log."""
    cdef Ints t, c, s, b
    cdef int k = 0
    cdef bint visual = False
    cdef Py_ssize_t n, moves, i
    cdef int32_t a, x, tmp
    cdef int64_t budget, par
    cdef unsigned char small[SMALL_N + 1]
    cdef unsigned char *seen
    cdef int32_t *board
    budget = _budget(max_nodes)
    keep_t = _as_perm(start_tiles_by_slot, &t, "start_tiles_by_slot")
    n = t.n
    if signatures is not None:
        keep_c = _as_classes(signatures, n, &c, &k)
        visual = k != 1
    if n < 2:
        raise _rules.verify_error(_rules.VERIFY_TOO_FEW_TILES)
    if _visually_solved(t.p, c.p, n) if visual else _strictly_solved(t.p, n):
        raise _rules.verify_error(_rules.VERIFY_START_SOLVED)
    keep_s = _as_swaps(swaps, n, &s)
    moves = s.n // 2
    keep_b = _buffer(&b, n)
    board = <int32_t *>b.p
    memcpy(board, t.p, n * sizeof(int32_t))
    for i in range(moves):
        a = s.p[2 * i]
        x = s.p[2 * i + 1]
        tmp = board[a]; board[a] = board[x]; board[x] = tmp
        if i != moves - 1 and (_visually_solved(board, c.p, n) if visual else _strictly_solved(board, n)):
            raise _rules.verify_error(_rules.VERIFY_MOVES_AFTER_SOLVED, i + 1)
    if not (_visually_solved(board, c.p, n) if visual else _strictly_solved(board, n)):
        raise _rules.verify_error(_rules.VERIFY_NOT_SOLVED)
    keep_seen = _scratch(n, small, &seen)
    if n > SMALL_N:
        with nogil:
            par = _par(t.p, c.p if visual else NULL, <int>n, k, seen, budget, True)
    else:
        par = _par(t.p, c.p if visual else NULL, <int>n, k, seen, budget, True)
    if par < 0:
        _raise_for(par, <int>n, k, budget)
    if moves < par:
        raise _rules.verify_error(_rules.VERIFY_BELOW_PAR, (moves, par))
    return moves, par


# ------------------------------------------------------------------ batch entry points

def count_cycles_batch(const int32_t[:, ::1] boards):
    cdef Py_ssize_t rows = boards.shape[0], n = boards.shape[1], i
    out = np.empty(rows, dtype=np.int64)
    cdef int64_t[::1] res = out
    cdef unsigned char *seen = <unsigned char *>malloc(n + 1)
    if seen == NULL:
        raise MemoryError()
    with nogil:
        for i in range(rows):
            res[i] = _cycles(&boards[i, 0] if n else NULL, n, seen)
    free(seen)
    return out


def min_swaps_to_identity_batch(const int32_t[:, ::1] boards):
    out = count_cycles_batch(boards)
    return boards.shape[1] - out


def min_swaps_batch(const int32_t[:, ::1] boards, const int32_t[:, ::1] classes, const int32_t[::1] ks,
                    str method, int64_t max_nodes=-1):
    """Par of every row; the node budget applies to each board, ParSearchLimit names the row."""
    cdef Py_ssize_t rows = boards.shape[0], n = boards.shape[1], i, bad_row = -1
    cdef bint exact = method == "exact"
    cdef int64_t bad = 0
    out = np.empty(rows, dtype=np.int64)
    cdef int64_t[::1] res = out
    cdef unsigned char *seen = <unsigned char *>malloc(n + 1)
    if seen == NULL:
        raise MemoryError()
    with nogil:
        for i in range(rows):
            if exact:
                res[i] = _par_exact(&boards[i, 0] if n else NULL, &classes[i, 0] if n else NULL, <int>n, ks[i], seen,
                                    max_nodes)
            else:
                res[i] = _par_enumerate(&boards[i, 0] if n else NULL, &classes[i, 0] if n else NULL, <int>n, ks[i], seen)
            if res[i] < 0:
                bad = res[i]
                bad_row = i
                break
    free(seen)
    if bad < 0:
        _raise_for(bad, <int>n, ks[bad_row], max_nodes, bad_row)
    return out
