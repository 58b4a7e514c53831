"""Version 3's uses per cell made whole within the caps: a maximum flow (families.allocate, issue 31).

The shares by weight, rounded down and cut to the caps, leave each tier short of its PATTERN days.
Rounding them up by the largest remainders breaks caps where the caps are tight (flags' purple
tier: its families' caps push uses onto cells of one label, whose label then comes back within a
week, and onto small pools, whose fours then come back). A flow network finds uses that fill every
tier within every cap where some do: the source gives each tier its days, a tier gives each of its
cells at most the cell's cap (its labels' and its fours' room), a cell passes its uses to its
family, a family takes at most its cap. Augmenting paths start from the rounded shares, so a cell
keeps its share where the caps allow; the tier's cells are tried by their remainders, largest first.
"""

from __future__ import annotations

from collections.abc import Sequence

Node = tuple[str, int]
BIG = 1 << 30


def fill(
    uses: list[int],
    tier: Sequence[int],
    family: Sequence[int],
    cell_cap: Sequence[int],
    family_cap: dict[int, int],
    days: int,
    remainder: Sequence[float],
) -> int:
    """Raise ``uses`` (per cell, within ``cell_cap``; each family's total within ``family_cap``,
    a family absent from it uncapped) until every tier's uses reach ``days`` or no augmenting path
    is left; returns the uses still missing (0: every cap kept). ``uses`` must already keep the caps,
    and give every cell one use at least (it keeps one)."""
    cap: dict[Node, dict[Node, int]] = {("s", 0): {}, ("t", 0): {}}
    src, sink = ("s", 0), ("t", 0)
    tiers = sorted(set(tier))
    for t in tiers:
        mine = sum(u for x, u in enumerate(uses) if tier[x] == t)
        cap[src][("tier", t)] = days - mine
        cap[("tier", t)] = {src: mine}
    order = sorted(range(len(uses)), key=lambda x: (-remainder[x], x))
    for x in order:
        f = family[x]
        cap[("tier", tier[x])][("cell", x)] = cell_cap[x] - uses[x]
        cap[("cell", x)] = {("tier", tier[x]): uses[x] - 1, ("fam", f): BIG}  # every cell keeps one use
        cap.setdefault(("fam", f), {sink: family_cap.get(f, BIG)})
        cap[("fam", f)].setdefault(("cell", x), 0)
    for x, u in enumerate(uses):
        f = family[x]
        cap[("fam", f)][("cell", x)] += u
        cap[("fam", f)][sink] -= u
        cap[sink][("fam", f)] = cap[sink].get(("fam", f), 0) + u
    while True:
        parent: dict[Node, Node | None] = {src: None}
        queue = [src]
        for node in queue:
            for nxt, c in cap[node].items():
                if c > 0 and nxt not in parent:
                    parent[nxt] = node
                    queue.append(nxt)
            if sink in parent:
                break
        if sink not in parent:
            break
        node = sink
        while (prev := parent[node]) is not None:  # every path carries one use (caps are integers)
            cap[prev][node] -= 1
            cap[node][prev] = cap[node].get(prev, 0) + 1
            node = prev
    for x in range(len(uses)):
        uses[x] = 1 + cap[("cell", x)][("tier", tier[x])]
    return sum(cap[src].values())
