# C-level layout, tables and workspace of the compiled Connections search (flagcore._connections).
# Declarations only: cimported by _connections.pyx and by any module that wants to run the search in C.
# The layout constants below have one Python mirror, python/flagcore/_connections_layout.py (used by
# the reference twin and the generator); tests/connections/test_connections_layout.py checks the two agree.
from libc.stdint cimport uint64_t, uint32_t, int32_t, int8_t, uint8_t

cdef enum:
    ITEMS = 4                   # tiles per group
    TIERS = 4
    EW = 8                      # ints per trace event
    DECOY_BELOW = 1073741824    # 2**30: rng() < 0.25 exactly when the draw is below it
    REDRAWS = 32                # tile draws of a found board before the search moves on (no second split,
                                # at most DECOY_FOURS_CAP complete off-board fours)
    DECOY_FOURS_CAP = 3         # complete off-board fours a board may deal (_connections_layout.py says why)
    REPAIRS = 16                # swaps of a drawn tile for a spare before a draw over the cap is redrawn
    REPAIR_TRIES = 4            # spares of its group a swap chooses from

# what one search returns
cdef enum SearchStatus:
    STATUS_OK = 0
    STATUS_NO_BOARD = 1

# why a candidate category was skipped
cdef enum SkipReason:
    R_TAG_ON_BOARD = 0
    R_TOO_FEW_AVAILABLE = 1
    R_TOO_FEW_PICKABLE = 2
    R_TOO_FEW_EXCLUSIVE = 3
    R_CROWDS_PLACED = 4
    N_REASONS = 5

# the counters row: moves_tried, backtracks, skips[N_REASONS], tier entries[4], tier exhaustions[4]
# (anonymous: its values index arrays)
cdef enum:
    C_MOVES = 0
    C_BACKTRACKS = 1
    C_SKIPS = 2
    C_ENTRIES = 7
    C_EXHAUSTED = 11
    NCOUNTERS = 15

# trace events: EW ints (kind, depth, category, a, b, c, d, e)
cdef enum EventKind:
    E_ENTER = 0
    E_TRY = 1
    E_SKIP = 2
    E_PLACE = 3
    E_UNDO = 4
    E_BACKTRACK = 5
    E_DRAW = 6
    E_DECOY = 7
    N_EVENT_KINDS = 8

# One (library, mode) as flat C arrays. Countries are indices into library.codes (sorted);
# a set of countries is W uint64 words (bit x of word x >> 6), W = ceil(n_codes / 64).
cdef struct Tab:
    int n_codes
    int W
    int n_cat
    int n_tags
    int max_tier                 # the longest tier candidate list
    uint64_t *pools              # n_cat * W: each category's pool
    uint64_t *fits               # n_cat * W: each category's pool and arguable codes
    int8_t *synthetic            # n_cat
    int32_t *tag_index           # n_cat, -1 for library categories
    int8_t *fact                 # n_cat, 1 for a fact category (trivia mode: one flags mode does not use)
    int min_facts                # fact groups a fixed-search board must hold (0: no rule)
    int32_t *tier_flat           # candidates per tier in base order, tier t at tier_off[t]..tier_off[t+1]
    int32_t tier_off[5]
    # a rated search (Tables.level): a candidate of tier d > 0 needs its level minus the level of
    # tier d-1's category in step_min..step_max
    int32_t *level               # n_cat, or NULL: no such rule
    int32_t step_min
    int32_t step_max
    # with level: the step rows, tier d's candidates (in tier_flat's order) that pass the step from
    # category p at tier d-1, at step_flat[step_off[(d-1)*n_cat+p]..step_off[(d-1)*n_cat+p+1]]
    # (built once per tables: an entry then reads its moves instead of filtering every candidate)
    int32_t *step_flat
    int32_t *step_off
    # per code, the categories whose fit set (pool) holds it: code x at *_off[x]..*_off[x+1] (second splits)
    int32_t *code_fit_flat
    int32_t *code_fit_off
    int32_t *code_pool_flat
    int32_t *code_pool_off

# Per-search state; one per thread, reused across boards.
cdef struct Work:
    uint32_t state               # the mulberry32 state
    bint legacy
    int ncat                     # groups placed
    int32_t cats[4]
    int32_t four[16]             # legacy: tiles of the placed groups
    uint64_t *used               # W       legacy: codes on the board
    uint64_t *forbidden          # W       legacy: the flat spill set
    uint64_t *spill              # 4 * W   legacy: what each placed group added to forbidden
    uint64_t *any_               # 5 * W   fixed: refcount planes over placed fit sets per depth: count >= 1
    uint64_t *multi              # 5 * W   fixed: count >= 2 (count == 1 is any_ & ~multi)
    int32_t *moves               # 4 * max_tier: each depth's shuffled candidates
    int32_t *avail               # n_codes: scratch list of codes
    uint8_t *used_tag            # n_tags
    bint on_heap                 # used, moves and used_tag were calloc'd (else they are the caller's buffer)
    int32_t counters[15]
    bint trace
    int32_t *events              # 8 ints per event, grown with realloc
    bint decoy                   # apply the decoy (its draw is made either way)
    int32_t drawn[16]            # fixed: the found board's fours as drawn, before the decoy
    int32_t gt[16]               # fixed: the same after the decoy (the board's group tiles)
    int32_t dec[3]               # fixed: the decoy (tier, removed, added) or -1s
    const int32_t *order_flat    # a caller's candidate order per tier (search_categories), else NULL:
    const int32_t *order_off     # tier d tries order_flat[order_off[d]:order_off[d+1]] as given, no shuffle
    Py_ssize_t n_events
    Py_ssize_t cap_events
    bint oom

