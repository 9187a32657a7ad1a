// A game's table data (Fantahzee's cards, Village Attacks' dashboards, cards, scenarios and dice
// faces): shown by kind, one record added, changed or removed through a form, or a whole file
// imported. What each kind's records hold comes from the game's rules package (the catalog's
// `table_data_form`), so this page names no game's fields.
"use strict";

const forms = {}; // game name -> its table_data_form
let current = null; // the table-data answer shown
let editing = null; // the id of the record the form changes; null: a new one

function gameName() { return $("game").value; }
function form() { return forms[gameName()]; }
function kindForm() { return form().kinds.find((k) => k.name === $("kind").value); }

// The server's id of a record named `name` (the rules package makes it the same way).
function slug(name) {
  return name.trim().toLowerCase().replace(/ /g, "_").replace(/[^a-z0-9_]/g, "");
}

// A kind's records as a list; a map kind (the dice: name -> faces) becomes one record an entry.
function records(kind) {
  const stored = current.data[kind.name];
  if (kind.shape !== "map") return stored || [];
  const [key, value] = kind.fields;
  return Object.entries(stored || {}).map(([k, v]) => ({ id: k, [key.name]: k, [value.name]: v }));
}

// The whole data with a kind's records replaced, in the shape the game stores.
function withRecords(kind, list) {
  if (kind.shape !== "map") return { ...current.data, [kind.name]: list };
  const [key, value] = kind.fields;
  return { ...current.data, [kind.name]: Object.fromEntries(list.map((r) => [r[key.name], r[value.name]])) };
}

// A value in a table cell: nested records by their names, lists as words.
function cellText(value) {
  if (value === undefined || value === null) return "";
  if (Array.isArray(value)) {
    const nested = value.some((v) => v && typeof v === "object");
    return value.map((v) => (v && typeof v === "object" ? v.name || v.id : String(v))).join(nested ? ", " : " ");
  }
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

// A value as the form's field shows it: JSON for nested values, lists as words.
function fieldText(field, value) {
  if (value === undefined || value === null) return "";
  if (field.type === "json") return JSON.stringify(value);
  return Array.isArray(value) ? value.join(" ") : String(value);
}

function render(answer) {
  const open = new Set([...document.querySelectorAll("#kinds details[open]")].map((d) => d.dataset.kind));
  current = answer;
  $("source").textContent = answer.entered ? "(entered at this table)" : `(${form().default})`;
  $("kinds").replaceChildren(...form().kinds.map((kind, i) => {
    const list = records(kind);
    const map = kind.shape === "map";
    const shown = kind.fields.slice(map ? 1 : 0).map((f) => f.name).filter((k) => k !== "text");
    const keys = ["id", ...shown, ...(map ? [] : ["source"])];
    // One card a record, its change and remove buttons on its first line: a phone reaches them
    // without scrolling sideways, whatever the record holds.
    const items = list.map((record) => RS.el("li", { class: "record", "data-id": record.id },
      RS.el("div", { class: "record-head" }, RS.el("b", { text: record.id }),
        RS.el("span", { class: "acting record-actions" },
          RS.el("button", { type: "button", text: "✎", "aria-label": `change ${record.id}`,
            onclick: () => change(kind, record) }),
          RS.el("button", { type: "button", text: "✕", "aria-label": `remove ${record.id}`,
            onclick: () => save(withRecords(kind, list.filter((r) => r.id !== record.id))) }))),
      RS.el("dl", { class: "record-fields" }, ...keys.slice(1).filter((k) => cellText(record[k]) !== "")
        .flatMap((k) => [RS.el("dt", { text: k }), RS.el("dd", { text: cellText(record[k]) })]))));
    const count = list.reduce((n, r) => n + (r.copies || 1), 0);
    return RS.el("details", { "data-kind": kind.name, open: open.has(kind.name) || (!open.size && i === 0) ? "" : null },
      RS.el("summary", { text: `${kind.name} (${count})` }), RS.el("ul", { class: "records" }, ...items));
  }));
}

// A list of nested records (a monster's abilities, a scenario's zones): each its own small
// form of fields, added and removed one at a time; no JSON to type.
function recordsInput(field, value) {
  const list = RS.el("ol", { class: "nested", "data-field": field.name, "data-type": "records" });
  const addItem = (item = {}) => {
    const box = RS.el("li", { class: "nested-item", "data-id": item.id || null },
      ...field.fields.map((f) => fieldInput(f, item[f.name], "data-sub")),
      RS.el("button", { type: "button", class: "remove-item", text: `Remove this ${field.item}`,
        onclick: () => box.remove() }));
    list.append(box);
  };
  (Array.isArray(value) ? value : []).forEach(addItem);
  if (!list.children.length) addItem();
  return RS.el("fieldset", { class: "nested-records" }, RS.el("legend", { text: field.name }),
    field.hint ? RS.el("small", { text: field.hint }) : null, list,
    RS.el("button", { type: "button", class: "add-item", text: `+ Add a${/^[aeiou]/.test(field.item) ? "n" : ""} ${field.item}`,
      onclick: () => addItem() }));
}

// One nested record as the form holds it: its fields' values, its id kept when it had one.
function readItem(box) {
  const item = box.dataset.id ? { id: box.dataset.id } : {};
  for (const input of box.querySelectorAll("[data-sub]")) readValue(item, input.dataset.sub, input);
  return item;
}

// A field's value put on `record` (left off when empty): a ticked box is true, text as typed.
function readValue(record, name, input) {
  const text = input.value.trim();
  if (input.dataset.type === "bool") {
    if (input.checked) record[name] = true;
  } else if (text) {
    record[name] = text;
  }
}

function fieldInput(field, value, mark = "data-field") {
  if (field.type === "records") return recordsInput(field, value);
  const attrs = { [mark]: field.name, "data-type": field.type, autocomplete: "off" };
  let input;
  if (field.type === "bool") {
    input = RS.el("input", { ...attrs, type: "checkbox", checked: value === true ? "" : null });
  } else {
    input = field.type === "json"
      ? RS.el("textarea", { ...attrs, rows: 3, spellcheck: "false", style: "width: 100%; box-sizing: border-box" })
      : RS.el("input", { ...attrs, inputmode: field.type === "number" ? "numeric" : null });
    input.value = fieldText(field, value);
  }
  return RS.el("label", { class: field.type === "bool" ? "check" : null },
    field.type === "bool" ? input : null, RS.el("span", { text: field.name }),
    field.type === "bool" ? null : input,
    field.hint ? RS.el("small", { text: field.hint, style: "grid-column: 1 / -1" }) : null);
}

// The form for the chosen kind: empty for a new record, or filled with one to change.
function showFields(record = null) {
  editing = record ? record.id : null;
  $("form-error").textContent = "";
  $("form-title").textContent = record ? `Change ${record.id}` : "Add a record";
  $("fields").replaceChildren(...kindForm().fields.map((f) => fieldInput(f, record ? record[f.name] : undefined)));
}

function change(kind, record) {
  $("kind").value = kind.name;
  showFields(record);
  $("add-card").scrollIntoView();
}

// The record the form holds; a nested value that is not JSON is refused naming record and field.
function readForm(kind) {
  const record = {};
  for (const input of $("fields").querySelectorAll("[data-field]")) {
    const { field, type } = input.dataset;
    if (type === "records") {
      record[field] = [...input.children].map(readItem).filter((item) => Object.keys(item).length);
    } else if (type === "json") {
      const text = input.value.trim();
      if (text) {
        try { record[field] = JSON.parse(text); } catch (e) {
          throw new Error(`${kind.name} '${record.name || editing || "new"}': ${field} is not JSON (${e.message})`);
        }
      }
    } else {
      readValue(record, field, input);
    }
  }
  return record;
}

function save(data) {
  return RS.api(`/api/table-data/${gameName()}`, { data }, "PUT").then(render);
}

function load() {
  const game = form();
  $("kind").replaceChildren(...game.kinds.map((k) => RS.el("option", { value: k.name, text: k.name })));
  const shapes = game.kinds.map((k) => `"${k.name}": ${k.shape === "map" ? "{...}" : "[...]"}`);
  $("import-hint").textContent = `JSON: {${shapes.join(", ")}}. ${game.import}`;
  $("import-csv").hidden = !game.csv;
  $("forget").textContent = `Back to the ${game.default.replace(/^the /, "")}`; // "the template"
  // The form is built now, so nothing typed into it is wiped when the records come; the game
  // before's records go (their buttons would save into this game); Save waits for this game's
  // records (a save before would write the game before's into it); a late answer for a game no
  // longer chosen is dropped.
  const name = gameName();
  current = null;
  $("save").disabled = true;
  $("kinds").replaceChildren();
  showFields();
  RS.get(`/api/table-data/${name}`).then((answer) => {
    if (gameName() !== name) return;
    render(answer);
    $("save").disabled = false;
  }).catch((e) => RS.toast(e.message));
}

RS.get("/api/catalog").then((catalog) => {
  const games = catalog.games.filter((g) => g.table_data_form);
  for (const g of games) forms[g.name] = g.table_data_form;
  $("game").replaceChildren(...games.map((g) => RS.el("option", { value: g.name, text: g.title })));
  if (games.length) load();
});
$("kind").addEventListener("change", () => showFields());
$("game").addEventListener("change", load);
$("new-record").addEventListener("click", () => showFields());
$("add-card").addEventListener("submit", (event) => {
  event.preventDefault();
  const kind = kindForm();
  let record;
  try { record = readForm(kind); } catch (e) {
    $("form-error").textContent = e.message;
    RS.toast(e.message);
    return;
  }
  const id = kind.shape === "map" ? record[kind.fields[0].name] || "" : slug(record.name || "");
  const list = records(kind);
  const at = list.findIndex((r) => r.id === (editing ?? id));
  const kept = list.filter((r) => r.id !== id && r.id !== editing);
  kept.splice(at < 0 ? kept.length : Math.min(at, kept.length), 0, record);
  save(withRecords(kind, kept)).then(() => showFields())
    .catch((e) => { $("form-error").textContent = e.message; });
});
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file) $("import-text").value = await file.text();
});
$("import-json").addEventListener("click", () => {
  let data;
  try { data = JSON.parse($("import-text").value); } catch (e) { RS.toast(`not JSON: ${e.message}`); return; }
  save(data).catch(() => {});
});
$("import-csv").addEventListener("click", () => RS.api(`/api/table-data/${gameName()}`,
  { csv: $("import-text").value }, "PUT").then(render).catch(() => {}));
$("forget").addEventListener("click", () => RS.api(`/api/table-data/${gameName()}`, {}, "DELETE")
  .then(render).catch(() => {}));
