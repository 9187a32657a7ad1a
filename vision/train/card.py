"""The model card's measured part and models/README.md, without torch (re-measuring needs none)."""

from __future__ import annotations

import json
from pathlib import Path

from vision.classify import EXPERTS, LINKED, SAYS_KIND_FROM
from vision.crops import CROP_MARGIN

# A kind is trusted when the held-out real photos of it the model was sure of were right at least
# this often, over at least TRUSTED_MIN_SURE photos; every reading of another kind with real
# photos is flagged for a player to check (the card's "always_check", applied by vision.reader).
# Model 3.2.0: sure d6, d8 and d10 readings were 100% right, sure d4 readings 83.2% and sure
# d20 readings 55.9%; a higher confidence cut does not rescue those two (at 0.8: d4 93.6% of 47,
# d20 56.1% of 114; at 0.9: d20 64.7% of 17, d4 6 photos of 464 left).
TRUSTED_FROM = 0.95
TRUSTED_MIN_SURE = 30

# Die sizes (pixels across the die in the frame) the held-out real photos are also read at. Their
# dice span 85-130 px of the photo (median 105) and are cut down to the reader's 96 px crops, so
# they show more detail than the tray camera gives: there a 16 mm die spans 61-66 px
# (hardware/README.md), a 12 mm one about 49, and a photo from further off shows dice smaller.
SMALL_DICE = (64, 49, 37)


def small_dice_text() -> str:
    """SMALL_DICE in words, for the cards' `measured_on`: "64, 49 and 37 px"."""
    *most, last = SMALL_DICE
    return f"{', '.join(map(str, most))} and {last} px"


def small_die_key(die_px: int) -> str:
    """The card's key for the held-out photos read as dice of `die_px` pixels."""
    return f"real_held_out_die_{die_px}px"


def always_check(by_kind: dict[str, dict[str, float]]) -> dict[str, float]:
    """The kinds whose sure readings cannot be trusted, with how often they were right."""
    out = {}
    for kind, row in by_kind.items():
        sure = round(row["sure"] * row["n"])
        if kind != "all" and (
            row["value_right_when_sure"] < TRUSTED_FROM or sure < TRUSTED_MIN_SURE
        ):
            out[kind] = row["value_right_when_sure"]
    return out


def table_gate(
    shared: dict[str, dict[str, float]], table: dict[str, dict[str, float]]
) -> tuple[dict[str, dict[str, float]], list[str]]:
    """The gate's rows judged where the model will read: a kind with at least TRUSTED_MIN_SURE
    held-out photos of the table's own is judged on those alone, any other on the shared
    held-out photos. Returns the rows and the kinds judged on the table (chosen by how many
    photos there are, not by how they were read)."""
    mine = [k for k, row in table.items() if k != "all" and row["n"] >= TRUSTED_MIN_SURE]
    return {**shared, **{k: table[k] for k in mine}}, mine


def update_card(model_path: Path, changes: dict) -> dict:
    """Replace some of a model's card's keys (its accuracy, the experts it links); returns the
    new card."""
    card_path = model_path.with_suffix(".json")
    card = json.loads(card_path.read_text())
    card.update(changes)
    card_path.write_text(json.dumps(card, indent=1) + "\n")
    return card


def reader_cards(card: dict, folder: Path) -> dict[str, dict]:
    """The cards of the patch readers a dice model's card links (their files in `folder`,
    beside the dice model), by the card's key ("numerals", "pips"), and of its kind experts, by
    their file's name."""
    files = {key: card[key]["file"] for key in LINKED if card.get(key)}
    files.update({entry["file"]: entry["file"] for entry in card.get(EXPERTS, [])})
    return {
        key: json.loads((folder / file).with_suffix(".json").read_text())
        for key, file in files.items()
    }


def _file_line(card: dict) -> str:
    """A model file's size and how its weights are kept (cards before int8 files say nothing:
    float32)."""
    return f"{card['size_bytes'] / 1e6:.2f} MB, weights {card.get('weights', 'float32')}"


def _numerals_line(linked: dict, numerals: dict) -> str:
    acc = numerals["accuracy"]
    real = ", ".join(f"{k} {r['value']:.1%}" for k, r in acc["real_held_out"].items())
    sizes = [px for px in SMALL_DICE if small_die_key(px) in acc]
    smaller = "".join(
        f"; as dice of {' / '.join(map(str, sizes))} px, {kind} "
        + " / ".join(f"{acc[small_die_key(px)][kind]['value']:.1%}" for px in sizes)
        for kind in linked["kinds"]
        if sizes and all(kind in acc[small_die_key(px)] for px in sizes)
    )
    train = numerals["training"]
    return (
        f"- values of {', '.join(linked['kinds'])}: read by the numeral reader {linked['file']} "
        f"(version {numerals['version']}, {_file_line(numerals)}) from the middle "
        f"of the crop ({numerals['input']['size']} px, four turns), trained {train['minutes']} min "
        f"on {train['patches']} rendered patches of printed numerals and no photo; alone, kind "
        f"given, it reads the held-out real photos' values: {real}{smaller}"
    )


def _pips_line(linked: dict, pips: dict) -> str:
    acc, train = pips["accuracy"], pips["training"]
    pipped, other = acc["real_pipped_d6"], acc["real_unpipped"]
    return (
        f"- pips of {', '.join(linked['kinds'])}: read by the pip reader {linked['file']} "
        f"(version {pips['version']}, {_file_line(pips)}) from the middle "
        f"{pips['input']['share']} of the die ({pips['input']['size']} px, four turns), trained "
        f"{train['minutes']} min on {train['patches']} patches cut from renders and no photo; "
        f"where it reads pips it says the value and, from {SAYS_KIND_FROM:.0%} likely, the kind; "
        f"elsewhere it stands aside (read '{pips['other']}'). Alone, on another camera's "
        f"{pipped['n']} real pipped d6s: value right {pipped['value']:.1%}, stood aside "
        f"{pipped['stood_aside']:.1%}; "
        f"stood aside on {other['stood_aside']:.2%} of {other['n']} held-out numbered dice"
    )


def _expert_line(linked: dict, expert: dict) -> str:
    train = expert["training"]
    real = ", ".join(
        f"{k} {r['value']:.1%}" for k, r in expert["accuracy"]["real_held_out"].items()
        if k != "all"
    )
    return (
        f"- values of {', '.join(linked['kinds'])}: read by the kind expert {linked['file']} "
        f"(version {expert['version']}, {_file_line(expert)}), "
        f"{train['trained_on_from']} trained {train['minutes']} min more on those kinds alone "
        f"({train['synthetic_crops']} renders + {train['real_crops']} real photo crops), "
        f"reading the middle {expert['input'].get('share', CROP_MARGIN):.3g} of the die's box; "
        f"alone, on the held-out real photos of its kinds: {real}"
    )


def _reader_lines(card: dict, readers: dict[str, dict]) -> list[str]:
    """The README's lines on the patch readers and kind experts the card links, from their own
    cards."""
    lines = {"numerals": _numerals_line, "pips": _pips_line}
    out = [lines[key](card[key], readers[key]) for key in LINKED if card.get(key) and key in readers]
    return out + [
        _expert_line(entry, readers[entry["file"]])
        for entry in card.get(EXPERTS, [])
        if entry["file"] in readers
    ]


def write_readme(card: dict, path: Path, readers: dict[str, dict] | None = None) -> None:
    """models/README.md: what the model is (and the cards of the patch readers it links, by
    their key in its card) and the accuracy its card records, as tables."""
    acc, train = card["accuracy"], card["training"]
    card_name = Path(card["file"]).with_suffix(".json").name
    intro = (
        "The dice classifier the reader ships with, written by `make model` (`python -m "
        f"vision.train`). The figures come from its card [{card_name}]({card_name}), measured "
        "on the exported ONNX file through `vision.classify.Classifier`."
    )
    outputs = (
        f"- outputs: kind over {', '.join(card['kinds'])}; value over {len(card['values'])} "
        "kind:value labels (cosine to prototypes of a 64-d embedding, so custom dice can be "
        "enrolled later); state flat/cocked/empty"
    )
    run = (
        f"- training: {train['minutes']} min on {train.get('threads', 1)} CPU thread(s), "
        f"{train['steps']} steps of "
        f"{train['batch']}, {train['synthetic_crops']} rendered crops + "
        f"{train['real_crops']} real photo crops"
    )
    if train.get("trained_on_from_version"):  # a run that went on from a model file
        run += f", on from version {train['trained_on_from_version']} ({train['trained_on_from']})"
    lines = [
        f"# {card['file']} (version {card['version']})",
        "",
        intro,
        "",
        f"- input: {card['input']['size']} px square BGR crops ({card['input']['crop']})",
        outputs,
        f"- size: {_file_line(card)}, {train['parameters']:,} parameters",
        run,
        *_reader_lines(card, readers or {}),
        "",
        f"Measured on: {acc['measured_on']}.",
        "",
    ]
    titles = {
        "real_held_out": "Held-out real photo sequences",
        "real_table_held_out": "Held-out games of the table's own photos (`rollscribe photos`)",
        "real_other_camera_d6": "Real d6 crops from another camera (never trained on)",
        **{small_die_key(px): f"Held-out real photo sequences as dice of {px} px give them"
           for px in SMALL_DICE},
        "synthetic_held_out": "Held-out synthetic renders",
    }
    for key, title in titles.items():
        if key not in acc:
            continue
        lines += [
            f"## {title}",
            "",
            "| kind | photos | kind right | value right |",
            "|---|---|---|---|",
        ]
        for kind, r in acc[key].items():
            lines.append(f"| {kind} | {r['n']} | {r['kind']:.2%} | {r['value']:.2%} |")
        lines.append("")
    unsure = acc["synthetic_unsure_rate"]
    lines += [
        "## Unsure signal",
        "",
        f"- renders of cocked dice reported unsure: {unsure.get('cocked', 0):.1%}",
        f"- rendered crops without a die reported unsure: {unsure.get('empty', 0):.1%}",
        f"- renders of flat, readable dice reported unsure: {unsure.get('flat_unsure', 0):.1%}",
    ]
    lines.append("")
    gate = acc.get("real_held_out_unsure_gate")
    if gate:
        lines += [
            "## Sure readings of held-out real photos",
            "",
            "| kind | photos | read as sure | right when sure |",
            "|---|---|---|---|",
        ]
        for kind, r in gate.items():
            lines.append(
                f"| {kind} | {r['n']} | {r['sure']:.1%} | {r['value_right_when_sure']:.2%} |"
            )
        checked = acc.get("always_check", {})
        unmeasured = [k for k in card["kinds"] if k not in gate]
        lines += [
            "",
            f"The reader flags every reading of {', '.join(checked) or 'no kind'} for a player "
            "to check, however sure the model is: sure readings of a kind must be right at "
            f"least {TRUSTED_FROM:.0%} of the time, over at least {TRUSTED_MIN_SURE} held-out "
            "real photos, for the kind to be trusted"
            + (
                f" ({', '.join(unmeasured)}: no real photos, judged by renders alone, not flagged)."
                if unmeasured
                else "."
            ),
        ]
        mine = acc.get("gate_judged_on_table")
        if mine:
            lines.append(
                f"The rows of {', '.join(mine)} are the table's own held-out photos: a kind with "
                f"at least {TRUSTED_MIN_SURE} of them is judged where the model will read it."
            )
    lines.append("")
    path.write_text("\n".join(lines))
