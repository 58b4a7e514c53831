"""Independent oracles for the Puzzle par, written without the engine's code.

bfs_min_swaps: breadth-first search over colour arrangements (swap sequences), n <= 8.
indep_max_cycles: a different exact search (branch on the cycle through the smallest edge, memo on
the edge multiset; no contractions, no vertex elimination, no bounds).
sigma_min_swaps: the definition, n - max over every sigma of cycles(sigma^-1 pi), for tiny boards.
"""

import itertools
from collections import deque


def indep_max_cycles(edges):
    """Branch on the cycle that holds the smallest remaining edge; memo over the edge multiset."""
    memo = {}

    def f(state):
        if not state:
            return 0
        hit = memo.get(state)
        if hit is not None:
            return hit
        mult = dict(((u, w), c) for u, w, c in state)
        # opposite edges always pair into 2-cycles (the exchange argument; the BFS oracle checks it)
        two = 0
        for u, w in list(mult):
            if u < w and (w, u) in mult:
                t = min(mult[(u, w)], mult[(w, u)])
                two += t
                for e in ((u, w), (w, u)):
                    mult[e] -= t
                    if not mult[e]:
                        del mult[e]
        if two:
            res = two + f(tuple(sorted((a, b, c) for (a, b), c in mult.items())))
            memo[state] = res
            return res
        out = {}
        for u, w in mult:
            out.setdefault(u, []).append(w)
        (u0, w0, _) = state[0]
        best = 0
        # every simple path w0 -> ... -> u0 closes a cycle with u0 -> w0
        stack = [(w0, [u0, w0])]
        while stack:
            x, path = stack.pop()
            if x == u0:
                cyc = path[:-1]
                m = dict(mult)
                for i in range(len(cyc)):
                    e = (cyc[i], cyc[(i + 1) % len(cyc)])
                    m[e] -= 1
                    if not m[e]:
                        del m[e]
                best = max(best, 1 + f(tuple(sorted((a, b, c) for (a, b), c in m.items()))))
                continue
            for y in out.get(x, ()):
                if y == u0 or y not in path:
                    stack.append((y, path + [y]))
        memo[state] = best
        return best

    return f(tuple(sorted((u, w, c) for (u, w), c in edges.items() if c)))


def colour_edges(tiles, classes):
    edges = {}
    for s, t in enumerate(tiles):
        a, b = classes[s], classes[t]
        if a != b:
            edges[(a, b)] = edges.get((a, b), 0) + 1
    return edges


def indep_min_swaps(tiles, classes):
    edges = colour_edges(tiles, classes)
    return sum(edges.values()) - indep_max_cycles(edges)


def bfs_min_swaps(tiles, classes):
    start = tuple(classes[t] for t in tiles)
    goal = tuple(classes)
    if start == goal:
        return 0
    seen = {start}
    frontier = deque([(start, 0)])
    n = len(start)
    while frontier:
        x, d = frontier.popleft()
        for i in range(n):
            for j in range(i + 1, n):
                if x[i] != x[j]:
                    y = list(x)
                    y[i], y[j] = y[j], y[i]
                    y = tuple(y)
                    if y == goal:
                        return d + 1
                    if y not in seen:
                        seen.add(y)
                        frontier.append((y, d + 1))
    raise AssertionError("unreachable")


def count_cycles(p):
    seen, c = set(), 0
    for i in range(len(p)):
        if i not in seen:
            c += 1
            while i not in seen:
                seen.add(i)
                i = p[i]
    return c


def sigma_min_swaps(tiles, classes):
    n = len(tiles)
    groups = {}
    for s, c in enumerate(classes):
        groups.setdefault(c, []).append(s)
    best = 0
    for images in itertools.product(*(itertools.permutations(g) for g in groups.values())):
        inv = {}
        for g, img in zip(groups.values(), images):
            for s, t in zip(g, img):
                inv[t] = s
        best = max(best, count_cycles([inv[p] for p in tiles]))
    return n - best
