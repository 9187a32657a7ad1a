// Shared by every page: the API helper, the PIN lock, the live stream, small DOM helpers.
"use strict";

const $ = (id) => document.getElementById(id); // every page script's element by id

const RS = {
  canAct: document.body.dataset.canAct === "yes",
  shown: null, // the table version this page shows: every action carries it (a stale one is 409)
  seatColours: ["#e0a526", "#4fa3e0", "#e05a4f", "#6cc56c", "#b07ce0", "#e07cc0"],
  teamColours: { blue: "#4fa3e0", red: "#e05a4f", purple: "#b07ce0" },

  // One colour per seat on every page: the seat's team colour where the game has teams
  // (game.teams, e.g. Board Horde's blue, red, purple), else the seat's own.
  seatColour(game, seat) {
    const team = game && game.teams && game.teams[seat];
    return RS.teamColours[team] || RS.seatColours[seat % RS.seatColours.length];
  },

  // How a finished game ended, in words: a cooperative game the table lost has no winner.
  outcomeText(game) {
    const { winners, reason } = game.outcome;
    return winners.length ? `won by ${winners.map((w) => game.players[w]).join(" & ")}`
      : `ended with no winner: ${reason}`;
  },

  // The dice of a roll said once and short: "4 × d20", "d8, d10, d12, d20", "5 × village, village-day".
  diceCounted(dice) {
    const counts = new Map();
    for (const kind of dice) counts.set(kind, (counts.get(kind) || 0) + 1);
    return [...counts].map(([kind, n]) => (n > 1 ? `${n} × ${kind}` : kind)).join(", ");
  },

  // A game's figure on its table view: its name small above its value ("Health" over "12/16").
  stat(name, value) {
    return RS.el("span", { class: "stat" }, RS.el("small", { text: name }), RS.el("b", { text: String(value) }));
  },

  // A number with its sign: "+3", "-2", "0".
  signed(n) { return `${n > 0 ? "+" : ""}${n}`; },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  },

  toast(message, bad = true) {
    const box = document.getElementById("toast");
    box.textContent = message;
    box.className = bad ? "toast bad" : "toast";
    box.hidden = false;
    clearTimeout(RS._toastTimer);
    RS._toastTimer = setTimeout(() => { box.hidden = true; }, 5000);
  },

  async get(path) {
    const response = await fetch(path, { headers: { Accept: "application/json" } });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  },

  // POST an action with the version shown; the answer is the new table snapshot (or an error
  // message to show: 409 when the table changed since, so two taps never act twice).
  async api(path, body = {}, method = "POST") {
    const sent = RS.shown === null || "version" in body ? body : { ...body, version: RS.shown };
    const response = await fetch(path, {
      method,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(sent),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) {
      if (response.status === 403) RS.setAccess(false);
      RS.toast(data.error || `error ${response.status}`);
      throw new Error(data.error);
    }
    return data;
  },

  // The faults box every page has (base.html fills it; live pages keep it current).
  renderFaults(faults) {
    document.getElementById("faults").replaceChildren(...faults.map((f) => RS.el("div", { class: "fault" },
      RS.el("strong", { text: `${f.kind}: ` }), `${f.message} `, RS.el("em", { text: f.advice }))));
  },

  // A list that could not be loaded says why instead of looking empty.
  failed(listId) {
    return (error) => document.getElementById(listId).replaceChildren(
      RS.el("li", { class: "fault", text: `Cannot show this now: ${error.message}` }));
  },

  // Locked, the PIN prompt is open at once (a newcomer at the plain address types it there);
  // unlocked, it goes.
  setAccess(canAct) {
    RS.canAct = canAct;
    document.body.dataset.canAct = canAct ? "yes" : "no";
    document.getElementById("lock").hidden = canAct;
    document.getElementById("pin-form").hidden = canAct;
  },

  // A picture as big as the screen lets it be (a tray, a die's close-up, a history thumbnail);
  // a tap anywhere closes it. `wide`: drawn twice the screen's width, to pan across.
  zoom(src, alt, wide = false) {
    const dialog = document.getElementById("zoom");
    const img = document.getElementById("zoom-img");
    Object.assign(img, { src, alt });
    img.className = wide ? "wide" : "";
    // a wide picture opens on its middle, where the dice lie
    const centre = () => { const pane = img.parentElement;
      pane.scrollLeft = (pane.scrollWidth - pane.clientWidth) / 2; };
    img.onload = centre;
    dialog.showModal();
    if (img.complete) centre();
  },

  // Follow the table: EventSource reconnects by itself; if it gives up, start a new one.
  live(onState) {
    const dot = document.getElementById("live");
    let source = null;
    const connect = () => {
      source = new EventSource("/events");
      source.addEventListener("state", (event) => onState(JSON.parse(event.data)));
      source.onopen = () => { dot.className = "live on"; dot.title = "live"; };
      source.onerror = () => {
        dot.className = "live off"; dot.title = "reconnecting…";
        if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
      };
    };
    connect();
    window.addEventListener("pagehide", () => source && source.close());
  },
};

document.getElementById("lock").addEventListener("click", () => {
  document.getElementById("pin-form").hidden = false;
  document.getElementById("pin-input").focus();
});
document.getElementById("pin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    await RS.api("/api/pin", { pin: document.getElementById("pin-input").value });
    RS.setAccess(true);
    RS.toast("Unlocked: you can play", false);
  } catch (e) { /* the toast says why */ }
});
document.getElementById("zoom").addEventListener("click", (event) => event.currentTarget.close());
RS.setAccess(RS.canAct);
