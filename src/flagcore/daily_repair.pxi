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


cdef int repair_loop(const Tab *t, const Reader *readers, uint64_t *taken, const int32_t *recent, int n_recent,
                     int32_t *cur, uint64_t *left, int repairs, int tries, uint64_t *scratch,
                     Fours *f, Fours *g2) noexcept nogil:
    """The twin's repair_members on C arrays (taken, left: four W-word sets each; scratch: 2 * W
    words): 1 repaired (cur, left hold it), 0 not, -1 out of memory."""
    cdef int W = t.W, step, i, j, k, g, y, tr, n, fa, fb, best_f, best_g, oi, a, b
    cdef int32_t hits[16]
    cdef int32_t order[16]
    cdef int32_t four[4]
    cdef int32_t tried[16]
    cdef int32_t best_gt[16]
    cdef uint64_t *out = scratch
    cdef uint64_t *best_out = scratch + W
    cdef bint mine
    fa = draw_faults(t, g2, cur, recent, n_recent)
    if fa < 0:
        return -1
    for step in range(repairs):
        if fa == 0:
            return 1
        fours_init(t, cur, f)
        for i in range(16):
            hits[i] = f.hits[i] if f.count > DECOY_FOURS_CAP else 0
        for k in range(n_recent):
            if complete_four(f.mays[recent[k]], f.size[recent[k]]):
                for i in range(16):
                    hits[i] += (f.mays[recent[k]] >> i) & 1
        # the tiles, most hits first, then by group and code index (an insertion sort of 16)
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
                fb = draw_faults(t, g2, tried, recent, n_recent)
                if fb < 0:
                    return -1
                if best_f < 0 or fb < best_f:
                    best_f = fb
                    best_g = g
                    memcpy(best_gt, tried, sizeof(tried))
                    memcpy(best_out, out, W * sizeof(uint64_t))
                    if fb == 0:
                        break
                for j in range(ITEMS):  # the next try reads past the codes this one read
                    y = four[j]
                    mine = False
                    for k in range(ITEMS):
                        if cur[g * ITEMS + k] == y:
                            mine = True
                    if not mine:
                        out[y >> 6] |= (<uint64_t>1) << (y & 63)
            if best_f == 0:
                break
        if best_f < 0:  # every group's codes used up
            return 0
        fa = best_f
        memcpy(cur, best_gt, sizeof(best_gt))
        memcpy(left + best_g * W, best_out, W * sizeof(uint64_t))
    return 1 if fa == 0 else 0


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


def repair_members(Prepared prep not None, readers, taken, recent, fours, left, int repairs, int tries):
    """The greedy repair of a day's draw: (the fours, the codes left out per group) or None (the
    twin, flagcore.reference.daily_repair, states the readers and the loop)."""
    cdef const Tab *t = &prep.tab
    cdef int W = t.W, g, j, rc, n_recent
    cdef Reader rd[4]
    cdef int32_t cur[16]
    cdef int32_t[::1] rec
    cdef uint64_t *words
    cdef uint16_t mays_a[SPLIT_STACK_CATS]
    cdef uint8_t size_a[SPLIT_STACK_CATS]
    cdef uint16_t mays_b[SPLIT_STACK_CATS]
    cdef uint8_t size_b[SPLIT_STACK_CATS]
    cdef Fours f, f2
    cdef list keep = []  # the readers' arrays, alive while their pointers are read
    if len(readers) != TIERS or len(taken) != TIERS or len(fours) != TIERS or len(left) != TIERS:
        raise ValueError("repair_members: four readers, taken sets, fours and left-out sets")
    n_recent = len(recent)
    rec = np.ascontiguousarray(recent, dtype=np.int32) if n_recent else np.zeros(1, dtype=np.int32)
    for j in range(n_recent):
        if not 0 <= rec[j] < t.n_cat:
            raise ValueError("repair_members: recent holds category indices")
    tiles = [[int(v) for v in four] for four in fours]
    for g in range(TIERS):
        if len(tiles[g]) != ITEMS or not all(0 <= v < t.n_codes for v in tiles[g]):
            raise ValueError("repair_members: four code indices a group")
        for j in range(ITEMS):
            cur[g * ITEMS + j] = tiles[g][j]
    f.mays = f2.mays = NULL
    words = <uint64_t *>calloc(14 * W, sizeof(uint64_t))  # taken 4W, left 4W, prev 4W, scratch 2W
    try:
        if words == NULL or fours_alloc(t, &f, mays_a, size_a) < 0 or fours_alloc(t, &f2, mays_b, size_b) < 0:
            raise MemoryError("connections: out of memory")
        for g in range(TIERS):
            _to_words(taken[g], words + g * W, W)
            _to_words(left[g], words + (4 + g) * W, W)
            rd[g].prev = words + (8 + g) * W
            _reader(readers[g], &rd[g], t.n_codes, W, keep)
        with nogil:
            rc = repair_loop(t, rd, words, &rec[0], n_recent, cur, words + 4 * W, repairs, tries,
                             words + 12 * W, &f, &f2)
        if rc < 0:
            raise MemoryError("connections: out of memory")
        if rc == 0:
            return None
        return ([[cur[g * ITEMS + j] for j in range(ITEMS)] for g in range(TIERS)],
                [_from_words(words + (4 + g) * W, W) for g in range(TIERS)])
    finally:
        free(words)
        if f.mays != mays_a:
            free(f.mays)
        if f2.mays != mays_b:
            free(f2.mays)
