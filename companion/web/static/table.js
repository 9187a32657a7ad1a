// The table view: whose turn, the tray with boxed dice, ranked moves, scores; live.
"use strict";

const $ = (id) => document.getElementById(id);
const GROUPED_FROM = 8; // more moves than this: grouped, only the best group open, and a filter
let snap = null;
const openGroups = new Set(); // groups a player opened stay open while the table changes

// An action, then what the table is now: its answer, or (refused) the table fetched again.
function act(path, body) {
  return RS.api(path, body).then(render).catch(() => RS.get("/api/state").then(render));
}

function dieLabel(d) {
  const pct = Math.round(d.confidence * 100);
  return `${d.die} ${d.value}` + (d.corrected ? " ✎" : d.unsure ? ` ?${pct}%` : "");
}

function renderTray(reading) {
  const tray = $("tray");
  $("problem").hidden = true;
  $("pending-actions").hidden = true;
  if (!reading) {
    $("tap-hint").hidden = true;
    tray.replaceChildren(RS.el("p", { class: "hint", text: "No dice read yet." }));
    $("reading-source").textContent = "";
    return;
  }
  $("reading-source").textContent = reading.pending ? "waiting for you" : `(${reading.source})`;
  const dice = reading.dice.map((d, i) => {
    const button = RS.el("button", {
      type: "button", class: "die" + (d.unsure ? " unsure" : "") + (d.corrected ? " corrected" : ""),
      "data-index": i, "aria-label": `die ${i + 1}: ${d.die} showing ${d.value}`,
      onclick: () => openDie(i),
    }, RS.el("span", { text: `${i + 1}: ${dieLabel(d)}` }));
    if (reading.image && reading.width) {
      const [x0, y0, x1, y1] = d.box;
      button.style.left = `${(100 * x0) / reading.width}%`;
      button.style.top = `${(100 * y0) / reading.height}%`;
      button.style.width = `${(100 * (x1 - x0)) / reading.width}%`;
      button.style.height = `${(100 * (y1 - y0)) / reading.height}%`;
    }
    return button;
  });
  if (reading.image) {
    const img = RS.el("img", { src: reading.image, alt: "the tray", width: reading.width, height: reading.height });
    const box = RS.el("div", { class: "tray-image" }, img, ...dice);
    // At most 45% of the screen's height, so the moves stay in view on a phone.
    box.style.maxWidth = `calc(45vh * ${reading.width / Math.max(1, reading.height)})`;
    // Small dice in a big tray are hard to hit: the same dice as a row of finger-sized chips.
    const chips = reading.dice.map((d, i) => RS.el("button", {
      type: "button", class: "die-chip" + (d.unsure ? " unsure" : "") + (d.corrected ? " corrected" : ""),
      onclick: () => openDie(i), text: `${i + 1}: ${dieLabel(d)}` }));
    tray.replaceChildren(box, RS.el("div", { class: "chips" }, ...chips));
  } else {
    tray.replaceChildren(RS.el("div", { class: "chips" }, ...dice));
  }
  $("tap-hint").hidden = !reading.correctable;
  if (reading.pending) {
    $("pending-actions").hidden = false;
    if (reading.problem) { $("problem").hidden = false; $("problem").textContent = reading.problem; }
  }
}

function openDie(index) {
  if (!snap || !snap.reading || !snap.reading.correctable) {
    RS.toast("This roll can no longer be corrected: undo the moves played on it first.");
    return;
  }
  if (!RS.canAct) { RS.toast("Enter the table PIN to correct dice."); return; }
  const die = snap.reading.dice[index];
  $("die-title").textContent = `Die ${index + 1}: ${die.die} read as ${die.value}`;
  const dialog = $("die-dialog");
  const pick = (value) => { dialog.close(); act("/api/correct", { index, value }); };
  if (die.faces) {
    $("free-face").hidden = true; $("face-ok").hidden = true;
    $("faces").replaceChildren(...die.faces.map((f) => RS.el("button", {
      type: "button", class: f === die.value ? "face current" : "face", text: String(f),
      onclick: () => pick(f),
    })));
  } else {
    $("faces").replaceChildren();
    $("free-face").hidden = false; $("face-ok").hidden = false;
    $("face-input").value = die.value;
    $("face-ok").onclick = (e) => { e.preventDefault(); pick($("face-input").value); };
  }
  dialog.showModal();
}

// A move: its title in the player's words, the command text small beneath (the log's and
// what is typed), its points and the game's note.
function moveButton(m, best) {
  return RS.el("li", {}, RS.el("button", { type: "button", class: best ? "move best" : "move",
    onclick: () => act("/api/move", { move: m.move }) },
    RS.el("span", { class: "move-title", text: m.title || m.move }),
    RS.el("span", { class: "points", text: m.points ? `${m.points > 0 ? "+" : ""}${m.points}` : "" }),
    RS.el("small", { class: "move-text", text: m.move }),
    m.detail ? RS.el("small", { class: "detail", text: m.detail }) : null));
}

// The game's group for a move, else its points: best group first, as the moves are ranked.
function groupOf(m) {
  if (m.group) return m.group;
  return m.points ? `${m.points > 0 ? "+" : ""}${m.points} points` : "No points";
}

function renderMoves(s) {
  const filter = $("move-filter").value.trim().toLowerCase();
  $("move-filter").hidden = s.moves.length <= GROUPED_FROM;
  let items;
  if (s.moves.length <= GROUPED_FROM || filter) {
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
  $("moves-total").textContent = s.moves_total > 1 ? `(${s.moves_total}, best first)` : "";
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
  $("whose").textContent = s.current.text;
  $("told").hidden = !s.told;
  $("told").textContent = s.told || "";
  // A game that asks for a card drawn or flipped says which (state.asking).
  const asking = s.state && s.state.asking;
  $("wanted").textContent = s.roll_wanted ? `Roll: ${s.roll_wanted.dice.join(" ")}` : (asking || "");
  const pending = s.reading && s.reading.pending;
  $("read").hidden = !s.roll_wanted || pending || !s.camera;
  $("typed").hidden = !s.roll_wanted;
  renderBoard(s.state);
  renderTray(s.reading);
  renderMoves(s);
  renderScores(s);
  $("state").replaceChildren(...renderDetails(s));
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
$("move-filter").addEventListener("input", () => snap && renderMoves(snap));
RS.get("/api/state").then(render);
RS.live(render);
