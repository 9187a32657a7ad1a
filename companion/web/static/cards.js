// The table's cards for a game: shown by kind, one card added or removed, or a whole file imported.
"use strict";

const $ = (id) => document.getElementById(id);
// The fields a card of each kind has (cards.py reads them; empty ones take the defaults).
const FIELDS = {
  heroes: ["name", "copies", "type", "strength", "cost", "shield", "steam", "effects", "text"],
  actions: ["name", "copies", "effects", "text"],
  monsters: ["name", "copies", "level", "boss", "strength", "xp", "counterattack", "ambush", "treasure", "text"],
  towns: ["name", "copies", "xp", "text"],
  treasures: ["name", "copies", "level1", "level2", "text"],
};
const HINTS = {
  cost: "X any die, 5 a five, ** a pair, **** four of a kind, steam 4; alternatives with |",
  effects: "dice+1 rolls+1 shield+2 steam+4 strength+1 cut-x+1 wake banish<=6",
  level1: "effects, as for heroes", level2: "effects, as for heroes",
  type: "artificer, mage or warrior", boss: "true for a Boss Monster",
  treasure: "0, or the treasure level it gives (1 or 2)",
};
let current = null;

function gameName() { return $("game").value; }

function render(answer) {
  current = answer;
  $("source").textContent = answer.entered ? "(entered at this table)" : "(placeholder deck and the book's cards)";
  $("kinds").replaceChildren(...Object.keys(FIELDS).map((kind) => {
    const cards = answer.data[kind] || [];
    const keys = ["id", ...FIELDS[kind].filter((k) => k !== "text"), "source"];
    const rows = cards.map((card) => RS.el("tr", {},
      ...keys.map((k) => RS.el("td", { text: card[k] === undefined ? "" : String(card[k]) })),
      RS.el("td", {}, RS.el("button", { type: "button", class: "acting", text: "✕",
        "aria-label": `remove ${card.id}`, onclick: () => save(without(kind, card.id)) }))));
    return RS.el("details", { open: kind === "heroes" ? "" : null },
      RS.el("summary", { text: `${kind} (${cards.reduce((n, c) => n + (c.copies || 1), 0)})` }),
      RS.el("table", { class: "kv" }, RS.el("tr", {}, ...keys.map((k) => RS.el("th", { text: k }))), ...rows));
  }));
}

function without(kind, id) {
  return { ...current.data, [kind]: current.data[kind].filter((c) => c.id !== id) };
}

function showFields() {
  const kind = $("kind").value;
  $("fields").replaceChildren(...FIELDS[kind].map((name) => RS.el("label", {},
    RS.el("span", { text: name }), RS.el("input", { "data-field": name, autocomplete: "off" }),
    HINTS[name] ? RS.el("small", { text: HINTS[name] }) : null)));
}

function save(data) {
  return RS.api(`/api/table-data/${gameName()}`, { data }, "PUT").then(render).catch(() => {});
}

function load() {
  RS.get(`/api/table-data/${gameName()}`).then(render).catch((e) => RS.toast(e.message));
}

RS.get("/api/catalog").then((catalog) => {
  const games = catalog.games.filter((g) => g.table_data);
  $("game").replaceChildren(...games.map((g) => RS.el("option", { value: g.name, text: g.title })));
  if (games.length) load();
});
$("kind").replaceChildren(...Object.keys(FIELDS).map((k) => RS.el("option", { value: k, text: k })));
showFields();
$("kind").addEventListener("change", showFields);
$("game").addEventListener("change", load);
$("add-card").addEventListener("submit", (event) => {
  event.preventDefault();
  const kind = $("kind").value;
  const card = {};
  for (const input of document.querySelectorAll("[data-field]")) {
    if (input.value.trim()) card[input.dataset.field] = input.value.trim();
  }
  const id = (card.name || "").toLowerCase().replace(/\s+/g, "_").replace(/[^a-z0-9_]/g, "");
  const others = (current.data[kind] || []).filter((c) => c.id !== id);
  save({ ...current.data, [kind]: [...others, card] }).then(() => showFields());
});
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) $("import-text").value = await file.text();
});
$("import-json").addEventListener("click", () => {
  let data;
  try { data = JSON.parse($("import-text").value); } catch (e) { RS.toast(`not JSON: ${e.message}`); return; }
  save(data);
});
$("import-csv").addEventListener("click", () => RS.api(`/api/table-data/${gameName()}`,
  { csv: $("import-text").value }, "PUT").then(render).catch(() => {}));
$("forget").addEventListener("click", () => RS.api(`/api/table-data/${gameName()}`, {}, "DELETE")
  .then(render).catch(() => {}));
