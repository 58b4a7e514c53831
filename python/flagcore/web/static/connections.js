// Connections: the board's tiles come from the server without the groups; each guess is graded
// on the server against the signed game token, which this page only stores and sends back.
"use strict";
const game = { token: null, tiles: [], names: {}, selected: new Set(), busy: false, over: false, boardId: null };

async function load(query) {
  try {
    const data = await api("/api/connections/board?" + new URLSearchParams(query));
    Object.assign(game, { token: data.token, tiles: data.tiles, over: false, boardId: data.board_id });
    for (const t of data.tiles) game.names[t.code] = t.name;
    game.selected.clear();
    // with a store, the board reply is the player's game where it is: solved groups, mistakes, over
    $("solved").replaceChildren(...(data.solved || []).map(groupRow));
    $("end").hidden = true;
    $("mode").value = data.mode;
    $("board-label").textContent = data.board_id + (data.daily ? ` (daily ${data.daily})` : "");
    $("link").href = "/connections?id=" + data.board_id;
    history.replaceState(null, "", data.daily ? `/connections?daily=${data.daily}&mode=${data.mode}`
                                              : "/connections?id=" + data.board_id);
    say("");
    showMistakes(data.mistakes_left);
    if (data.over) finish(data);
    render();
  } catch (err) { say(err.message); }
}

function render() {
  const tiles = $("tiles");
  tiles.replaceChildren(...game.tiles.map(t => el("div", {
      class: "tile" + (game.selected.has(t.code) ? " selected" : ""), "data-code": t.code,
      role: "button", "aria-pressed": String(game.selected.has(t.code)), onclick: () => toggle(t.code) },
    el("img", { src: `/flags/${t.code}.svg`, alt: t.name }), el("span", { class: "name", text: t.name }))));
  $("submit").disabled = game.over || game.busy || game.selected.size !== 4;
  $("shuffle").disabled = $("deselect").disabled = game.over;
}

function toggle(code) {
  if (game.over) return;
  if (game.selected.has(code)) game.selected.delete(code);
  else if (game.selected.size < 4) game.selected.add(code);
  render();
}

function say(text) { $("message").textContent = text; }

function showMistakes(left) {
  $("mistakes").replaceChildren(...Array.from({ length: left }, () => el("span")));
  $("mistakes").dataset.left = left;
}

function groupRow(g) {
  const names = g.codes.map(c => (game.names[c] || c)).join(", ");
  return el("div", { class: "group tier-" + g.tier_name, "data-tier": g.tier_name },
    el("div", { class: "label", text: g.label }), el("div", { class: "codes", text: names }));
}

async function submit() {
  if (game.selected.size !== 4 || game.busy) return;
  game.busy = true; render();
  try {
    const r = await api("/api/connections/guess", { token: game.token, codes: [...game.selected] });
    game.token = r.token;
    showMistakes(r.mistakes_left);
    const messages = { one_away: "One away…", wrong: "Not a group.", already_tried: "Already tried that one." };
    if (r.result === "correct") {
      game.selected.clear();
      const solved = new Set(r.solved.flatMap(g => g.codes));
      game.tiles = game.tiles.filter(t => !solved.has(t.code));
      say("");
    } else say(messages[r.result]);
    if (r.over) finish(r); else $("solved").replaceChildren(...r.solved.map(groupRow));
  } catch (err) { say(err.message); }
  game.busy = false; render();
}

function finish(r) {
  game.over = true;
  game.selected.clear();
  const shown = new Set(r.solved.map(g => g.tier));
  const rest = r.groups.filter(g => !shown.has(g.tier));
  $("solved").replaceChildren(...r.solved.map(groupRow), ...rest.map(groupRow));
  game.tiles = [];
  $("outcome").textContent = r.won ? `Solved with ${r.mistakes} mistake${r.mistakes === 1 ? "" : "s"}!`
                                   : "Out of mistakes. The groups were:";
  $("share").textContent = r.share;  // the text the Copy button copies (emoji squares)
  // Drawn as coloured cells too: not every system has a font with the emoji squares.
  const squares = { "\u{1F7E8}": "yellow", "\u{1F7E9}": "green", "\u{1F7E6}": "blue", "\u{1F7EA}": "purple" };
  const lines = r.share.split("\n");
  $("share-grid").replaceChildren(el("div", { class: "muted", text: lines.slice(0, 2).join(" · ") }),
    ...lines.slice(2).map(row => el("div", {}, ...[...row].map(ch => el("span", { class: "sq tier-" + squares[ch] })))));
  $("end").hidden = false;
  say(r.won ? "You won!" : "Game over.");
}

function shuffle() {
  for (let i = game.tiles.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [game.tiles[i], game.tiles[j]] = [game.tiles[j], game.tiles[i]];
  }
  render();
}

$("submit").onclick = submit;
$("shuffle").onclick = shuffle;
$("deselect").onclick = () => { game.selected.clear(); render(); };
$("daily").onclick = () => load({ daily: new Date().toISOString().slice(0, 10), mode: $("mode").value });
$("new").onclick = () => load($("seed").value.trim() ? { seed: $("seed").value.trim(), mode: $("mode").value }
                                                      : { mode: $("mode").value });
$("open").onclick = () => load({ id: $("board-id").value.trim() });
$("copy").onclick = () => navigator.clipboard && navigator.clipboard.writeText($("share").textContent);

const params = new URLSearchParams(location.search);
if (params.has("id")) load({ id: params.get("id") });
else if (params.has("seed")) load({ seed: params.get("seed"), mode: params.get("mode") || "flags" });
else load({ daily: params.get("daily") || new Date().toISOString().slice(0, 10), mode: params.get("mode") || "flags" });
