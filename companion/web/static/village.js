// Village Attacks' table view: what its players track, in words, readable on a phone: the
// Castle Heart, Morale and the event dial, each Monster (health, experience, zone, its reserve
// and defence dice) and the Villagers in each zone.
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
    stat("Health", `${m.health}/${m.max_health}`), stat("Experience", `${m.experience}/${m.level_at}`),
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
