# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Connections board search (the twin of flagcore.reference.connections).

The reference module's docstring states the search; this module runs the same steps with the same
Rng draws in C without the GIL:

* countries are indices, a set is W uint64 words, so "is any placed tile in this pool" or "how many
  pool codes are free" are a few AND / popcount instructions;
* legacy mode keeps the spec's flat ``forbidden`` bitset (undo clears the whole spill, flaws
  included), and its ``used`` bitset;
* fixed mode keeps reference counts over the placed fit sets (pool and arguable codes) as two bit
  planes per depth: ``any_`` (count >= 1) and ``multi`` (count >= 2). Placing fit set F at depth d
  writes depth d+1 as ``any_ | F`` and ``multi | (any_ & F)``; undo just returns to depth d, whose
  planes are untouched, so an undo restores every count exactly and can never free a code another
  placed group holds. A code fits exactly one placed group iff it is in ``any_ & ~multi``; a
  group's tiles are the codes of its pool among them.
* the fixed search's leaf draws the tiles and the decoy, again while the draw deals more than
  DECOY_FOURS_CAP complete off-board fours (``Fours``: each tile's categories from per-code lists,
  a 16-bit mask per category, counted once per draw and kept through the repair's swaps and the
  decoy's by the categories of the two codes swapped) or has a second split
  (``second_split_search``: the same masks, the fours of each, an exact cover from the lowest
  uncovered tile), up to REDRAWS times before the search moves on.

``search_many`` runs a whole batch in one nogil loop; callers split a batch into chunks on threads
(each call allocates its own workspace, so calls never share mutable state).
"""
from libc.stdint cimport uint64_t, uint32_t, int32_t, int8_t, uint8_t, uint16_t
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.string cimport memcmp, memset, memcpy
from mulberry32 cimport fc_mulberry32_next, fc_mulberry32_below, fc_shuffle_i32
from connections_search cimport (Tab, Work, ITEMS, TIERS, EW, DECOY_BELOW, REDRAWS, DECOY_FOURS_CAP,
                                 REPAIRS, REPAIR_TRIES, STATUS_OK, STATUS_NO_BOARD, R_TAG_ON_BOARD, R_TOO_FEW_AVAILABLE, R_TOO_FEW_PICKABLE, R_TOO_FEW_EXCLUSIVE,
                                 R_CROWDS_PLACED, N_REASONS, C_MOVES, C_BACKTRACKS, C_SKIPS, C_ENTRIES,
                                 C_EXHAUSTED, NCOUNTERS, E_ENTER, E_TRY, E_SKIP, E_PLACE, E_UNDO, E_BACKTRACK,
                                 E_DRAW, E_DECOY, N_EVENT_KINDS)

import numpy as np

from flagcore._connections_layout import REASONS as _REASONS, event_dicts, no_board_message
from flagcore.errors import NoBoardError
from flagcore._args import connections as _rules  # search_categories' order errors

cdef tuple _REASON_NAMES = tuple(_REASONS)

# The layout this module was built with, checked against its Python mirror by
# tests/connections/test_connections_layout.py.
LAYOUT = {
    "ITEMS": ITEMS, "TIERS": TIERS, "DECOY_BELOW": DECOY_BELOW, "REDRAWS": REDRAWS,
    "DECOY_FOURS_CAP": DECOY_FOURS_CAP, "REPAIRS": REPAIRS, "REPAIR_TRIES": REPAIR_TRIES,
    "STATUS_OK": STATUS_OK, "STATUS_NO_BOARD": STATUS_NO_BOARD,
    "REASONS": N_REASONS, "R_TAG_ON_BOARD": R_TAG_ON_BOARD, "R_TOO_FEW_AVAILABLE": R_TOO_FEW_AVAILABLE,
    "R_TOO_FEW_PICKABLE": R_TOO_FEW_PICKABLE, "R_TOO_FEW_EXCLUSIVE": R_TOO_FEW_EXCLUSIVE,
    "R_CROWDS_PLACED": R_CROWDS_PLACED,
    "COUNTERS": NCOUNTERS, "C_MOVES": C_MOVES, "C_BACKTRACKS": C_BACKTRACKS, "C_SKIPS": C_SKIPS,
    "C_ENTRIES": C_ENTRIES, "C_EXHAUSTED": C_EXHAUSTED,
    "EVENT_KINDS": N_EVENT_KINDS, "E_ENTER": E_ENTER, "E_TRY": E_TRY, "E_SKIP": E_SKIP, "E_PLACE": E_PLACE,
    "E_UNDO": E_UNDO, "E_BACKTRACK": E_BACKTRACK, "E_DRAW": E_DRAW, "E_DECOY": E_DECOY,
    "EVENT_WIDTH": EW,
}

cdef extern from *:
    """
    /* One instruction where the target has it; otherwise an inline branch-free count (GCC's own
       fallback for __builtin_popcountll is a call into libgcc, a few per cent of a board). */
    #if defined(__POPCNT__) || defined(__aarch64__)
    #define fc_popcount64(x) __builtin_popcountll(x)
    #else
    static inline int fc_popcount64(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int fc_popcount64(uint64_t x) nogil
    int __builtin_ctzll(unsigned long long x) nogil

cdef class Prepared:
    """The C tables of one (library, mode); built once, shared read-only by every search."""
    cdef Tab tab
    cdef object _pools, _fits, _synthetic, _tag_index, _tier_flat, _fact, _level, _step_rows  # the arrays the pointers refer to
    cdef object _code_lists  # the per-code category lists (fit, pool): flat and offsets each
    cdef readonly object tables   # the generator's Tables (codes, categories, mode) for building Boards
    cdef readonly object kit      # the generator's BoardKit: the Board and Group types to build
    cdef tuple codes, labels, ids
    cdef object mode, board_type, group_type

    def __init__(self, tables, kit):
        cdef Py_ssize_t n_codes = int(tables.n_codes)
        cdef Py_ssize_t W = max(1, (n_codes + 63) // 64)
        cdef Py_ssize_t n_cat = len(tables.pool_off) - 1
        pools = _bitsets(tables.pool_flat, tables.pool_off, W)
        fits = _bitsets(tables.fit_flat, tables.fit_off, W)
        # at least one element each, so the C pointers below are valid for an empty library too
        synthetic = np.zeros(max(n_cat, 1), dtype=np.int8)
        synthetic[:n_cat] = tables.synthetic
        tag_index = np.full(max(n_cat, 1), -1, dtype=np.int32)
        tag_index[:n_cat] = tables.tag_index
        fact = np.zeros(max(n_cat, 1), dtype=np.int8)
        fact[:n_cat] = tables.fact
        tier_flat = np.zeros(max(len(tables.tier_flat), 1), dtype=np.int32)
        tier_flat[:len(tables.tier_flat)] = tables.tier_flat
        self._pools, self._fits, self._synthetic, self._tag_index, self._tier_flat, self._fact = (
            pools, fits, synthetic, tag_index, tier_flat, fact)
        self._level = None
        self._step_rows = None
        if tables.level is not None:
            self._level = np.zeros(max(n_cat, 1), dtype=np.int32)
            self._level[:n_cat] = tables.level
            self._step_rows = _step_rows(tables, n_cat)
        self.tables = tables
        self.kit = kit
        self.board_type = kit.board
        self.group_type = kit.group
        self.mode = tables.mode
        self.codes = tuple(tables.codes)
        self.labels = tuple([c.label for c in tables.categories])
        self.ids = tuple([c.id for c in tables.categories])
        cdef uint64_t[:, ::1] pv = pools
        cdef uint64_t[:, ::1] fitv = fits
        cdef int8_t[::1] sv = synthetic
        cdef int32_t[::1] tv = tag_index
        cdef int8_t[::1] factv = fact
        cdef int32_t[::1] fv = tier_flat
        self._code_lists = _by_code(tables.fit_flat, tables.fit_off, n_codes) + _by_code(
            tables.pool_flat, tables.pool_off, n_codes)
        cdef int32_t[::1] cff = self._code_lists[0]
        cdef int32_t[::1] cfo = self._code_lists[1]
        cdef int32_t[::1] cpf = self._code_lists[2]
        cdef int32_t[::1] cpo = self._code_lists[3]
        tier_off = [int(v) for v in tables.tier_off]
        self.tab.n_codes = <int>n_codes
        self.tab.W = <int>W
        self.tab.n_cat = <int>n_cat
        self.tab.n_tags = <int>int(tables.n_tags)
        self.tab.pools = &pv[0, 0]
        self.tab.fits = &fitv[0, 0]
        self.tab.synthetic = &sv[0]
        self.tab.tag_index = &tv[0]
        self.tab.fact = &factv[0]
        self.tab.min_facts = <int>int(tables.min_facts)
        self.tab.tier_flat = &fv[0]
        cdef int32_t[::1] lv, sfv, sov
        self.tab.level = NULL
        self.tab.step_flat = NULL
        self.tab.step_off = NULL
        self.tab.step_min = <int32_t>int(tables.step[0])
        self.tab.step_max = <int32_t>int(tables.step[1])
        if self._level is not None:
            lv = self._level
            self.tab.level = &lv[0]
            sfv = self._step_rows[0]
            sov = self._step_rows[1]
            self.tab.step_flat = &sfv[0]
            self.tab.step_off = &sov[0]
        self.tab.code_fit_flat = &cff[0]
        self.tab.code_fit_off = &cfo[0]
        self.tab.code_pool_flat = &cpf[0]
        self.tab.code_pool_off = &cpo[0]
        self.tab.max_tier = 1
        for t in range(5):
            self.tab.tier_off[t] = tier_off[t]
        for t in range(TIERS):
            self.tab.max_tier = max(self.tab.max_tier, tier_off[t + 1] - tier_off[t])


def _by_code(flat_codes, offsets, Py_ssize_t n_codes):
    """The transpose of sets flat[off[c]:off[c+1]]: per code, the sets holding it, as (flat, offsets)
    int32 arrays (flat padded to one element, so its C pointer is valid for an empty library)."""
    off = np.ascontiguousarray(offsets, dtype=np.int64)
    flat = np.ascontiguousarray(flat_codes, dtype=np.int64)
    rows = np.repeat(np.arange(off.shape[0] - 1, dtype=np.int64), np.diff(off))
    order = np.argsort(flat, kind="stable")
    cats = np.zeros(max(len(flat), 1), dtype=np.int32)
    cats[: len(flat)] = rows[order]
    starts = np.zeros(n_codes + 1, dtype=np.int32)
    starts[1:] = np.cumsum(np.bincount(flat, minlength=n_codes)[:n_codes])
    return cats, starts


def _bitsets(flat_codes, offsets, Py_ssize_t W):
    """Sets flat[off[c]:off[c+1]] as rows of W uint64 words (at least one row, for an empty library)."""
    off = np.ascontiguousarray(offsets, dtype=np.int64)
    flat = np.ascontiguousarray(flat_codes, dtype=np.int64)
    n = off.shape[0] - 1
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(off))
    bits = np.zeros((max(n, 1), W), dtype=np.uint64)
    np.bitwise_or.at(bits, (rows, flat >> 6), np.left_shift(np.uint64(1), (flat & 63).astype(np.uint64)))
    return bits


def prepare(tables, kit):
    """The search's C tables for ``tables``; ``kit`` (the generator's BoardKit) names the Board and
    Group types search_board builds, so this module imports nothing above it."""
    return Prepared(tables, kit)


# One board's workspace (about 2.4 KiB for the bundled library, 4 KiB for its trivia tables steered
# by ratings, whose tiers overlap) fits a buffer on the caller's C stack: generate() then makes no allocation at all. Larger libraries fall back to the heap.
cdef enum:
    WORK_STACK_WORDS = 1024


cdef int work_init(Work *w, const Tab *t, bint legacy, bint trace, uint64_t *buf, Py_ssize_t buf_words) noexcept nogil:
    """Set up ``w`` for ``t``, its arrays zeroed, in ``buf`` when they fit (buf may be NULL)."""
    cdef Py_ssize_t W = t.W
    cdef Py_ssize_t n_used = W * 16
    cdef Py_ssize_t n_moves = TIERS * t.max_tier + t.n_codes + 16
    cdef Py_ssize_t words = n_used + (n_moves * sizeof(int32_t) + t.n_tags + 1 + 7) // 8
    memset(w, 0, sizeof(Work))
    w.legacy = legacy
    w.trace = trace
    if buf != NULL and words <= buf_words:
        memset(buf, 0, words * sizeof(uint64_t))
        w.used = buf
        w.moves = <int32_t *>(buf + n_used)
        w.used_tag = <uint8_t *>(w.moves + n_moves)
    else:
        w.on_heap = True
        w.used = <uint64_t *>calloc(n_used, sizeof(uint64_t))
        w.moves = <int32_t *>calloc(n_moves, sizeof(int32_t))
        w.used_tag = <uint8_t *>calloc(t.n_tags + 1, sizeof(uint8_t))
        if w.used == NULL or w.moves == NULL or w.used_tag == NULL:
            return -1
    w.forbidden = w.used + W
    w.spill = w.used + 2 * W          # 4 * W
    w.any_ = w.used + 6 * W           # 5 * W
    w.multi = w.used + 11 * W         # 5 * W
    w.avail = w.moves + TIERS * t.max_tier
    return 0


cdef void work_free(Work *w) noexcept nogil:
    if w.on_heap:
        free(w.used)
        free(w.moves)
        free(w.used_tag)
    free(w.events)
    w.used = NULL
    w.moves = NULL
    w.used_tag = NULL
    w.events = NULL


cdef inline void emit(Work *w, int kind, int d, int c, int a, int b, int x, int y, int z) noexcept nogil:
    cdef int32_t *e
    cdef Py_ssize_t cap
    if not w.trace or w.oom:
        return
    if w.n_events == w.cap_events:
        cap = 64 if w.cap_events == 0 else 2 * w.cap_events
        e = <int32_t *>realloc(w.events, cap * EW * sizeof(int32_t))
        if e == NULL:
            w.oom = True
            return
        w.events = e
        w.cap_events = cap
    e = w.events + w.n_events * EW
    e[0] = kind
    e[1] = d
    e[2] = c
    e[3] = a
    e[4] = b
    e[5] = x
    e[6] = y
    e[7] = z
    w.n_events += 1


cdef inline void skip(Work *w, int d, int c, int reason) noexcept nogil:
    w.counters[C_SKIPS + reason] += 1
    emit(w, E_SKIP, d, c, reason, -1, -1, -1, -1)


cdef inline int list_bits(const uint64_t *bits, int W, int32_t *out) noexcept nogil:
    """Write the set bits in ascending order (= ascending code index); return how many."""
    cdef int n = 0, k
    cdef uint64_t b
    for k in range(W):
        b = bits[k]
        while b:
            out[n] = (k << 6) + __builtin_ctzll(b)
            n += 1
            b &= b - 1
    return n


cdef int try_legacy(const Tab *t, Work *w, int d, int c) noexcept nogil:
    cdef int W = t.W, k, n = 0, j
    cdef const uint64_t *P = t.pools + <Py_ssize_t>c * W
    cdef uint64_t b
    cdef uint64_t *spill = w.spill + d * W
    cdef int32_t *four = w.four + d * ITEMS
    if t.synthetic[c]:
        for k in range(W):
            if P[k] & w.used[k]:
                skip(w, d, c, R_TAG_ON_BOARD)
                return 0
    for k in range(W):
        b = P[k] & ~w.used[k] & ~w.forbidden[k]
        while b:
            w.avail[n] = (k << 6) + __builtin_ctzll(b)
            n += 1
            b &= b - 1
    if n < ITEMS:
        skip(w, d, c, R_TOO_FEW_AVAILABLE if t.synthetic[c] else R_TOO_FEW_PICKABLE)
        return 0
    fc_shuffle_i32(w.avail, n, &w.state)
    for k in range(W):
        spill[k] = P[k]
    for j in range(ITEMS):
        four[j] = w.avail[j]
        spill[four[j] >> 6] &= ~((<uint64_t>1) << (four[j] & 63))
        w.used[four[j] >> 6] |= (<uint64_t>1) << (four[j] & 63)
    for k in range(W):
        w.forbidden[k] |= spill[k]
    w.cats[d] = c
    w.ncat = d + 1
    if t.synthetic[c]:
        w.used_tag[t.tag_index[c]] = 1
    emit(w, E_PLACE, d, c, four[0], four[1], four[2], four[3], -1)
    return 1


cdef int try_fixed(const Tab *t, Work *w, int d, int c) noexcept nogil:
    cdef int W = t.W, k, j, own = 0, n
    cdef const uint64_t *P = t.pools + <Py_ssize_t>c * W
    cdef const uint64_t *F = t.fits + <Py_ssize_t>c * W
    cdef const uint64_t *Q
    cdef const uint64_t *A = w.any_ + d * W
    cdef const uint64_t *M = w.multi + d * W
    cdef uint64_t *A2 = w.any_ + (d + 1) * W
    cdef uint64_t *M2 = w.multi + (d + 1) * W
    for k in range(W):
        own += fc_popcount64(P[k] & ~A[k])
    if own < ITEMS:
        skip(w, d, c, R_TOO_FEW_EXCLUSIVE)
        return 0
    for j in range(d):
        Q = t.pools + <Py_ssize_t>w.cats[j] * W
        n = 0
        for k in range(W):
            n += fc_popcount64(Q[k] & ~M[k] & ~F[k])
        if n < ITEMS:
            skip(w, d, c, R_CROWDS_PLACED)
            return 0
    for k in range(W):
        A2[k] = A[k] | F[k]
        M2[k] = M[k] | (A[k] & F[k])
    w.cats[d] = c
    w.ncat = d + 1
    if t.synthetic[c]:
        w.used_tag[t.tag_index[c]] = 1
    emit(w, E_PLACE, d, c, -1, -1, -1, -1, own)
    return 1


cdef void undo(const Tab *t, Work *w, int d, int c) noexcept nogil:
    cdef int W = t.W, k, j
    cdef int32_t *four
    cdef uint64_t *spill
    w.ncat = d
    if t.synthetic[c]:
        w.used_tag[t.tag_index[c]] = 0
    if w.legacy:
        four = w.four + d * ITEMS
        spill = w.spill + d * W
        for j in range(ITEMS):
            w.used[four[j] >> 6] &= ~((<uint64_t>1) << (four[j] & 63))
        # The spec's flat set: this clears codes an earlier group may still forbid.
        for k in range(W):
            w.forbidden[k] &= ~spill[k]
    # fixed: the planes of depth d were never written by deeper tiers, nothing to restore


cdef inline bint has_bit(const uint64_t *bits, int x) noexcept nogil:
    return (bits[x >> 6] >> (x & 63)) & 1


cdef void apply_decoy(const Tab *t, Work *w, const int32_t *cats, int32_t *gt, int32_t *dec,
                      const uint64_t *once) noexcept nogil:
    """The decoy draw (made even when w.decoy is off) and, when applied, its swap in ``gt``; the
    herring comes from ``once`` (the exclusive codes) when given, else from the whole pool (legacy)."""
    cdef int W = t.W, k, g, h, j, x
    cdef int32_t order[4]
    cdef uint64_t *onboard = w.forbidden   # free after the search in both variants
    cdef uint64_t b
    cdef const uint64_t *P
    dec[0] = -1
    dec[1] = -1
    dec[2] = -1
    if not (fc_mulberry32_next(&w.state) < DECOY_BELOW and w.decoy):
        return
    for k in range(W):
        onboard[k] = 0
    for k in range(16):
        onboard[gt[k] >> 6] |= (<uint64_t>1) << (gt[k] & 63)
    for g in range(TIERS):
        order[g] = g
    fc_shuffle_i32(order, TIERS, &w.state)
    for h in range(TIERS):
        g = order[h]
        P = t.pools + <Py_ssize_t>cats[g] * W
        x = -1
        for k in range(W):
            # the source is the pool in legacy (flaw 3), the exclusive codes when fixed
            b = P[k] & ~onboard[k]
            if once != NULL:
                b &= once[k]
            if b:
                x = (k << 6) + __builtin_ctzll(b)
                break
        if x < 0:
            continue
        j = fc_mulberry32_below(&w.state, ITEMS)
        dec[0] = g
        dec[1] = gt[g * ITEMS + j]
        dec[2] = x
        gt[g * ITEMS + j] = x
        return


cdef enum:
    SPLIT_STACK_CATS = 1024      # categories whose masks fit the C stack (more: the heap)
    SPLIT_STACK_FOURS = 1024     # candidate fours likewise (a board has about 15 to 25)


cdef struct Fours:
    # the complete off-board fours of one draw, kept as its tiles change (the repair's swaps, the decoy)
    uint16_t *mays               # n_cat: which of the 16 tiles each category's fit set holds (bit i: tile i)
    uint8_t *size                # n_cat: how many (the popcount of mays, kept beside it: most tests stop at it)
    int32_t hits[16]             # per tile, the complete fours that hold it
    int count                    # the complete fours


cdef inline int complete_four(uint16_t m, int size) noexcept nogil:
    """1 when a category with members ``m`` on the board (bit i: tile i; ``size`` of them) deals a
    complete off-board four: exactly four tiles, not one group's (a board's own category holds
    exactly its group): four tiles are one group's when one nibble of ``m`` is full."""
    return size == ITEMS and (m & (m >> 1) & (m >> 2) & (m >> 3) & 0x1111) == 0


cdef inline void fours_tally(Fours *f, uint16_t m, int sign) noexcept nogil:
    """Count the complete four ``m`` in (sign 1) or out (-1): the count and its four tiles' hits."""
    f.count += sign
    while m:
        f.hits[__builtin_ctzll(m)] += sign
        m &= m - 1


cdef void fours_init(const Tab *t, const int32_t *gt, Fours *f) noexcept nogil:
    """``f`` for the 16 tiles ``gt`` (f.mays is the caller's, n_cat long): each tile's categories
    from its per-code list, then one pass over the categories."""
    cdef int i, k, c
    memset(f.mays, 0, t.n_cat * sizeof(uint16_t))
    memset(f.size, 0, t.n_cat * sizeof(uint8_t))
    memset(f.hits, 0, sizeof(f.hits))
    f.count = 0
    for i in range(16):
        for k in range(t.code_fit_off[gt[i]], t.code_fit_off[gt[i] + 1]):
            c = t.code_fit_flat[k]
            f.mays[c] |= <uint16_t>(1 << i)
            f.size[c] += 1
    for c in range(t.n_cat):
        if complete_four(f.mays[c], f.size[c]):
            fours_tally(f, f.mays[c], 1)


cdef inline void fours_set(Fours *f, int c, uint16_t m, int size) noexcept nogil:
    """Category c's members on the board become ``m`` (``size`` of them)."""
    if complete_four(f.mays[c], f.size[c]):
        fours_tally(f, f.mays[c], -1)
    if complete_four(m, size):
        fours_tally(f, m, 1)
    f.mays[c] = m
    f.size[c] = <uint8_t>size


cdef void fours_swap(const Tab *t, Fours *f, int i, int x, int y) noexcept nogil:
    """Tile i changes from code x to code y: only the categories of x and of y change (one that
    holds both is set twice and ends as it was), and only those of 3 to 5 members can start or
    stop being a complete four."""
    cdef uint16_t bit = <uint16_t>(1 << i)
    cdef int k, c, n
    for k in range(t.code_fit_off[x], t.code_fit_off[x + 1]):
        c = t.code_fit_flat[k]
        n = f.size[c]
        if n == ITEMS or n == ITEMS + 1:
            fours_set(f, c, f.mays[c] & ~bit, n - 1)
        else:
            f.mays[c] &= ~bit
            f.size[c] = <uint8_t>(n - 1)
    for k in range(t.code_fit_off[y], t.code_fit_off[y + 1]):
        c = t.code_fit_flat[k]
        n = f.size[c]
        if n == ITEMS or n == ITEMS - 1:
            fours_set(f, c, f.mays[c] | bit, n + 1)
        else:
            f.mays[c] |= bit
            f.size[c] = <uint8_t>(n + 1)


cdef int leaf(const Tab *t, Work *w) noexcept nogil:
    """Four categories found (fixed search): draw each group's four from its exclusive codes, repair
    the draw (``repair``) and draw the decoy, up to REDRAWS times, until the sixteen tiles deal at
    most DECOY_FOURS_CAP complete off-board fours and split into four fours in no other way.
    1: accepted (w.drawn, w.gt, w.dec hold it; also on out of memory, w.oom set), 0: move on.
    The complete fours of a draw are counted once (``fours_init``) and kept through its repair and
    its decoy by the swaps (``fours_swap``)."""
    cdef int W = t.W, k, g, j, n, a, r, found = 0
    cdef int32_t off[5]
    cdef uint64_t *once = w.spill          # exclusive codes at depth 4 (spill is legacy-only)
    cdef uint64_t *src = w.spill + W
    cdef const uint64_t *P
    cdef uint16_t mays_stack[SPLIT_STACK_CATS]
    cdef uint8_t size_stack[SPLIT_STACK_CATS]
    cdef Fours f
    if fours_alloc(t, &f, mays_stack, size_stack) < 0:
        w.oom = True
        return 1
    for k in range(W):
        once[k] = w.any_[4 * W + k] & ~w.multi[4 * W + k]
    for a in range(REDRAWS):
        # each group's shuffled exclusive codes, one after another in avail (they are disjoint)
        off[0] = 0
        for g in range(TIERS):
            P = t.pools + <Py_ssize_t>w.cats[g] * W
            for k in range(W):
                src[k] = P[k] & once[k]
            n = list_bits(src, W, w.avail + off[g])
            off[g + 1] = off[g] + n
            fc_shuffle_i32(w.avail + off[g], n, &w.state)
            for j in range(ITEMS):
                w.gt[g * ITEMS + j] = w.avail[off[g] + j]
        fours_init(t, w.gt, &f)
        repair(t, &f, w.gt, w.avail, off)
        for k in range(16):
            w.drawn[k] = w.gt[k]
        apply_decoy(t, w, w.cats, w.gt, w.dec, once)
        if w.dec[0] >= 0:
            for k in range(w.dec[0] * ITEMS, (w.dec[0] + 1) * ITEMS):
                if w.gt[k] != w.drawn[k]:
                    fours_swap(t, &f, k, w.drawn[k], w.gt[k])
        # the cheap count first: a draw over the cap needs no cover search
        if f.count > DECOY_FOURS_CAP:
            continue
        r = second_split_search(t, w.gt, NULL, NULL)
        if r < 0:
            w.oom = True
        if r <= 0:
            found = 1
            break
    if f.mays != mays_stack:
        free(f.mays)
    return found


cdef int fours_alloc(const Tab *t, Fours *f, uint16_t *mays_stack, uint8_t *size_stack) noexcept nogil:
    """Point f's arrays at the caller's stack buffers (SPLIT_STACK_CATS long) when the categories fit,
    else at one heap block (the caller frees f.mays when it is not ``mays_stack``); -1 out of memory."""
    f.mays = mays_stack
    f.size = size_stack
    if t.n_cat > SPLIT_STACK_CATS:
        f.mays = <uint16_t *>malloc(t.n_cat * (sizeof(uint16_t) + sizeof(uint8_t)))
        if f.mays == NULL:
            return -1
        f.size = <uint8_t *>(f.mays + t.n_cat)
    return 0


cdef void repair(const Tab *t, Fours *f, int32_t *gt, int32_t *order, const int32_t *off) noexcept nogil:
    """Swap drawn tiles ``gt`` (``f`` their complete fours) for spares of their group until they deal
    at most DECOY_FOURS_CAP complete off-board fours, at most REPAIRS swaps; ``order`` holds each
    group's shuffled exclusive codes (group g at off[g]..off[g+1], its four first, its spares after).
    The twin: flagcore.reference.connections._repair, whose docstring states the choice."""
    cdef int32_t spare[4]
    cdef int i, k, c, g, j, x, y, step, best_i, best_j, best_delta, delta, out, last, n
    cdef uint16_t m, bit
    for g in range(TIERS):
        spare[g] = off[g] + ITEMS
    for step in range(REPAIRS):
        if f.count <= DECOY_FOURS_CAP:
            return
        best_i = -1
        for i in range(16):
            if spare[i >> 2] < off[(i >> 2) + 1] and (best_i < 0 or f.hits[i] > f.hits[best_i]):
                best_i = i
        if best_i < 0:
            return
        i = best_i
        g = i >> 2
        x = gt[i]
        bit = <uint16_t>(1 << i)
        # a swap's change of the count: what taking x out does (once, for every spare), then what
        # putting y in does, where a category that holds both (bit i set) gives back x's part
        out = 0
        # (a category of fewer than 3 or more than 5 members is no complete four before or after)
        for k in range(t.code_fit_off[x], t.code_fit_off[x + 1]):
            c = t.code_fit_flat[k]
            n = f.size[c]
            if n == ITEMS or n == ITEMS + 1:
                m = f.mays[c]
                out += complete_four(<uint16_t>(m & ~bit), n - 1) - complete_four(m, n)
        best_j = -1
        best_delta = 0
        last = spare[g] + REPAIR_TRIES
        if last > off[g + 1]:
            last = off[g + 1]
        for j in range(spare[g], last):
            y = order[j]
            delta = out
            for k in range(t.code_fit_off[y], t.code_fit_off[y + 1]):
                c = t.code_fit_flat[k]
                n = f.size[c]
                if n < ITEMS - 1 or n > ITEMS + 1:
                    continue
                m = f.mays[c]
                if m & bit:
                    delta += complete_four(m, n) - complete_four(<uint16_t>(m & ~bit), n - 1)
                else:
                    delta += complete_four(<uint16_t>(m | bit), n + 1) - complete_four(m, n)
            if best_j < 0 or delta < best_delta:
                best_j = j
                best_delta = delta
        y = order[best_j]
        order[best_j] = order[spare[g]]
        order[spare[g]] = y
        spare[g] += 1
        fours_swap(t, f, i, x, y)
        gt[i] = y


cdef int cover(const int32_t *bcat, const uint16_t *bmask, const int32_t *boff, int covered, int depth,
               int32_t *ccat, int32_t *cmask) noexcept nogil:
    """Complete a split from ``covered`` (depth fours chosen): the lowest uncovered tile's bucket only."""
    cdef int low, k, j, m, c
    cdef bint dup
    if covered == 0xFFFF:
        for j in range(depth):
            m = cmask[j]
            if m != 0xF and m != 0xF0 and m != 0xF00 and m != 0xF000:
                return 1
        return 0
    low = __builtin_ctzll(<unsigned long long>(~covered & 0xFFFF))
    for k in range(boff[low], boff[low + 1]):
        m = bmask[k]
        c = bcat[k]
        if m & covered:
            continue
        dup = False
        for j in range(depth):
            if ccat[j] == c:
                dup = True
        if dup:
            continue
        ccat[depth] = c
        cmask[depth] = m
        if cover(bcat, bmask, boff, covered | m, depth + 1, ccat, cmask):
            return 1
    return 0


cdef int decoy_fours_count(const Tab *t, const int32_t *gt) noexcept nogil:
    """The complete off-board fours of the 16 tiles ``gt`` (group g at 4g..4g+3): categories whose
    fit set holds exactly four of them, not all of one group (``complete_four``); -1 out of memory.
    The twin: flagcore.reference.connections._decoy_fours."""
    cdef uint16_t mays_stack[SPLIT_STACK_CATS]
    cdef uint8_t size_stack[SPLIT_STACK_CATS]
    cdef Fours f
    if fours_alloc(t, &f, mays_stack, size_stack) < 0:
        return -1
    fours_init(t, gt, &f)
    if f.mays != mays_stack:
        free(f.mays)
    return f.count


cdef int second_split_search(const Tab *t, const int32_t *gt, int32_t *out_cats, int32_t *out_masks) noexcept nogil:
    """1 when the 16 tiles ``gt`` (group g at 4g..4g+3) split into four fours other than the groups
    (then out_cats/out_masks, when not NULL, hold it), 0 when not, -1 out of memory. The twin:
    flagcore.reference.connections._split, whose docstring states the search."""
    cdef int c, i, k, m, nf, r, j, total = 0, n4 = 0, low, rc = 0, x
    cdef int may, must, free_bits
    cdef int32_t fb[16]
    cdef int32_t idx[4]
    cdef int32_t boff[17]
    cdef int32_t ccat[4]
    cdef int32_t cmask[4]
    cdef uint16_t mays_stack[SPLIT_STACK_CATS]
    cdef uint16_t musts_stack[SPLIT_STACK_CATS]
    cdef int32_t fcat_stack[2 * SPLIT_STACK_FOURS]
    cdef uint16_t fmask_stack[2 * SPLIT_STACK_FOURS]
    cdef uint16_t *mays = mays_stack
    cdef uint16_t *musts = musts_stack
    cdef int32_t *fcat = fcat_stack
    cdef uint16_t *fmask = fmask_stack
    cdef int32_t *bcat
    cdef uint16_t *bmask
    if t.n_cat > SPLIT_STACK_CATS:
        mays = <uint16_t *>malloc(2 * t.n_cat * sizeof(uint16_t))
        if mays == NULL:
            return -1
        musts = mays + t.n_cat
    memset(mays, 0, t.n_cat * sizeof(uint16_t))
    memset(musts, 0, t.n_cat * sizeof(uint16_t))
    # each tile's categories (fit set, then pool): 16 short lists instead of every category's bits
    for i in range(16):
        x = gt[i]
        for k in range(t.code_fit_off[x], t.code_fit_off[x + 1]):
            mays[t.code_fit_flat[k]] |= <uint16_t>(1 << i)
        for k in range(t.code_pool_off[x], t.code_pool_off[x + 1]):
            musts[t.code_pool_flat[k]] |= <uint16_t>(1 << i)
    for c in range(t.n_cat):
        if fc_popcount64(mays[c]) >= ITEMS:
            m = fc_popcount64(musts[c])
            if m <= ITEMS:
                total += _choose(fc_popcount64(mays[c] & ~musts[c]), ITEMS - m)
            else:
                mays[c] = 0  # more than four tiles certainly fit it: no four of it
    if total == 0:
        if mays != mays_stack:
            free(mays)
        return 0
    if total > SPLIT_STACK_FOURS:
        fcat = <int32_t *>malloc(2 * total * sizeof(int32_t))
        fmask = <uint16_t *>malloc(2 * total * sizeof(uint16_t))
        if fcat == NULL or fmask == NULL:
            if mays != mays_stack:
                free(mays)
            free(fcat)
            free(fmask)
            return -1
    bcat = fcat + total
    bmask = fmask + total
    # every four of each category, by category, extras in lexicographic order
    for c in range(t.n_cat):
        if fc_popcount64(mays[c]) < ITEMS:
            continue
        must = musts[c]
        free_bits = mays[c] & ~must
        nf = 0
        for i in range(16):
            if (free_bits >> i) & 1:
                fb[nf] = i
                nf += 1
        r = ITEMS - fc_popcount64(<uint64_t>must)
        for j in range(r):
            idx[j] = j
        while True:
            m = must
            for j in range(r):
                m |= 1 << fb[idx[j]]
            fcat[n4] = c
            fmask[n4] = <uint16_t>m
            n4 += 1
            j = r - 1
            while j >= 0 and idx[j] == nf - r + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for i in range(j + 1, r):
                idx[i] = idx[i - 1] + 1
    # bucketed by lowest tile, keeping that order (a counting sort)
    for i in range(17):
        boff[i] = 0
    for k in range(n4):
        boff[__builtin_ctzll(<unsigned long long>fmask[k]) + 1] += 1
    for i in range(16):
        boff[i + 1] += boff[i]
    for k in range(n4):
        low = __builtin_ctzll(<unsigned long long>fmask[k])
        bcat[boff[low]] = fcat[k]
        bmask[boff[low]] = fmask[k]
        boff[low] += 1
    for i in range(15, -1, -1):
        boff[i + 1] = boff[i]
    boff[0] = 0
    rc = cover(bcat, bmask, boff, 0, 0, ccat, cmask)
    if rc and out_cats != NULL:
        for j in range(4):
            out_cats[j] = ccat[j]
            out_masks[j] = cmask[j]
    if mays != mays_stack:
        free(mays)
    if fcat != fcat_stack:
        free(fcat)
        free(fmask)
    return rc


def _step_rows(tables, Py_ssize_t n_cat):
    """(flat, off): per tier d > 0 and category p placed at tier d-1, tier d's candidates whose level
    exceeds p's by step[0]..step[1], in tier_flat's order (Tab.step_flat; the twin's step_rows)."""
    lev = np.asarray(tables.level, dtype=np.int64)
    flat, counts = [], []
    for d in range(1, TIERS):
        cand = np.asarray(tables.tier_flat[int(tables.tier_off[d]):int(tables.tier_off[d + 1])], dtype=np.int64)
        diff = lev[cand][None, :] - lev[:n_cat, None]
        ok = (diff >= int(tables.step[0])) & (diff <= int(tables.step[1]))
        flat.append(np.broadcast_to(cand, ok.shape)[ok])  # row by row: p's row in cand's order
        counts.append(ok.sum(axis=1))
    off = np.zeros((TIERS - 1) * n_cat + 1, dtype=np.int32)
    off[1:] = np.cumsum(np.concatenate(counts)) if n_cat else []
    rows = np.zeros(max(int(off[-1]), 1), dtype=np.int32)
    rows[:int(off[-1])] = np.concatenate(flat)
    return rows, off


cdef inline int _choose(int n, int k) noexcept nogil:
    """n choose k for 0 <= k <= 4 (0 when k > n)."""
    cdef int out = 1, i
    if k < 0 or k > n:
        return 0
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


cdef int tier_search(const Tab *t, Work *w, int d) noexcept nogil:
    """The spec's backtrackCategories from tier d: 1 found, 0 exhausted."""
    cdef int32_t *moves
    cdef const int32_t *given
    cdef int n = 0, i, c, placed, facts = 0, lo, hi
    cdef bint facts_only
    if d == TIERS:
        # a caller's order (search_categories) asks for categories only: no tiles to draw
        if w.legacy or w.order_off != NULL:
            return 1
        return leaf(t, w)
    w.counters[C_ENTRIES + d] += 1
    moves = w.moves + d * t.max_tier
    # the fixed search keeps room for min_facts fact groups: when the tiers left after this one
    # cannot bring the count up, only facts are moves here
    for i in range(d):
        facts += t.fact[w.cats[i]]
    # (a caller's order, search_categories, is searched as given: the schedule plans its own days)
    facts_only = not w.legacy and w.order_off == NULL and facts + TIERS - 1 - d < t.min_facts
    if w.order_off != NULL:  # the caller's order (a schedule's preference): no shuffle, no draw
        given, lo, hi = w.order_flat, w.order_off[d], w.order_off[d + 1]
    elif t.level != NULL and d > 0:
        # a rated search: each tier harder than the one before by a step in range, the candidates
        # that pass read from the step row of tier d-1's category (the same moves, in the same order)
        given = t.step_flat
        lo = t.step_off[(d - 1) * t.n_cat + w.cats[d - 1]]
        hi = t.step_off[(d - 1) * t.n_cat + w.cats[d - 1] + 1]
    else:
        given, lo, hi = t.tier_flat, t.tier_off[d], t.tier_off[d + 1]
    for i in range(lo, hi):
        c = given[i]
        if (t.synthetic[c] and w.used_tag[t.tag_index[c]]) or (facts_only and not t.fact[c]):
            continue
        if t.level != NULL and d > 0 and w.order_off != NULL and not (
                t.step_min <= t.level[c] - t.level[w.cats[d - 1]] <= t.step_max):
            continue  # a caller's order on rated tables: the step filters it as it is
        moves[n] = c
        n += 1
    if w.order_off == NULL:
        fc_shuffle_i32(moves, n, &w.state)
    emit(w, E_ENTER, d, -1, n, -1, -1, -1, -1)
    for i in range(n):
        c = moves[i]
        w.counters[C_MOVES] += 1
        emit(w, E_TRY, d, c, -1, -1, -1, -1, -1)
        if w.legacy:
            placed = try_legacy(t, w, d, c)
        else:
            placed = try_fixed(t, w, d, c)
        if not placed:
            continue
        if tier_search(t, w, d + 1):
            return 1
        undo(t, w, d, c)
        w.counters[C_BACKTRACKS] += 1
        emit(w, E_UNDO, d, c, -1, -1, -1, -1, -1)
    w.counters[C_EXHAUSTED + d] += 1
    emit(w, E_BACKTRACK, d, -1, -1, -1, -1, -1, -1)
    return 0


cdef int run_one(const Tab *t, Work *w, uint32_t state, bint decoy, int32_t *cats,
                 int32_t *gt, int32_t *tiles, int32_t *dec, int32_t *counters,
                 int8_t *ambiguous, int8_t *arguable) noexcept nogil:
    """One board into the output rows; returns its SearchStatus."""
    cdef int W = t.W, k, g, h, j, n, na, x
    cdef bint in_pool, in_arg
    w.state = state
    w.decoy = decoy
    w.ncat = 0
    w.n_events = 0
    memset(w.counters, 0, sizeof(w.counters))
    memset(w.used, 0, 2 * W * sizeof(uint64_t))
    memset(w.used_tag, 0, t.n_tags + 1)
    dec[0] = -1
    dec[1] = -1
    dec[2] = -1
    ambiguous[0] = 0
    arguable[0] = 0
    if not tier_search(t, w, 0):
        memcpy(counters, w.counters, sizeof(w.counters))
        for k in range(4):
            cats[k] = -1
        for k in range(16):
            gt[k] = -1
            tiles[k] = -1
        return STATUS_NO_BOARD
    for g in range(TIERS):
        cats[g] = w.cats[g]
    if w.legacy:
        for k in range(16):
            gt[k] = w.four[k]
        apply_decoy(t, w, cats, gt, dec, NULL)
    else:
        # the leaf drew the tiles and the decoy; the trace shows the accepted draw only
        for k in range(16):
            gt[k] = w.gt[k]
        for k in range(3):
            dec[k] = w.dec[k]
        for g in range(TIERS):
            emit(w, E_DRAW, g, cats[g], w.drawn[g * ITEMS], w.drawn[g * ITEMS + 1], w.drawn[g * ITEMS + 2],
                 w.drawn[g * ITEMS + 3], -1)
    if dec[0] >= 0:
        emit(w, E_DECOY, dec[0], cats[dec[0]], dec[1], dec[2], -1, -1, -1)
    for k in range(16):
        tiles[k] = gt[k]
    fc_shuffle_i32(tiles, 16, &w.state)
    n = 0
    na = 0
    for g in range(TIERS):
        for j in range(ITEMS):
            x = gt[g * ITEMS + j]
            in_pool = False
            in_arg = False
            for h in range(TIERS):
                if h != g:
                    if has_bit(t.pools + <Py_ssize_t>cats[h] * W, x):
                        in_pool = True
                    elif has_bit(t.fits + <Py_ssize_t>cats[h] * W, x):
                        in_arg = True
            n += in_pool
            na += in_arg
    ambiguous[0] = <int8_t>n
    arguable[0] = <int8_t>na
    memcpy(counters, w.counters, sizeof(w.counters))
    return STATUS_OK


def search_one(Prepared prep not None, uint32_t state, bint legacy, bint decoy, bint trace):
    """One board as the raw tuple of flagcore.reference.connections.search_one."""
    cdef Work w
    cdef int32_t cats[4]
    cdef int32_t gt[16]
    cdef int32_t tiles[16]
    cdef int32_t dec[3]
    cdef int32_t counters[NCOUNTERS]
    cdef int8_t amb, arg
    cdef int status = 1, rc
    cdef Py_ssize_t i
    cdef uint64_t buf[WORK_STACK_WORDS]
    with nogil:
        rc = work_init(&w, &prep.tab, legacy, trace, buf, WORK_STACK_WORDS)
        if rc == 0:
            status = run_one(&prep.tab, &w, state, decoy, cats, gt, tiles, dec, counters, &amb, &arg)
    try:
        if rc != 0 or w.oom:
            raise MemoryError("connections: out of memory")
        events = None
        if trace:
            events = [tuple([w.events[i * EW + k] for k in range(EW)]) for i in range(w.n_events)]
        return (status, [cats[i] for i in range(4)], [gt[i] for i in range(16)],
                [tiles[i] for i in range(16)], [dec[0], dec[1], dec[2]],
                [counters[i] for i in range(NCOUNTERS)], amb, arg, events)
    finally:
        work_free(&w)


cdef extern from "Python.h":
    int PyObject_GenericSetAttr(object o, object name, object value) except -1

cdef extern from *:
    """
    /* object.__new__(cls) without going through a Python call: what cls() does before __init__. */
    static PyObject *fc_new_instance(PyObject *cls) {
        static PyObject *no_args = NULL;
        if (no_args == NULL && (no_args = PyTuple_New(0)) == NULL) return NULL;
        return PyBaseObject_Type.tp_new((PyTypeObject *)cls, no_args, NULL);
    }
    """
    object fc_new_instance(object cls)


# Board and Group are frozen dataclasses: their __setattr__ refuses, so their fields are set with
# the generic setter, in field order, as their __init__ would. This is the ordinary attribute path
# on every CPython (3.13's inline values included, where a replaced instance dict is not seen), and
# the instance keeps the compact attribute storage: cheaper than building a dict and setting it.
cdef inline object _new_group(object cls, int tier, object label, tuple codes, object category_id):
    obj = fc_new_instance(cls)
    PyObject_GenericSetAttr(obj, "tier", tier)
    PyObject_GenericSetAttr(obj, "label", label)
    PyObject_GenericSetAttr(obj, "codes", codes)
    PyObject_GenericSetAttr(obj, "category_id", category_id)
    return obj


cdef inline object _new_board(object cls, tuple tiles, tuple groups, object seed, object mode, bint legacy,
                              dict stats, object events):
    obj = fc_new_instance(cls)
    PyObject_GenericSetAttr(obj, "tiles", tiles)
    PyObject_GenericSetAttr(obj, "groups", groups)
    PyObject_GenericSetAttr(obj, "seed", seed)
    PyObject_GenericSetAttr(obj, "mode", mode)
    PyObject_GenericSetAttr(obj, "legacy", legacy)
    PyObject_GenericSetAttr(obj, "stats", stats)
    PyObject_GenericSetAttr(obj, "events", events)
    return obj


def search_board(Prepared prep not None, uint32_t state, seed, bint legacy, bint decoy, bint trace):
    """The Board of one search, built here from the C arrays (the twin: reference search_board).

    Building the Board costs about what the search costs; building it here in one step, without
    intermediate lists, keeps generate() a few microseconds. A failed search raises NoBoardError.
    """
    cdef Work w
    cdef int32_t cats[4]
    cdef int32_t gt[16]
    cdef int32_t tiles[16]
    cdef int32_t dec[3]
    cdef int32_t counters[NCOUNTERS]
    cdef int8_t amb, arg
    cdef int status = STATUS_NO_BOARD, rc, g, c, r
    cdef Py_ssize_t i
    cdef tuple codes = prep.codes
    cdef uint64_t buf[WORK_STACK_WORDS]
    with nogil:
        rc = work_init(&w, &prep.tab, legacy, trace, buf, WORK_STACK_WORDS)
        if rc == 0:
            status = run_one(&prep.tab, &w, state, decoy, cats, gt, tiles, dec, counters, &amb, &arg)
    try:
        if rc != 0 or w.oom:
            raise MemoryError("connections: out of memory")
        if status != STATUS_OK:
            raise NoBoardError(no_board_message(prep.mode, seed, legacy, counters[C_MOVES]))
        group_type = prep.group_type
        groups = (
            _new_group(group_type, 0, prep.labels[cats[0]],
                       (codes[gt[0]], codes[gt[1]], codes[gt[2]], codes[gt[3]]), prep.ids[cats[0]]),
            _new_group(group_type, 1, prep.labels[cats[1]],
                       (codes[gt[4]], codes[gt[5]], codes[gt[6]], codes[gt[7]]), prep.ids[cats[1]]),
            _new_group(group_type, 2, prep.labels[cats[2]],
                       (codes[gt[8]], codes[gt[9]], codes[gt[10]], codes[gt[11]]), prep.ids[cats[2]]),
            _new_group(group_type, 3, prep.labels[cats[3]],
                       (codes[gt[12]], codes[gt[13]], codes[gt[14]], codes[gt[15]]), prep.ids[cats[3]]))
        skips = {}
        for r in range(N_REASONS):
            skips[_REASON_NAMES[r]] = counters[C_SKIPS + r]
        stats = {
            "moves_tried": counters[C_MOVES],
            "backtracks": counters[C_BACKTRACKS],
            "decoy_applied": dec[0] >= 0,
            "decoy": None if dec[0] < 0 else {"tier": dec[0], "removed": codes[dec[1]], "added": codes[dec[2]]},
            "skips": skips,
            "tier_entries": [counters[C_ENTRIES], counters[C_ENTRIES + 1], counters[C_ENTRIES + 2],
                             counters[C_ENTRIES + 3]],
            "tier_exhaustions": [counters[C_EXHAUSTED], counters[C_EXHAUSTED + 1], counters[C_EXHAUSTED + 2],
                                 counters[C_EXHAUSTED + 3]],
            "ambiguous_tiles": amb,
            "arguable_tiles": arg,
        }
        events = None
        if trace:
            events = event_dicts(codes, prep.tables.categories,
                                 [tuple([w.events[i * EW + k] for k in range(EW)]) for i in range(w.n_events)])
        return _new_board(prep.board_type,
                          (codes[tiles[0]], codes[tiles[1]], codes[tiles[2]], codes[tiles[3]], codes[tiles[4]],
                           codes[tiles[5]], codes[tiles[6]], codes[tiles[7]], codes[tiles[8]], codes[tiles[9]],
                           codes[tiles[10]], codes[tiles[11]], codes[tiles[12]], codes[tiles[13]],
                           codes[tiles[14]], codes[tiles[15]]),
                          groups, seed, prep.mode, legacy, stats, events)
    finally:
        work_free(&w)


def search_many(Prepared prep not None, const uint32_t[::1] states, bint legacy, bint decoy,
                int8_t[::1] status, int32_t[:, ::1] cats, int32_t[:, ::1] group_tiles,
                int32_t[:, ::1] tiles, int32_t[:, ::1] decoys, int32_t[:, ::1] counters,
                int8_t[::1] ambiguous, int8_t[::1] arguable):
    """search_one for each state into row i of the outputs, the whole loop without the GIL."""
    cdef Py_ssize_t n = states.shape[0], i
    cdef Work w
    cdef int rc = 0
    # The kernel's own guard: batch.py allocates these arrays, so a mismatch is flagcore's bug, and
    # the loop below writes rows without bounds checks.
    if (status.shape[0] != n or cats.shape[0] != n or group_tiles.shape[0] != n or tiles.shape[0] != n
            or decoys.shape[0] != n or counters.shape[0] != n or ambiguous.shape[0] != n
            or arguable.shape[0] != n):
        raise ValueError("search_many: every output needs one row per state")
    if (cats.shape[1] != 4 or group_tiles.shape[1] != 16 or tiles.shape[1] != 16 or decoys.shape[1] != 3
            or counters.shape[1] != NCOUNTERS):
        raise ValueError("search_many: output arrays have the wrong widths")
    if n == 0:
        return
    with nogil:
        rc = work_init(&w, &prep.tab, legacy, False, NULL, 0)
        if rc == 0:
            for i in range(n):
                status[i] = <int8_t>run_one(&prep.tab, &w, states[i], decoy, &cats[i, 0],
                                            &group_tiles[i, 0], &tiles[i, 0], &decoys[i, 0],
                                            &counters[i, 0], &ambiguous[i], &arguable[i])
                if w.oom:
                    break
        work_free(&w)
    if rc != 0 or w.oom:
        raise MemoryError("connections: out of memory")


cdef _sixteen(Prepared prep, group_tiles, str name, int32_t *gt):
    """Check a board's 16 code indices (``name`` says whose argument) and copy them into ``gt``."""
    cdef int i
    tiles = [int(x) for x in group_tiles]
    if len(tiles) != 16 or not all(0 <= x < prep.tab.n_codes for x in tiles):
        raise ValueError(f"{name}: group_tiles must be 16 code indices")
    for i in range(16):
        gt[i] = tiles[i]


def second_split(Prepared prep not None, group_tiles):
    """The first split of the 16 tiles (group g at 4g..4g+3, code indices) into four fours other
    than the board's groups, as four (category, mask) pairs, or [] (the twin's docstring says how)."""
    cdef int32_t gt[16]
    cdef int32_t out_cats[4]
    cdef int32_t out_masks[4]
    cdef int rc, i
    _sixteen(prep, group_tiles, "second_split", gt)
    with nogil:
        rc = second_split_search(&prep.tab, gt, out_cats, out_masks)
    if rc < 0:
        raise MemoryError("connections: out of memory")
    return [(out_cats[i], out_masks[i]) for i in range(4)] if rc else []


def decoy_fours(Prepared prep not None, group_tiles):
    """How many complete off-board fours the 16 tiles deal (group g at 4g..4g+3, code indices):
    categories whose fit set holds exactly four of them, not all of one group (the twin's docstring)."""
    cdef int32_t gt[16]
    cdef int rc
    _sixteen(prep, group_tiles, "decoy_fours", gt)
    with nogil:
        rc = decoy_fours_count(&prep.tab, gt)
    if rc < 0:
        raise MemoryError("connections: out of memory")
    return rc


def repair_draw(Prepared prep not None, orders):
    """The leaf's repair of one draw: ``orders`` holds each group's codes (its four first, then its
    spares in order; four groups, distinct code indices). Returns (the 16 tiles after the repair,
    group g at 4g..4g+3; the complete off-board fours they deal) (the twin's docstring)."""
    cdef int32_t gt[16]
    cdef int32_t off[5]
    cdef int32_t[::1] flat
    cdef uint16_t mays_stack[SPLIT_STACK_CATS]
    cdef uint8_t size_stack[SPLIT_STACK_CATS]
    cdef Fours f
    cdef int g, j, rc
    groups = [[int(x) for x in order] for order in orders]
    codes = [x for order in groups for x in order]
    if (len(groups) != TIERS or any(len(order) < ITEMS for order in groups) or len(set(codes)) != len(codes)
            or not all(0 <= x < prep.tab.n_codes for x in codes)):
        raise ValueError("repair_draw: orders must be four lists of at least 4 distinct code indices")
    flat = np.asarray(codes, dtype=np.int32)
    off[0] = 0
    for g in range(TIERS):
        off[g + 1] = off[g] + len(groups[g])
        for j in range(ITEMS):
            gt[g * ITEMS + j] = flat[off[g] + j]
    with nogil:
        rc = fours_alloc(&prep.tab, &f, mays_stack, size_stack)
        if rc == 0:
            fours_init(&prep.tab, gt, &f)
            repair(&prep.tab, &f, gt, &flat[0], off)
            if f.mays != mays_stack:
                free(f.mays)
    if rc < 0:
        raise MemoryError("connections: out of memory")
    return [gt[j] for j in range(16)], f.count


def search_categories(Prepared prep not None, order_flat, order_off):
    """The fixed search over the caller's candidate order: (status, cats, counters).

    Tier d tries ``order_flat[order_off[d]:order_off[d + 1]]`` in that order (no shuffle, so no
    Rng draw), depth first with the fixed search's pruning; the four categories are returned, no
    tiles. An order that lists every candidate of its tier keeps the search complete; a shorter
    one restricts it (how a schedule asks whether one category can be placed at all). Each tier
    lists at most as many categories as the library's longest tier, each an index of a category.
    """
    cdef int32_t[::1] flat = np.ascontiguousarray(order_flat, dtype=np.int32)
    cdef int32_t[::1] off = np.ascontiguousarray(order_off, dtype=np.int32)
    cdef Work w
    cdef int status = STATUS_NO_BOARD, rc, d, i
    cdef uint64_t buf[WORK_STACK_WORDS]
    cdef int32_t empty[1]
    if off.shape[0] != TIERS + 1 or off[0] != 0 or off[TIERS] != flat.shape[0]:
        raise _rules.category_order_error(_rules.ORDER_OFFSETS)
    for d in range(TIERS):
        if off[d + 1] < off[d] or off[d + 1] - off[d] > prep.tab.max_tier:
            raise _rules.category_order_error(_rules.ORDER_TIER_LENGTH, (d, off[d + 1] - off[d]))
    for i in range(flat.shape[0]):
        if not 0 <= flat[i] < prep.tab.n_cat:
            raise _rules.category_order_error(_rules.ORDER_INDEX, flat[i])
    with nogil:
        rc = work_init(&w, &prep.tab, False, False, buf, WORK_STACK_WORDS)
        if rc == 0:
            w.order_flat = &flat[0] if flat.shape[0] else empty
            w.order_off = &off[0]
            w.ncat = 0
            memset(w.counters, 0, sizeof(w.counters))
            memset(w.used_tag, 0, prep.tab.n_tags + 1)
            status = tier_search(&prep.tab, &w, 0)
    try:
        if rc != 0:
            raise MemoryError("connections: out of memory")
        ok = status == 1
        return (STATUS_OK if ok else STATUS_NO_BOARD, [w.cats[d] if ok else -1 for d in range(TIERS)],
                [w.counters[i] for i in range(NCOUNTERS)])
    finally:
        work_free(&w)


# The difficulty model of a board (its twin: flagcore.reference.connections_model).
include "connections_model.pxi"

# The greedy repair of a scheduled day's members (its twin: flagcore.reference.daily_repair).
include "daily_repair.pxi"
