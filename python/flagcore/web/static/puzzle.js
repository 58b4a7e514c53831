// Puzzle: one SVG of the flag is the background of every tile; background-size is the grid
// times 100% and background-position is the server's background_percent of the piece's column
// and row, so each tile shows its piece. The page keeps the swap log; the server verifies it.
"use strict";
const puzzle = { deal: null, tiles: [], log: [], picked: null, done: false, dragFrom: null };

async function deal() {
  const body = { flag: $("flag").value, grid: $("grid").value };
  if ($("seed").value.trim()) body.seed = /^\d+$/.test($("seed").value.trim()) ? Number($("seed").value.trim()) : $("seed").value.trim();
  try {
    const d = await api("/api/puzzle/deal", body);
    Object.assign(puzzle, { deal: d, tiles: d.tiles_by_slot.slice(), log: [], picked: null, done: false });
    $("title").textContent = `${d.name} · ${d.grid.columns}x${d.grid.rows} · seed ${d.seed}`;
    $("result").hidden = true;
    say("");
    render();
  } catch (err) { say(err.message); }
}

function render() {
  const d = puzzle.deal, board = $("board");
  board.style.gridTemplateColumns = `repeat(${d.grid.columns}, 1fr)`;
  board.style.aspectRatio = String(d.aspect);
  board.replaceChildren(...puzzle.tiles.map((piece, slot) => {
    const [x, y] = d.positions[piece];
    const tile = el("div", { class: "ptile" + (puzzle.picked === slot ? " picked" : ""), "data-slot": slot, "data-piece": piece });
    tile.style.backgroundImage = `url(/flags/${d.flag}.svg)`;
    tile.style.backgroundSize = `${d.grid.columns * 100}% ${d.grid.rows * 100}%`;
    tile.style.backgroundPosition = `${x} ${y}`;
    return tile;
  }));
  $("swaps").textContent = puzzle.log.length;
  $("count").textContent = puzzle.tiles.length;
}

function looksSolved() {
  const c = puzzle.deal.classes;
  return puzzle.tiles.every((piece, slot) => c[piece] === c[slot]);
}

function swap(a, b) {
  if (puzzle.done || a === b) return;
  [puzzle.tiles[a], puzzle.tiles[b]] = [puzzle.tiles[b], puzzle.tiles[a]];
  puzzle.log.push([a, b]);
  puzzle.picked = null;
  render();
  if (looksSolved()) verify();
}

async function verify() {
  puzzle.done = true;
  say("Solved! Checking with the server…");
  try {
    const r = await api("/api/puzzle/verify", { token: puzzle.deal.token, swaps: puzzle.log });
    $("verdict").textContent = r.perfect ? "Perfect solve!" : `Solved, ${r.over_par} over par.`;
    $("r-swaps").textContent = r.swaps;
    $("r-par").textContent = r.par;
    $("r-over").textContent = r.over_par;
    $("result").hidden = false;
    say("Verified by the server.");
  } catch (err) { say("Not accepted: " + err.message); }
}

function slotAt(event) {
  const node = document.elementFromPoint(event.clientX, event.clientY);
  return node && node.dataset && node.dataset.slot !== undefined ? Number(node.dataset.slot) : null;
}

// Tap two tiles, or press on one and release over another: both end in one swap.
$("board").addEventListener("pointerdown", e => {
  const slot = slotAt(e);
  if (slot === null || puzzle.done) return;
  puzzle.dragFrom = slot;
  e.preventDefault();
});
$("board").addEventListener("pointerup", e => {
  const from = puzzle.dragFrom, to = slotAt(e);
  puzzle.dragFrom = null;
  if (from === null || to === null || puzzle.done) return;
  if (from !== to) return swap(from, to);
  if (puzzle.picked === null) { puzzle.picked = to; render(); }
  else if (puzzle.picked === to) { puzzle.picked = null; render(); }
  else swap(puzzle.picked, to);
});

function say(text) { $("message").textContent = text; }

$("deal").onclick = deal;
api("/api/flags").then(list => {
  $("flag").append(...list.map(f => el("option", { value: f.code, text: `${f.name} (${f.code})` })));
  const params = new URLSearchParams(location.search);
  if (params.has("flag")) $("flag").value = params.get("flag").toUpperCase();
  if (params.has("grid")) $("grid").value = params.get("grid");
  if (params.has("seed")) $("seed").value = params.get("seed");
  deal();
});
