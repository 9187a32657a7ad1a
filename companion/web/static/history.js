// One game's history: score-over-time chart (inline SVG) and the turn-by-turn timeline.
"use strict";

const gameId = document.getElementById("history").dataset.game;
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// The rolls and moves still in force: an undone one (and the undo itself) is no point of the
// chart, so a move taken back is not drawn as a spike.
const STEPS = new Set(["roll", "move", "amend"]);

function drawChart(game, events) {
  const points = [{ seq: 0, scores: game.players.map(() => 0) },
    ...events.filter((e) => e.scores.length && STEPS.has(e.kind) && !e.undone)
      .map((e) => ({ seq: e.seq, scores: e.scores }))];
  const W = 320, H = 160, pad = 24;
  const all = points.flatMap((p) => p.scores);
  const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, points.length - 1);
  const y = (v) => H - pad - ((H - 2 * pad) * (v - lo)) / (hi - lo);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-chart", role: "img",
    "aria-label": "scores over the game" });
  chart.append(svg("line", { x1: pad, y1: y(lo), x2: W - pad, y2: y(lo), class: "axis" }));
  chart.append(svg("line", { x1: pad, y1: pad, x2: pad, y2: H - pad, class: "axis" }));
  for (const v of [lo, hi]) {
    const label = svg("text", { x: pad - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" });
    label.textContent = String(v);
    chart.append(label);
  }
  game.players.forEach((name, seat) => {
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.scores[seat] ?? 0).toFixed(1)}`).join(" ");
    chart.append(svg("path", { d, fill: "none", stroke: RS.seatColour(game, seat), "stroke-width": 2.5,
      "data-player": name }));
  });
  document.getElementById("chart").replaceChildren(chart);
  document.getElementById("legend").replaceChildren(...game.players.map((name, seat) =>
    RS.el("span", { class: "legend" }, RS.el("span", { class: "swatch", style: `background:${RS.seatColour(game, seat)}` }),
      `${name} ${points[points.length - 1].scores[seat] ?? 0}`)));
}

const WORDS = { reading: "camera read", correct: "corrected", drop: "box", add: "die", discard: "reading discarded",
  roll: "rolled", amend: "roll corrected to", move: "played", undo: "undid", abandon: "game left unfinished",
  resume: "game resumed" };
// Steps that lead to a roll (the camera's reading and its corrections) and a roll's later
// correction: folded into the roll's row, shown on a tap, so a turn reads as its rolls and moves.
const LEADS_TO_ROLL = new Set(["reading", "correct", "drop", "add"]);

// The rows of the timeline: one per roll, move, discarded reading, undo...; each carries the
// events folded into it.
function foldRows(events) {
  const rows = [];
  let lead = [];
  let lastRoll = null;
  for (const e of events) {
    if (LEADS_TO_ROLL.has(e.kind)) { lead.push(e); continue; }
    if (e.kind === "amend" && lastRoll) { lastRoll.folded.push(e); continue; }
    const row = { main: e, folded: ["roll", "discard"].includes(e.kind) ? lead : [] };
    if (row.folded === lead) lead = [];
    if (e.kind === "roll") lastRoll = row;
    rows.push(row);
  }
  if (lead.length) rows.push({ main: lead[0], folded: lead.slice(1) }); // a reading still held
  return rows;
}

function eventText(e) {
  if (e.kind === "undo") return `${e.data.steps} step${e.data.steps > 1 ? "s" : ""}`;
  if (e.kind === "correct") return `die ${e.data.index + 1} ${e.data.old} → ${e.data.kind ? `${e.data.kind} ` : ""}${e.data.new}`;
  return e.text;
}

// What a roll or move did, in the player's words (kept with the event), over its command.
function said(e) {
  return e.data.told
    ? [RS.el("span", { class: "told", text: e.data.told }), RS.el("small", { class: "command", text: ` ${eventText(e)}` })]
    : [RS.el("b", { text: `${WORDS[e.kind] || e.kind} ` }), eventText(e)];
}

function rowItem({ main, folded }) {
  const image = main.image || (folded.find((e) => e.image) || {}).image;
  const steps = RS.el("ol", { class: "folded", hidden: "" }, ...folded.map((e) =>
    RS.el("li", { class: `step ${e.kind}` }, RS.el("b", { text: `${WORDS[e.kind] || e.kind} ` }), eventText(e))));
  const toggle = folded.length ? RS.el("button", { type: "button", class: "fold", "aria-expanded": "false",
    text: `how it was read (${folded.length}) ▸`,
    onclick: (event) => {
      steps.hidden = !steps.hidden;
      event.currentTarget.setAttribute("aria-expanded", String(!steps.hidden));
    } }) : null;
  const amended = folded.some((e) => e.kind === "amend") ? " amended" : "";
  return RS.el("li", { class: `event ${main.kind}${amended}${main.undone ? " undone" : ""}`, "data-kind": main.kind },
    image ? RS.el("img", { src: image, alt: "tray", loading: "lazy", class: "thumb",
      onclick: () => RS.zoom(image, "the tray", true) }) : null,
    RS.el("span", { class: "what" }, ...said(main), toggle ? " " : null, toggle),
    RS.el("small", { class: "scores-after", text: main.scores.join(" / ") }),
    folded.length ? steps : null);
}

function drawTimeline(events) {
  let turn = null;
  const items = [];
  for (const row of foldRows(events)) {
    const e = row.main;
    if (e.turn !== turn) {
      turn = e.turn;
      items.push(RS.el("li", { class: "turn-head", text: turn ? `Turn ${turn}${e.player ? ` — ${e.player}` : ""}` : "Setup" }));
    }
    items.push(rowItem(row));
  }
  document.getElementById("timeline").replaceChildren(...items);
}

function load() {
  RS.get(`/api/games/${gameId}`).then(({ game, events }) => {
    document.getElementById("history-title").textContent = `Game ${game.id}: ${game.title}`;
    document.title = `Game ${game.id}: ${game.title}`;
    const state = game.outcome ? RS.outcomeText(game)
      : game.abandoned ? "left unfinished" : "in play";
    document.getElementById("history-meta").textContent = `${game.players.join(", ")} — ${state}`;
    drawChart(game, events);
    drawTimeline(events);
  }).catch(RS.failed("timeline"));
}

load();
RS.live((s) => { if (s.game && String(s.game.id) === gameId) load(); });
