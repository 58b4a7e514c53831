// The swap bench: the engine (POST /api/puzzle/cycles) counts the cycles and the minimum
// swaps after every move; the page colours each tile by its cycle.
"use strict";
// gen counts the boards and swaps; shown is the gen on screen. A reply for an older gen is
// dropped, so a slow reply can never draw over a newer board.
const bench = { tiles: [], picked: null, swaps: 0, startMin: 0, gen: 0, shown: -1 };

function newBoard() {
  const n = Number($("size").value);
  let tiles;
  do {
    tiles = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
    }
  } while (tiles.every((t, i) => t === i));
  Object.assign(bench, { tiles, picked: null, swaps: 0 });
  bench.gen += 1;
  analyse(true);
}

async function analyse(fresh) {
  const gen = bench.gen;
  try {
    const r = await api("/api/puzzle/cycles", { tiles_by_slot: bench.tiles.slice() });
    if (gen !== bench.gen) return;  // a newer board or swap is on its way
    if (fresh) bench.startMin = r.min_swaps;
    bench.shown = gen;
    render(r);
  } catch (err) { $("message").textContent = err.message; }
}

function render(r) {
  const n = bench.tiles.length, side = Math.ceil(Math.sqrt(n));
  $("bench").style.gridTemplateColumns = `repeat(${side}, 1fr)`;
  $("bench").replaceChildren(...bench.tiles.map((t, slot) => {
    const hue = (r.cycle_of[slot] * 137) % 360;
    const tile = el("div", { class: "btile" + (bench.picked === slot ? " picked" : ""), "data-slot": slot,
                             "data-cycle": r.cycle_of[slot], text: String(t), onclick: () => pick(slot) });
    tile.style.background = t === slot ? "#e4e4ea" : `hsl(${hue} 70% 78%)`;
    return tile;
  }));
  $("cycles").textContent = r.cycles;
  $("min").textContent = r.min_swaps;
  $("swaps").textContent = bench.swaps;
  $("n").textContent = n;
  $("message").textContent = r.solved
    ? (bench.swaps === bench.startMin ? `Sorted in ${bench.swaps} swaps: the minimum.`
                                      : `Sorted in ${bench.swaps} swaps (minimum ${bench.startMin}).`)
    : "";
  bench.last = r;
}

function pick(slot) {
  if (bench.last && bench.last.solved) return;
  if (bench.picked === null) { bench.picked = slot; return render(bench.last); }
  if (bench.picked === slot) { bench.picked = null; return render(bench.last); }
  const a = bench.picked;
  [bench.tiles[a], bench.tiles[slot]] = [bench.tiles[slot], bench.tiles[a]];
  bench.picked = null;
  bench.swaps += 1;
  bench.gen += 1;
  analyse(false);
}

$("new").onclick = newBoard;
newBoard();
