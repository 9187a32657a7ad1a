// The table's own screen: beside the PIN and QR code, whose turn it is and the scores, live.
"use strict";

function renderPanel(s) {
  RS.renderFaults(s.faults);
  document.getElementById("panel-game").textContent = s.game ? s.game.title : "No game yet";
  document.getElementById("panel-whose").textContent = s.game ? s.current.text : "";
  const rows = s.game ? s.game.players.map((name, seat) => RS.el("tr",
    { class: seat === s.current.seat && !s.game.over ? "current" : "" },
    RS.el("td", {}, RS.el("span", { class: "swatch", style: `background:${RS.seatColour(s.game, seat)}` }), name),
    RS.el("td", { class: "score", text: String(s.scores[seat] ?? "") }))) : [];
  document.getElementById("panel-scores").replaceChildren(...rows);
}

RS.get("/api/state").then(renderPanel);
RS.live(renderPanel);
