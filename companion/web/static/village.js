// Village Attacks' table view: what its players track, in words, readable on a phone: the
// Castle Heart, Morale and the event dial, each Monster (health, level, experience, zone, its
// reserve and defence dice) and the Villagers in each zone; a spawn card entered as its counts.
"use strict";

window.RS_VIEWS = window.RS_VIEWS || {};
window.RS_VIEWS["village-attacks"] = (state) => {
  const stat = RS.stat;
  const dial = state.next_event_at === null ? `${state.event_dial}` : `${state.event_dial} / ${state.next_event_at}`;
  const out = [RS.el("div", { class: "stats-row", "aria-label": "the castle" },
    stat("Castle Heart", state.castle_heart), stat("Morale", state.morale), stat("Event dial", dial),
    state.time ? stat("Time", state.time) : null)];
  if (state.event) out.push(RS.el("p", { class: "hint", text: `Event: ${state.event}` }));
  const dice = (name, list, slots) => `${name} ${list.length ? list.join(", ") : "none"} (${slots} slots)`;
  out.push(RS.el("ul", { class: "monsters" }, ...state.players.map((m) => RS.el("li", {
    class: m.active ? "monster active" : "monster", "data-seat": m.seat },
  RS.el("b", { text: `${m.name}: ${m.monster}` }),
  RS.el("span", { text: m.slain ? " slain" : ` in ${m.zone}` }),
  RS.el("div", { class: "monster-stats" },
    stat("Health", `${m.health}/${m.max_health}`), stat("Level", m.level),
    stat("Experience", `${m.experience}/${m.level_at}`),
    stat("Kills", m.kills)),
  RS.el("small", { class: "monster-dice", text: `${dice("Reserve", m.reserve, m.reserve_slots)} · `
    + dice("Defence", m.defence, m.defence_slots) }),
  Object.keys(m.status).length ? RS.el("small", { class: "monster-dice",
    text: ` · ${Object.entries(m.status).map(([k, n]) => `${k} ${n}`).join(", ")}` }) : null))));
  out.push(RS.el("table", { class: "zones" }, RS.el("tr", {}, RS.el("th", { text: "Zone" }),
    RS.el("th", { text: "Villagers" })), ...state.zones.map((z) => RS.el("tr", { "data-zone": z.id },
    RS.el("td", { text: z.name + (z.trap ? ` (trap: ${z.trap})` : "") }),
    RS.el("td", { text: Object.entries(z.villagers).map(([k, n]) => `${n} ${k}`).join(", ") || "—" })))));
  return out;
};

// A spawn card as the card says it: how many Peasants and Hunters (steppers), or a Town Hero;
// one move sent ("spawn 2 1", "spawn hero") instead of a button for every count.
window.RS_MOVE_FORMS = window.RS_MOVE_FORMS || {};
window.RS_MOVE_FORMS["village-attacks"] = (s, play) => {
  if (!s.moves.length || !s.moves.every((m) => m.move.startsWith("spawn "))) return null;
  const counts = s.moves.map((m) => m.move.split(" ").slice(1).map(Number)).filter(([p]) => !Number.isNaN(p));
  const chosen = [0, 0];
  const names = ["Peasants", "Hunters"];
  const shown = names.map(() => RS.el("output", { class: "count", text: "0" }));
  const enter = RS.el("button", { type: "button", class: "primary", id: "spawn-enter",
    onclick: () => play(`spawn ${chosen[0]} ${chosen[1]}`) });
  const update = () => {
    chosen.forEach((n, i) => { shown[i].textContent = String(n); });
    const said = chosen.map((n, i) => `${n} ${n === 1 ? names[i].slice(0, -1) : names[i]}`).join(", ");
    enter.textContent = chosen[0] + chosen[1] ? `Enter: ${said}` : "Enter: nobody spawns";
    enter.dataset.move = `spawn ${chosen[0]} ${chosen[1]}`;
  };
  const step = (i, by) => () => {
    const most = Math.max(...counts.map((c) => c[i]));
    chosen[i] = Math.min(most, Math.max(0, chosen[i] + by));
    update();
  };
  const steppers = names.map((name, i) => RS.el("div", { class: "stepper", "data-kind": name },
    RS.el("span", { class: "stepper-name", text: name }),
    RS.el("button", { type: "button", "aria-label": `one ${name.slice(0, -1)} fewer`, onclick: step(i, -1), text: "−" }),
    shown[i],
    RS.el("button", { type: "button", "aria-label": `one ${name.slice(0, -1)} more`, onclick: step(i, 1), text: "+" })));
  update();
  const hero = s.moves.some((m) => m.move === "spawn hero")
    ? RS.el("button", { type: "button", id: "spawn-hero", "data-move": "spawn hero", onclick: () => play("spawn hero"), text: "A Town Hero" }) : null;
  return RS.el("div", { class: "spawn-form" }, RS.el("p", { class: "hint", text: s.moves[0].title.split(":")[0] }),
    ...steppers, RS.el("div", { class: "actions" }, enter, hero));
};
