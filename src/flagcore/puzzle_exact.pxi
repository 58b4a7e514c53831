# The exact par (method="exact"): included by _puzzle.pyx. Twin of reference/_cycle_packing.py;
# see its docstring for the reductions, bounds and proofs.
# A graph is a dense V x V int32 matrix, mat[u * V + w] = multiplicity of u -> w; a deleted vertex
# is a zero row and column. Components are compacted (vertices keep their relative order), which
# is the "rank" labelling the twin's memo keys use.

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


cdef int _tables_push(Ctx *ctx, Tables *t, const int32_t *cur) noexcept nogil:
    """Append one table; the list is the latest allocation of the arena while _fill runs, so it
    grows in place."""
    cdef int32_t *grown
    cdef Py_ssize_t cap
    if t.count == t.cap:
        cap = t.cap * 2 if t.cap else 16
        grown = <int32_t *>_arena_extend(&ctx.arena, t.data, t.cap * t.cells * sizeof(int32_t),
                                         cap * t.cells * sizeof(int32_t))
        if grown == NULL:
            return 0
        t.data = grown
        t.cap = cap
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
        if not _tables_push(ctx, t, cur):
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


cdef int _child_cmp(const void *pa, const void *pb) noexcept nogil:
    cdef const Child *a = <const Child *>pa
    cdef const Child *b = <const Child *>pb
    if a.bound != b.bound:
        return -1 if a.bound > b.bound else 1
    if a.gain != b.gain:
        return -1 if a.gain > b.gain else 1
    return -1 if a.idx < b.idx else (1 if a.idx > b.idx else 0)


cdef int _branch(Ctx *ctx, const int32_t *mat, int V, int64_t cost, int best, int target, int ub,
                 int *ibuf, int *ibuf2, int64_t *parts) noexcept nogil:
    """Eliminate the vertex with the fewest pairings, trying each pairing (a child graph) best
    bound first; the best value found (>= the given best), or the given best on OOM/stop."""
    cdef int v, r = 0, s = 0, u, i, j, q, need, value, ex
    cdef Py_ssize_t ci
    cdef Tables tables
    cdef Child *children
    cdef int32_t *cm
    cdef const int32_t *tab
    cdef size_t matbytes = <size_t>V * V * sizeof(int32_t)
    cdef int *ins = <int *>_arena_alloc(&ctx.arena, V * sizeof(int))
    cdef int *outs = <int *>_arena_alloc(&ctx.arena, V * sizeof(int))
    cdef int *rows = <int *>_arena_alloc(&ctx.arena, V * sizeof(int))
    cdef int *cols = <int *>_arena_alloc(&ctx.arena, V * sizeof(int))
    cdef int32_t *cur
    if ins == NULL or outs == NULL or rows == NULL or cols == NULL:
        ctx.oom = 1
        return best
    v = _pick_vertex(mat, V)
    for u in range(V):
        if mat[u * V + v]:
            ins[r] = u
            rows[r] = mat[u * V + v]
            r += 1
        if mat[v * V + u]:
            outs[s] = u
            cols[s] = mat[v * V + u]
            s += 1
    cur = <int32_t *>_arena_alloc(&ctx.arena, (r * s + 1) * sizeof(int32_t))
    if cur == NULL:
        ctx.oom = 1
        return best
    memset(cur, 0, (r * s + 1) * sizeof(int32_t))
    tables.data = NULL
    tables.count = 0
    tables.cap = 0
    tables.cells = r * s
    if not _fill(ctx, cost, &tables, rows, r, cols, s, cur, 0, 0, rows[0]):
        return best  # ctx.oom or ctx.stop is set
    children = <Child *>_arena_alloc(&ctx.arena, (tables.count + 1) * sizeof(Child))
    if children == NULL:
        ctx.oom = 1
        return best
    for ci in range(tables.count):
        tab = &tables.data[ci * tables.cells]
        cm = <int32_t *>_arena_alloc(&ctx.arena, matbytes)
        children[ci].mat = cm
        children[ci].idx = <int>ci
        if cm == NULL:
            ctx.oom = 1
            return best
        memcpy(cm, mat, matbytes)
        for q in range(V):
            cm[v * V + q] = 0
            cm[q * V + v] = 0
        for i in range(r):
            for j in range(s):
                cm[ins[i] * V + outs[j]] += tab[i * s + j]
        children[ci].gain = _reduce(cm, V)
        children[ci].bound = children[ci].gain + _upper_bound(&ctx.arena, cm, V, ibuf, ibuf2, parts)
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
    return best


cdef int _solve_comp(Ctx *ctx, int32_t *mat, int V, int target, int ub, int *exact) noexcept nogil:
    """One connected component: exact max cycles if >= target, else an upper bound < target with
    exact = 0. Memoised on the component's edge list; its scratch is given back on return."""
    cdef int nkey = 1, u, w, best, q, bound
    cdef int32_t *key
    cdef uint64_t h
    cdef Py_ssize_t slot
    cdef int *ibuf
    cdef int *ibuf2
    cdef int64_t *parts
    cdef int32_t *scratch
    cdef Mark mark = _arena_mark(&ctx.arena)
    for u in range(V * V):
        if mat[u]:
            nkey += 3
    key = <int32_t *>_arena_alloc(&ctx.arena, nkey * sizeof(int32_t))
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
    if slot >= 0 and ctx.memo.slots[slot].hash != 0:
        if ctx.memo.slots[slot].exact or ctx.memo.slots[slot].value < target:
            exact[0] = ctx.memo.slots[slot].exact
            _arena_release(&ctx.arena, mark)
            return ctx.memo.slots[slot].value
        if ctx.memo.slots[slot].value < ub:
            ub = ctx.memo.slots[slot].value
    if ub < target:
        _arena_release(&ctx.arena, mark)
        exact[0] = 0
        return ub
    if not _tick(ctx, _node_cost(V, (nkey - 1) // 3)):
        _arena_release(&ctx.arena, mark)
        exact[0] = 1
        return 0
    scratch = <int32_t *>_arena_alloc(&ctx.arena, <size_t>V * V * sizeof(int32_t))
    ibuf = <int *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int))
    ibuf2 = <int *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int))
    parts = <int64_t *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int64_t))
    if scratch == NULL or ibuf == NULL or ibuf2 == NULL or parts == NULL:
        ctx.oom = 1
    else:
        best = _lower_bound(mat, V, scratch, ibuf, ibuf2)
        if best < ub:
            best = _branch(ctx, mat, V, _node_cost(V, (nkey - 1) // 3), best, target, ub, ibuf, ibuf2, parts)
    if ctx.oom or ctx.stop:  # unwinding: store nothing, the caller discards the value
        _arena_release(&ctx.arena, mark)
        exact[0] = 1
        return 0
    if best >= target:
        _memo_store(ctx, key, nkey, h, best, 1)
        exact[0] = 1
    else:
        bound = best if best > target - 1 else target - 1
        _memo_store(ctx, key, nkey, h, bound, 0)
        exact[0] = 0
        best = bound
    _arena_release(&ctx.arena, mark)
    return best


cdef int _solve_graph(Ctx *ctx, const int32_t *mat, int V, int target, int *exact) noexcept nogil:
    """Exact max cycles if >= target, else an upper bound < target with exact = 0."""
    cdef Mark mark = _arena_mark(&ctx.arena)
    cdef int *label = <int *>_arena_alloc(&ctx.arena, (V + 1) * sizeof(int))
    cdef int *stack = <int *>_arena_alloc(&ctx.arena, (V + 1) * sizeof(int))
    cdef int *order = <int *>_arena_alloc(&ctx.arena, (V + 1) * sizeof(int))
    cdef int *cstart = <int *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int))
    cdef int *ubs = <int *>_arena_alloc(&ctx.arena, (V + 1) * sizeof(int))
    cdef int *dist = <int *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int))
    cdef int *queue = <int *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int))
    cdef int64_t *parts = <int64_t *>_arena_alloc(&ctx.arena, (V + 2) * sizeof(int64_t))
    cdef int32_t **subs = <int32_t **>_arena_alloc(&ctx.arena, (V + 1) * sizeof(int32_t *))
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
            subs[c] = <int32_t *>_arena_alloc(&ctx.arena, <size_t>size * size * sizeof(int32_t))
            if subs[c] == NULL:
                ctx.oom = 1
                break
            for i in range(size):
                for j in range(size):
                    subs[c][i * size + j] = mat[order[cstart[c] + i] * V + order[cstart[c] + j]]
            ubs[c] = _upper_bound(&ctx.arena, subs[c], size, dist, queue, parts)
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
    _arena_release(&ctx.arena, mark)
    return result


cdef int64_t _par_exact(const int32_t *pi, const int32_t *cls, int n, int k, unsigned char *seen,
                       int64_t max_nodes, int64_t *nodes_out=NULL) noexcept nogil:
    """misplaced - max cycles, or a ParStatus: PAR_NO_MEMORY, PAR_TOO_MANY_CLASSES when more than
    MAX_DENSE classes interleave, PAR_NODE_LIMIT past max_nodes nodes (< 0: no limit)."""
    cdef char first_chunk[ARENA_STACK_BYTES]  # small searches never touch the heap
    cdef int *rank
    cdef int s, a, b, V = 0, misplaced = 0, gain, value, ex
    cdef int32_t *mat
    cdef Ctx ctx
    if nodes_out != NULL:
        nodes_out[0] = 0
    if k == n:  # all tiles distinct: the colour graph is the permutation itself
        return n - _cycles(pi, n, seen)
    _ctx_init(&ctx, first_chunk, ARENA_STACK_BYTES, max_nodes)
    rank = <int *>_arena_alloc(&ctx.arena, (k + 1) * sizeof(int))
    if rank == NULL:
        _ctx_free(&ctx)
        return PAR_NO_MEMORY
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
        _ctx_free(&ctx)
        return PAR_TOO_MANY_CLASSES
    if V == 0:
        _ctx_free(&ctx)
        return 0
    mat = <int32_t *>_arena_alloc(&ctx.arena, <size_t>V * V * sizeof(int32_t))
    if mat == NULL:
        _ctx_free(&ctx)
        return PAR_NO_MEMORY
    memset(mat, 0, <size_t>V * V * sizeof(int32_t))
    for s in range(n):
        a = cls[s]
        b = cls[pi[s]]
        if a != b:
            mat[rank[a] * V + rank[b]] += 1
    gain = _reduce(mat, V)
    value = _solve_graph(&ctx, mat, V, 0, &ex)
    if nodes_out != NULL:
        nodes_out[0] = ctx.nodes
    _ctx_free(&ctx)
    if ctx.oom:
        return PAR_NO_MEMORY
    if ctx.stop:
        return PAR_NODE_LIMIT
    return misplaced - gain - value
