"""Maximum cycle decomposition of a balanced colour multigraph: the heart of the exact par.

The pure-Python twin of the search in src/flagcore/puzzle_exact.pxi (same reductions, same branching,
same bounds), kept in its own module because it is the one non-obvious algorithm of the engine.

Problem. Colour a slot with the class of the piece that belongs there. Every misplaced slot of
colour a holding a tile of colour b != a is an edge a -> b. Each colour has in-degree == out-degree,
so the edges split into cycles, and par = m - C, where m is the number of edges
(misplaced slots; fixed points are already cycles of length one) and C is the maximum number of
edge-disjoint cycles. Maximum cycle decomposition is NP-hard in general (it is the "interchange
distance between strings", Amir et al. 2007), so the solver is an exact branch and bound whose
reductions make the common cases polynomial:

1. 2-cycles.  Opposite edges a -> b, b -> a are always taken as a 2-cycle (exchange argument: if
   they sit in different cycles C1 = a->b..a and C2 = b->a..b, re-pair them as (a->b->a) plus the
   closed walk made of the rest of C1 and C2, which splits into >= 1 cycle; a simple cycle longer
   than 2 never holds both). Cost O(1) per pair.
2. Forced contraction.  A vertex v whose in-edges all come from one vertex u (or whose out-edges
   all go to one vertex w) has a single way of pairing its in- and out-edges, so every cycle
   through v runs u -> v -> x (or x -> v -> w): replace those two-edge paths with direct edges
   and delete v. The cycle count is unchanged.
   After 1 and 2 every remaining vertex has >= 2 distinct in-neighbours and >= 2 distinct
   out-neighbours and the two sets are disjoint, so a component left over has >= 5 vertices:
   every board with <= 4 tile classes is solved by the reductions alone, in polynomial time.
3. Components are solved independently (the answer is a sum).
4. Branching by vertex elimination: choose the vertex v with the fewest pairings of its in-edges
   with its out-edges (a contingency table with the in-counts as row sums and the out-counts as
   column sums); each pairing turns v into bypass edges u -> w; reduce again and recurse.
5. Bounds.  Lower bound: a greedy packing of shortest cycles (a feasible decomposition).
   Upper bound: any edge weights y >= 0 under which every cycle weighs >= 1 give
   C <= sum_e mult(e) * y(e) (the dual of the fractional cycle packing LP). Start from
   y(e) = 1/g(e) (every cycle through e is at least g(e) = 1 + BFS distance back long), then
   lower each edge in turn, in (u, w) order, to max(0, 1 - d(w, u)) with d the y-weighted
   shortest path (Dijkstra) from its head back to its tail: every cycle through e still weighs
   >= 1, so the sum stays a valid bound, and it is much tighter (about 20x fewer nodes on
   boards of 2-4 tiles per class). Floats: d is the minimum over paths of the left-to-right
   float sum (Dijkstra's result does not depend on tie order), the twin does the same operations
   in the same order, and floor(sum + 1e-9) absorbs the rounding. The bound is the minimum of
   the two sums. A branch whose bound cannot beat the best known is cut (fail-soft, with a
   target passed down so children prune against what the parent still needs).
6. Memo over the component's edge multiset (canonical sorted (u, v, count) tuple) storing either
   the exact value or a proven upper bound.
7. Node budget.  The search counts nodes: one per component it has to branch on (after the memo
   and the bound had their say) and one per pairing table it builds, each charged
   node_cost(V, E) = 1 + E**2 * bitlen(E) // 65536 + V**2 // 16384 for a component of V colours
   and E distinct edges (the shape of a node's work: the bound runs one Dijkstra per edge, the
   dense matrix is copied and swept), so the budget bounds time on a 32x32 board as well as on
   a 5x3 one. Past ``max_nodes`` it stops with SearchLimit (the public
   layer turns that into puzzle.ParSearchLimit); it never returns a bound in place of the
   answer. The compiled twin charges the same nodes in the same order, so both stop together.

Complexity: the reductions are O(K^2) per pass; the search is exponential only in the number of
vertices that survive the reductions (a board needs >= 5 interleaved tile classes before any
branching happens), with at most prod(table counts) nodes before pruning. Typical 5x3 boards never
branch; random boards of n = 256 with classes of 2-4 tiles finish in milliseconds compiled.
"""

from __future__ import annotations

import heapq

from ..errors import SearchLimit

Graph = dict[int, dict[int, int]]  # out[u][w] = multiplicity of u -> w
Key = tuple[tuple[int, int, int], ...]


class _G:
    """A multigraph with mirrored out/in adjacency (dicts of dicts, no zero entries, no loops)."""

    __slots__ = ("out", "inn")

    def __init__(self) -> None:
        self.out: Graph = {}
        self.inn: Graph = {}

    def copy(self) -> _G:
        g = _G()
        g.out = {u: dict(d) for u, d in self.out.items()}
        g.inn = {u: dict(d) for u, d in self.inn.items()}
        return g

    def add(self, u: int, w: int, c: int) -> None:
        if c <= 0:
            return
        self.out.setdefault(u, {})
        self.out[u][w] = self.out[u].get(w, 0) + c
        self.inn.setdefault(w, {})
        self.inn[w][u] = self.inn[w].get(u, 0) + c
        self.out.setdefault(w, {})
        self.inn.setdefault(u, {})

    def sub(self, u: int, w: int, c: int) -> None:
        left = self.out[u][w] - c
        if left:
            self.out[u][w] = left
            self.inn[w][u] = left
        else:
            del self.out[u][w]
            del self.inn[w][u]

    def drop(self, v: int) -> None:
        for w in list(self.out[v]):
            del self.inn[w][v]
        for u in list(self.inn[v]):
            del self.out[u][v]
        del self.out[v]
        del self.inn[v]

    def key(self) -> Key:
        """Canonical form: vertices renumbered by rank (as the compiled twin's compacted matrix)."""
        rank = {v: i for i, v in enumerate(sorted(v for v in self.out if self.out[v] or self.inn[v]))}
        return tuple(sorted((rank[u], rank[w], c) for u, d in self.out.items() for w, c in d.items()))

    def edges(self) -> int:
        return sum(c for d in self.out.values() for c in d.values())


def _reduce(g: _G) -> int:
    """Apply reductions 1 and 2 to a fixpoint; return the cycles they closed.

    Sweeps the vertices in ascending order until a sweep changes nothing (the compiled twin does
    the same sweeps over its dense matrix, so both reach the same reduced graph).
    """
    gain = 0
    changed = True
    while changed:
        changed = False
        for v in sorted(g.out):
            if v not in g.out:
                continue
            out, inn = g.out[v], g.inn[v]
            for w in sorted(out):
                back = g.out[w].get(v, 0)
                if back:
                    t = min(out[w], back)
                    g.sub(v, w, t)
                    g.sub(w, v, t)
                    gain += t
                    changed = True
            if not out and not inn:
                g.drop(v)
                continue
            if len(inn) == 1:
                ((u, _),) = inn.items()
                for w, c in sorted(out.items()):
                    g.add(u, w, c)
                g.drop(v)
                changed = True
            elif len(out) == 1:
                ((w, _),) = out.items()
                for u, c in sorted(inn.items()):
                    g.add(u, w, c)
                g.drop(v)
                changed = True
    return gain


def _components(g: _G) -> list[_G]:
    seen: set[int] = set()
    comps: list[_G] = []
    for s in sorted(g.out):
        if s in seen:
            continue
        seen.add(s)
        stack, verts = [s], [s]
        while stack:
            v = stack.pop()
            for x in list(g.out[v]) + list(g.inn[v]):
                if x not in seen:
                    seen.add(x)
                    stack.append(x)
                    verts.append(x)
        c = _G()
        for v in verts:
            c.out[v] = dict(g.out[v])
            c.inn[v] = dict(g.inn[v])
        comps.append(c)
    return comps


def _upper_bound(g: _G) -> int:
    """min(floor(sum_e mult(e) / g(e)), floor(sum_e mult(e) * y(e))): see the module docstring."""
    parts: dict[int, int] = {}
    y: dict[tuple[int, int], float] = {}
    for w in sorted(g.out):
        dist = {w: 0}
        frontier = [w]
        while frontier:
            nxt = []
            for x in frontier:
                for z in g.out[x]:
                    if z not in dist:
                        dist[z] = dist[x] + 1
                        nxt.append(z)
            frontier = nxt
        for u, c in g.inn[w].items():
            length = dist[u] + 1  # the component is strongly connected: u is reachable
            parts[length] = parts.get(length, 0) + c
            y[(u, w)] = 1.0 / length
    # floor(sum + 1e-9): rounding can only push the bound up, so it stays a valid upper bound, and
    # the compiled twin computes the same double sum in the same order (lengths ascending).
    total = 0.0
    for length in sorted(parts):
        total += parts[length] / length
    girth_bound = int(total + 1e-9)
    order = sorted(y)
    for u, w in order:
        y[(u, w)] = max(0.0, 1.0 - _lightest_path(g, y, w, u))
    total = 0.0
    for u, w in order:
        total += g.out[u][w] * y[(u, w)]
    return min(girth_bound, int(total + 1e-9))


def _lightest_path(g: _G, y: dict[tuple[int, int], float], src: int, dst: int) -> float:
    """Dijkstra: the least y-weight of a path src -> dst (dst is reachable: strongly connected)."""
    best = {src: 0.0}
    heap = [(0.0, src)]
    done: set[int] = set()
    while heap:
        d, x = heapq.heappop(heap)
        if x in done:
            continue
        if x == dst:
            return d
        done.add(x)
        for z in g.out[x]:
            nd = d + y[(x, z)]
            if nd < best.get(z, float("inf")):
                best[z] = nd
                heapq.heappush(heap, (nd, z))
    raise AssertionError("balanced graph: the tail of every edge is reachable from its head")


def _shortest_cycle_through(g: _G, v: int) -> list[int]:
    """Vertices of a shortest cycle through v (v first), by BFS from v back to v."""
    parent = {v: v}
    frontier = [v]
    while frontier:
        nxt = []
        for x in frontier:
            for y in sorted(g.out[x]):
                if y == v:
                    path = [x]
                    while path[-1] != v:
                        path.append(parent[path[-1]])
                    path.reverse()
                    return path
                if y not in parent:
                    parent[y] = x
                    nxt.append(y)
        frontier = nxt
    raise AssertionError("balanced graph: every vertex lies on a cycle")


def _lower_bound(g: _G) -> int:
    """A feasible decomposition: peel a shortest cycle through the lowest vertex, reduce, repeat."""
    h = g.copy()
    cycles = 0
    while h.out:
        v = min(h.out)
        cyc = _shortest_cycle_through(h, v)
        for i, x in enumerate(cyc):
            h.sub(x, cyc[(i + 1) % len(cyc)], 1)
        cycles += 1
        for x in cyc:
            if not h.out[x] and not h.inn[x]:
                h.drop(x)
        cycles += _reduce(h)
    return cycles


class _Budget:
    __slots__ = ("nodes", "max_nodes")

    def __init__(self, max_nodes: int) -> None:
        self.nodes = 0
        self.max_nodes = max_nodes  # < 0: unlimited

    def tick(self, cost: int) -> None:
        self.nodes += cost
        if 0 <= self.max_nodes < self.nodes:
            raise SearchLimit(self.nodes)


def node_cost(vertices: int, edges: int) -> int:
    """Budget charged for one search node on a component of V colours and E distinct edges."""
    return 1 + edges * edges * edges.bit_length() // 65536 + vertices * vertices // 16384


def _tables(rows: list[int], cols: list[int], budget: _Budget, cost: int) -> list[list[list[int]]]:
    """Every non-negative integer matrix with the given row and column sums, in a fixed order.

    Each table is one search node: a vertex with many neighbours has astronomically many pairings,
    and the budget must stop the enumeration itself, not only the recursion over its results.
    """
    out: list[list[list[int]]] = []
    r, s = len(rows), len(cols)
    cur = [[0] * s for _ in range(r)]
    colleft = list(cols)

    def fill(i: int, j: int, rowleft: int) -> None:
        if i == r:
            budget.tick(cost)
            out.append([row[:] for row in cur])
            return
        if j == s - 1:
            if rowleft > colleft[j]:
                return
            cur[i][j] = rowleft
            colleft[j] -= rowleft
            fill(i + 1, 0, rows[i + 1] if i + 1 < r else 0)
            colleft[j] += rowleft
            cur[i][j] = 0
            return
        # remaining capacity of the columns after j must absorb what this row leaves
        rest = sum(colleft[j + 1 :])
        lo = max(0, rowleft - rest)
        for x in range(min(rowleft, colleft[j]), lo - 1, -1):
            cur[i][j] = x
            colleft[j] -= x
            fill(i, j + 1, rowleft - x)
            colleft[j] += x
        cur[i][j] = 0

    fill(0, 0, rows[0])
    return out


EST_CAP = 1 << 40  # the compiled twin saturates its int64 estimate here


def _table_estimate(rows: list[int], s: int) -> int:
    """Saturated product over in-neighbours of C(a + s - 1, s - 1), an estimate of the pairings."""
    est = 1
    for a in rows:
        ways = 1
        for t in range(1, s):
            ways = ways * (a + t) // t
            if ways >= EST_CAP:
                ways = EST_CAP
                break
        est = min(est * ways, EST_CAP)
    return est


def _pick_vertex(g: _G) -> int:
    best, best_score = -1, None
    for v in sorted(g.out):
        rows = list(g.inn[v].values())
        score = (_table_estimate(rows, len(g.out[v])), len(rows) + len(g.out[v]))
        if best_score is None or score < best_score:
            best, best_score = v, score
    return best


class Solver:
    """Memoised branch and bound; one instance per top-level call."""

    def __init__(self, max_nodes: int = -1) -> None:
        self.memo: dict[Key, tuple[int, bool]] = {}
        self.budget = _Budget(max_nodes)

    def graph(self, g: _G, target: int) -> tuple[int, bool]:
        """Exact max cycles of a reduced graph if it is >= target; else (upper bound < target, False)."""
        comps = _components(g)
        ubs = [_upper_bound(c) for c in comps]
        rest = sum(ubs)
        if rest < target:
            return rest, False
        acc = 0
        for c, ub in zip(comps, ubs):
            rest -= ub
            value, exact = self.component(c, target - acc - rest, ub)
            acc += value
            if not exact:
                return acc + rest, False
        return acc, True

    def component(self, g: _G, target: int, ub: int) -> tuple[int, bool]:
        key = g.key()
        hit = self.memo.get(key)
        if hit is not None:
            value, exact = hit
            if exact or value < target:
                return value, exact
            ub = min(ub, value)
        if ub < target:
            return ub, False
        cost = node_cost(len(g.out), sum(len(d) for d in g.out.values()))
        self.budget.tick(cost)
        best = _lower_bound(g)
        if best < ub:
            v = _pick_vertex(g)
            ins = sorted(g.inn[v].items())
            outs = sorted(g.out[v].items())
            children: list[tuple[int, int, int, _G, int]] = []
            for table in _tables([c for _, c in ins], [c for _, c in outs], self.budget, cost):
                h = g.copy()
                h.drop(v)
                for (u, _), row in zip(ins, table):
                    for (w, _), x in zip(outs, row):
                        h.add(u, w, x)
                gain = _reduce(h)
                bound = gain + _upper_bound(h)
                children.append((-bound, -gain, len(children), h, gain))
            children.sort(key=lambda t: t[:3])
            for negbound, _, _, h, gain in children:
                if -negbound <= best:
                    break
                need = max(best + 1, target) - gain
                value, exact = self.graph(h, need)
                if exact and gain + value > best:
                    best = gain + value
                    if best == ub:
                        break
        if best >= target:
            self.memo[key] = (best, True)
            return best, True
        bound = max(best, target - 1)
        self.memo[key] = (bound, False)
        return bound, False


def max_cycles(edges: dict[tuple[int, int], int], max_nodes: int = -1) -> int:
    """Maximum number of edge-disjoint cycles of a balanced loop-free multigraph {(u, w): count}.

    Raises SearchLimit after ``max_nodes`` search nodes (negative: no limit).
    """
    return max_cycles_nodes(edges, max_nodes)[0]


def max_cycles_nodes(edges: dict[tuple[int, int], int], max_nodes: int = -1) -> tuple[int, int]:
    """max_cycles and the number of search nodes it took."""
    g = _G()
    for (u, w), c in sorted(edges.items()):
        g.add(u, w, c)
    gain = _reduce(g)
    solver = Solver(max_nodes)
    value, exact = solver.graph(g, 0)
    assert exact
    return gain + value, solver.budget.nodes
