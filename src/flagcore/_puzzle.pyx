# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Puzzle engine: cycles, solve checks, the spec's par (closed form + sigma enumeration) and
the exact par (maximum cycle decomposition of the colour multigraph), single and batched.

Every entry point takes input already validated by flagcore.puzzle (permutations of 0..n-1 as int32,
dense class ids 0..k-1), because the loops below run with bounds checks off and without the GIL.
The twin is python/flagcore/reference/puzzle.py + _cycle_packing.py; the algorithm, its proof
sketch and its complexity are documented in _cycle_packing.py and mirrored step for step here.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memset, memcmp

import numpy as np

from flagcore._validate_puzzle import ParSearchLimit

cdef int64_t ENUMERATION_CAP = 750000
cdef int64_t EST_CAP = 1099511627776  # 2**40: saturation of the pairing-count estimate (as the twin)
cdef int MAX_DENSE = 4096             # classes in one exact search (a dense MAX_DENSE**2 int32 matrix)

ENUMERATION_CAP_VALUE = ENUMERATION_CAP
MAX_EXACT_CLASSES = MAX_DENSE


# ------------------------------------------------------------------ cycles and solve checks

cdef int64_t _cycles(const int32_t *p, Py_ssize_t n, unsigned char *seen) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef int64_t cycles = 0
    memset(seen, 0, n)
    for i in range(n):
        if seen[i]:
            continue
        cycles += 1
        j = i
        while not seen[j]:
            seen[j] = 1
            j = p[j]
    return cycles


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
    cdef Py_ssize_t s
    cdef bint ok = True
    with nogil:
        for s in range(tiles_by_slot.shape[0]):
            if tiles_by_slot[s] != s:
                ok = False
                break
    return ok


def is_visually_solved(const int32_t[::1] tiles_by_slot, const int32_t[::1] classes):
    cdef Py_ssize_t s
    cdef bint ok = True
    with nogil:
        for s in range(tiles_by_slot.shape[0]):
            if classes[tiles_by_slot[s]] != classes[s]:
                ok = False
                break
    return ok


# ------------------------------------------------------------------ the spec's par (method="enumerate")

cdef int64_t _closed_form(const int32_t *pi, const int32_t *cls, int n, int k) noexcept nogil:
    """K <= 3: mismatch matrix, extract 2-cycles, add the residual directed triangles."""
    cdef int m[3][3]
    cdef int s, a, b, t, misplaced = 0, cycles = 0, t1, t2
    memset(m, 0, sizeof(m))
    for s in range(n):
        a = cls[s]
        b = cls[pi[s]]
        if a != b:
            m[a][b] += 1
            misplaced += 1
    for a in range(k):
        for b in range(a + 1, k):
            t = m[a][b] if m[a][b] < m[b][a] else m[b][a]
            m[a][b] -= t
            m[b][a] -= t
            cycles += t
    if k == 3:
        t1 = min(m[0][1], min(m[1][2], m[2][0]))
        t2 = min(m[0][2], min(m[2][1], m[1][0]))
        cycles += t1 if t1 > t2 else t2
    return misplaced - cycles


cdef bint _next_permutation(int *a, int n) noexcept nogil:
    """Lexicographic successor in place; False (and the array sorted again) after the last one."""
    cdef int i = n - 2, j, t
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i >= 0:
        j = n - 1
        while a[j] <= a[i]:
            j -= 1
        t = a[i]; a[i] = a[j]; a[j] = t
    j = n - 1
    t = i
    i += 1
    while i < j:
        a[i], a[j] = a[j], a[i]
        i += 1
        j -= 1
    return t >= 0


cdef int64_t _enumerate(const int32_t *pi, const int32_t *cls, int n, int k) noexcept nogil:
    """n - max over sigma in G_1! x ... x G_K! of cycles(sigma^-1 pi); -1 past the cap; -2 on OOM."""
    cdef int64_t total = 1, best = 0, cycles
    cdef int j, i, s, x, size
    cdef int *start = <int *>calloc(k + 1, sizeof(int))
    cdef int *fill = <int *>calloc(k + 1, sizeof(int))
    cdef int *members = <int *>malloc((n + 1) * sizeof(int))
    cdef int *perm = <int *>malloc((n + 1) * sizeof(int))
    cdef int *inv = <int *>malloc((n + 1) * sizeof(int))
    cdef int *stamp = <int *>calloc(n + 1, sizeof(int))
    cdef int gen = 0
    if start == NULL or fill == NULL or members == NULL or perm == NULL or inv == NULL or stamp == NULL:
        free(start); free(fill); free(members); free(perm); free(inv); free(stamp)
        return -2
    for s in range(n):
        start[cls[s] + 1] += 1
    for j in range(k):
        size = start[j + 1]
        for i in range(2, size + 1):
            total *= i
            if total > ENUMERATION_CAP:
                break
        if total > ENUMERATION_CAP:
            break
        start[j + 1] += start[j]
    if total > ENUMERATION_CAP:
        free(start); free(fill); free(members); free(perm); free(inv); free(stamp)
        return -1
    for s in range(n):
        j = cls[s]
        members[start[j] + fill[j]] = s
        perm[start[j] + fill[j]] = fill[j]
        fill[j] += 1
    for s in range(n):
        inv[s] = s  # sigma = identity: members[start+i] -> members[start+perm[i]] with perm = id
    while True:
        # cycles of rho(s) = sigma^-1(pi(s)); stamps instead of clearing a seen array per candidate
        gen += 1
        cycles = 0
        for s in range(n):
            if stamp[s] == gen:
                continue
            cycles += 1
            x = s
            while stamp[x] != gen:
                stamp[x] = gen
                x = inv[pi[x]]
        if cycles > best:
            best = cycles
        # odometer over the groups, each stepping through its orderings lexicographically
        j = 0
        while j < k:
            size = start[j + 1] - start[j]
            if _next_permutation(&perm[start[j]], size):
                for i in range(size):
                    inv[members[start[j] + perm[start[j] + i]]] = members[start[j] + i]
                break
            for i in range(size):
                inv[members[start[j] + i]] = members[start[j] + i]
            j += 1
        if j == k:
            break
    free(start); free(fill); free(members); free(perm); free(inv); free(stamp)
    return n - best


cdef int64_t _par_enumerate(const int32_t *pi, const int32_t *cls, int n, int k, unsigned char *seen) noexcept nogil:
    cdef int64_t r
    if k <= 3:
        return _closed_form(pi, cls, n, k)
    r = _enumerate(pi, cls, n, k)
    if r == -1:  # the spec's fallback past the cap: the identity count, an upper bound
        return n - _cycles(pi, n, seen)
    return r


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


# ------------------------------------------------------------------ the exact par (method="exact")
# Twin of reference/_cycle_packing.py; see its docstring for the reductions, bounds and proofs.
# A graph is a dense V x V int32 matrix, mat[u * V + w] = multiplicity of u -> w; a deleted vertex
# is a zero row and column. Components are compacted (vertices keep their relative order), which
# is the "rank" labelling the twin's memo keys use.

cdef struct Memo:
    uint64_t *hashes
    int32_t **keys
    int32_t *lens
    int32_t *values
    char *exact
    Py_ssize_t cap
    Py_ssize_t size

cdef struct Ctx:
    Memo memo
    int oom
    int stop           # the node budget ran out: unwind, the result is thrown away
    int64_t nodes      # search nodes so far (the twin's _Budget counts the same ones)
    int64_t max_nodes  # < 0: no limit


cdef inline int64_t _node_cost(int V, int64_t E) noexcept nogil:
    """Budget charged per search node on a component of V colours and E distinct edges (the
    twin's node_cost): 1 + E**2 * bitlen(E) // 65536 + V**2 // 16384."""
    cdef int64_t bits = 0, x = E
    while x:
        bits += 1
        x >>= 1
    return 1 + (E * E * bits) // 65536 + (<int64_t>V * V) // 16384


cdef inline bint _tick(Ctx *ctx, int64_t cost) noexcept nogil:
    """Charge one search node; False (and ctx.stop set) once past the budget."""
    ctx.nodes += cost
    if ctx.max_nodes >= 0 and ctx.nodes > ctx.max_nodes:
        ctx.stop = 1
        return False
    return True


cdef uint64_t _hash_key(const int32_t *key, int len) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef int i
    for i in range(len):
        h ^= <uint64_t>(<uint32_t>key[i])
        h *= 1099511628211ULL
    return h | 1  # 0 marks an empty slot


cdef Py_ssize_t _memo_find(Memo *m, const int32_t *key, int len, uint64_t h) noexcept nogil:
    """Slot holding key, or the empty slot where it would go."""
    cdef Py_ssize_t i = <Py_ssize_t>(h & <uint64_t>(m.cap - 1))
    while m.hashes[i] != 0:
        if m.hashes[i] == h and m.lens[i] == len and memcmp(m.keys[i], key, len * sizeof(int32_t)) == 0:
            return i
        i = (i + 1) & (m.cap - 1)
    return i


cdef int _memo_init(Memo *m) noexcept nogil:
    m.cap = 64  # most boards never branch; the table doubles when a search needs it
    m.size = 0
    m.hashes = <uint64_t *>calloc(m.cap, sizeof(uint64_t))
    m.keys = <int32_t **>calloc(m.cap, sizeof(int32_t *))
    m.lens = <int32_t *>calloc(m.cap, sizeof(int32_t))
    m.values = <int32_t *>calloc(m.cap, sizeof(int32_t))
    m.exact = <char *>calloc(m.cap, sizeof(char))
    return m.hashes != NULL and m.keys != NULL and m.lens != NULL and m.values != NULL and m.exact != NULL


cdef void _memo_free(Memo *m) noexcept nogil:
    cdef Py_ssize_t i
    if m.keys != NULL:
        for i in range(m.cap):
            free(m.keys[i])
    free(m.hashes); free(m.keys); free(m.lens); free(m.values); free(m.exact)


cdef int _memo_grow(Memo *m) noexcept nogil:
    cdef Memo bigger
    cdef Py_ssize_t i, j
    bigger.cap = m.cap * 2
    bigger.size = m.size
    bigger.hashes = <uint64_t *>calloc(bigger.cap, sizeof(uint64_t))
    bigger.keys = <int32_t **>calloc(bigger.cap, sizeof(int32_t *))
    bigger.lens = <int32_t *>calloc(bigger.cap, sizeof(int32_t))
    bigger.values = <int32_t *>calloc(bigger.cap, sizeof(int32_t))
    bigger.exact = <char *>calloc(bigger.cap, sizeof(char))
    if bigger.hashes == NULL or bigger.keys == NULL or bigger.lens == NULL or bigger.values == NULL or bigger.exact == NULL:
        free(bigger.hashes); free(bigger.keys); free(bigger.lens); free(bigger.values); free(bigger.exact)
        return 0
    for i in range(m.cap):
        if m.hashes[i] != 0:
            j = _memo_find(&bigger, m.keys[i], m.lens[i], m.hashes[i])
            bigger.hashes[j] = m.hashes[i]
            bigger.keys[j] = m.keys[i]
            bigger.lens[j] = m.lens[i]
            bigger.values[j] = m.values[i]
            bigger.exact[j] = m.exact[i]
    free(m.hashes); free(m.keys); free(m.lens); free(m.values); free(m.exact)
    m[0] = bigger
    return 1


cdef void _memo_store(Ctx *ctx, const int32_t *key, int len, uint64_t h, int value, char exact) noexcept nogil:
    cdef Memo *m = &ctx.memo
    cdef Py_ssize_t i
    cdef int32_t *copy
    if 2 * (m.size + 1) > m.cap and not _memo_grow(m):
        ctx.oom = 1
        return
    i = _memo_find(m, key, len, h)
    if m.hashes[i] == 0:
        copy = <int32_t *>malloc(len * sizeof(int32_t) + 1)
        if copy == NULL:
            ctx.oom = 1
            return
        memcpy(copy, key, len * sizeof(int32_t))
        m.hashes[i] = h
        m.keys[i] = copy
        m.lens[i] = len
        m.size += 1
    m.values[i] = value
    m.exact[i] = exact


cdef int _reduce(int32_t *mat, int V) noexcept nogil:
    """2-cycles and forced contractions to a fixpoint, sweeping vertices in ascending order."""
    cdef int gain = 0, v, w, u, x, t, nin, nout, lastin, lastout
    cdef int32_t c
    cdef bint changed = True
    while changed:
        changed = False
        for v in range(V):
            for w in range(V):
                c = mat[v * V + w]
                if c and mat[w * V + v]:
                    t = c if c < mat[w * V + v] else mat[w * V + v]
                    mat[v * V + w] -= t
                    mat[w * V + v] -= t
                    gain += t
                    changed = True
            nin = 0
            nout = 0
            lastin = -1
            lastout = -1
            for x in range(V):
                if mat[x * V + v]:
                    nin += 1
                    lastin = x
                if mat[v * V + x]:
                    nout += 1
                    lastout = x
            if nin == 0 and nout == 0:
                continue
            if nin == 1:
                u = lastin
                for w in range(V):
                    c = mat[v * V + w]
                    if c:
                        mat[u * V + w] += c
                        mat[v * V + w] = 0
                mat[u * V + v] = 0
                changed = True
            elif nout == 1:
                w = lastout
                for u in range(V):
                    c = mat[u * V + v]
                    if c:
                        mat[u * V + w] += c
                        mat[u * V + v] = 0
                mat[v * V + w] = 0
                changed = True
    return gain


cdef void _heap_push(double *hk, int *hv, int *size, double key, int v) noexcept nogil:
    cdef int i = size[0], parent
    size[0] += 1
    while i > 0:
        parent = (i - 1) >> 1
        if hk[parent] <= key:
            break
        hk[i] = hk[parent]
        hv[i] = hv[parent]
        i = parent
    hk[i] = key
    hv[i] = v


cdef void _heap_pop(double *hk, int *hv, int *size) noexcept nogil:
    cdef int i = 0, child, n
    cdef double key
    cdef int v
    size[0] -= 1
    n = size[0]
    if n == 0:
        return
    key = hk[n]
    v = hv[n]
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and hk[child + 1] < hk[child]:
            child += 1
        if hk[child] >= key:
            break
        hk[i] = hk[child]
        hv[i] = hv[child]
        i = child
    hk[i] = key
    hv[i] = v


cdef double _lightest_path(const int *first, const int *adj, const double *y, int V, int src, int dst,
                           double *best, char *done, double *hk, int *hv) noexcept nogil:
    """Dijkstra: least y-weight of a path src -> dst (the twin's _lightest_path; the value is the
    minimum over paths of the left-to-right float sum, whatever order ties pop in)."""
    cdef int x, z, e, size = 0
    cdef double d, nd
    for x in range(V):
        best[x] = 1e300
        done[x] = 0
    best[src] = 0.0
    _heap_push(hk, hv, &size, 0.0, src)
    while size:
        d = hk[0]
        x = hv[0]
        _heap_pop(hk, hv, &size)
        if done[x]:
            continue
        if x == dst:
            return d
        done[x] = 1
        for e in range(first[x], first[x + 1]):
            z = adj[e]
            nd = d + y[e]
            if nd < best[z]:
                best[z] = nd
                _heap_push(hk, hv, &size, nd, z)
    return 0.0  # unreachable in a balanced component; 0 keeps y(e) = 1, still a valid bound


cdef int _upper_bound(const int32_t *mat, int V, int *dist, int *queue, int64_t *parts) noexcept nogil:
    """min(floor(sum_e mult(e) / g(e)), floor(sum_e mult(e) * y(e))): the twin's _upper_bound.

    Adjacency lists built once make each BFS O(V + E); edges are numbered in (u, w) order, the
    order the twin walks its sorted edge list in. Without memory for the lists the girth bound
    alone is returned (dense BFS): still a valid bound, only the node count can then differ.
    """
    cdef int w, u, x, z, head, tail, L, e, E = 0, i, girth_bound, lp_bound
    cdef double total = 0.0, d, term
    cdef int *adj
    cdef int *first
    cdef int *src
    cdef double *y
    cdef double *best
    cdef char *done
    cdef double *hk
    cdef int *hv
    cdef bint lists
    memset(parts, 0, (V + 2) * sizeof(int64_t))
    for i in range(V * V):
        if mat[i]:
            E += 1
    adj = <int *>malloc((E + 1) * sizeof(int))
    src = <int *>malloc((E + 1) * sizeof(int))
    first = <int *>malloc((V + 1) * sizeof(int))
    y = <double *>malloc((E + 1) * sizeof(double))
    best = <double *>malloc((V + 1) * sizeof(double))
    done = <char *>malloc(V + 1)
    hk = <double *>malloc((E + 2) * sizeof(double))
    hv = <int *>malloc((E + 2) * sizeof(int))
    lists = adj != NULL and src != NULL and first != NULL and y != NULL and best != NULL and \
        done != NULL and hk != NULL and hv != NULL
    if lists:
        e = 0
        for x in range(V):
            first[x] = e
            for z in range(V):
                if mat[x * V + z]:
                    adj[e] = z
                    src[e] = x
                    e += 1
        first[V] = e
    for w in range(V):
        # only heads of edges matter
        for u in range(V):
            if mat[u * V + w]:
                break
        else:
            continue
        for x in range(V):
            dist[x] = -1
        dist[w] = 0
        queue[0] = w
        head = 0
        tail = 1
        while head < tail:
            x = queue[head]
            head += 1
            if lists:
                for e in range(first[x], first[x + 1]):
                    z = adj[e]
                    if dist[z] < 0:
                        dist[z] = dist[x] + 1
                        queue[tail] = z
                        tail += 1
            else:
                for z in range(V):
                    if mat[x * V + z] and dist[z] < 0:
                        dist[z] = dist[x] + 1
                        queue[tail] = z
                        tail += 1
        for u in range(V):
            if mat[u * V + w]:
                parts[dist[u] + 1] += mat[u * V + w]
                if lists:
                    for e in range(first[u], first[u + 1]):
                        if adj[e] == w:
                            y[e] = 1.0 / <double>(dist[u] + 1)
                            break
    for L in range(1, V + 2):
        if parts[L]:
            total += <double>parts[L] / <double>L
    girth_bound = <int>(total + 1e-9)
    lp_bound = girth_bound
    if lists:
        for e in range(E):
            d = 1.0 - _lightest_path(first, adj, y, V, adj[e], src[e], best, done, hk, hv)
            y[e] = d if d > 0.0 else 0.0
        total = 0.0
        for e in range(E):
            term = <double>mat[src[e] * V + adj[e]] * y[e]
            total += term
        lp_bound = <int>(total + 1e-9)
    free(adj); free(src); free(first); free(y); free(best); free(done); free(hk); free(hv)
    return lp_bound if lp_bound < girth_bound else girth_bound


cdef int _lower_bound(const int32_t *mat, int V, int32_t *work, int *parent, int *queue) noexcept nogil:
    """Greedy: peel a shortest cycle through the lowest vertex with edges, reduce, repeat."""
    cdef int cycles = 0, v, x, y, head, tail, found, last
    memcpy(work, mat, <size_t>V * V * sizeof(int32_t))
    while True:
        v = -1
        for x in range(V):
            for y in range(V):
                if work[x * V + y]:
                    v = x
                    break
            if v >= 0:
                break
        if v < 0:
            return cycles
        for x in range(V):
            parent[x] = -1
        parent[v] = v
        queue[0] = v
        head = 0
        tail = 1
        found = -1
        while head < tail and found < 0:
            x = queue[head]
            head += 1
            for y in range(V):
                if work[x * V + y]:
                    if y == v:
                        found = x
                        break
                    if parent[y] < 0:
                        parent[y] = x
                        queue[tail] = y
                        tail += 1
        # remove the cycle v -> ... -> found -> v
        work[found * V + v] -= 1
        last = found
        while last != v:
            work[parent[last] * V + last] -= 1
            last = parent[last]
        cycles += 1
        cycles += _reduce(work, V)


cdef int64_t _est(const int32_t *mat, int V, int v) noexcept nogil:
    """Saturated product over in-neighbours of C(a + s - 1, s - 1): the pairing-count estimate."""
    cdef int s = 0, u, t, w
    cdef int64_t est = 1, ways, a
    for w in range(V):
        if mat[v * V + w]:
            s += 1
    for u in range(V):
        a = mat[u * V + v]
        if not a:
            continue
        ways = 1
        for t in range(1, s):
            ways = ways * (a + t) // t
            if ways >= EST_CAP:
                ways = EST_CAP
                break
        est *= ways
        if est >= EST_CAP:
            est = EST_CAP
    return est


cdef int _pick_vertex(const int32_t *mat, int V) noexcept nogil:
    cdef int v, x, deg, best = -1, best_deg = 0
    cdef int64_t e, best_e = 0
    for v in range(V):
        deg = 0
        for x in range(V):
            if mat[x * V + v]:
                deg += 1
            if mat[v * V + x]:
                deg += 1
        if deg == 0:
            continue
        e = _est(mat, V, v)
        if best < 0 or e < best_e or (e == best_e and deg < best_deg):
            best, best_e, best_deg = v, e, deg
    return best


cdef struct Tables:
    int32_t *data
    Py_ssize_t count
    Py_ssize_t cap
    int cells


cdef int _tables_push(Tables *t, const int32_t *cur) noexcept nogil:
    cdef int32_t *grown
    if t.count == t.cap:
        t.cap = t.cap * 2 if t.cap else 16
        grown = <int32_t *>realloc(t.data, t.cap * t.cells * sizeof(int32_t))
        if grown == NULL:
            return 0
        t.data = grown
    memcpy(&t.data[t.count * t.cells], cur, t.cells * sizeof(int32_t))
    t.count += 1
    return 1


cdef int _fill(Ctx *ctx, int64_t cost, Tables *t, const int *rows, int r, int *colleft, int s, int32_t *cur,
               int i, int j, int rowleft) noexcept nogil:
    """Every r x s table with row sums rows and column sums colleft, in the twin's order.

    Each table is a search node (ticked before it is stored); 0 on OOM or when the budget ends.
    """
    cdef int x, lo, rest, q, hi
    if i == r:
        if not _tick(ctx, cost):
            return 0
        if not _tables_push(t, cur):
            ctx.oom = 1
            return 0
        return 1
    if j == s - 1:
        if rowleft > colleft[j]:
            return 1
        cur[i * s + j] = rowleft
        colleft[j] -= rowleft
        if not _fill(ctx, cost, t, rows, r, colleft, s, cur, i + 1, 0, rows[i + 1] if i + 1 < r else 0):
            return 0
        colleft[j] += rowleft
        cur[i * s + j] = 0
        return 1
    rest = 0
    for q in range(j + 1, s):
        rest += colleft[q]
    lo = rowleft - rest
    if lo < 0:
        lo = 0
    hi = rowleft if rowleft < colleft[j] else colleft[j]
    x = hi
    while x >= lo:
        cur[i * s + j] = x
        colleft[j] -= x
        if not _fill(ctx, cost, t, rows, r, colleft, s, cur, i, j + 1, rowleft - x):
            return 0
        colleft[j] += x
        x -= 1
    cur[i * s + j] = 0
    return 1


cdef struct Child:
    int32_t *mat
    int gain
    int bound
    int idx


cdef int _child_cmp(const void *pa, const void *pb) noexcept nogil:
    cdef const Child *a = <const Child *>pa
    cdef const Child *b = <const Child *>pb
    if a.bound != b.bound:
        return -1 if a.bound > b.bound else 1
    if a.gain != b.gain:
        return -1 if a.gain > b.gain else 1
    return -1 if a.idx < b.idx else (1 if a.idx > b.idx else 0)


cdef int _solve_comp(Ctx *ctx, int32_t *mat, int V, int target, int ub, int *exact) noexcept nogil:
    cdef int nkey = 1, u, w, best, v, r, s, i, j, q, value, ex, need, bound
    cdef int32_t *key
    cdef uint64_t h
    cdef Py_ssize_t slot, ci
    cdef int *ins
    cdef int *outs
    cdef int *rows
    cdef int *cols
    cdef int32_t *cur
    cdef int32_t *scratch
    cdef int *ibuf
    cdef int *ibuf2
    cdef int64_t *parts
    cdef Tables tables
    cdef Child *children
    cdef int32_t *cm
    cdef const int32_t *tab
    for u in range(V * V):
        if mat[u]:
            nkey += 3
    key = <int32_t *>malloc(nkey * sizeof(int32_t))
    if key == NULL:
        ctx.oom = 1
        exact[0] = 1
        return 0
    key[0] = V
    q = 1
    for u in range(V):
        for w in range(V):
            if mat[u * V + w]:
                key[q] = u
                key[q + 1] = w
                key[q + 2] = mat[u * V + w]
                q += 3
    h = _hash_key(key, nkey)
    slot = _memo_find(&ctx.memo, key, nkey, h)
    if ctx.memo.hashes[slot] != 0:
        if ctx.memo.exact[slot] or ctx.memo.values[slot] < target:
            exact[0] = ctx.memo.exact[slot]
            free(key)
            return ctx.memo.values[slot]
        if ctx.memo.values[slot] < ub:
            ub = ctx.memo.values[slot]
    if ub < target:
        free(key)
        exact[0] = 0
        return ub
    if not _tick(ctx, _node_cost(V, (nkey - 1) // 3)):
        free(key)
        exact[0] = 1
        return 0
    scratch = <int32_t *>malloc(<size_t>V * V * sizeof(int32_t) + 4)
    ibuf = <int *>malloc((V + 2) * sizeof(int))
    ibuf2 = <int *>malloc((V + 2) * sizeof(int))
    parts = <int64_t *>malloc((V + 2) * sizeof(int64_t))
    if scratch == NULL or ibuf == NULL or ibuf2 == NULL or parts == NULL:
        free(scratch); free(ibuf); free(ibuf2); free(parts); free(key)
        ctx.oom = 1
        exact[0] = 1
        return 0
    best = _lower_bound(mat, V, scratch, ibuf, ibuf2)
    if best < ub:
        v = _pick_vertex(mat, V)
        ins = <int *>malloc(V * sizeof(int))
        outs = <int *>malloc(V * sizeof(int))
        rows = <int *>malloc(V * sizeof(int))
        cols = <int *>malloc(V * sizeof(int))
        r = 0
        s = 0
        for u in range(V):
            if mat[u * V + v]:
                ins[r] = u
                rows[r] = mat[u * V + v]
                r += 1
            if mat[v * V + u]:
                outs[s] = u
                cols[s] = mat[v * V + u]
                s += 1
        cur = <int32_t *>calloc(r * s + 1, sizeof(int32_t))
        tables.data = NULL
        tables.count = 0
        tables.cap = 0
        tables.cells = r * s
        if cur == NULL:
            ctx.oom = 1
        elif not _fill(ctx, _node_cost(V, (nkey - 1) // 3), &tables, rows, r, cols, s, cur, 0, 0, rows[0]):
            tables.count = 0  # ctx.oom or ctx.stop is set: nothing below runs
        children = <Child *>malloc((tables.count + 1) * sizeof(Child))
        if children == NULL:
            ctx.oom = 1
            tables.count = 0
        for ci in range(tables.count):
            tab = &tables.data[ci * tables.cells]
            cm = <int32_t *>malloc(<size_t>V * V * sizeof(int32_t) + 4)
            children[ci].mat = cm
            children[ci].idx = <int>ci
            if cm == NULL:
                ctx.oom = 1
                children[ci].gain = 0
                children[ci].bound = -1
                continue
            memcpy(cm, mat, <size_t>V * V * sizeof(int32_t))
            for q in range(V):
                cm[v * V + q] = 0
                cm[q * V + v] = 0
            for i in range(r):
                for j in range(s):
                    cm[ins[i] * V + outs[j]] += tab[i * s + j]
            children[ci].gain = _reduce(cm, V)
            children[ci].bound = children[ci].gain + _upper_bound(cm, V, ibuf, ibuf2, parts)
        qsort(children, tables.count, sizeof(Child), _child_cmp)
        for ci in range(tables.count):
            if children[ci].bound <= best or ctx.oom or ctx.stop:
                break
            need = (best + 1 if best + 1 > target else target) - children[ci].gain
            value = _solve_graph(ctx, children[ci].mat, V, need, &ex)
            if ex and children[ci].gain + value > best:
                best = children[ci].gain + value
                if best == ub:
                    break
        for ci in range(tables.count):
            free(children[ci].mat)
        free(children); free(tables.data); free(cur)
        free(ins); free(outs); free(rows); free(cols)
    free(scratch); free(ibuf); free(ibuf2); free(parts)
    if ctx.oom or ctx.stop:  # unwinding: store nothing, the caller discards the value
        free(key)
        exact[0] = 1
        return 0
    if best >= target:
        _memo_store(ctx, key, nkey, h, best, 1)
        free(key)
        exact[0] = 1
        return best
    bound = best if best > target - 1 else target - 1
    _memo_store(ctx, key, nkey, h, bound, 0)
    free(key)
    exact[0] = 0
    return bound


cdef int _solve_graph(Ctx *ctx, const int32_t *mat, int V, int target, int *exact) noexcept nogil:
    """Exact max cycles if >= target, else an upper bound < target with exact = 0."""
    cdef int *label = <int *>malloc((V + 1) * sizeof(int))
    cdef int *stack = <int *>malloc((V + 1) * sizeof(int))
    cdef int *order = <int *>malloc((V + 1) * sizeof(int))
    cdef int *cstart = <int *>malloc((V + 2) * sizeof(int))
    cdef int *ubs = <int *>malloc((V + 1) * sizeof(int))
    cdef int *dist = <int *>malloc((V + 2) * sizeof(int))
    cdef int *queue = <int *>malloc((V + 2) * sizeof(int))
    cdef int64_t *parts = <int64_t *>malloc((V + 2) * sizeof(int64_t))
    cdef int32_t **subs = <int32_t **>calloc(V + 1, sizeof(int32_t *))
    cdef int ncomp = 0, v, x, y, top, nord = 0, c, size, i, j, rest = 0, acc = 0, value, ex, result
    cdef bint has_edge
    exact[0] = 1
    if label == NULL or stack == NULL or order == NULL or cstart == NULL or ubs == NULL or \
            dist == NULL or queue == NULL or parts == NULL or subs == NULL:
        ctx.oom = 1
        result = 0
    else:
        for v in range(V):
            label[v] = -1
        for v in range(V):
            if label[v] >= 0:
                continue
            has_edge = False
            for x in range(V):
                if mat[v * V + x] or mat[x * V + v]:
                    has_edge = True
                    break
            if not has_edge:
                continue
            # one component: DFS over edges in both directions, then its vertices in ascending order
            cstart[ncomp] = nord
            label[v] = ncomp
            stack[0] = v
            top = 1
            while top:
                top -= 1
                x = stack[top]
                for y in range(V):
                    if label[y] < 0 and (mat[x * V + y] or mat[y * V + x]):
                        label[y] = ncomp
                        stack[top] = y
                        top += 1
            for x in range(V):
                if label[x] == ncomp:
                    order[nord] = x
                    nord += 1
            ncomp += 1
        cstart[ncomp] = nord
        for c in range(ncomp):
            size = cstart[c + 1] - cstart[c]
            subs[c] = <int32_t *>malloc(<size_t>size * size * sizeof(int32_t) + 4)
            if subs[c] == NULL:
                ctx.oom = 1
                break
            for i in range(size):
                for j in range(size):
                    subs[c][i * size + j] = mat[order[cstart[c] + i] * V + order[cstart[c] + j]]
            ubs[c] = _upper_bound(subs[c], size, dist, queue, parts)
            rest += ubs[c]
        if ctx.oom:
            result = 0
        elif rest < target:
            exact[0] = 0
            result = rest
        else:
            for c in range(ncomp):
                size = cstart[c + 1] - cstart[c]
                rest -= ubs[c]
                value = _solve_comp(ctx, subs[c], size, target - acc - rest, ubs[c], &ex)
                acc += value
                if ctx.oom or ctx.stop:
                    break
                if not ex:
                    exact[0] = 0
                    acc += rest
                    break
            result = acc
    if subs != NULL:
        for c in range(V + 1):
            free(subs[c])
    free(label); free(stack); free(order); free(cstart); free(ubs); free(dist); free(queue)
    free(parts); free(subs)
    return result


cdef int64_t _par_exact(const int32_t *pi, const int32_t *cls, int n, int k, unsigned char *seen,
                       int64_t max_nodes, int64_t *nodes_out=NULL) noexcept nogil:
    """misplaced - max cycles; -2 on OOM, -3 when more than MAX_DENSE classes interleave, -4 when
    the search needs more than max_nodes nodes (< 0: no limit)."""
    cdef int *rank
    cdef int s, a, b, V = 0, misplaced = 0, gain, value, ex
    cdef int32_t *mat
    cdef Ctx ctx
    if k == n:  # all tiles distinct: the colour graph is the permutation itself
        return n - _cycles(pi, n, seen)
    rank = <int *>malloc((k + 1) * sizeof(int))
    if rank == NULL:
        return -2
    for a in range(k):
        rank[a] = -1
    for s in range(n):
        a = cls[s]
        b = cls[pi[s]]
        if a != b:
            misplaced += 1
            if rank[a] < 0:
                rank[a] = 0
    for a in range(k):  # classes with edges, renumbered in ascending class order
        if rank[a] == 0:
            rank[a] = V
            V += 1
    if V > MAX_DENSE:
        free(rank)
        return -3
    if V == 0:
        free(rank)
        return 0
    mat = <int32_t *>calloc(<size_t>V * V, sizeof(int32_t))
    if mat == NULL:
        free(rank)
        return -2
    for s in range(n):
        a = cls[s]
        b = cls[pi[s]]
        if a != b:
            mat[rank[a] * V + rank[b]] += 1
    free(rank)
    gain = _reduce(mat, V)
    ctx.oom = 0
    ctx.stop = 0
    ctx.nodes = 0
    ctx.max_nodes = max_nodes
    if not _memo_init(&ctx.memo):
        _memo_free(&ctx.memo)
        free(mat)
        return -2
    value = _solve_graph(&ctx, mat, V, 0, &ex)
    if nodes_out != NULL:
        nodes_out[0] = ctx.nodes
    _memo_free(&ctx.memo)
    free(mat)
    if ctx.oom:
        return -2
    if ctx.stop:
        return -4
    return misplaced - gain - value


cdef _raise_for(int64_t code, int n=0, int k=0, int64_t max_nodes=-1, row=None):
    if code == -4:
        raise ParSearchLimit(n, k, max_nodes, row)
    if code == -3:
        raise ValueError(f"the exact par handles at most {MAX_DENSE} interleaved tile classes")
    raise MemoryError()


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
