// The table view: whose turn, the tray with boxed dice, ranked moves, scores; live.
"use strict";

const GROUPED_FROM = 8; // more moves than this: grouped, only the best group open, and a filter
let snap = null;
const openGroups = new Set(); // groups a player opened stay open while the table changes

// An action, then what the table is now: its answer, or (refused) the table fetched again.
// Resolves to whether the table took it (a refused typed roll keeps its text to fix).
function act(path, body) {
  return RS.api(path, body).then((s) => { render(s); return true; })
    .catch(() => RS.get("/api/state").then(render).then(() => false));
}

// Ending the turn with moves still open (results unspent) asks first.
function endTurn() {
  const open = snap ? snap.end_turn_leaves : 0;
  if (!open) { act("/api/end-turn"); return; }
  $("end-text").textContent = `${snap.current.player || "This turn"} still has ${open} move${open > 1 ? "s" : ""} `
    + "open: what is left unspent is lost. End the turn anyway?";
  $("end-dialog").returnValue = "";
  $("end-dialog").showModal();
}

// A move: its title in the player's words, the command text small beneath (the log's and
// what is typed), its points and the game's note.
function moveButton(m, best) {
  return RS.el("li", {}, RS.el("button", { type: "button", class: best ? "move best" : "move", "data-move": m.move,
    onclick: () => act("/api/move", { move: m.move }) },
    RS.el("span", { class: "move-title", text: m.title || m.move }),
    RS.el("span", { class: "points", text: m.points && !snap.game.cooperative ? RS.signed(m.points) : "" }),
    RS.el("small", { class: "move-text", text: m.move }),
    m.detail ? RS.el("small", { class: "detail", text: m.detail }) : null));
}

// The game's group for a move, else its points: best group first, as the moves are ranked.
function groupOf(m) {
  if (m.group) return m.group;
  return m.points ? `${RS.signed(m.points)} points` : "No points";
}

function renderMoves(s) {
  const filter = $("move-filter").value.trim().toLowerCase();
  // A game may ask for some moves through a form of its own (static/<game>.js registers it in
  // RS_MOVE_FORMS): Village Attacks' spawn card as its counts, not 26 buttons.
  const own = window.RS_MOVE_FORMS && RS_MOVE_FORMS[s.game.name];
  const form = own && own(s, (move) => act("/api/move", { move }));
  $("move-filter").hidden = !!form || s.moves.length <= GROUPED_FROM;
  let items;
  if (form) {
    items = [RS.el("li", {}, form)];
  } else if (s.moves.length <= GROUPED_FROM || filter) {
    const shown = s.moves.filter((m) => !filter
      || `${m.title} ${m.move} ${m.detail}`.toLowerCase().includes(filter));
    items = shown.map((m) => moveButton(m, m === s.moves[0]));
    if (filter && !shown.length) items.push(RS.el("li", { class: "hint", text: `No move matches “${filter}”.` }));
  } else {
    const groups = new Map();
    for (const m of s.moves) {
      if (!groups.has(groupOf(m))) groups.set(groupOf(m), []);
      groups.get(groupOf(m)).push(m);
    }
    items = [...groups].map(([name, moves], i) => {
      const box = RS.el("details", { class: "move-group", open: i === 0 || openGroups.has(name) ? "" : null },
        RS.el("summary", {}, name, RS.el("small", { text: ` (${moves.length})` })),
        RS.el("ol", { class: "moves" }, ...moves.map((m) => moveButton(m, m === s.moves[0]))));
      box.addEventListener("toggle", () => (box.open ? openGroups.add(name) : openGroups.delete(name)));
      return RS.el("li", {}, box);
    });
  }
  if (!s.moves.length && s.game.over) {
    items.push(RS.el("li", { class: "hint" }, "The game is over. ",
      s.game.outcome ? RS.el("a", { href: `/games/${s.game.id}/bgstats`, class: "bgstats",
        text: "Send to BG Stats" }) : null, s.game.outcome ? " · " : null,
      RS.el("a", { href: "/new", text: "Start a new game" })));
  } else if (!s.moves.length) {
    items.push(RS.el("li", { class: "hint", text: s.current.chance ? "Roll the dice first." : "No moves." }));
  }
  $("moves").replaceChildren(...items);
  $("moves-total").textContent = s.moves_total > 1 && !form ? `(${s.moves_total}, best first)` : "";
  $("end-turn").hidden = !s.can_end_turn;
  $("undo").disabled = !s.can_undo;
  $("undo-turn").disabled = !s.can_undo;
}

function renderScores(s) {
  const rows = s.game.players.map((name, seat) => RS.el("tr",
    { class: seat === s.current.seat && !s.game.over ? "current" : "" },
    RS.el("td", {}, RS.el("span", { class: "swatch", style: `background:${RS.seatColour(s.game, seat)}` }), name),
    RS.el("td", { class: "score", text: String(s.scores[seat] ?? "") })));
  $("scores").replaceChildren(...rows);
}

// "Table details": the game as a player reads it (each game's describe() gives `details`,
// sections of plain lines), never its raw keys.
function renderDetails(s) {
  const sections = (s.state && s.state.details) || [];
  return sections.map((section) => RS.el("section", { class: "detail-section" },
    RS.el("h3", { text: section.title }),
    RS.el("ul", {}, ...section.lines.map((line) => RS.el("li", { text: line })))));
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
  document.title = `${s.game.title}: Rollscribe`;
  $("whose").textContent = s.current.text;
  $("told").hidden = !s.told;
  $("told").textContent = s.told || "";
  // A game that asks for a card drawn or flipped says which (state.asking).
  const asking = s.state && s.state.asking;
  $("wanted").textContent = s.roll_wanted ? `Roll: ${RS.diceCounted(s.roll_wanted.dice)}` : (asking || "");
  const pending = s.reading && s.reading.pending;
  $("read").hidden = !s.roll_wanted || pending || !s.camera;
  $("typed").hidden = !s.roll_wanted;
  renderBoard(s.state);
  Tray.render(s.reading, s.roll_wanted ? s.roll_wanted.dice : [], act); // reading.js
  renderMoves(s);
  renderScores(s);
  $("state").replaceChildren(...renderDetails(s));
  $("history-link").href = `/games/${s.game.id}`;
  renderReadings(s.game);
}

$("read").addEventListener("click", () => act("/api/read"));
$("typed").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/roll", { roll: $("typed-roll").value }).then((taken) => { if (taken) $("typed-roll").value = ""; });
});
$("typed-move").addEventListener("submit", (e) => {
  e.preventDefault();
  act("/api/move", { move: $("typed-move-text").value }).then((taken) => { if (taken) $("typed-move-text").value = ""; });
});
$("confirm-reading").addEventListener("click", () => act("/api/confirm"));
$("discard").addEventListener("click", () => act("/api/discard"));
$("end-turn").addEventListener("click", endTurn);
$("end-dialog").addEventListener("close", () => {
  if ($("end-dialog").returnValue === "end") act("/api/end-turn");
});
$("undo").addEventListener("click", () => act("/api/undo"));
$("undo-turn").addEventListener("click", () => act("/api/undo-turn"));
$("move-filter").addEventListener("input", () => snap && renderMoves(snap));
RS.get("/api/state").then(render);
RS.live(render);
