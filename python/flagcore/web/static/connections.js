// Connections: the board's tiles come from the server without the groups; each guess is graded
// on the server against the signed game token, which this page only stores and sends back.
"use strict";
const game = { token: null, tiles: [], names: new Map(), selected: new Set(), busy: false, over: false,
               boardId: null, daily: null, mode: "flags", focus: 0 };
const MAX_MISTAKES = 4;
const MISTAKE_BUCKETS = ["0", "1", "2", "3"];
const statsKey = () => (game.mode === "flags" ? "connections" : "connections-" + game.mode);

async function load(query) {
  try {
    const [data, names] = await Promise.all([api("/api/connections/board?" + new URLSearchParams(query)), flagNames()]);
    game.names = names;  // every country's name, the solved rows' too (a reload brings only the tiles left)
    Object.assign(game, { token: data.token, tiles: data.tiles, over: false, boardId: data.board_id,
                          daily: data.daily, mode: data.mode, focus: 0 });
    for (const t of data.tiles) if (!names.has(t.code)) names.set(t.code, t.name);
    game.selected.clear();
    // with a store, the board reply is the player's game where it is: solved groups, mistakes, over
    $("solved").replaceChildren(...(data.solved || []).map(g => groupRow(g, false)));
    $("revealed").replaceChildren();
    $("end").hidden = true;
    $("play").hidden = $("how").hidden = false;
    $("mode").value = data.mode;
    const mode = data.mode === "flags" ? "" : ` (${data.mode})`;
    $("board-label").textContent = data.daily ? `${data.daily === today() ? "Today's board" : "Daily"} ${data.daily}${mode}`
                                              : `Board ${data.board_id}${mode}`;
    $("board-id-text").textContent = data.board_id;
    $("link").href = "/connections?id=" + data.board_id;
    history.replaceState(null, "", data.daily ? `/connections?daily=${data.daily}&mode=${data.mode}`
                                              : "/connections?id=" + data.board_id);
    $("archive").replaceChildren(...archiveList(statsKey(), day => `/connections?daily=${day}&mode=${data.mode}`));
    say("");
    showMistakes(data.mistakes || 0, data.mistakes_left);
    if (data.over) finish(data, new Map());
    render();
    performance.mark("flagcore-interactive");  // benchmarks/web_pages.py reads it
  } catch (err) {
    if (err.code === "future_daily" && query.daily) {  // a day not begun: when it opens, in the player's time
      $("board-label").textContent = `Daily ${query.daily}`;
      $("play").hidden = $("how").hidden = true;  // no board yet: nothing to play
      return say(opensText(query.daily));
    }
    say(err.message);
  }
}

function render() {
  const tiles = $("tiles"), hadFocus = tiles.contains(document.activeElement);
  game.focus = Math.min(game.focus, Math.max(0, game.tiles.length - 1));
  // One tile is in the tab order (roving tabindex); the arrow keys move between them.
  tiles.replaceChildren(...game.tiles.map((t, i) => {
    const on = game.selected.has(t.code);
    return el("button", { type: "button", class: "tile" + (on ? " selected" : ""), "data-code": t.code,
        "aria-pressed": String(on), "aria-label": t.name + (on ? ", selected" : ""), tabindex: i === game.focus ? "0" : "-1",
        onclick: () => { game.focus = i; toggle(t.code); } },
      el("img", { src: `/flags/${t.code}.svg`, alt: "" }), el("span", { class: "name", text: t.name }));
  }));
  if ((hadFocus || document.activeElement === document.body) && game.tiles.length) tiles.children[game.focus].focus();
  $("submit").disabled = game.over || game.busy || game.selected.size !== 4;
  $("play").hidden = game.over;  // a finished game has nothing left to shuffle, select or submit
}

$("tiles").addEventListener("keydown", e => {
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -4, ArrowDown: 4, Home: -16, End: 16 };
  if (!(e.key in moves) || !game.tiles.length) return;
  e.preventDefault();
  game.focus = Math.max(0, Math.min(game.tiles.length - 1, game.focus + moves[e.key]));
  [...$("tiles").children].forEach((b, i) => { b.tabIndex = i === game.focus ? 0 : -1; });
  $("tiles").children[game.focus].focus();
});

function toggle(code) {
  if (game.over) return;
  if (game.selected.has(code)) game.selected.delete(code);
  else if (game.selected.size < 4) game.selected.add(code);
  else return say("Four are selected: deselect one first.");
  render();
}

function showMistakes(mistakes, left) {
  $("mistakes").replaceChildren(...Array.from({ length: left }, () => el("span")));
  $("mistakes").dataset.left = left;
  $("mistakes-text").textContent = left ? `Mistakes left: ${left}` : `Mistakes: ${mistakes} of ${MAX_MISTAKES}, none left`;
}

function groupRow(g, revealed) {
  const names = g.codes.map(c => game.names.get(c) || c).join(", ");
  return el("div", { role: "group", class: `group tier-${g.tier_name}${revealed ? " revealed" : ""}`, "data-tier": g.tier_name },
    el("span", { class: "badge", "aria-hidden": "true", text: TIER_MARKS[g.tier_name] }),
    el("span", { class: "visually-hidden", text: `${revealed ? "Not found" : "Solved"}, ${g.tier_name} group: ` }),
    el("div", { class: "label", text: g.label }),
    el("div", { class: "flags", "aria-hidden": "true" }, ...g.codes.map(c => el("img", { src: `/flags/${c}.svg`, alt: "" }))),
    el("div", { class: "codes", text: names }));
}

// Where each tile is now, so that after a change the tiles can slide from there (FLIP).
function positions() {
  return new Map([...$("tiles").children].map(b => [b.dataset.code, b.getBoundingClientRect()]));
}

function slide(before, arrived) {
  if (reducedMotion()) return;
  const move = (node, dx, dy) => node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
                                              { duration: 400, easing: "ease-out" });
  for (const b of $("tiles").children) {
    const old = before.get(b.dataset.code), now = b.getBoundingClientRect();
    if (old && (old.left !== now.left || old.top !== now.top)) move(b, old.left - now.left, old.top - now.top);
  }
  if (arrived) {  // the solved group rises from where its tiles were to its row at the top
    const rects = arrived.group.codes.map(c => before.get(c)).filter(Boolean);
    if (rects.length) move(arrived.row, 0, rects.reduce((s, r) => s + r.top, 0) / rects.length - arrived.row.getBoundingClientRect().top);
  }
}

async function submit() {
  if (game.selected.size !== 4 || game.busy || game.over) return;
  game.busy = true; render();
  if (game.daily) Stats.start(statsKey(), game.daily);
  try {
    const guessed = [...game.selected];
    const r = await api("/api/connections/guess", { token: game.token, codes: guessed });
    game.token = r.token;
    game.busy = false;
    const before = positions();
    showMistakes(r.mistakes, r.mistakes_left);
    if (r.result === "correct") {
      game.selected.clear();
      const solved = new Set(r.group.codes);
      game.tiles = game.tiles.filter(t => !solved.has(t.code));
    }
    if (r.over) return finish(r, before);
    let arrived = null;
    if (r.result === "correct") {
      const rows = r.solved.map(g => groupRow(g, false));
      $("solved").replaceChildren(...rows);
      arrived = { group: r.group, row: rows[rows.length - 1] };
    }
    render();
    slide(before, arrived);
    const left = `${plural(r.mistakes_left, "mistake")} left.`;
    const messages = { correct: `Correct: ${r.group && r.group.label}.`, one_away: `One away: three of these four belong together. ${left}`,
                       wrong: `Not a group. ${left}`, already_tried: "You already tried these four." };
    say(messages[r.result]);
    if (r.result !== "correct") {  // a wrong guess shakes, one away bumps (CSS; off under reduced motion)
      for (const b of $("tiles").querySelectorAll(".selected")) b.classList.add(r.result === "one_away" ? "away" : "shake");
    }
  } catch (err) { game.busy = false; say(err.message); render(); }
}

function finish(r, before) {
  game.over = true;
  game.selected.clear();
  // The groups the player found stay apart from the ones revealed after a loss.
  const found = new Set(r.solved.map(g => g.tier));
  const revealed = r.groups.filter(g => !found.has(g.tier));
  const rows = r.solved.map(g => groupRow(g, false));
  const foundTitle = r.solved.length ? `You found ${r.solved.length} of 4` : "You found none";
  $("solved").replaceChildren(...(revealed.length ? [el("h2", { class: "part-title", text: foundTitle })] : []), ...rows);
  $("revealed").replaceChildren(...(revealed.length ? [el("h2", { class: "part-title", text: "Not found: the answers" }),
                                                       ...revealed.map(g => groupRow(g, true))] : []));
  game.tiles = [];
  render();
  if (r.won && r.group) slide(before, { group: r.group, row: rows[rows.length - 1] });  // not on a reload
  // One line of outcome (the mistakes row and the controls are gone); the share grid below it.
  const outcome = r.won ? `Solved with ${plural(r.mistakes, "mistake")}`
                        : `Not solved: ${r.solved.length} of 4 groups found, ${plural(r.mistakes, "mistake")}`;
  $("outcome").textContent = outcome;
  $("share").textContent = shareText(r);  // the text the Copy button copies (emoji squares)
  // Drawn as coloured, numbered cells too: not every system has a font with the emoji squares.
  const squares = { "\u{1F7E8}": "yellow", "\u{1F7E9}": "green", "\u{1F7E6}": "blue", "\u{1F7EA}": "purple" };
  $("share-grid").replaceChildren(...$("share").textContent.split("\n").slice(2).map(row => el("div", {},
    ...[...row].map(ch => el("span", { class: "sq tier-" + squares[ch], text: String(TIERS.indexOf(squares[ch]) + 1) })))));
  const aggregate = aggregateText(r.today);
  $("aggregate").textContent = aggregate;
  $("aggregate").hidden = !aggregate;
  countdown($("next-daily"));
  $("end").hidden = false;
  const counted = game.daily && Stats.record(statsKey(), game.daily, r.won, r.mistakes);
  say(counted ? "Your stats are updated." : "");
  $("archive").replaceChildren(...archiveList(statsKey(), day => `/connections?daily=${day}&mode=${game.mode}`));
  if (before.size) $("end").focus();  // just ended (not a reload): a screen reader reads the outcome, the section's name
}

// The board's figures of every player who finished it: the server's "today" field of a finished
// game (web/plays.py: plays, the share won, per colour the share of wins that found it last).
function aggregateText(a) {
  if (!a || typeof a !== "object" || !(a.plays > 0) || typeof a.won !== "number") return "";
  const share = x => `${Math.round(100 * x)}%`;
  let text = `${share(a.won)} of ${plural(a.plays, "player")} solved this board`;
  const last = Object.entries(a.found_last || {}).filter(([c, x]) => TIER_MARKS[c] && x > 0).sort((x, y) => y[1] - x[1])[0];
  if (last) text += `; ${TIER_MARKS[last[0]]} ${last[0]} was found last by ${share(last[1])}`;
  return text + ".";
}

// The share text says which day (or board) and the result as it was, then the guesses' colours.
function shareText(r) {
  const what = game.daily ? `${game.daily}${game.daily === today() ? "" : " (archive)"}` : `board ${game.boardId}`;
  const mode = game.mode === "flags" ? "" : ` ${game.mode}`;
  const result = r.won ? `solved with ${plural(r.mistakes, "mistake")}`
                       : `not solved: ${r.solved.length} of 4 groups, ${plural(r.mistakes, "mistake")}`;
  return [`flagcore Connections${mode} ${what}`, result, ...r.share.split("\n").slice(2)].join("\n");
}

function shuffle() {
  for (let i = game.tiles.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [game.tiles[i], game.tiles[j]] = [game.tiles[j], game.tiles[i]];
  }
  render();
}

dialogs();
$("submit").onclick = submit;
$("shuffle").onclick = shuffle;
$("deselect").onclick = () => { game.selected.clear(); render(); };
$("daily").onclick = () => load({ daily: today(), mode: $("mode").value });
$("new").onclick = () => load($("seed").value.trim() ? { seed: $("seed").value.trim(), mode: $("mode").value }
                                                      : { mode: $("mode").value });
$("open").onclick = () => load({ id: $("board-id").value.trim() });
$("copy").onclick = () => navigator.clipboard && navigator.clipboard.writeText($("share").textContent).then(() => say("Copied."), () => {});
const showStats = () => openStats(statsKey(), "Mistakes per win", MISTAKE_BUCKETS);
$("stats-button").onclick = $("end-stats").onclick = showStats;
setUpHelp("connections", "rules-connections", ["rules-connections-more", "house-rules", "rules-stats"]);

const params = new URLSearchParams(location.search);
if (params.has("id")) load({ id: params.get("id") });
else if (params.has("seed")) load({ seed: params.get("seed"), mode: params.get("mode") || "flags" });
else load({ daily: params.get("daily") || today(), mode: params.get("mode") || "flags" });
