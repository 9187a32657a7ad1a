// Fantahzee's table view: the horde stacks (vanguard last), the party with its dice, which
// heroes the roll can activate and with which dice, the attack plans and the damage to take.
"use strict";

window.RS_VIEWS = window.RS_VIEWS || {};
window.RS_VIEWS.fantahzee = (state) => {
  const chip = (text, cls = "chip", title = null) => RS.el("span", { class: cls, text, title });
  const row = (name, ...items) => RS.el("div", { class: "chips-row" }, RS.el("small", { text: `${name}: ` }), ...items);
  const out = [];
  out.push(row("Horde", ...state.stacks.map((st) => chip(`${st.id}${st.vanguard ? " ⚔ vanguard" : ""}: ${st.label}`,
    st.vanguard ? "chip vanguard" : "chip"))));
  const me = state.players[state.turn];
  out.push(row(`${me.name}'s party`, ...me.party.map((h) => chip(
    `${h.name} ${h.strength}${h.active ? " ✓" : `: pay ${h.cost}`}${h.treasure ? ` + ${h.treasure}` : ""}`,
    h.active ? "chip vanguard" : "chip"))));
  if (state.dice) {
    const d = state.dice;
    out.push(row("Dice", ...d.free.map((v) => chip(String(v), "chip die-face")),
      ...d.locked.map((l) => chip(`${l.dice.join(" ")} on ${l.hero}`, "chip gone")),
      chip(`${d.rerolls} rerolls${d.new ? `, ${d.new} new dice` : ""}`),
      chip(`strength ${d.strength}, shield ${d.shield}${d.steam.length ? `, steam ${d.steam.join("+")}` : ""}`)));
  }
  if (state.activations && state.activations.length) {
    out.push(RS.el("ul", { class: "activations" }, ...state.activations.map((a) => RS.el("li", {},
      RS.el("strong", { text: `${a.hero}: ` }), a.ways.map((w) => w.dice).join(" | "),
      RS.el("small", { class: "detail", text: ` best ${a.ways[0].dice}: ${a.ways[0].detail}` })))));
  }
  if (state.attack) {
    const plans = state.attack.plans.slice(0, 5).map((p) => RS.el("li", {},
      `${p.monsters.join(", ") || "no fight"}: ${p.xp} XP, counterattack ${p.counterattack} → ${p.damage} damage`
      + (p.town_card ? ", the vanguard takes a town card" : "")));
    out.push(RS.el("p", { text: `Strength left ${state.attack.strength_left}` + (state.attack.locked_into !== null ? " (locked into a stack)" : "") }),
      RS.el("ol", { class: "plans" }, ...plans));
  }
  if (state.damage) {
    const dmg = state.damage;
    out.push(RS.el("p", { class: "problem", text: `${dmg.source}: ${dmg.total} − shield ${dmg.shield} → ${dmg.left} damage left; cheapest loss: ${dmg.proposed_loss.join(", ")}` }));
  }
  out.push(row("Doom", chip(`${state.doom} / ${state.doom_tokens}`),
    chip(`Last Player: ${state.players[state.last_player].name}`),
    chip(`hero deck ${state.decks.hero}, discard ${state.decks.discard}, town ${state.decks.town}, treasure ${state.decks.treasure}`)));
  out.push(row("Victory piles", ...state.players.map((p) => chip(`${p.name}: ${p.xp} XP, ${p.monsters} monsters`
    + (p.towns.length ? `, lost ${p.towns.join(", ")}` : "") + `, hand ${p.hand_size}`))));
  return out;
};

// A card that comes up, entered in as few taps as can be: the likeliest card is one tap; the
// cards the table entered lately come next; then every card that can still come up, most
// copies first, as small buttons (a filter once there are many), never a card that cannot.
window.RS_MOVE_FORMS = window.RS_MOVE_FORMS || {};
window.RS_MOVE_FORMS.fantahzee = (s, play) => {
  if (!s.moves.length || !s.moves.every((m) => m.move.startsWith("card "))) return null;
  const tap = (m, cls = "card-pick") => RS.el("button", { type: "button", class: cls, "data-move": m.move,
    onclick: () => play(m.move), text: m.count > 1 ? `${m.card} ×${m.count}` : m.card });
  const likely = s.moves[0];
  const lately = s.moves.filter((m) => m.lately !== null && m !== likely).sort((a, b) => a.lately - b.lately);
  const all = RS.el("div", { class: "card-picks", id: "all-cards" }, ...s.moves.map((m) => tap(m)));
  const filter = s.moves.length > 12 ? RS.el("input", { type: "search", class: "move-filter",
    placeholder: "Find the card", "aria-label": "find the card", autocomplete: "off" }) : null;
  if (filter) {
    filter.addEventListener("input", () => {
      const text = filter.value.trim().toLowerCase();
      for (const b of all.children) b.hidden = !b.textContent.toLowerCase().includes(text);
    });
  }
  return RS.el("div", { class: "card-form" },
    RS.el("button", { type: "button", class: "primary likely", id: "likely-card", "data-move": likely.move,
      onclick: () => play(likely.move), text: `It is the ${likely.card}` }),
    lately.length ? RS.el("p", { class: "hint", text: "Entered lately:" }) : null,
    lately.length ? RS.el("div", { class: "card-picks", id: "lately-cards" }, ...lately.map((m) => tap(m))) : null,
    RS.el("p", { class: "hint", text: `Every card that can come up (${s.moves.length}):` }), filter, all);
};
