// Puzzle: one SVG of the flag is the background of every tile; background-size is the grid
// times 100% and background-position is the server's background_percent of the piece's column
// and row, so each tile shows its piece. The page keeps the swap log; the server verifies it and,
// when it keeps games (a store), keeps the log too: a reload or another browser of the same player
// finds the game where it was, and a finished deal finished.
"use strict";
const puzzle = { deal: null, tiles: [], log: [], picked: null, done: false, dragFrom: null, focus: 0, daily: null,
                 saving: null, unsaved: false };
const OVER_PAR_BUCKETS = ["0", "1", "2", "3+"];

// body: {daily: "YYYY-MM-DD"} for a day's deal, else flag, grid and seed
async function deal(body) {
  try {
    const d = await api("/api/puzzle/deal", body);
    Object.assign(puzzle, { deal: d, tiles: d.tiles_by_slot.slice(), log: [], picked: null, done: false, focus: 0,
                            daily: d.daily || null });
    const what = d.daily ? `${d.daily === today() ? "Today's deal" : "Daily"} ${d.daily}` : `Seed ${d.seed}`;
    $("title").textContent = `${what} · ${d.name} · ${d.grid.columns}x${d.grid.rows}`;
    history.replaceState(null, "", d.daily ? `/puzzle?daily=${d.daily}` : `/puzzle?flag=${d.flag}&grid=${d.grid.name}&seed=${d.seed}`);
    $("result").hidden = true;
    $("counters").hidden = $("how").hidden = false;
    $("par-text").hidden = d.par === undefined;
    $("par").textContent = d.par;
    $("archive").replaceChildren(...archiveList("puzzle", day => `/puzzle?daily=${day}`));
    say("");
    for (const [a, b] of d.swaps || []) swapTiles(a, b);  // the game in progress, as the server kept it
    if (d.result) {  // finished: the flag whole, and its verified result
      puzzle.tiles = puzzle.tiles.map((_, slot) => slot);
      puzzle.done = true;
      render();
      showResult(d.result, false);
    } else {
      render();
      if (puzzle.log.length) say(`Your game so far: ${plural(puzzle.log.length, "swap")}.`);
    }
    performance.mark("flagcore-interactive");  // benchmarks/web_pages.py reads it
  } catch (err) {
    if (err.code === "future_daily" && body.daily) {  // a day not begun: when it opens, in the player's time
      $("title").textContent = `Daily ${body.daily}`;
      $("counters").hidden = $("how").hidden = true;  // no deal yet: nothing to count or swap
      return say(opensText(body.daily));
    }
    say(err.message);
  }
}

function place(slot) {
  const columns = puzzle.deal.grid.columns;
  return `row ${Math.floor(slot / columns) + 1}, column ${slot % columns + 1}`;
}

// A tile's name says where it is, which place its piece belongs to, and its state, so a screen
// reader can play: a piece is "in place" where a look-alike piece belongs.
function tileName(slot, piece) {
  const home = puzzle.deal.classes[piece] === puzzle.deal.classes[slot];
  return `${place(slot)}: piece of ${place(piece)}${home ? ", in place" : ""}${puzzle.picked === slot ? ", picked" : ""}`;
}

function render() {
  const d = puzzle.deal, board = $("board"), hadFocus = board.contains(document.activeElement);
  board.style.gridTemplateColumns = `repeat(${d.grid.columns}, 1fr)`;
  board.style.aspectRatio = String(d.aspect);
  board.replaceChildren(...puzzle.tiles.map((piece, slot) => {
    const [x, y] = d.positions[piece];
    const tile = el("button", { type: "button", class: "ptile" + (puzzle.picked === slot ? " picked" : ""), "data-slot": slot,
                                "data-piece": piece, "aria-label": tileName(slot, piece), tabindex: slot === puzzle.focus ? "0" : "-1",
                                "aria-pressed": String(puzzle.picked === slot), onclick: e => keyPress(e, slot) });
    tile.style.backgroundImage = `url(/flags/${d.flag}.svg)`;
    tile.style.backgroundSize = `${d.grid.columns * 100}% ${d.grid.rows * 100}%`;
    tile.style.backgroundPosition = `${x} ${y}`;
    return tile;
  }));
  if (hadFocus) board.children[puzzle.focus].focus();
  $("swaps").textContent = puzzle.log.length;
  $("board").classList.toggle("done", puzzle.done);
  $("count").textContent = puzzle.tiles.length;
}

function looksSolved() {
  const c = puzzle.deal.classes;
  return puzzle.tiles.every((piece, slot) => c[piece] === c[slot]);
}

function pick(slot) {
  if (puzzle.done) return;
  if (puzzle.picked === null) { puzzle.picked = slot; render(); say(`Picked ${place(slot)}.`); }
  else if (puzzle.picked === slot) { puzzle.picked = null; render(); say("Put back."); }
  else swap(puzzle.picked, slot);
}

function swapTiles(a, b) {
  [puzzle.tiles[a], puzzle.tiles[b]] = [puzzle.tiles[b], puzzle.tiles[a]];
  puzzle.log.push([a, b]);
}

function swap(a, b) {
  if (puzzle.done || a === b) return;
  if (puzzle.daily && !puzzle.log.length) Stats.start("puzzle", puzzle.daily);
  swapTiles(a, b);
  puzzle.picked = null;
  render();
  if (puzzle.deal.kept && !looksSolved()) save();
  say(`Swapped ${place(a)} and ${place(b)}. ${plural(puzzle.log.length, "swap")}.`);
  if (looksSolved()) verify();
}

// With a store, each swap's log goes to the server (the latest log wins; one request at a time).
async function save() {
  puzzle.unsaved = true;
  if (puzzle.saving) return;
  const token = puzzle.deal.token;
  while (puzzle.unsaved && puzzle.deal.token === token && !puzzle.done) {
    puzzle.unsaved = false;
    puzzle.saving = api("/api/puzzle/progress", { token, swaps: puzzle.log.slice() }).catch(err => say(err.message));
    await puzzle.saving;
  }
  puzzle.saving = null;
}

async function verify() {
  puzzle.done = true;
  render();
  say("Solved! Checking with the server…");
  try {
    if (puzzle.saving) await puzzle.saving;
    showResult(await api("/api/puzzle/verify", { token: puzzle.deal.token, swaps: puzzle.log }), true);
  } catch (err) { say("Not accepted: " + err.message); }
}

// The end: one line of outcome (the swaps against par; the counters above it go), the share, the
// day's figures, the next daily. The figures are on the section too (data-swaps, -par, -over).
function showResult(r, now) {
  const figures = `${plural(r.swaps, "swap")}, par ${r.par}`;
  $("verdict").textContent = r.perfect ? `Perfect: solved in ${figures}` : `Solved in ${figures} (${r.over_par} over)`;
  Object.assign($("result").dataset, { swaps: r.swaps, par: r.par, over: r.over_par });
  $("counters").hidden = true;
  const d = puzzle.deal, what = puzzle.daily ? `${puzzle.daily}${puzzle.daily === today() ? "" : " (archive)"}` : `seed ${d.seed}`;
  $("share").textContent = `flagcore Puzzle ${what}\n${d.name}, ${d.grid.columns}x${d.grid.rows}: ` +
    `solved in ${figures}${r.perfect ? " (perfect)" : ` (${r.over_par} over)`}`;
  const aggregate = figuresText(r.today || d.today);
  $("aggregate").textContent = aggregate;
  $("aggregate").hidden = !aggregate;
  countdown($("next-daily"));
  $("result").hidden = false;
  const counted = puzzle.daily && Stats.record("puzzle", puzzle.daily, true, r.over_par);
  say(now ? `Verified by the server.${counted ? " Your stats are updated." : ""}` : "");
  $("archive").replaceChildren(...archiveList("puzzle", day => `/puzzle?daily=${day}`));
  if (now) $("result").focus();
}

// The figures of every player who solved this deal, this game included: the server's "today" of
// a finished deal (web/plays.py puzzle_aggregate: the day's Puzzle for a daily, else the flag on
// its grid), which it sends only once the player finished. Empty when there are none.
function figuresText(a) {
  if (!a || typeof a !== "object" || !(a.plays > 0) || typeof a.perfect !== "number") return "";
  const d = puzzle.deal;
  const what = !puzzle.daily ? `${d.name} on ${d.grid.columns}x${d.grid.rows}` : puzzle.daily === today() ? "today's deal" : "this daily";
  if (a.plays === 1) return `You are the first to solve ${what}.`;
  const median = typeof a.median_over_par !== "number" ? "" : a.median_over_par === 0 ? ", median at par" : `, median ${a.median_over_par} over par`;
  return `${plural(a.plays, "player")} solved ${what}: ${Math.round(100 * a.perfect)}% at par${median}.`;
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
  puzzle.focus = to;
  if (from !== to) swap(from, to); else pick(to);
});

// Space or Enter on a tile is a click without a pointer (detail 0): pointer clicks went through pointerup.
function keyPress(event, slot) {
  if (event.detail !== 0) return;
  puzzle.focus = slot;
  pick(slot);
}

$("board").addEventListener("keydown", e => {
  const columns = puzzle.deal ? puzzle.deal.grid.columns : 1;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns };
  if (!(e.key in moves) || !puzzle.tiles.length) return;
  e.preventDefault();
  const next = puzzle.focus + moves[e.key];
  if (next < 0 || next >= puzzle.tiles.length) return;
  puzzle.focus = next;
  [...$("board").children].forEach((b, i) => { b.tabIndex = i === next ? 0 : -1; });
  $("board").children[next].focus();
});

function chosenDeal() {
  const body = { flag: $("flag").value, grid: $("grid").value }, seed = $("seed").value.trim();
  if (seed) body.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
  return body;
}

dialogs();
$("deal").onclick = () => deal(chosenDeal());
$("daily").onclick = () => deal({ daily: today() });
$("copy").onclick = () => navigator.clipboard && navigator.clipboard.writeText($("share").textContent).then(() => say("Copied."), () => {});
$("stats-button").onclick = $("end-stats").onclick = () => openStats("puzzle", "Swaps over par per solve", OVER_PAR_BUCKETS);
setUpHelp("puzzle", "rules-puzzle", ["rules-puzzle-more", "rules-stats"]);

const params = new URLSearchParams(location.search);
if (params.has("grid")) $("grid").value = params.get("grid");
if (params.has("seed")) $("seed").value = params.get("seed");
const flags = api("/api/flags").then(list => {
  $("flag").append(...list.map(f => el("option", { value: f.code, text: `${f.name} (${f.code})` })));
  if (params.has("flag")) $("flag").value = params.get("flag").toUpperCase();
});
// A flag, grid or seed in the address opens that deal; otherwise the day's deal.
if (params.has("flag") || params.has("seed") || params.has("grid")) flags.then(() => deal(chosenDeal()));
else deal({ daily: params.get("daily") || today() });
