# The greedy repair of a scheduled day's members (step 4c of flagcore.connections.daily), included
# by _connections.pyx: it reads the search's Tab, Fours and second split. The twin, whose docstring
# states the readers and the loop: flagcore.reference.daily_repair.

cdef struct Reader:
    int kind                     # 0: a large pool's ring, 1: a small pool's walk
    const int32_t *seq           # ring: its p codes; walk: n entries of four codes
    int p                        # ring: codes; walk: entries
    int start                    # ring: where the use reads from
    const int32_t *window        # walk: the offsets no use within a year reads (nw), then the rest (nr)
    int nw
    const int32_t *rest
    int nr
    int u                        # walk: the use
    int rot                      # walk: the window's rotation (u * 7 mod nw)
    bint off_plan
    uint64_t *prev               # W words: the previous use's four


cdef inline bint _in(const uint64_t *b, int x) noexcept nogil:
    return (b[x >> 6] >> (x & 63)) & 1


cdef inline bint _skipped(const uint64_t *taken, const uint64_t *out, int x) noexcept nogil:
    return _in(taken, x) or _in(out, x)


cdef int read_four(const Reader *r, const uint64_t *taken, const uint64_t *out, int32_t *four) noexcept nogil:
    """The codes the reader reads with those of ``taken`` and ``out`` skipped, into ``four``; how many."""
    cdef int n = 0, j, k, x, part, strict, idx, length, d, w, shared
    cdef const int32_t *entry
    cdef bint skip
    if r.kind == 0:
        for part in range(2):  # the codes not in the previous four first, then those
            for j in range(r.p):
                k = r.start + j
                if k >= r.p:
                    k -= r.p
                x = r.seq[k]
                if _skipped(taken, out, x) or _in(r.prev, x) != part:
                    continue
                four[n] = x
                n += 1
                if n == ITEMS:
                    return n
        return n
    for part in range(2):
        length = r.nw + 1 if part == 0 else r.nr
        for strict in range(1, -1, -1):
            for idx in range(length):
                if part == 1:
                    d = r.rest[idx]
                elif r.off_plan:
                    d = 0 if idx == r.nw else r.window[(idx + r.rot) % r.nw]
                else:
                    d = 0 if idx == 0 else r.window[(idx - 1 + r.rot) % r.nw]
                w = (r.u + d) % r.p
                entry = r.seq + ITEMS * w
                skip = False
                shared = 0
                for j in range(ITEMS):
                    if _skipped(taken, out, entry[j]):
                        skip = True
                    shared += _in(r.prev, entry[j])
                if skip or (strict and shared > 2):
                    continue
                memcpy(four, entry, ITEMS * sizeof(int32_t))
                return ITEMS
    return 0


cdef int draw_faults(const Tab *t, Fours *f, const int32_t *gt, const int32_t *recent, int n_recent) noexcept nogil:
    """The draw's faults (the twin's _faults), ``f`` its complete fours; -1 out of memory."""
    cdef int k, c, n = 0, rc
    fours_init(t, gt, f)
    for k in range(n_recent):
        c = recent[k]
        n += complete_four(f.mays[c], f.size[c])
    if f.count > DECOY_FOURS_CAP:
        n += f.count - DECOY_FOURS_CAP
    if n:
        return n
    rc = second_split_search(t, gt, NULL, NULL)
    return -1 if rc < 0 else rc


cdef void tile_order(const Tab *t, Fours *f, const int32_t *cur, const int32_t *recent, int n_recent,
                     int32_t *order) noexcept nogil:
    """The 16 tiles of ``cur`` in the order a step tries them: most hits of the fours to break
    first (those of ``recent``, and every complete four when over the cap), then by group and code
    index (an insertion sort of 16); ``f`` becomes cur's complete fours."""
    cdef int32_t hits[16]
    cdef int i, j, k, a, b
    fours_init(t, cur, f)
    for i in range(16):
        hits[i] = f.hits[i] if f.count > DECOY_FOURS_CAP else 0
    for k in range(n_recent):
        if complete_four(f.mays[recent[k]], f.size[recent[k]]):
            for i in range(16):
                hits[i] += (f.mays[recent[k]] >> i) & 1
    for i in range(16):
        order[i] = i
        j = i
        while j > 0:
            a = order[j - 1]
            b = order[j]
            if hits[a] > hits[b] or (hits[a] == hits[b] and (a >> 2 < b >> 2 or (a >> 2 == b >> 2 and cur[a] < cur[b]))):
                break
            order[j - 1] = b
            order[j] = a
            j -= 1


cdef inline void read_past(const int32_t *mine, const int32_t *four, uint64_t *out) noexcept nogil:
    """The next try reads past the codes this one read: those of ``four`` not in the group's own."""
    cdef int j, k, y
    cdef bint own
    for j in range(ITEMS):
        y = four[j]
        own = False
        for k in range(ITEMS):
            if mine[k] == y:
                own = True
        if not own:
            out[y >> 6] |= (<uint64_t>1) << (y & 63)


cdef int tried_faults(const Tab *t, const Fours *base, Fours *f, const int32_t *cur, const int32_t *tried,
                      int g, const int32_t *recent, int n_recent) noexcept nogil:
    """draw_faults of ``tried``, which is ``cur`` (``base`` its complete fours) with group g's tiles
    changed: ``f`` is base with the changed tiles swapped in (fours_swap keeps the count exact
    through each swap), not a recount; -1 out of memory."""
    cdef int k, c, n = 0, rc, i
    memcpy(f.mays, base.mays, t.n_cat * sizeof(uint16_t))
    memcpy(f.size, base.size, t.n_cat * sizeof(uint8_t))
    memcpy(f.hits, base.hits, sizeof(f.hits))
    f.count = base.count
    for i in range(g * ITEMS, g * ITEMS + ITEMS):
        if tried[i] != cur[i]:
            fours_swap(t, f, i, cur[i], tried[i])
    for k in range(n_recent):
        c = recent[k]
        n += complete_four(f.mays[c], f.size[c])
    if f.count > DECOY_FOURS_CAP:
        n += f.count - DECOY_FOURS_CAP
    if n:
        return n
    rc = second_split_search(t, tried, NULL, NULL)
    return -1 if rc < 0 else rc


cdef int repair_loop(const Tab *t, const Reader *readers, uint64_t *taken, const int32_t *recent, int n_recent,
                     int32_t *cur, uint64_t *left, int repairs, int tries, uint64_t *scratch,
                     Fours *f, Fours *g2) noexcept nogil:
    """The twin's repair_members on C arrays (taken, left: four W-word sets each; scratch: 2 * W
    words): 1 repaired (cur, left hold it), 0 not, -1 out of memory."""
    cdef int W = t.W, step, i, g, tr, n, fa, fb, best_f, best_g, oi
    cdef int32_t order[16]
    cdef int32_t four[4]
    cdef int32_t tried[16]
    cdef int32_t best_gt[16]
    cdef uint64_t *out = scratch
    cdef uint64_t *best_out = scratch + W
    fa = draw_faults(t, g2, cur, recent, n_recent)
    if fa < 0:
        return -1
    for step in range(repairs):
        if fa == 0:
            return 1
        tile_order(t, f, cur, recent, n_recent, order)
        best_f = -1
        best_g = -1
        for oi in range(16):
            i = order[oi]
            g = i >> 2
            memcpy(out, left + g * W, W * sizeof(uint64_t))
            out[cur[i] >> 6] |= (<uint64_t>1) << (cur[i] & 63)
            for tr in range(tries):
                n = read_four(&readers[g], taken + g * W, out, four)
                if n < ITEMS:
                    break
                memcpy(tried, cur, sizeof(tried))
                memcpy(tried + g * ITEMS, four, sizeof(four))
                fb = tried_faults(t, f, g2, cur, tried, g, recent, n_recent)
                if fb < 0:
                    return -1
                if best_f < 0 or fb < best_f:
                    best_f = fb
                    best_g = g
                    memcpy(best_gt, tried, sizeof(tried))
                    memcpy(best_out, out, W * sizeof(uint64_t))
                    if fb == 0:
                        break
                read_past(cur + g * ITEMS, four, out)
            if best_f == 0:
                break
        if best_f < 0:  # every group's codes used up
            return 0
        fa = best_f
        memcpy(cur, best_gt, sizeof(best_gt))
        memcpy(left + best_g * W, best_out, W * sizeof(uint64_t))
    return 1 if fa == 0 else 0


cdef inline uint64_t _key_hash(const int32_t *gt) noexcept nogil:
    cdef uint64_t m = (<uint64_t>0xBF58476D << 32) | <uint64_t>0x1CE4E5B9  # splitmix64's multiplier
    cdef uint64_t h = (<uint64_t>0x9E3779B9 << 32) | <uint64_t>0x7F4A7C15
    cdef int i
    for i in range(16):
        h = (h ^ <uint32_t>gt[i]) * m
        h ^= h >> 29
    return h


cdef struct Seen:
    # the draws met (their 16 tiles), an open-addressing set of indices into an arena of keys
    int32_t *keys                # cap * 16
    int32_t *slots               # mask + 1, each 0 (empty) or a key's index + 1
    uint64_t mask
    int n
    int cap


cdef int seen_add(Seen *st, const int32_t *gt) noexcept nogil:
    """1 when ``gt`` was not met before (it is now), 0 when it was."""
    cdef uint64_t h = _key_hash(gt) & st.mask
    cdef int k
    while st.slots[h]:
        k = st.slots[h] - 1
        if memcmp(st.keys + 16 * k, gt, 16 * sizeof(int32_t)) == 0:
            return 0
        h = (h + 1) & st.mask
    memcpy(st.keys + 16 * st.n, gt, 16 * sizeof(int32_t))
    st.n += 1
    st.slots[h] = st.n
    return 1


cdef int beam_loop(const Tab *t, const Reader *readers, const uint64_t *taken, const int32_t *recent, int n_recent,
                   int n_starts, const int32_t *start_gt, const uint64_t *start_left, int nbeam, int steps,
                   int tries, int32_t *res_gt, uint64_t *res_left, Fours *f, Fours *f2) noexcept nogil:
    """The twin's wide_repair_members on C arrays (start_left, res_left: four W-word sets a draw):
    1 found (res_gt, res_left hold it), 0 not, -1 out of memory."""
    cdef int W = t.W, width = nbeam if nbeam > n_starts else n_starts, step, b, oi, i, g, tr, fb, n_beam, n_sc
    cdef int cap = width * 16 * tries, k, v, max_f, rc = 0
    cdef int32_t order[16]
    cdef int32_t four[4]
    cdef int32_t tried[16]
    cdef uint64_t one = 1
    cdef uint64_t slots_n = 1
    cdef Seen st
    while slots_n < <uint64_t>(2 * (n_starts + steps * cap) + 2):
        slots_n <<= 1
    st.n = 0
    st.cap = n_starts + steps * cap
    st.mask = slots_n - 1
    st.keys = <int32_t *>malloc(st.cap * 16 * sizeof(int32_t))
    st.slots = <int32_t *>calloc(slots_n, sizeof(int32_t))
    cdef int32_t *beam_gt = <int32_t *>malloc(2 * width * 16 * sizeof(int32_t))
    cdef uint64_t *beam_left = <uint64_t *>malloc(2 * width * 4 * W * sizeof(uint64_t))
    cdef int32_t *sc_f = <int32_t *>malloc(cap * 3 * sizeof(int32_t))  # faults, parent, group
    cdef int32_t *sc_gt = <int32_t *>malloc(cap * 16 * sizeof(int32_t))
    cdef uint64_t *sc_out = <uint64_t *>malloc((cap + 1) * W * sizeof(uint64_t))
    cdef int32_t *pos = <int32_t *>malloc((n_recent + t.n_cat + 2) * sizeof(int32_t))
    cdef int32_t *gt_block = beam_gt
    cdef uint64_t *left_block = beam_left
    cdef int32_t *next_gt
    cdef uint64_t *next_left
    cdef uint64_t *out
    if (st.keys == NULL or st.slots == NULL or beam_gt == NULL or beam_left == NULL or sc_f == NULL
            or sc_gt == NULL or sc_out == NULL or pos == NULL):
        rc = -1
    else:
        n_beam = n_starts
        memcpy(beam_gt, start_gt, n_starts * 16 * sizeof(int32_t))
        memcpy(beam_left, start_left, n_starts * 4 * W * sizeof(uint64_t))
        for b in range(n_starts):
            seen_add(&st, start_gt + 16 * b)
        next_gt = beam_gt + width * 16
        next_left = beam_left + width * 4 * W
        out = sc_out + cap * W
        for step in range(steps):
            n_sc = 0
            for b in range(n_beam):
                tile_order(t, f, beam_gt + 16 * b, recent, n_recent, order)
                for oi in range(16):
                    i = order[oi]
                    g = i >> 2
                    memcpy(out, beam_left + (4 * b + g) * W, W * sizeof(uint64_t))
                    out[beam_gt[16 * b + i] >> 6] |= one << (beam_gt[16 * b + i] & 63)
                    for tr in range(tries):
                        if read_four(&readers[g], taken + g * W, out, four) < ITEMS:
                            break
                        memcpy(tried, beam_gt + 16 * b, sizeof(tried))
                        memcpy(tried + g * ITEMS, four, sizeof(four))
                        if seen_add(&st, tried):
                            fb = tried_faults(t, f, f2, beam_gt + 16 * b, tried, g, recent, n_recent)
                            if fb < 0:
                                rc = -1
                                break
                            if fb == 0:
                                memcpy(res_gt, tried, sizeof(tried))
                                memcpy(res_left, beam_left + 4 * b * W, 4 * W * sizeof(uint64_t))
                                memcpy(res_left + g * W, out, W * sizeof(uint64_t))
                                rc = 1
                                break
                            sc_f[3 * n_sc] = fb
                            sc_f[3 * n_sc + 1] = b
                            sc_f[3 * n_sc + 2] = g
                            memcpy(sc_gt + 16 * n_sc, tried, sizeof(tried))
                            memcpy(sc_out + n_sc * W, out, W * sizeof(uint64_t))
                            n_sc += 1
                        read_past(beam_gt + 16 * b + g * ITEMS, four, out)
                    if rc != 0:
                        break
                if rc != 0:
                    break
            if rc != 0 or n_sc == 0:
                break
            # the beam draws with the fewest faults, the first scored among equals (a counting sort)
            max_f = 0
            for k in range(n_sc):
                if sc_f[3 * k] > max_f:
                    max_f = sc_f[3 * k]
            memset(pos, 0, (max_f + 2) * sizeof(int32_t))
            for k in range(n_sc):
                pos[sc_f[3 * k] + 1] += 1
            for v in range(1, max_f + 2):
                pos[v] += pos[v - 1]
            for k in range(n_sc):
                v = sc_f[3 * k]
                if pos[v] < nbeam:
                    memcpy(next_gt + 16 * pos[v], sc_gt + 16 * k, 16 * sizeof(int32_t))
                    memcpy(next_left + 4 * pos[v] * W, beam_left + 4 * sc_f[3 * k + 1] * W, 4 * W * sizeof(uint64_t))
                    memcpy(next_left + (4 * pos[v] + sc_f[3 * k + 2]) * W, sc_out + k * W, W * sizeof(uint64_t))
                pos[v] += 1
            n_beam = n_sc if n_sc < nbeam else nbeam
            next_gt, beam_gt = beam_gt, next_gt
            next_left, beam_left = beam_left, next_left
    free(st.keys)
    free(st.slots)
    free(gt_block)
    free(left_block)
    free(sc_f)
    free(sc_gt)
    free(sc_out)
    free(pos)
    return rc


cdef int _to_words(object v, uint64_t *w, int W) except -1:
    """A non-negative Python int below 2 ** (64 W) as W words."""
    cdef int k
    v = int(v)
    if v < 0 or v.bit_length() > 64 * W:
        raise ValueError("repair_members: a code set holds a code that is no code index")
    for k in range(W):
        w[k] = <uint64_t>(v & 0xFFFFFFFFFFFFFFFF)
        v >>= 64
    return 0


cdef object _from_words(const uint64_t *w, int W):
    cdef int k
    v = 0
    for k in range(W - 1, -1, -1):
        v = (v << 64) | w[k]
    return v


cdef int _codes_in_range(const int32_t *a, Py_ssize_t n, int below) except -1:
    cdef Py_ssize_t j
    for j in range(n):
        if not 0 <= a[j] < below:
            raise ValueError("repair_members: a reader holds indices out of range")
    return 0


cdef int _reader(object r, Reader *rd, int n_codes, int W, list keep) except -1:
    """Fill ``rd`` from the twin's reader tuple (its arrays kept alive in ``keep``)."""
    cdef int32_t[::1] seq
    cdef int32_t[::1] win
    cdef int32_t[::1] rest
    cdef int j, x, n_entries
    rd.kind = int(r[0])
    if rd.kind == 0:
        seq = np.ascontiguousarray(r[1], dtype=np.int32)
        keep.append(seq)
        rd.p = seq.shape[0]
        rd.start = int(r[2])
        if rd.p == 0 or not 0 <= rd.start < rd.p:
            raise ValueError("repair_members: a ring reads from one of its codes")
        _codes_in_range(&seq[0], rd.p, n_codes)
        rd.seq = &seq[0]
        _to_words(r[3], rd.prev, W)
        return 0
    if rd.kind != 1:
        raise ValueError("repair_members: a reader is a ring (0) or a walk (1)")
    seq = np.ascontiguousarray(r[1], dtype=np.int32).reshape(-1)
    win = np.ascontiguousarray(r[2], dtype=np.int32) if len(r[2]) else np.zeros(1, dtype=np.int32)
    rest = np.ascontiguousarray(r[3], dtype=np.int32) if len(r[3]) else np.zeros(1, dtype=np.int32)
    keep.extend((seq, win, rest))
    n_entries = seq.shape[0] // ITEMS
    if n_entries == 0 or seq.shape[0] % ITEMS:
        raise ValueError("repair_members: a walk's entries are four codes each")
    _codes_in_range(&seq[0], seq.shape[0], n_codes)
    rd.p = n_entries
    rd.seq = &seq[0]
    rd.nw = len(r[2])
    rd.nr = len(r[3])
    _codes_in_range(&win[0], rd.nw, 1 << 30)
    _codes_in_range(&rest[0], rd.nr, 1 << 30)
    rd.window = &win[0]
    rd.rest = &rest[0]
    rd.u = int(r[4])
    if rd.u < 0:
        raise ValueError("repair_members: a walk's use is not negative")
    rd.rot = rd.u * 7 % rd.nw if rd.nw else 0
    rd.off_plan = bool(r[5])
    memset(rd.prev, 0, W * sizeof(uint64_t))
    if rd.u > 0:
        for j in range(ITEMS):
            x = seq[ITEMS * ((rd.u - 1) % n_entries) + j]
            rd.prev[x >> 6] |= (<uint64_t>1) << (x & 63)
    return 0


cdef object _recent(recent, int n_cat):
    """``recent`` as an int32 array (one element at least, so its pointer is valid)."""
    rec = np.zeros(1, dtype=np.int32) if len(recent) == 0 else np.ascontiguousarray(recent, dtype=np.int32)
    if len(recent) and not ((rec >= 0).all() and (rec < n_cat).all()):
        raise ValueError("repair_members: recent holds category indices")
    return rec


cdef int _draw(const Tab *t, fours, left, int32_t *gt, uint64_t *left_words) except -1:
    """A draw's four groups of four codes into ``gt``, its four left-out sets into ``left_words``."""
    cdef int g, j
    if len(fours) != TIERS or len(left) != TIERS:
        raise ValueError("repair_members: four readers, taken sets, fours and left-out sets")
    tiles = [[int(v) for v in four] for four in fours]
    for g in range(TIERS):
        if len(tiles[g]) != ITEMS or not all(0 <= v < t.n_codes for v in tiles[g]):
            raise ValueError("repair_members: four code indices a group")
        for j in range(ITEMS):
            gt[g * ITEMS + j] = tiles[g][j]
        _to_words(left[g], left_words + g * t.W, t.W)
    return 0


cdef int _groups(const Tab *t, readers, taken, Reader *rd, uint64_t *taken_words, uint64_t *prev_words,
                 list keep) except -1:
    """The four readers and taken sets (their arrays kept alive in ``keep``)."""
    cdef int g
    if len(readers) != TIERS or len(taken) != TIERS:
        raise ValueError("repair_members: four readers, taken sets, fours and left-out sets")
    for g in range(TIERS):
        _to_words(taken[g], taken_words + g * t.W, t.W)
        rd[g].prev = prev_words + g * t.W
        _reader(readers[g], &rd[g], t.n_codes, t.W, keep)
    return 0


cdef list _result(const int32_t *gt, const uint64_t *left_words, int W):
    return [[[gt[g * ITEMS + j] for j in range(ITEMS)] for g in range(TIERS)],
            [_from_words(left_words + g * W, W) for g in range(TIERS)]]


def repair_members(Prepared prep not None, readers, taken, recent, fours, left, int repairs, int tries):
    """The greedy repair of a day's draw: (the fours, the codes left out per group) or None (the
    twin, flagcore.reference.daily_repair, states the readers and the loop)."""
    cdef const Tab *t = &prep.tab
    cdef int W = t.W, rc
    cdef Reader rd[4]
    cdef int32_t cur[16]
    cdef int32_t[::1] rec = _recent(recent, t.n_cat)
    cdef int n_recent = len(recent)
    cdef uint64_t *words
    cdef uint16_t mays_a[SPLIT_STACK_CATS]
    cdef uint8_t size_a[SPLIT_STACK_CATS]
    cdef uint16_t mays_b[SPLIT_STACK_CATS]
    cdef uint8_t size_b[SPLIT_STACK_CATS]
    cdef Fours f, f2
    cdef list keep = []  # the readers' arrays, alive while their pointers are read
    f.mays = f2.mays = NULL
    words = <uint64_t *>calloc(14 * W, sizeof(uint64_t))  # taken 4W, left 4W, prev 4W, scratch 2W
    try:
        if words == NULL or fours_alloc(t, &f, mays_a, size_a) < 0 or fours_alloc(t, &f2, mays_b, size_b) < 0:
            raise MemoryError("connections: out of memory")
        _draw(t, fours, left, cur, words + 4 * W)
        _groups(t, readers, taken, rd, words, words + 8 * W, keep)
        with nogil:
            rc = repair_loop(t, rd, words, &rec[0], n_recent, cur, words + 4 * W, repairs, tries,
                             words + 12 * W, &f, &f2)
        if rc < 0:
            raise MemoryError("connections: out of memory")
        return None if rc == 0 else tuple(_result(cur, words + 4 * W, W))
    finally:
        free(words)
        if f.mays != mays_a:
            free(f.mays)
        if f2.mays != mays_b:
            free(f2.mays)


def wide_repair_members(Prepared prep not None, readers, taken, recent, starts, int beam, int steps, int tries):
    """The repair as a beam from the draws ``starts`` ((fours, left) each): (the fours, the codes
    left out per group) or None (the twin, flagcore.reference.daily_repair, states it)."""
    cdef const Tab *t = &prep.tab
    cdef int W = t.W, rc, b, n_starts = len(starts)
    cdef Reader rd[4]
    cdef int32_t res[16]
    cdef int32_t[::1] rec = _recent(recent, t.n_cat)
    cdef int n_recent = len(recent)
    cdef uint64_t *words
    cdef int32_t *start_gt
    cdef uint16_t mays_a[SPLIT_STACK_CATS]
    cdef uint8_t size_a[SPLIT_STACK_CATS]
    cdef uint16_t mays_b[SPLIT_STACK_CATS]
    cdef uint8_t size_b[SPLIT_STACK_CATS]
    cdef Fours f, f2
    cdef list keep = []
    if n_starts == 0 or beam < 1 or steps < 0 or tries < 0:
        raise ValueError("wide_repair_members: at least one draw to start from, a beam of one draw or more")
    f.mays = f2.mays = NULL
    # taken 4W, prev 4W, the result's left 4W, then the starts' left sets (4W each)
    words = <uint64_t *>calloc((12 + 4 * n_starts) * W, sizeof(uint64_t))
    start_gt = <int32_t *>malloc(16 * n_starts * sizeof(int32_t))
    try:
        if (words == NULL or start_gt == NULL or fours_alloc(t, &f, mays_a, size_a) < 0
                or fours_alloc(t, &f2, mays_b, size_b) < 0):
            raise MemoryError("connections: out of memory")
        for b in range(n_starts):
            fours, left = starts[b]
            _draw(t, fours, left, start_gt + 16 * b, words + (12 + 4 * b) * W)
        _groups(t, readers, taken, rd, words, words + 4 * W, keep)
        with nogil:
            rc = beam_loop(t, rd, words, &rec[0], n_recent, n_starts, start_gt, words + 12 * W, beam, steps,
                           tries, res, words + 8 * W, &f, &f2)
        if rc < 0:
            raise MemoryError("connections: out of memory")
        return None if rc == 0 else tuple(_result(res, words + 8 * W, W))
    finally:
        free(words)
        free(start_gt)
        if f.mays != mays_a:
            free(f.mays)
        if f2.mays != mays_b:
            free(f2.mays)
