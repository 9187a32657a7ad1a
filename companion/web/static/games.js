// Past games and per-player statistics across games.
"use strict";

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

// A game left unfinished can be taken up again where it was left (the one in play is kept).
function resumeButton(game) {
  return RS.el("button", { type: "button", class: "resume acting", "data-game": game.id, text: "Resume",
    onclick: () => RS.api(`/api/games/${game.id}/resume`).then(() => { window.location.href = "/"; })
      .catch(() => { /* the toast says why */ }) });
}

Promise.all([RS.get("/api/games"), RS.get("/api/state")]).then(([{ games }, now]) => {
  RS.shown = now.version;
  const playing = now.game && !now.game.over ? now.game.id : null;
  const items = games.map((g) => {
    const state = g.outcome ? RS.outcomeText(g)
      : g.id === playing ? "in play now" : g.abandoned ? "left unfinished" : "in play";
    return RS.el("li", {}, RS.el("a", { href: `/games/${g.id}` },
      RS.el("strong", { text: `#${g.id} ${g.title}` }), ` ${g.players.join(", ")} — ${state}`),
      RS.el("small", { text: ` ${when(g.started)} · ${g.events} events · scores ${g.scores.join(" / ")}` }),
      !g.outcome && g.id !== playing ? resumeButton(g) : null);
  });
  document.getElementById("games").replaceChildren(...(items.length ? items : [RS.el("li", { text: "No games yet." })]));
}).catch(RS.failed("games"));

// One row a player, one "Luck" cell listing the dice kinds (d4 before d20), so the table fits a
// phone however many kinds were rolled: a column a kind scrolled sideways.
const kindOrder = (a, b) => a.localeCompare(b, undefined, { numeric: true });
RS.get("/api/stats").then(({ players }) => {
  const head = RS.el("tr", {}, ...["Player", "Games", "Wins", "Mean", "Luck"].map((t) => RS.el("th", { text: t })));
  const luck = (dice) => Object.keys(dice).sort(kindOrder).map((k) => RS.el("span", { class: "luck",
    text: `${k} ${RS.signed(dice[k].luck)} (${dice[k].rolls})` }));
  const rows = players.map((p) => RS.el("tr", {},
    RS.el("td", { class: "who", text: p.player }), RS.el("td", { text: String(p.games) }),
    RS.el("td", { text: String(p.wins) }),
    RS.el("td", { text: p.mean_score === null ? "–" : String(p.mean_score) }),
    RS.el("td", { class: "lucks" }, ...(Object.keys(p.dice).length ? luck(p.dice) : ["–"]))));
  document.getElementById("stats").replaceChildren(head, ...rows);
}).catch((error) => document.getElementById("stats").replaceChildren(
  RS.el("tr", {}, RS.el("td", { class: "fault", text: `Cannot show this now: ${error.message}` }))));
