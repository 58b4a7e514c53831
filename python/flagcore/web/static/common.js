// Shared by every page: the JSON API client, small DOM helpers, the help dialog, the stats kept
// in this browser (localStorage) and the service worker's registration. No dependencies.
"use strict";
const TIERS = ["yellow", "green", "blue", "purple"];
// Tiers are told apart by number and shape as well as colour.
const TIER_MARKS = { yellow: "1 ●", green: "2 ▲", blue: "3 ■", purple: "4 ◆" };
const DAY_MS = 86400000;

async function api(path, body) {
  const init = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try { response = await fetch(path, init); } catch {
    throw new Error("You are offline: boards, guesses and results need the server.");
  }
  const data = await response.json();
  if (!response.ok) {
    const err = new Error(data.error ? data.error.message : `HTTP ${response.status}`);
    err.status = response.status;
    err.code = data.error ? data.error.code : "";
    throw err;
  }
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function $(id) { return document.getElementById(id); }

// The #message element is a live region (role="status"): what is written there is announced.
function say(text) { $("message").textContent = text; }

// Days are UTC dates, as the server's dailies are: every player has the same board on the same day.
function today() { return new Date().toISOString().slice(0, 10); }
function dayNumber(day) { return Math.round(Date.parse(day + "T00:00:00Z") / DAY_MS); }
function dayOf(number) { return new Date(number * DAY_MS).toISOString().slice(0, 10); }
function pastDays(count) { const t = dayNumber(today()); return Array.from({ length: count }, (_, i) => dayOf(t - 1 - i)); }
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

function dialogs() {
  setUpSettings();
  for (const button of document.querySelectorAll("dialog [data-close]"))
    button.onclick = () => button.closest("dialog").close();
}

// ------------------------------------------------------------ help
// The rules are written once, in /static/help.html. A game's dialog shows its short section (a few
// lines and a picture) and, behind "More rules", its other sections.
let helpLoaded = null;
function openHelp(quick, more) {
  helpLoaded = helpLoaded || fetch("/static/help.html").then(r => r.text()).then(html => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const part = id => {
      const section = document.importNode(doc.getElementById(id), true);
      for (const h of section.querySelectorAll("h2")) h.replaceWith(el("h3", { text: h.textContent }));
      return section;
    };
    const first = part(quick);
    first.querySelector("h3").remove();  // the dialog's own title says it
    $("help-body").replaceChildren(first,
      el("details", { class: "more-rules", id: "more-rules" }, el("summary", { text: "More rules" }), ...more.map(part)));
  }).catch(() => { helpLoaded = null; $("help-body").textContent = "The rules could not be loaded (offline?)."; });
  $("help").showModal();
  return helpLoaded;
}

// Each game's help opens by itself on that game's first visit.
function setUpHelp(game, quick, more) {
  $("help-button").onclick = () => openHelp(quick, more);
  if (!store.get("flagcore.help-seen." + game)) { store.set("flagcore.help-seen." + game, "1"); openHelp(quick, more); }
}

// ------------------------------------------------------------ names
// Country names come from one source, the server's flag list (GET /api/flags, the names the board's
// tiles carry too), fetched once a page: a solved row shows names even when its tiles are gone.
let namesLoaded = null;
function flagNames() {
  namesLoaded = namesLoaded || api("/api/flags").then(list => new Map(list.map(f => [f.code, f.name])))
    .catch(() => { namesLoaded = null; return new Map(); });
  return namesLoaded;
}

// ------------------------------------------------------------ settings
// High contrast (as Wordle's): stronger tier colours, borders and text, kept in this browser. Motion
// follows the system's reduce-motion setting (app.css and reducedMotion()).
function applyContrast() { document.documentElement.classList.toggle("contrast", store.get("flagcore.contrast") === "1"); }
function setUpSettings() {
  const button = $("settings-button");
  if (!button) return;
  const box = el("input", { type: "checkbox", id: "contrast" });
  box.checked = store.get("flagcore.contrast") === "1";
  box.onchange = () => { store.set("flagcore.contrast", box.checked ? "1" : "0"); applyContrast(); };
  const dialog = el("dialog", { id: "settings", "aria-labelledby": "settings-title" },
    el("button", { class: "close", "data-close": "" , text: "Close" }), el("h2", { id: "settings-title", text: "Settings" }),
    el("p", {}, el("label", { class: "switch" }, box, " High contrast colours")),
    el("p", { class: "muted", text: "Stronger colours, borders and text for the tiers, tiles and buttons." }),
    el("p", { class: "muted", id: "motion-note" }));
  document.body.append(dialog);
  dialog.querySelector("[data-close]").onclick = () => dialog.close();
  button.onclick = () => {
    $("motion-note").textContent = reducedMotion() ? "Motion: off, as your system asks (reduce motion)."
      : "Motion: tiles slide and shake; set reduce motion in your system to turn it off.";
    dialog.showModal();
  };
}

// ------------------------------------------------------------ days
// A daily of day D opens when D begins in the earliest time zone (UTC+14), as the server serves it.
const EARLIEST_OFFSET_MS = 14 * 3600000;
function localTime(ms) { return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }); }
function localDate(ms) { return new Date(ms).toLocaleDateString([], { weekday: "short", day: "numeric", month: "short", year: "numeric" }); }
function opensText(day) {
  const at = Date.parse(day + "T00:00:00Z") - EARLIEST_OFFSET_MS;
  return `The daily of ${day} is not out yet: it opens on ${localDate(at)} at ${localTime(at)} your time.`;
}
// The next day's daily on this page (its days are UTC dates): a countdown to it, in the player's time.
function countdown(node) {
  const next = (dayNumber(today()) + 1) * DAY_MS;
  const tick = () => {
    const left = Math.max(0, next - Date.now()), s = Math.floor(left / 1000);
    const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60].map(n => String(n).padStart(2, "0")).join(":");
    node.textContent = `Next daily in ${hms}, at ${localTime(next)} your time.`;
    if (left > 0 && node.isConnected) setTimeout(tick, 1000 - Date.now() % 1000);
  };
  tick();
}

// ------------------------------------------------------------ stats
// localStorage may be missing or full (private windows): the game goes on without stats.
const store = {
  get(key) { try { return localStorage.getItem(key); } catch { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch { /* stats are a convenience */ } },
};

const Stats = {
  // {days: {"YYYY-MM-DD": {won: bool, score: int}}}: one entry per daily, the first finish only.
  read(game) {
    try { const s = JSON.parse(store.get("flagcore.stats." + game)); if (s && s.days) return s; } catch { /* reset */ }
    return { days: {} };
  },
  // Today's daily counts as played from the first move; other days (the archive) and other boards are practice.
  start(game, day) {
    const s = Stats.read(game);
    if (day !== today() || s.days[day]) return;
    s.days[day] = { won: false, score: 0, done: false };
    store.set("flagcore.stats." + game, JSON.stringify(s));
  },
  // Records the result of today's daily once, the first time it ends.
  record(game, day, won, score) {
    const s = Stats.read(game);
    if (day !== today() || (s.days[day] && s.days[day].done)) return false;
    s.days[day] = { won, score, done: true };
    store.set("flagcore.stats." + game, JSON.stringify(s));
    return true;
  },
  summary(game, buckets) {
    const days = Stats.read(game).days;
    const entries = Object.entries(days);
    const wonDays = new Set(entries.filter(([, r]) => r.won).map(([d]) => dayNumber(d)));
    let best = 0, run = 0;
    for (const d of [...wonDays].sort((a, b) => a - b)) { run = wonDays.has(d - 1) ? run + 1 : 1; best = Math.max(best, run); }
    let current = 0;
    // from today once today's daily is finished (a loss today ends the streak), else from yesterday
    const finishedToday = days[today()] && days[today()].done;
    for (let d = dayNumber(today()) - (finishedToday ? 0 : 1); wonDays.has(d); d--) current++;
    const histogram = buckets.map(() => 0);
    for (const [, r] of entries) if (r.won) histogram[Math.min(r.score, buckets.length - 1)]++;
    const wins = wonDays.size;
    return { played: entries.length, wins, rate: entries.length ? Math.round(100 * wins / entries.length) : 0,
             current, best, histogram, today: days[today()] };
  },
};

// The player's stats as the server keeps them (GET /api/stats), in Stats.summary's shape, or null
// when the server keeps none (no store) or cannot answer: the page then shows this browser's own.
async function serverSummary(game, buckets) {
  let answer;
  try { answer = await api("/api/stats"); } catch { return null; }
  const g = answer.kept && answer.games[game];
  if (!g) return null;
  const histogram = buckets.map(() => 0);
  g.scores.forEach((count, score) => { histogram[Math.min(score, buckets.length - 1)] += count; });
  return { played: g.played, wins: g.wins, rate: g.win_rate, current: g.current_streak, best: g.best_streak,
           histogram, today: g.today, server: true };
}

// Opens the stats dialog on this browser's stats at once, then shows the server's when it keeps
// them (they follow the player's cookie); chartTitle and buckets name the chart's rows (score 0, 1, ...).
function openStats(game, chartTitle, buckets) {
  fillStats(Stats.summary(game, buckets), chartTitle, buckets);
  $("stats-dialog").showModal();
  return serverSummary(game, buckets).then(s => { if (s) fillStats(s, chartTitle, buckets); });
}

function fillStats(s, chartTitle, buckets) {
  const number = (value, label) => el("div", {}, el("b", { text: String(value) }), label);
  const top = Math.max(1, ...s.histogram);
  const chart = el("div", { class: "chart", role: "list" });
  s.histogram.forEach((count, i) => {
    const bar = el("span", { class: "bar" + (s.today && s.today.won && Math.min(s.today.score, buckets.length - 1) === i ? " today" : ""),
                             text: String(count) });
    bar.style.width = `${Math.max(8, 100 * count / top)}%`;
    chart.append(el("span", { text: buckets[i] }), el("span", { role: "listitem", "aria-label": `${buckets[i]}: ${plural(count, "win")}` }, bar));
  });
  $("stats-body").replaceChildren(
    el("div", { class: "numbers" }, number(s.played, "Played"), number(s.rate + "%", "Win rate"),
       number(s.current, "Current streak"), number(s.best, "Best streak")),
    el("h3", { text: chartTitle }), chart,
    el("p", { class: "muted", text: s.server
      ? "Kept by the server for your player (a cookie of this browser): today's daily counts once, when it ends; the archive and other boards are practice."
      : "Kept in this browser: today's daily counts once; the archive and other boards are practice." }));
}

// The last days' dailies as links, each marked with this browser's result.
function archiveList(game, href, count = 14) {
  const days = Stats.read(game).days;
  return pastDays(count).map(day => {
    const r = days[day];
    const mark = !r ? "" : r.won ? " ✓ solved" : r.done ? " ✗ not solved" : " · started";
    return el("li", {}, el("a", { href: href(day), text: day }), mark);
  });
}

applyContrast();
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => { /* served without /sw.js */ });
