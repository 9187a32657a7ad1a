// The Dice page: pick or make a symbol die, teach it shot by shot from the tray, files and names;
// what the table learnt of all its dice (the shots taught here and the rolls confirmed), exported,
// imported or forgotten together.
"use strict";

let dice = [];
let maxShots = 5;
let shot = null; // the shot read and waiting for its face

function current() { return dice.find((d) => d.name === $("die").value); }

function showDie(die) {
  dice = dice.map((d) => (d.name === die.name ? die : d));
  $("note").textContent = die.note || "";
  $("teach-name").textContent = die.title;
  $("faces").replaceChildren(...die.faces.map((f) => RS.el("li", { "data-face": f.name },
    RS.el("strong", { text: f.name }),
    ` ×${f.count}${f.value === null ? "" : `, counts ${f.value}`}: `,
    RS.el("span", { class: "shots", text: `${f.shots} of ${maxShots} shots` +
      (f.shots >= maxShots ? " ✓" : `, ${maxShots - f.shots} to go`) }))));
  $("export").href = `/api/dice/${encodeURIComponent(die.name)}/export`;
  $("def-name").value = die.name;
  $("def-title").value = die.title;
  $("def-faces").value = die.faces.map((f) => [f.name, f.count, f.value ?? ""].join(", ")).join("\n");
}

function load(selected) {
  return RS.get("/api/dice").then((answer) => {
    dice = answer.dice;
    maxShots = answer.max_shots;
    $("read").disabled = !answer.camera;
    if (!answer.camera) $("teach-hint").textContent = "This table has no camera to teach with: start it with a camera (rollscribe serve --camera).";
    $("die").replaceChildren(...dice.map((d) => RS.el("option", { value: d.name,
      text: `${d.title} (${d.name})${d.taught ? " ✓ taught" : ""}` })));
    $("die").value = selected && dice.some((d) => d.name === selected) ? selected : dice[0].name;
    showDie(current());
  }).catch((e) => RS.toast(e.message));
}

// The faces as buttons: those still needing shots first, the face it looks like marked.
function faceButtons(die, guess) {
  const byName = Object.fromEntries(die.faces.map((f) => [f.name, f]));
  return die.order.filter((name) => byName[name].shots < maxShots).map((name) => RS.el("button", {
    type: "button", class: name === guess ? "primary" : "", "data-face": name,
    text: `${name} (${byName[name].shots}/${maxShots})`, onclick: () => keep(name) }));
}

function readTray() {
  const die = current();
  $("read").disabled = true;
  $("verdict").textContent = "Reading the tray…";
  RS.api(`/api/dice/${encodeURIComponent(die.name)}/shot`).then((answer) => {
    shot = answer;
    showDie(answer.die);
    $("shot").hidden = false;
    $("crop").src = answer.crop;
    if (answer.problem) {
      $("verdict").textContent = `Not kept: ${answer.problem}.`;
      $("face-buttons").replaceChildren();
    } else {
      $("verdict").textContent = answer.guess ? `Which face is up? It looks like ${answer.guess}.`
        : "Which face is up?";
      $("face-buttons").replaceChildren(...faceButtons(answer.die, answer.guess));
    }
  }).catch(() => { $("verdict").textContent = ""; }).finally(() => { $("read").disabled = false; });
}

function keep(face) {
  const die = current();
  RS.api(`/api/dice/${encodeURIComponent(die.name)}/shot/${shot.token}`, { face }).then((answer) => {
    showDie(answer.die);
    $("face-buttons").replaceChildren();
    $("verdict").textContent = answer.kept ? `Kept as ${face}. Roll again and read the tray.`
      : `Not kept: ${answer.problem}.`;
    if (answer.kept) loadLearnt();
  }).catch(() => {});
}

function parseFaces(text) {
  return text.split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const [name, count, value] = line.split(",").map((part) => part.trim());
    const face = { name, count: count ? Number(count) : 1 };
    if (value) face.value = Number(value);
    return face;
  });
}

$("die").addEventListener("change", () => { $("shot").hidden = true; showDie(current()); });
$("read").addEventListener("click", readTray);
$("define").addEventListener("submit", (event) => {
  event.preventDefault();
  const definition = { name: $("def-name").value.trim(), title: $("def-title").value.trim(),
    faces: parseFaces($("def-faces").value) };
  RS.api("/api/dice", definition).then((die) => load(die.name)).catch(() => {});
});
$("rename-form").addEventListener("submit", (event) => {
  event.preventDefault();
  RS.api(`/api/dice/${encodeURIComponent(current().name)}/rename`, { to: $("rename-to").value.trim() })
    .then((die) => load(die.name)).catch(() => {});
});
$("delete").addEventListener("click", () => {
  if (!window.confirm(`Delete ${current().title} and its shots?`)) return;
  RS.api(`/api/dice/${encodeURIComponent(current().name)}/delete`).then(() => load()).catch(() => {});
});
// The file chosen in `input` posted to `path`; the answer, or null (said in a toast) if refused.
async function postFile(input, path) {
  const file = input.files[0];
  if (!file) return null;
  const response = await fetch(path, { method: "POST", body: await file.text(),
    headers: { "Content-Type": "application/json", Accept: "application/json" } });
  const answer = await response.json();
  if (response.ok) return answer;
  RS.toast(answer.error || `error ${response.status}`);
  return null;
}

$("import-file").addEventListener("change", async () => {
  const answer = await postFile($("import-file"), "/api/dice/import");
  if (!answer) return;
  RS.toast(`Imported ${answer.title}`, false);
  load(answer.name);
});
function count(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function showLearnt(answer) {
  $("learnt").textContent = answer.line;
  $("learnt-kinds").replaceChildren(...answer.kinds.map((k) => RS.el("li", { "data-kind": k.kind },
    RS.el("strong", { text: k.kind }),
    `: ${count(k.dice, "die", "dice")} of ${count(k.values, "value", "values")} remembered`
      + (k.taught ? `, ${k.taught} taught` : "")
      + (k.corrected ? `, ${k.corrected} corrected` : "")
      + (k.well ? " ✓" : ""))));
}

function loadLearnt() {
  return RS.get("/api/memory").then(showLearnt).catch((e) => { $("learnt").textContent = e.message; });
}

$("forget").addEventListener("click", () => {
  if (!window.confirm("Forget every die this table learnt from its rolls? The shots taught here stay; rolls already played will not teach it again.")) return;
  RS.api("/api/memory/forget").then((answer) => {
    RS.toast(`Forgot ${answer.forgotten} dice`, false);
    loadLearnt();
    load($("die").value);
  }).catch(() => {});
});
$("memory-import").addEventListener("change", async () => {
  const answer = await postFile($("memory-import"), "/api/memory/import");
  if (!answer) return;
  RS.toast(`Imported ${answer.imported} dice`, false);
  showLearnt(answer);
  load($("die").value);
});
load();
loadLearnt();
