# The difficulty model's counting kernel (included from _connections.pyx; its twin and the statement
# of every count: python/flagcore/reference/connections_model.py; the model: docs/difficulty.md).
# A set of countries is W uint64 words, as in the search; one board is a handful of AND / popcount
# passes over the mode's categories, without the GIL.

from flagcore import _connections_layout as _layout

cdef enum:
    MODEL_MAX_SIZE_WEIGHT = 16   # room for PHANTOM_SIZE_WEIGHT (checked when the tables are prepared)
    MODEL_SPREAD_WEIGHTS = 5     # PHANTOM_SPREAD_WEIGHT: one per spread 0..TIERS

# the model's weights, read once from flagcore._connections_layout (their one owner)
cdef struct ModelWeights:
    int salience_max
    int tempting
    int hidden
    int lure
    int lure_cap
    int pull
    int pull_cap
    int n_size_weight
    int size_weight[MODEL_MAX_SIZE_WEIGHT]
    int spread_weight[MODEL_SPREAD_WEIGHTS]
    int one_away_weight


cdef class ModelPrepared:
    """One (library, mode)'s model tables as bitsets: fit and named sets, saliences, lure weights (read-only)."""
    cdef readonly object fits, named, salience, hides   # numpy arrays the memoryviews below view
    cdef readonly tuple simpler                  # per category: the label without its clause, or None
    cdef object has_simpler                      # per category: 1 when simpler holds a label (simplerv views it,
    cdef const int8_t[::1] simplerv              # so a batch reads it without the GIL)
    cdef const uint64_t[:, ::1] fitv
    cdef const uint64_t[:, ::1] namedv
    cdef const int8_t[::1] salv
    cdef const int8_t[::1] hidev
    cdef readonly object learned                 # None, or per category (D, w * slope): the learned colours
    cdef object _learned_d, _learned_w           # float64 arrays the views below view
    cdef const double[::1] ldv
    cdef const double[::1] lwv
    cdef int W, n_cat
    cdef ModelWeights wts

    def __init__(self, tables, salience, named_flat, named_off, simpler, hides, learned=None):
        cdef Py_ssize_t n_codes = int(tables.n_codes)
        cdef Py_ssize_t W = max(1, (n_codes + 63) // 64)
        cdef Py_ssize_t n_cat = len(tables.fit_off) - 1
        fits = _bitsets(tables.fit_flat, tables.fit_off, W)
        # the named set always holds the fit set: a tile that fits the label carries what it names
        named = _bitsets(named_flat, named_off, W) | fits
        sal = np.zeros(max(n_cat, 1), dtype=np.int8)
        sal[:n_cat] = np.asarray(salience, dtype=np.int8)
        # 1 when the tiles that carry the named feature hide the group (its lure is scored), else 0
        hid = np.zeros(max(n_cat, 1), dtype=np.int8)
        hid[:n_cat] = np.asarray(hides, dtype=np.int8)
        self.fits, self.named, self.salience, self.hides = fits, named, sal, hid
        self.simpler = tuple(simpler)
        self.has_simpler = np.array([x is not None for x in self.simpler] or [False], dtype=np.int8)
        self.simplerv = self.has_simpler
        self.fitv = fits
        self.namedv = named
        self.salv = sal
        self.hidev = hid
        self.W = <int>W
        self.n_cat = <int>n_cat
        # learned colours (docs/ratings.md, "Colours"): a group's key D + w * slope * (its score's
        # board part) / SCORE_HIDDEN, the model's order on ties; built once per ratings, read nogil
        self.learned = None
        ld = np.zeros(max(n_cat, 1), dtype=np.float64)
        lw = np.zeros(max(n_cat, 1), dtype=np.float64)
        if learned is not None:
            self.learned = (tuple([float(x) for x in learned[0]]), tuple([float(x) for x in learned[1]]))
            if len(self.learned[0]) != n_cat or len(self.learned[1]) != n_cat:
                # flagcore's own data (flagcore.ratings.colouring builds it): a wrong length is its bug
                raise ValueError("connections model: learned colours need one (D, w) per category")
            ld[:n_cat] = self.learned[0]
            lw[:n_cat] = self.learned[1]
        self._learned_d, self._learned_w = ld, lw
        self.ldv = ld
        self.lwv = lw
        weights = tuple(_layout.PHANTOM_SIZE_WEIGHT)
        if len(weights) > MODEL_MAX_SIZE_WEIGHT:
            # flagcore's own constant, not user input: the C table has a fixed size
            raise ValueError("connections model: PHANTOM_SIZE_WEIGHT is longer than the compiled table")
        self.wts.n_size_weight = len(weights)
        for i, v in enumerate(weights):
            self.wts.size_weight[i] = v
        spread = tuple(_layout.PHANTOM_SPREAD_WEIGHT)
        if len(spread) != MODEL_SPREAD_WEIGHTS:
            # flagcore's own constant, not user input: the C table has a fixed size
            raise ValueError("connections model: PHANTOM_SPREAD_WEIGHT needs one weight per spread 0..4")
        for i, v in enumerate(spread):
            self.wts.spread_weight[i] = v
        self.wts.one_away_weight = _layout.PHANTOM_ONE_AWAY_WEIGHT
        self.wts.salience_max = _layout.SALIENCE_MAX
        self.wts.tempting = _layout.TEMPTING
        self.wts.hidden = _layout.SCORE_HIDDEN
        self.wts.lure = _layout.SCORE_LURE
        self.wts.lure_cap = _layout.LURE_CAP
        self.wts.pull = _layout.SCORE_PULL
        self.wts.pull_cap = _layout.PULL_CAP


def prepare_model(tables, salience, named_flat, named_off, simpler, hides, learned=None):
    """The model's tables: ``tables`` (the search's), a salience per category, named sets (flat,
    offsets), per category the label without its clause (None without a clause), and per category
    1 when the tiles that carry its named feature hide the group (0: a plain clause, its lure not scored);
    ``learned``: None, or (D, w * slope) per category, which the steered searches colour by."""
    return ModelPrepared(tables, salience, named_flat, named_off, simpler, hides, learned)


cdef int model_kernel(const uint64_t[:, ::1] fits, const uint64_t[:, ::1] named, const int8_t[::1] sal,
                      const int8_t[::1] hides, const ModelWeights *wts, int W, int n_cat, const int32_t *gt, const int32_t *cats,
                      int32_t *grows, int32_t *prows) noexcept nogil:
    """One board: 4 group rows of 4 ints, phantom rows of 5 ints; returns the number of phantoms."""
    cdef int c, i, g, k, x, members, spread, three, shape, strength, n = 0, lure, pulls, s
    cdef int mask
    cdef uint64_t board[64]
    cdef uint64_t others[64]
    for k in range(W):
        board[k] = 0
    for i in range(16):
        x = gt[i]
        board[x >> 6] |= (<uint64_t>1) << (x & 63)
    for c in range(n_cat):
        if c == cats[0] or c == cats[1] or c == cats[2] or c == cats[3]:
            continue
        members = 0
        for k in range(W):
            members += fc_popcount64(fits[c, k] & board[k])
        if members < ITEMS:
            continue
        mask = 0
        for i in range(16):
            x = gt[i]
            if (fits[c, x >> 6] >> (x & 63)) & 1:
                mask |= 1 << i
        spread = 0
        three = 0  # a group holds exactly three of its members
        for g in range(TIERS):
            k = fc_popcount64(<uint64_t>((mask >> (ITEMS * g)) & 0xF))
            if k:
                spread += 1
            if k == 3:
                three = 1
        strength = 0
        if spread >= 2 and members < wts.n_size_weight:
            # a one-away trap (two groups, three of one) pulls harder than other sets of two groups
            shape = wts.one_away_weight if spread == 2 and three else wts.spread_weight[spread]
            strength = sal[c] * wts.size_weight[members] * shape
        prows[5 * n] = c
        prows[5 * n + 1] = members
        prows[5 * n + 2] = spread
        prows[5 * n + 3] = strength
        prows[5 * n + 4] = mask
        n += 1
    for g in range(TIERS):
        c = cats[g]
        for k in range(W):
            others[k] = board[k]
        for i in range(ITEMS):
            x = gt[ITEMS * g + i]
            others[x >> 6] &= ~((<uint64_t>1) << (x & 63))
        lure = 0
        for k in range(W):
            lure += fc_popcount64(named[c, k] & others[k])
        pulls = 0
        for i in range(n):
            if prows[5 * i + 3] >= wts.tempting and (prows[5 * i + 4] >> (ITEMS * g)) & 0xF:
                pulls += 1
        s = sal[c]
        grows[4 * g] = s
        grows[4 * g + 1] = lure
        grows[4 * g + 2] = pulls
        grows[4 * g + 3] = (wts.hidden * (wts.salience_max - s)
                            + wts.lure * hides[c] * (lure if lure < wts.lure_cap else wts.lure_cap)
                            + wts.pull * (pulls if pulls < wts.pull_cap else wts.pull_cap))
    return n


def board_model(ModelPrepared mp not None, group_tiles, cats):
    """The model's counts for one board as the twin returns them: (groups, phantoms).

    ``group_tiles`` (16 code indices, group g at 4g..4g+3) and ``cats`` (4 category indices) come
    from flagcore.connections.difficulty, which checks them against the library.
    """
    cdef int32_t gt[16]
    cdef int32_t cs[4]
    cdef int32_t grows[16]
    cdef int32_t *prows
    cdef int n, i
    cdef Py_ssize_t n_codes = mp.fitv.shape[1] * 64
    # The kernel's own guard on what the public layer built: the loops below read without bounds checks.
    if len(group_tiles) != 16 or len(cats) != TIERS or mp.W > 64:
        raise ValueError("board_model: needs 16 tiles and 4 categories")
    for i in range(16):
        gt[i] = group_tiles[i]
        if not 0 <= gt[i] < n_codes:
            raise ValueError("board_model: a tile index is out of range")
    for i in range(TIERS):
        cs[i] = cats[i]
        if not 0 <= cs[i] < mp.n_cat:
            raise ValueError("board_model: a category index is out of range")
    prows = <int32_t *>malloc(5 * max(mp.n_cat, 1) * sizeof(int32_t))
    if prows == NULL:
        raise MemoryError("connections model: out of memory")
    try:
        with nogil:
            n = model_kernel(mp.fitv, mp.namedv, mp.salv, mp.hidev, &mp.wts, mp.W, mp.n_cat, gt, cs, grows, prows)
        groups = [(grows[4 * i], grows[4 * i + 1], grows[4 * i + 2], grows[4 * i + 3]) for i in range(TIERS)]
        phantoms = [(prows[5 * i], prows[5 * i + 1], prows[5 * i + 2], prows[5 * i + 3], prows[5 * i + 4])
                    for i in range(n)]
        return groups, phantoms
    finally:
        free(prows)


# ---------------------------------------------------------------- boards steered by the model

cdef enum:
    ATTEMPT_SALT = 0x5bd1e995    # attempt k > 0 searches from draw k of mulberry32(state ^ ATTEMPT_SALT)
    MISS_UNKNOWN = 1 << 20       # the range miss of an attempt kept without its model: worse than any real one


cdef inline int tempting_count(const int32_t *prows, int n, int tempting) noexcept nogil:
    cdef int i, t = 0
    for i in range(n):
        if prows[5 * i + 3] >= tempting:
            t += 1
    return t


cdef inline int pair_salience(const int8_t[::1] sal, const int32_t *cats) noexcept nogil:
    """The saliences of the board's two least visible groups, summed (its hidden pair)."""
    cdef int g, s, a = 127, b = 127
    for g in range(TIERS):
        s = sal[cats[g]]
        if s < a:
            b = a
            a = s
        elif s < b:
            b = s
    return a + b


cdef inline bint shown_after(const int32_t *grows, const double *key, int a, int b) noexcept nogil:
    """Group a goes after group b: a higher learned key (with learned colours), else a higher score."""
    if key != NULL and key[a] != key[b]:
        return key[a] > key[b]
    return grows[4 * a + 3] > grows[4 * b + 3]


cdef void colour_order(const int32_t *grows, const int32_t *cats, const double *ld, const double *lw,
                       const int8_t[::1] sal, const ModelWeights *wts, int32_t *order) noexcept nogil:
    """order[t] = the search's group shown in colour t: by model score, then search tier; with
    learned colours (ld, lw not NULL: ModelPrepared.learned) by the learned key first, the key
    computed as flagcore.ratings.colouring.recolour does (the same doubles in the same order)."""
    cdef int i, j, x, c
    cdef double key[4]
    cdef const double *k = NULL
    if ld != NULL:
        for i in range(TIERS):
            c = cats[i]
            key[i] = ld[c] + lw[c] * <double>(grows[4 * i + 3] - wts.hidden * (wts.salience_max - sal[c])) / <double>wts.hidden
        k = key
    for i in range(TIERS):
        order[i] = i
    for i in range(1, TIERS):  # insertion: stable, so the search tier breaks the last ties
        x = order[i]
        j = i - 1
        while j >= 0 and shown_after(grows, k, order[j], x):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x


# the width of search_many_model's ``model`` row (its one owner: flagcore._connections_layout)
_MODEL_ROW = _layout.MODEL_ROW


cdef int steer_one(const Tab *tab, Work *w, const uint64_t[:, ::1] fitv, const uint64_t[:, ::1] namedv,
                   const int8_t[::1] salv, const int8_t[::1] hidev, const ModelWeights *wts, int W, int n_cat,
                   uint32_t state, bint decoy, int lo, int hi,
                   int attempts, int pair_cap, int32_t *prows, int32_t *bcats, int32_t *bgt, int32_t *btiles,
                   int32_t *bdec, int32_t *bcounters, int32_t *bgrows, int8_t *bamb, int8_t *barg,
                   int32_t *info, uint32_t *best_state) noexcept nogil:
    """One steered search (the loop of search_board_model) into the b* rows; returns its status.

    info: (attempt, tempting phantoms, hidden pair). On failure bcounters holds the last attempt's
    counters (the NoBoardError's message reads them). The model's tables come as mp's views
    (fitv, namedv, salv, hidev, &mp.wts, mp.W, mp.n_cat), read by the caller, so a batch runs
    its whole loop without the GIL.
    """
    cdef int32_t cats[4]
    cdef int32_t gt[16]
    cdef int32_t tiles[16]
    cdef int32_t dec[3]
    cdef int32_t counters[NCOUNTERS]
    cdef int32_t grows[16]
    cdef int8_t amb, arg
    cdef int status = STATUS_NO_BOARD, k, n, t, miss, best_miss = -1, best_k = 0, best_n = 0
    cdef int pair, pm, best_pm = -1, best_pair = 0
    cdef bint modelled, best_modelled = False
    cdef uint32_t salt = state ^ ATTEMPT_SALT, st
    best_state[0] = state
    if attempts < 1:
        attempts = 1
    for k in range(attempts):
        st = state if k == 0 else fc_mulberry32_next(&salt)
        status = run_one(tab, w, st, decoy, cats, gt, tiles, dec, counters, &amb, &arg)
        if status != STATUS_OK:
            break
        pair = pair_salience(salv, cats)
        pm = pair - pair_cap if pair > pair_cap else 0
        if best_pm >= 0 and pm > best_pm:
            continue  # a more visible pair is never kept
        modelled = pm == 0 or k == attempts - 1
        if modelled:
            n = model_kernel(fitv, namedv, salv, hidev, wts, W, n_cat, gt, cats, grows, prows)
            t = tempting_count(prows, n, wts.tempting)
            miss = lo - t if t < lo else (t - hi if t > hi else 0)
        else:
            t = 0
            miss = MISS_UNKNOWN
        if best_pm < 0 or pm < best_pm or miss < best_miss:
            best_pm = pm
            best_pair = pair
            best_modelled = modelled
            best_miss = miss
            best_k = k
            best_n = t
            best_state[0] = st
            memcpy(bcats, cats, sizeof(cats))
            memcpy(bgt, gt, sizeof(gt))
            memcpy(btiles, tiles, sizeof(tiles))
            memcpy(bdec, dec, sizeof(dec))
            memcpy(bcounters, counters, sizeof(counters))
            memcpy(bgrows, grows, sizeof(grows))
            bamb[0] = amb
            barg[0] = arg
        if pm == 0 and miss == 0:
            break
    if best_pm >= 0:
        status = STATUS_OK
        if not best_modelled:  # kept without its model: the chosen board needs it for its colours
            n = model_kernel(fitv, namedv, salv, hidev, wts, W, n_cat, bgt, bcats, bgrows, prows)
            best_n = tempting_count(prows, n, wts.tempting)
    else:
        memcpy(bcounters, counters, sizeof(counters))
    info[0] = best_k
    info[1] = best_n
    info[2] = best_pair
    return status


def search_board_model(Prepared prep not None, ModelPrepared mp not None, uint32_t state, seed, bint decoy,
                       int lo, int hi, int attempts, int pair_cap, bint trace):
    """The fixed search steered by the model (twin: reference.connections_model.search_board_model).

    Attempt 0 searches from ``state``, attempt k > 0 from draw k of mulberry32(state ^ ATTEMPT_SALT),
    until a board's two least visible groups have saliences summing to ``pair_cap`` or less (its
    hidden pair) and it has between ``lo`` and ``hi`` tempting phantoms (at most ``attempts``); else
    the first board closest: the smallest excess of the pair over the cap, then the smallest miss
    of the range. An attempt whose pair misses the cap while attempts remain is not modelled (the
    model is the costly part): its miss of the range counts as the worst. Its groups are coloured
    by their model score (yellow the easiest; the search's tier breaks ties) and a group whose
    clause excludes no tile of the board shows its simpler label. A failed search raises NoBoardError.
    """
    cdef Work w
    cdef int32_t cats[4]
    cdef int32_t gt[16]
    cdef int32_t tiles[16]
    cdef int32_t dec[3]
    cdef int32_t counters[NCOUNTERS]
    cdef int32_t bcats[4]
    cdef int32_t bgt[16]
    cdef int32_t btiles[16]
    cdef int32_t bdec[3]
    cdef int32_t bcounters[NCOUNTERS]
    cdef int32_t bgrows[16]
    cdef int32_t order[4]
    cdef int32_t rank[4]
    cdef int32_t info[3]
    cdef int8_t amb, arg, bamb = 0, barg = 0
    cdef int status = STATUS_NO_BOARD, rc, t, g, r, best_k, best_n, best_pair
    cdef uint32_t best_state = state
    cdef Py_ssize_t i
    cdef tuple codes = prep.codes
    cdef uint64_t buf[WORK_STACK_WORDS]
    cdef const uint64_t[:, ::1] fitv = mp.fitv
    cdef const uint64_t[:, ::1] namedv = mp.namedv
    cdef const int8_t[::1] salv = mp.salv
    cdef const int8_t[::1] hidev = mp.hidev
    cdef int32_t *prows = <int32_t *>malloc(5 * max(mp.n_cat, 1) * sizeof(int32_t))
    if prows == NULL:
        raise MemoryError("connections model: out of memory")
    info[0] = info[1] = info[2] = 0
    memset(bcounters, 0, sizeof(bcounters))
    rc = work_init(&w, &prep.tab, False, False, buf, WORK_STACK_WORDS)
    if rc == 0:
        with nogil:
            status = steer_one(&prep.tab, &w, fitv, namedv, salv, hidev, &mp.wts, mp.W, mp.n_cat, state, decoy,
                               lo, hi, attempts, pair_cap, prows, bcats, bgt, btiles, bdec, bcounters, bgrows,
                               &bamb, &barg, info, &best_state)
    best_k, best_n, best_pair = info[0], info[1], info[2]
    memcpy(counters, bcounters, sizeof(counters))
    free(prows)
    try:
        if rc != 0 or w.oom:
            raise MemoryError("connections: out of memory")
        if status != STATUS_OK:
            raise NoBoardError(no_board_message(prep.mode, seed, False, counters[C_MOVES]))
        events = None
        if trace:
            # the chosen attempt once more, traced (the same draws: the same board)
            work_free(&w)
            rc = work_init(&w, &prep.tab, False, True, buf, WORK_STACK_WORDS)
            if rc == 0:
                run_one(&prep.tab, &w, best_state, decoy, cats, gt, tiles, dec, counters, &amb, &arg)
            if rc != 0 or w.oom:
                raise MemoryError("connections: out of memory")
            events = event_dicts(codes, prep.tables.categories,
                                 [tuple([w.events[i * EW + k] for k in range(EW)]) for i in range(w.n_events)])
        colour_order(bgrows, bcats, &mp.ldv[0] if mp.learned is not None else NULL, &mp.lwv[0], salv, &mp.wts,
                     order)
        for t in range(TIERS):
            rank[order[t]] = t
        group_type = prep.group_type
        groups = []
        scores = []
        for t in range(TIERS):
            g = order[t]
            c = bcats[g]
            label = mp.simpler[c] if mp.simpler[c] is not None and bgrows[4 * g + 1] == 0 else prep.labels[c]
            groups.append(_new_group(group_type, t, label,
                                     (codes[bgt[4 * g]], codes[bgt[4 * g + 1]], codes[bgt[4 * g + 2]],
                                      codes[bgt[4 * g + 3]]), prep.ids[c]))
            scores.append(bgrows[4 * g + 3])
        skips = {}
        for r in range(N_REASONS):
            skips[_REASON_NAMES[r]] = bcounters[C_SKIPS + r]
        stats = {
            "moves_tried": bcounters[C_MOVES],
            "backtracks": bcounters[C_BACKTRACKS],
            "decoy_applied": bdec[0] >= 0,
            "decoy": None if bdec[0] < 0 else {"tier": rank[bdec[0]], "removed": codes[bdec[1]],
                                               "added": codes[bdec[2]]},
            "skips": skips,
            "tier_entries": [bcounters[C_ENTRIES], bcounters[C_ENTRIES + 1], bcounters[C_ENTRIES + 2],
                             bcounters[C_ENTRIES + 3]],
            "tier_exhaustions": [bcounters[C_EXHAUSTED], bcounters[C_EXHAUSTED + 1], bcounters[C_EXHAUSTED + 2],
                                 bcounters[C_EXHAUSTED + 3]],
            "ambiguous_tiles": bamb,
            "arguable_tiles": barg,
            "model": {"attempt": best_k, "tempting_phantoms": best_n, "hidden_pair": best_pair, "scores": scores,
                      "search_tiers": [order[0], order[1], order[2], order[3]]},
        }
        return _new_board(prep.board_type,
                          tuple([codes[btiles[i]] for i in range(16)]),
                          tuple(groups), seed, prep.mode, False, stats, events)
    finally:
        work_free(&w)


def search_many_model(Prepared prep not None, ModelPrepared mp not None, const uint32_t[::1] states, bint decoy,
                      int lo, int hi, int attempts, int pair_cap,
                      int8_t[::1] status, int32_t[:, ::1] cats, int32_t[:, ::1] group_tiles,
                      int32_t[:, ::1] tiles, int32_t[:, ::1] decoys, int32_t[:, ::1] counters,
                      int8_t[::1] ambiguous, int8_t[::1] arguable, int32_t[:, ::1] model):
    """search_board_model for each state into row i of the outputs (groups in colour order, the
    decoy's tier a colour; ``model`` row: MODEL_ROW), the whole loop without the GIL (a batch split
    over threads would otherwise hand the GIL over at every seed)."""
    cdef Py_ssize_t n = states.shape[0], i
    cdef Work w
    cdef int rc = 0, t, g
    cdef int32_t bcats[4]
    cdef int32_t bgt[16]
    cdef int32_t bgrows[16]
    cdef int32_t bdec[3]
    cdef int32_t order[4]
    cdef int32_t rank[4]
    cdef int32_t info[3]
    cdef uint32_t best_state
    cdef int32_t *prows
    cdef const uint64_t[:, ::1] fitv = mp.fitv
    cdef const uint64_t[:, ::1] namedv = mp.namedv
    cdef const int8_t[::1] salv = mp.salv
    cdef const int8_t[::1] hidev = mp.hidev
    cdef const int8_t[::1] simplerv = mp.simplerv
    cdef const double *ld = &mp.ldv[0] if mp.learned is not None else NULL
    cdef const double *lw = &mp.lwv[0]
    # The kernel's own guard: batch.py allocates these arrays, so a mismatch is flagcore's bug.
    if (status.shape[0] != n or cats.shape[0] != n or group_tiles.shape[0] != n or tiles.shape[0] != n
            or decoys.shape[0] != n or counters.shape[0] != n or ambiguous.shape[0] != n
            or arguable.shape[0] != n or model.shape[0] != n):
        raise ValueError("search_many_model: every output needs one row per state")
    if (cats.shape[1] != 4 or group_tiles.shape[1] != 16 or tiles.shape[1] != 16 or decoys.shape[1] != 3
            or counters.shape[1] != NCOUNTERS or model.shape[1] != _MODEL_ROW):
        raise ValueError("search_many_model: output arrays have the wrong widths")
    if n == 0:
        return
    prows = <int32_t *>malloc(5 * max(mp.n_cat, 1) * sizeof(int32_t))
    if prows == NULL:
        raise MemoryError("connections model: out of memory")
    rc = work_init(&w, &prep.tab, False, False, NULL, 0)
    try:
        if rc != 0:
            raise MemoryError("connections: out of memory")
        with nogil:
            for i in range(n):
                status[i] = <int8_t>steer_one(&prep.tab, &w, fitv, namedv, salv, hidev, &mp.wts, mp.W, mp.n_cat,
                                              states[i], decoy, lo, hi, attempts, pair_cap, prows, bcats, bgt,
                                              &tiles[i, 0], bdec, &counters[i, 0], bgrows, &ambiguous[i],
                                              &arguable[i], info, &best_state)
                if w.oom:  # the leaf's second-split check could not allocate: raised below
                    break
                if status[i] != STATUS_OK:
                    continue
                colour_order(bgrows, bcats, ld, lw, salv, &mp.wts, order)
                for t in range(TIERS):
                    rank[order[t]] = t
                for t in range(TIERS):
                    g = order[t]
                    cats[i, t] = bcats[g]
                    memcpy(&group_tiles[i, 4 * t], &bgt[4 * g], 4 * sizeof(int32_t))
                    model[i, 3 + t] = bgrows[4 * g + 3]
                    model[i, 3 + TIERS + t] = g
                    model[i, 3 + 2 * TIERS + t] = 1 if simplerv[bcats[g]] != 0 and bgrows[4 * g + 1] == 0 else 0
                decoys[i, 0] = -1 if bdec[0] < 0 else rank[bdec[0]]
                decoys[i, 1] = bdec[1]
                decoys[i, 2] = bdec[2]
                model[i, 0] = info[0]
                model[i, 1] = info[1]
                model[i, 2] = info[2]
        if w.oom:
            raise MemoryError("connections: out of memory")
    finally:
        free(prows)
        work_free(&w)
