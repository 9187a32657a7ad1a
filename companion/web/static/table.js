// The table view: whose turn, the tray with boxed dice, ranked moves, scores; live.
"use strict";

const $ = (id) => document.getElementById(id);
const FIRST_MOVES = 6; // the best few; the rest behind "show all" so the phone stays short
let snap = null;
let allMoves = false;

// An action, then what the table is now: its answer, or (refused) the table fetched again.
function act(path, body) {
  return RS.api(path, body).then(render).catch(() => RS.get("/api/state").then(render));
}

function renderMoves(s) {
  const moves = s.moves.map((m, i) => RS.el("li", { hidden: !allMoves && i >= FIRST_MOVES ? "" : null },
    RS.el("button", { type: "button", class: i === 0 ? "move best" : "move",
      onclick: () => act("/api/move", { move: m.move }) },
      RS.el("span", { class: "move-text", text: m.move }),
      RS.el("span", { class: "points", text: m.points ? `${m.points > 0 ? "+" : ""}${m.points}` : "" }),
      m.detail ? RS.el("small", { class: "detail", text: m.detail }) : null)));
  if (!moves.length && s.game.over) {
    moves.push(RS.el("li", { class: "hint" }, "The game is over. ",
      s.game.outcome ? RS.el("a", { href: `/games/${s.game.id}/bgstats`, class: "bgstats",
        text: "Send to BG Stats" }) : null, s.game.outcome ? " · " : null,
      RS.el("a", { href: "/new", text: "Start a new game" })));
  } else if (!moves.length) {
    moves.push(RS.el("li", { class: "hint", text: s.current.chance ? "Roll the dice first." : "No moves." }));
  }
  const more = s.moves.length - FIRST_MOVES;
  if (more > 0) {
    moves.push(RS.el("li", {}, RS.el("button", { type: "button", class: "more",
      text: allMoves ? "Show the best only" : `Show ${more} more`,
      onclick: () => { allMoves = !allMoves; renderMoves(snap); } })));
  }
  $("moves").replaceChildren(...moves);
  $("moves-total").textContent = s.moves_total > 1 ? `(${s.moves_total}, best first)` : "";
  $("end-turn").hidden = !s.can_end_turn;
  $("undo").disabled = !s.can_undo;
  $("undo-turn").disabled = !s.can_undo;
}

// A game whose players are teams of a colour (Board Horde's blue, red, purple) shows that colour.
function seatColour(s, seat) {
  const team = s.state && s.state.players && s.state.players[seat] && s.state.players[seat].team;
  return RS.teamColours[team] || RS.seatColours[seat % 6];
}

function renderScores(s) {
  const rows = s.game.players.map((name, seat) => RS.el("tr",
    { class: seat === s.current.seat && !s.game.over ? "current" : "" },
    RS.el("td", {}, RS.el("span", { class: "swatch", style: `background:${seatColour(s, seat)}` }), name),
    RS.el("td", { class: "score", text: String(s.scores[seat] ?? "") })));
  $("scores").replaceChildren(...rows);
}

// describe() is each game's own JSON; show it generically so any game works.
function renderValue(value) {
  if (Array.isArray(value)) {
    if (value.length && value.every((v) => v && typeof v === "object" && !Array.isArray(v))) {
      const keys = [...new Set(value.flatMap(Object.keys))];
      return RS.el("table", { class: "kv" },
        RS.el("tr", {}, ...keys.map((k) => RS.el("th", { text: k }))),
        ...value.map((row) => RS.el("tr", {}, ...keys.map((k) => RS.el("td", {}, renderValue(row[k]))))));
    }
    return document.createTextNode(value.map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(", "));
  }
  if (value && typeof value === "object") {
    return RS.el("dl", { class: "kv" }, ...Object.entries(value).flatMap(([k, v]) =>
      [RS.el("dt", { text: k }), RS.el("dd", {}, renderValue(v))]));
  }
  return document.createTextNode(value === null || value === undefined ? "" : String(value));
}

// A race game's view has a `track`: its squares drawn in order with what stands on each.
function renderTrack(track) {
  const mark = (m) => RS.el("span", { class: "mark" + (m.team ? ` team-${m.team}` : "") + (m.hero ? " hero" : ""),
    title: m.title, "aria-label": m.title, text: m.text });
  const line = (name, marks) => (marks.length
    ? RS.el("div", { class: "chips-row" }, RS.el("small", { text: `${name}: ` }), ...marks.map(mark)) : null);
  const sides = track.sides.map((side) => RS.el("div", { class: "track", "aria-label": `${side.name || "the"} track` },
    side.name ? RS.el("small", { class: "track-name", text: side.name }) : null,
    ...side.cells.map((cell) => RS.el("div", {
      class: cell.marks.length ? "cell" : "cell empty", "data-square": `${side.key}${cell.n}` },
    RS.el("small", { class: "n", text: String(cell.n) }), ...cell.marks.map(mark)))));
  const legend = RS.el("div", { class: "legend" }, ...(track.legend || []).flatMap((m) => [mark(m), ` ${m.title} `]));
  return [line("Portal", track.portal), ...sides, line("Out", track.out), legend];
}

// Otherwise lists in the game's view whose items carry a label (enemies...) show as chips.
function renderBoard(state) {
  // A game with its own view (static/<game>.js registers it in RS_VIEWS) draws the board itself.
  const view = state && window.RS_VIEWS && window.RS_VIEWS[state.game];
  if (view) { $("board").replaceChildren(...view(state)); return; }
  if (state && state.track) { $("board").replaceChildren(...renderTrack(state.track).filter(Boolean)); return; }
  const groups = Object.entries(state || {}).filter(([, v]) =>
    Array.isArray(v) && v.length && v.every((item) => item && typeof item === "object" && "label" in item));
  $("board").replaceChildren(...groups.map(([name, items]) => RS.el("div", { class: "chips-row" },
    RS.el("small", { text: `${name}: ` }),
    ...items.map((item) => RS.el("span", { class: item.defeated ? "chip gone" : "chip",
      text: (item.id ? `${item.id} ` : "") + item.label })))));
}

// How this game reads its rulebook where the text is silent: settled here, not argued at the table.
let readingsFor = null;
function renderReadings(game) {
  if (readingsFor === game.name) return;
  readingsFor = game.name;
  RS.get("/api/catalog").then((data) => {
    const entry = data.games.find((g) => g.name === game.name);
    $("readings").replaceChildren(...(entry ? entry.readings : []).map((text) => RS.el("li", { text })));
  });
}

function render(s) {
  snap = s;
  RS.shown = s.version;
  RS.renderFaults(s.faults);
  $("no-game").hidden = !!s.game;
  $("table").hidden = !s.game;
  if (!s.game) return;
  $("game-title").textContent = s.game.title;
  $("whose").textContent = s.current.text;
  // A game that asks for a card drawn or flipped says which (state.asking).
  const asking = s.state && s.state.asking;
  $("wanted").textContent = s.roll_wanted ? `Roll: ${s.roll_wanted.dice.join(" ")}` : (asking || "");
  const pending = s.reading && s.reading.pending;
  $("read").hidden = !s.roll_wanted || pending || !s.camera;
  $("typed").hidden = !s.roll_wanted;
  renderBoard(s.state);
  Tray.render(s.reading, s.roll_wanted ? s.roll_wanted.dice : [], act); // reading.js
  renderMoves(s);
  renderScores(s);
  $("state").replaceChildren(renderValue(s.state));
  $("history-link").href = `/games/${s.game.id}`;
  renderReadings(s.game);
}

$("read").addEventListener("click", () => act("/api/read"));
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/roll", { roll: $("typed-roll").value }).then(() => { $("typed-roll").value = ""; });
});
$("typed-move").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/move", { move: $("typed-move-text").value }).then(() => { $("typed-move-text").value = ""; });
});
$("confirm-reading").addEventListener("click", () => act("/api/confirm"));
$("discard").addEventListener("click", () => act("/api/discard"));
$("end-turn").addEventListener("click", () => act("/api/end-turn"));
$("undo").addEventListener("click", () => act("/api/undo"));
$("undo-turn").addEventListener("click", () => act("/api/undo-turn"));
RS.get("/api/state").then(render);
RS.live(render);
