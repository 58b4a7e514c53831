# Bounds of the exact par search: included by _puzzle.pyx. Twins of _upper_bound and
# _lower_bound in reference/_cycle_packing.py; their scratch comes from the search's arena.

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


cdef int _upper_bound(Arena *arena, const int32_t *mat, int V, int *dist, int *queue, int64_t *parts) noexcept nogil:
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
    cdef Mark mark = _arena_mark(arena)
    memset(parts, 0, (V + 2) * sizeof(int64_t))
    for i in range(V * V):
        if mat[i]:
            E += 1
    adj = <int *>_arena_alloc(arena, (E + 1) * sizeof(int))
    src = <int *>_arena_alloc(arena, (E + 1) * sizeof(int))
    first = <int *>_arena_alloc(arena, (V + 1) * sizeof(int))
    y = <double *>_arena_alloc(arena, (E + 1) * sizeof(double))
    best = <double *>_arena_alloc(arena, (V + 1) * sizeof(double))
    done = <char *>_arena_alloc(arena, V + 1)
    hk = <double *>_arena_alloc(arena, (E + 2) * sizeof(double))
    hv = <int *>_arena_alloc(arena, (E + 2) * sizeof(int))
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
    _arena_release(arena, mark)
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

