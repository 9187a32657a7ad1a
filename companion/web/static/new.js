// Start a game: the game, its players, and the options and variants it declares.
"use strict";

let catalog = [];

function playerRow(name = "") {
  const row = RS.el("div", { class: "player-row" },
    RS.el("input", { name: "player", value: name, placeholder: "name", "aria-label": "player name", maxlength: 40 }),
    RS.el("button", { type: "button", class: "remove", "aria-label": "remove player", text: "✕",
      onclick: () => row.remove() }));
  return row;
}

function optionInput(opt) {
  const id = `opt-${opt.name}`;
  const type = String(opt.type || "").toLowerCase();
  let input;
  if (opt.choices) {
    input = RS.el("select", { id, "data-option": opt.name, "data-type": type },
      ...opt.choices.map((c) => RS.el("option", { value: c, text: String(c), selected: c === opt.default ? "" : null })));
  } else if (type.startsWith("bool")) {
    input = RS.el("input", { id, type: "checkbox", "data-option": opt.name, "data-type": "bool", checked: opt.default ? "" : null });
  } else if (["int", "integer", "number", "float"].includes(type)) {
    input = RS.el("input", { id, type: "number", "data-option": opt.name, "data-type": type, value: opt.default ?? "",
      min: opt.min ?? null, max: opt.max ?? null, step: type === "float" ? "any" : "1" });
  } else {
    input = RS.el("input", { id, "data-option": opt.name, "data-type": "str", value: opt.default ?? "" });
  }
  return RS.el("label", { class: type.startsWith("bool") ? "check" : "" },
    RS.el("span", { text: opt.label || opt.name.replaceAll("_", " ") }), input,
    opt.help ? RS.el("small", { text: opt.help }) : null);
}

function showGame() {
  const game = catalog.find((g) => g.name === $("game").value);
  if (!game) return;
  $("seats").textContent = `(${game.min_players}–${game.max_players})`;
  // The option a table fills with what its players entered (cards) is set on the Cards page.
  const options = game.options.filter((o) => o.name !== game.table_data);
  $("options").replaceChildren(...options.map(optionInput));
  $("options-box").hidden = !options.length;
  $("readings").replaceChildren(...game.readings.map((text) => RS.el("li", { text })));
  $("readings-box").hidden = !game.readings.length;
}

function optionValue(input) {
  const type = input.dataset.type;
  if (type === "bool") return input.checked;
  if (type === "int" || type === "integer") return input.value === "" ? null : Number.parseInt(input.value, 10);
  if (type === "number" || type === "float") return input.value === "" ? null : Number(input.value);
  // Games may name options alike ("ties"): look the choice up in the game being set up.
  const game = catalog.find((g) => g.name === $("game").value);
  const choice = input.tagName === "SELECT" && game
    ? game.options.find((o) => o.name === input.dataset.option) : null;
  if (choice) return choice.choices.find((c) => String(c) === input.value);
  return input.value;
}

// Starting a game abandons the running one: the start carries the table version seen here, and
// a game in play is named first, with where to resume it.
let inPlay = null;
const seen = () => RS.get("/api/state").then((s) => {
  RS.shown = s.version;
  inPlay = s.game && !s.game.over ? s : null;
});

function askFirst() {
  if (!inPlay) return Promise.resolve(true);
  const g = inPlay.game;
  $("confirm-text").textContent = `${g.title} (game ${g.id}) with ${g.players.join(", ")} is in play: `
    + `${inPlay.current.text}. Start a new game instead?`;
  const dialog = $("confirm-new");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "start"), { once: true });
    dialog.showModal();
  });
}
seen();
RS.get("/api/catalog").then((data) => {
  catalog = data.games;
  $("game").replaceChildren(...catalog.map((g) => RS.el("option", { value: g.name, text: g.title })));
  showGame();
});
$("game").addEventListener("change", showGame);
$("add-player").addEventListener("click", () => $("players").append(playerRow()));
$("players").append(playerRow("Ann"), playerRow("Bob"));
$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const players = [...document.querySelectorAll("input[name=player]")].map((i) => i.value.trim());
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const value = optionValue(input);
    if (value !== null) options[input.dataset.option] = value;
  }
  if (!(await askFirst())) return;
  try {
    await RS.api("/api/games", { game: $("game").value, players, options });
    window.location.href = "/";
  } catch (e) { seen(); /* the toast says why; a second tap starts one game, not two */ }
});
