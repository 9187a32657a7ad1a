// The tray on the table page: the reading's picture with each die boxed and numbered, the dice
// as chips under it, and the dialog that puts a reading right (a die's value or kind, a box of
// no die dropped, a die the camera missed added). The numbers sit inside the picture, placed so
// that none covers another or leaves it: the full labels are the chips, which wrap on a phone.
"use strict";

const Tray = {
  reading: null, // the reading shown
  wanted: [], // the kinds of the roll wanted, the first guess for a die added
  act: null, // table.js's action: POST, then show what the table is now

  // A chip's words: the die as read, and a mark (how sure the camera is stays behind "why?").
  label(d) {
    if (d.dropped) return "no die";
    const mark = d.corrected ? " ✎" : this.reading.confirmed ? " ✓" : d.wants ? ` (${d.wants}?)`
      : d.unsure ? " ?" : "";
    return `${d.die} ${d.value}${mark}`;
  },

  state(d) {
    return d.dropped ? " dropped" : d.corrected ? " corrected"
      : this.reading.confirmed ? " confirmed" : d.wants ? " unsure wrong-kind" : d.unsure ? " unsure" : "";
  },

  // A die's close-up, cut by the reader from the full-size frame (none for a die typed or added).
  closeUp(d, i, cls) {
    return d.crop ? RS.el("img", { src: d.crop, alt: `close-up of die ${i + 1}`, class: cls }) : null;
  },

  render(reading, wanted, act) {
    // The same reading sent again (the page's first fetch and the live stream both send it, and
    // any other change at the table sends it anew) keeps its chips: drawn again, the chip or
    // close-up a player is tapping would be swapped under the finger.
    const shown = JSON.stringify([reading, wanted]);
    this.act = act;
    if (shown === this.shown) return;
    this.shown = shown;
    Object.assign(this, { reading, wanted });
    const tray = $("tray");
    $("problem").hidden = true;
    $("pending-actions").hidden = true;
    if (!reading) {
      $("tap-hint").hidden = true;
      tray.replaceChildren(RS.el("p", { class: "hint", text: "No dice read yet." }));
      $("reading-source").textContent = "";
      return;
    }
    $("reading-source").textContent = reading.pending ? "waiting for you"
      : reading.confirmed ? "(confirmed)" : `(${reading.source})`;
    const chips = reading.dice.map((d, i) => RS.el("button", {
      type: "button", class: "die-chip" + this.state(d), "data-index": i,
      "aria-label": `die ${i + 1}: ${d.dropped ? "dropped" : `${d.die} showing ${d.value}`}`,
      onclick: () => this.openDie(i) }, this.closeUp(d, i, "crop"),
      RS.el("span", { class: "chip-text" }, RS.el("span", { text: `${i + 1}: ${this.label(d)}` }),
        d.say && !d.wants ? RS.el("small", { class: "chip-say", text: d.say }) : null)));
    if (reading.image && reading.width) {
      const boxed = reading.dice.map((d, i) => [d, i]).filter(([d]) => !d.added);
      const boxes = boxed.map(([d, i]) => {
        const [x0, y0, x1, y1] = d.box;
        return RS.el("button", {
          type: "button", class: "die" + this.state(d), "data-index": i,
          "aria-label": `box ${i + 1}`, onclick: () => this.openDie(i),
          style: `left:${(100 * x0) / reading.width}%;top:${(100 * y0) / reading.height}%;`
            + `width:${(100 * (x1 - x0)) / reading.width}%;height:${(100 * (y1 - y0)) / reading.height}%` });
      });
      const badges = boxed.map(([d, i]) => RS.el("span", {
        class: "die-number" + this.state(d), "data-index": i, "aria-hidden": "true", text: String(i + 1) }));
      const img = RS.el("img", { src: reading.image, alt: "the tray", width: reading.width, height: reading.height,
        onclick: () => RS.zoom(reading.image, "the tray", true) });
      const picture = RS.el("div", { class: "tray-image" }, img, ...boxes, ...badges);
      // At most 45% of the screen's height, so the moves stay in view on a phone.
      picture.style.maxWidth = `calc(45vh * ${reading.width / Math.max(1, reading.height)})`;
      tray.replaceChildren(picture, RS.el("div", { class: "chips" }, ...chips));
      this.placeNumbers();
    } else {
      tray.replaceChildren(RS.el("div", { class: "chips" }, ...chips));
    }
    $("zoom-tray").hidden = !reading.image;
    $("zoom-tray").onclick = () => RS.zoom(reading.image, "the tray", true);
    $("tap-hint").hidden = !reading.correctable;
    if (reading.pending) {
      $("pending-actions").hidden = false;
      this.renderProblem(reading);
    }
  },

  // Why the reading waits, in a player's words; a die of the wrong kind fixed in one tap; what
  // the reader itself said behind "why?".
  renderProblem(reading) {
    $("problem").hidden = !reading.problem;
    const fixes = reading.dice.map((d, i) => [d, i]).filter(([d]) => d.wants).map(([d, i]) =>
      RS.el("button", { type: "button", class: "fix acting", onclick: () => this.fixKind(i),
        text: `Die ${i + 1} is a ${d.wants}` }));
    const said = [reading.details, ...reading.dice.map((d, i) => d.why && `die ${i + 1}: ${d.why}`)];
    $("problem").replaceChildren(RS.el("span", { text: reading.problem }),
      fixes.length ? RS.el("span", { class: "fixes" }, ...fixes) : null, this.whyToggle(said.filter(Boolean)));
  },

  // A "why?" button that shows the reader's own words (its confidences, its models) under it.
  whyToggle(lines) {
    if (!lines.length) return null;
    const box = RS.el("span", { class: "why-details", hidden: "" },
      ...lines.map((line) => RS.el("span", { text: line })));
    const toggle = RS.el("button", { type: "button", class: "why", "aria-expanded": "false", text: "why?",
      onclick: () => { box.hidden = !box.hidden; toggle.setAttribute("aria-expanded", String(!box.hidden)); } });
    return RS.el("span", { class: "why-wrap" }, toggle, box);
  },

  // A die of a kind the roll does not want: made the kind it wants, keeping its face if that
  // kind has it, else the dialog opens on that kind's faces.
  fixKind(index) {
    const d = this.reading.dice[index];
    if (!RS.canAct) { RS.toast("Enter the table PIN to correct dice."); return; }
    if ((this.faces(d.wants) || []).map(String).includes(String(d.value))) {
      this.act("/api/correct", { index, value: d.value, kind: d.wants });
    } else {
      this.open(index, d.wants);
    }
  },

  // Each die's number goes at the first spot about its box (above it, below, beside, then over
  // its corners: a number on the die would hide its face) that covers no number already placed,
  // kept within the picture; with none free, the spot that covers least.
  placeNumbers() {
    const picture = document.querySelector("#tray .tray-image");
    if (!picture || !this.reading) return;
    const W = picture.clientWidth;
    const H = (W * this.reading.height) / Math.max(1, this.reading.width);
    const sx = W / this.reading.width, sy = H / this.reading.height;
    const placed = [];
    const overlap = (a, b) => Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x))
      * Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));
    for (const badge of picture.querySelectorAll(".die-number")) {
      const [x0, y0, x1, y1] = this.reading.dice[Number(badge.dataset.index)].box.map((v, k) => v * (k % 2 ? sy : sx));
      const w = badge.offsetWidth, h = badge.offsetHeight;
      const spots = [[x0, y0 - h], [x0, y1], [x0 - w, y0], [x1, y0], [x1 - w, y0 - h], [x1 - w, y1],
        [x0 + 2, y0 + 2], [x1 - w - 2, y1 - h - 2]].map(([x, y]) => ({
        x: Math.min(Math.max(0, x), W - w), y: Math.min(Math.max(0, y), H - h), w, h }));
      const cost = (s) => placed.reduce((sum, p) => sum + overlap(s, p), 0);
      const best = spots.reduce((a, b) => (cost(b) < cost(a) ? b : a));
      placed.push(best);
      badge.style.left = `${best.x}px`;
      badge.style.top = `${best.y}px`;
    }
  },

  faces(kind) {
    return (this.reading.kinds || {})[kind] || null;
  },

  // The dialog: `index` a die of the reading, or null to add one the camera missed; `kind` the
  // kind it opens on (the die's own by default).
  open(index, kind = null) {
    const adding = index === null;
    const die = adding ? null : this.reading.dice[index];
    const kinds = Object.keys(this.reading.kinds || {});
    const select = $("die-kind");
    const start = kind || (adding ? this.wanted[0] || kinds[0] : die.die);
    const closeUp = adding ? null : this.closeUp(die, index, "close-up");
    if (closeUp) closeUp.onclick = () => RS.zoom(die.crop, closeUp.alt);
    $("die-look").replaceChildren(...[closeUp, die && die.say ? RS.el("p", { class: "die-say", text: die.say }) : null,
      die && die.why ? this.whyToggle([die.why]) : null].filter(Boolean));
    select.replaceChildren(...(kinds.includes(start) ? kinds : [start, ...kinds]).map((k) =>
      RS.el("option", { value: k, text: k, selected: k === start ? "" : null })));
    $("die-title").textContent = adding ? "Add a die the camera missed"
      : die.dropped ? `Box ${index + 1}: dropped (no die)` : `Die ${index + 1}: ${die.die} read as ${die.value}`;
    const drop = $("drop-die");
    drop.hidden = adding || !this.reading.pending || die.added;
    if (!drop.hidden) {
      drop.textContent = die.dropped ? "It is a die: take it back" : "No die here: drop this box";
      drop.onclick = () => { $("die-dialog").close(); this.act("/api/drop", { index, dropped: !die.dropped }); };
    }
    const pick = (value) => {
      $("die-dialog").close();
      const kind = select.value;
      if (adding) this.act("/api/add", { die: kind, value });
      else this.act("/api/correct", kind === die.die ? { index, value } : { index, value, kind });
    };
    const showFaces = () => {
      const faces = this.faces(select.value);
      $("free-face").hidden = !!faces;
      $("face-ok").hidden = !!faces;
      $("faces").replaceChildren(...(faces || []).map((f) => RS.el("button", {
        type: "button", class: die && f === die.value && select.value === die.die ? "face current" : "face",
        text: String(f), onclick: () => pick(f) })));
      if (!faces) {
        $("face-input").value = die ? die.value : "";
        $("face-ok").onclick = (e) => { e.preventDefault(); pick($("face-input").value); };
      }
    };
    select.onchange = showFaces;
    showFaces();
    $("die-dialog").showModal();
  },

  openDie(index) {
    if (!this.reading || !this.reading.correctable) {
      RS.toast("This roll can no longer be corrected: undo the moves played on it first.");
      return;
    }
    if (!RS.canAct) { RS.toast("Enter the table PIN to correct dice."); return; }
    this.open(index);
  },
};

document.getElementById("add-die").addEventListener("click", () => {
  if (!RS.canAct) { RS.toast("Enter the table PIN to add a die."); return; }
  Tray.open(null);
});
window.addEventListener("resize", () => Tray.placeNumbers());
