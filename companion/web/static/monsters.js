// Monsters!' table view: each monster's health, its stunned and wounded dice, bank and tokens,
// and the scenario's grid (Invasion's piles, the Wargame's cards) drawn cell by cell like Board
// Horde's board, each monster a mark in its seat's colour.
"use strict";

window.RS_VIEWS = window.RS_VIEWS || {};

(() => {
  const POOL_NAMES = { stunned: "Stunned", wounded: "Wounded", grappled: "Grappled", bank: "Bank" };
  const mark = (p) => RS.el("span", { class: "mark seat-mark", title: p.name, "aria-label": p.name,
    style: `border-color:${RS.seatColours[p.seat % RS.seatColours.length]}`, text: p.name.slice(0, 2) });

  // The faces its dice in `pool` showed when they went there: "Stunned: deflect, block".
  function diceIn(m, pool) {
    const faces = m.dice.filter((d) => d.pool === pool).map((d) => d.showing || "blank");
    return faces.length ? RS.el("div", { class: "monster-dice", "data-pool": pool,
      text: `${POOL_NAMES[pool]} dice: ${faces.join(", ")}` }) : null;
  }

  function monsterItem(m) {
    const kind = m.kind ? ` (${[m.kind, m.secondary].filter(Boolean).join(" + ")})` : "";
    const spent = m.dice.filter((d) => d.pool === "ready" && d.spent).length;
    const stats = [RS.stat("Health", `${m.health}/${m.max_health}`),
      RS.stat("Ready", `${m.pools.ready}${spent ? ` (${spent} spent)` : ""}`),
      ...["stunned", "wounded", "grappled", "bank"].filter((p) => p !== "grappled" || m.pools[p])
        .map((p) => RS.stat(POOL_NAMES[p], m.pools[p]))];
    if (m.kind) stats.push(RS.stat(`${m.kind} tokens`, m.tokens.primary));
    if (m.secondary) stats.push(RS.stat(`${m.secondary} tokens`, m.tokens.secondary));
    if ("tally" in m) stats.push(RS.stat("Tally", m.tally));
    if ("feasted" in m) stats.push(RS.stat("Feasted", m.feasted.length));
    const where = "square" in m ? m.square : m.section;
    return RS.el("li", { class: m.active ? "monster active" : "monster", "data-seat": m.seat },
      mark(m), " ", RS.el("b", { text: `${m.name}${kind}` }),
      RS.el("span", { text: m.out ? " left the game" : where ? ` on ${where}` : "" }),
      RS.el("div", { class: "monster-stats" }, ...stats),
      diceIn(m, "stunned"), diceIn(m, "wounded"));
  }

  // The grid, row by row: each cell's number, its card (or how many lie face down) and who
  // stands there.
  function board(b, players) {
    const cells = b.cells.map((c) => {
      const here = c.seats.map((seat) => mark(players[seat]));
      const down = c.down === 1 ? "face down" : c.down ? `${c.down} face down` : "";
      const card = c.gone ? "token" : [down, c.card].filter(Boolean).join(" · ");
      return RS.el("div", { class: c.gone ? "cell empty" : "cell", "data-cell": c.n },
        RS.el("small", { class: "n", text: String(c.n) }), RS.el("span", { class: "card-face", text: card }),
        RS.el("div", {}, ...here));
    });
    return RS.el("div", { class: "grid-board", "aria-label": `the ${b.name} grid`,
      style: `grid-template-columns: repeat(${b.columns}, 1fr)` }, ...cells);
  }

  window.RS_VIEWS.monsters = (state) => {
    const out = [];
    if (state.board) {
      out.push(RS.el("h3", { class: "board-name", text: state.board.name }), board(state.board, state.players),
        RS.el("div", { class: "legend" }, ...state.players.flatMap((p) => [mark(p), ` ${p.name} `])));
    }
    out.push(RS.el("ul", { class: "monsters" }, ...state.players.map(monsterItem)));
    for (const g of state.grapples) {
      out.push(RS.el("p", { class: "hint", text: `${g.holder}'s tentacle holds a die of ${g.held}'s` }));
    }
    return out;
  };
})();
