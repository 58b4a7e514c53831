// The search simulator: the server sends every step of the search with the state it leaves
// (stack, candidate, board, spill, counters); this page steps or plays through them.
"use strict";
const sim = { steps: [], at: 0, timer: null };

async function load() {
  stop();
  const q = new URLSearchParams({ seed: $("seed").value.trim() || "12", mode: $("mode").value,
                                  legacy: String($("legacy").checked) });
  try {
    const data = await api("/api/connections/trace?" + q);
    sim.steps = data.steps;
    sim.at = 0;
    show();
  } catch (err) { $("event").textContent = err.message; }
}

function describe(ev) {
  switch (ev.event) {
    case "enter": return `Enter tier ${ev.tier} (depth ${ev.depth}): ${ev.candidates} candidates`;
    case "try": return `Try "${ev.label}"`;
    case "skip": return `Skip "${ev.label}": ${ev.reason.replaceAll("_", " ")}`;
    case "place": return `Place "${ev.label}"` + (ev.codes ? `: ${ev.codes.join(" ")}` : ` (${ev.exclusive} exclusive codes)`);
    case "undo": return `Undo "${ev.label}"`;
    case "backtrack": return `Tier at depth ${ev.depth} exhausted: backtrack`;
    case "draw": return `Draw the tiles of "${ev.label}": ${ev.codes.join(" ")}`;
    case "decoy": return `Decoy: ${ev.removed} replaced by ${ev.added}`;
    default: return ev.event;
  }
}

function chips(codes) { return codes.map(c => el("span", { text: c })); }

function show() {
  const total = sim.steps.length;
  $("position").textContent = `step ${sim.at} / ${total}`;
  $("stepno").textContent = sim.at;
  $("back").disabled = $("reset").disabled = sim.at === 0;
  $("step").disabled = sim.at >= total;
  if (sim.at === 0) {
    $("event").textContent = total ? "Ready: press Step or Play." : "";
    for (const id of ["depth", "attempts", "backtracks"]) $(id).textContent = "0";
    $("candidate").textContent = "–";
    for (const id of ["stack", "board", "spill"]) $(id).replaceChildren();
    return;
  }
  const s = sim.steps[sim.at - 1];
  $("event").textContent = describe(s.event);
  $("depth").textContent = s.depth;
  $("attempts").textContent = s.attempts;
  $("backtracks").textContent = s.backtracks;
  $("candidate").textContent = s.candidate || "–";
  $("stack").replaceChildren(...s.stack.map(f => el("div", { class: "tier tier-" + f.tier },
    el("b", { text: f.tier }), el("span", { text: f.label || "…" }), el("span", { class: "chips" }, ...chips(f.codes)))));
  $("board").replaceChildren(...chips(s.board));
  $("spill").replaceChildren(...chips(s.spill));
}

function step(delta) {
  sim.at = Math.max(0, Math.min(sim.steps.length, sim.at + delta));
  show();
  if (sim.at >= sim.steps.length) stop();
}

function stop() { clearInterval(sim.timer); sim.timer = null; $("play").textContent = "Play"; }

$("load").onclick = load;
$("step").onclick = () => step(1);
$("back").onclick = () => step(-1);
$("reset").onclick = () => { stop(); sim.at = 0; show(); };
$("play").onclick = () => {
  if (sim.timer) return stop();
  if (sim.at >= sim.steps.length) sim.at = 0;
  $("play").textContent = "Pause";
  sim.timer = setInterval(() => step(1), 400);
};
load();
