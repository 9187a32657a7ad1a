// The QR code's target, /join#pin=NNNN: the PIN is in the fragment, which the browser never
// sends to the server (so no log holds it); hand it to /api/pin, then go to the table.
"use strict";

const pin = new URLSearchParams(window.location.hash.slice(1)).get("pin");
history.replaceState(null, "", "/join"); // the PIN leaves the address bar and the history
const status = document.getElementById("join-status");
if (!pin) {
  status.textContent = "This link carries no PIN: type the PIN shown on the table's screen.";
  document.getElementById("pin-form").hidden = false;
} else {
  RS.api("/api/pin", { pin })
    .then(() => window.location.replace("/"))
    .catch((e) => { status.textContent = `${e.message || "That PIN was refused"}: scan the code again.`; });
}
