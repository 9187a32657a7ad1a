// The table's network: how phones reach it now, and the known networks it joins instead.
"use strict";

const MODES = { "access point": "The table makes its own Wi-Fi", client: "The table has joined",
  unknown: "The table uses whatever network this machine has" };

function renderNetwork(n) {
  const now = n.mode === "access point" ? `${MODES[n.mode]}: ${n.ssid}.`
    : n.mode === "client" ? `${MODES.client} ${n.ssid}.` : `${MODES.unknown} (${n.why}).`;
  const name = n.mdns && n.mdns.up ? ` Phones on it open http://${n.mdns.name}.` : "";
  document.getElementById("network-now").textContent = now + name;
  document.getElementById("network-addresses").textContent = n.addresses.length
    ? `Addresses: ${n.addresses.join(", ")}` : "No network address yet.";
  const items = n.known.map((ssid) => RS.el("li", {}, RS.el("span", { class: "ssid", text: ssid }), " ",
    RS.canAct ? RS.el("button", { type: "button", class: "forget", text: "Forget",
      onclick: () => RS.api("/api/network/forget", { ssid }).then(renderNetwork).catch(() => {}) }) : null));
  document.getElementById("known").replaceChildren(...(items.length ? items
    : [RS.el("li", { class: "hint", text: "None: the table always makes its own Wi-Fi." })]));
  document.getElementById("join-form").hidden = !RS.canAct;
}

document.getElementById("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const ssid = document.getElementById("join-ssid").value;
  try {
    renderNetwork(await RS.api("/api/network/known",
      { ssid, password: document.getElementById("join-password").value }));
    event.target.reset();
    RS.toast(`Saved: the table joins ${ssid} when it is in range`, false);
  } catch (e) { /* the toast says why */ }
});

RS.get("/api/network").then(renderNetwork);
