"""The model card's trust gate: which kinds a player must always check."""

import json

from vision.classify import DEFAULT_MODEL
from vision.train.card import (
    SMALL_DICE,
    TRUSTED_FROM,
    TRUSTED_MIN_SURE,
    always_check,
    reader_cards,
    small_die_key,
    table_gate,
    write_readme,
)


def _row(n: int, sure: float, right: float) -> dict[str, float]:
    return {"n": n, "sure": sure, "value_right_when_sure": right}


def test_a_kind_whose_sure_readings_are_often_wrong_is_always_checked() -> None:
    gate = {
        "d6": _row(578, 0.97, 1.0),
        "d20": _row(782, 0.27, 0.5587),
        "all": _row(1360, 0.6, 0.8),  # a total, not a kind
    }
    assert always_check(gate) == {"d20": 0.5587}


def test_the_bar_is_inclusive_and_needs_enough_sure_photos() -> None:
    at_bar = _row(100, TRUSTED_MIN_SURE / 100, TRUSTED_FROM)
    below_bar = _row(100, 0.9, TRUSTED_FROM - 0.001)
    too_few = _row(100, (TRUSTED_MIN_SURE - 1) / 100, 1.0)
    assert always_check({"d8": at_bar, "d10": below_bar, "d4": too_few}) == {
        "d10": TRUSTED_FROM - 0.001,
        "d4": 1.0,
    }


def test_the_models_readme_names_the_checked_kinds(tmp_path) -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    card["accuracy"]["always_check"] = {"d20": 0.5}
    readme = tmp_path / "README.md"
    write_readme(card, readme)
    text = readme.read_text()
    assert "## Sure readings of held-out real photos" in text
    assert "flags every reading of d20 for a player" in text
    assert "d%, d12: no real photos" in text


def test_sure_readings_right_all_but_one_in_thousands_are_not_shown_as_all(tmp_path) -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    card["accuracy"]["real_held_out_unsure_gate"]["all"]["value_right_when_sure"] = 0.9995
    readme = tmp_path / "README.md"
    write_readme(card, readme)
    assert "| 99.95% |" in readme.read_text()


def test_a_kind_with_enough_table_photos_is_judged_on_them_alone() -> None:
    shared = {"d6": _row(500, 0.9, 1.0), "d20": _row(700, 0.3, 0.5), "all": _row(1200, 0.5, 0.8)}
    table = {"d20": _row(40, 0.9, 1.0), "d6": _row(TRUSTED_MIN_SURE - 1, 1.0, 0.5),
             "all": _row(69, 0.9, 0.8)}
    assert always_check(shared) == {"d20": 0.5}
    gate, mine = table_gate(shared, table)
    assert mine == ["d20"]
    assert gate == {"d6": shared["d6"], "d20": table["d20"], "all": shared["all"]}
    # the table's d20s were read right when sure, so its d20 is trusted; its d6s are too few to
    # judge on (however they were read): the shared photos judge the d6
    assert always_check(gate) == {}


def test_the_table_photos_section_shows_only_when_measured(tmp_path) -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    readme = tmp_path / "README.md"
    write_readme(card, readme)
    assert "table's own photos" not in readme.read_text()
    card["accuracy"]["real_table_held_out"] = {"d20": {"n": 40, "kind": 1.0, "value": 0.925}}
    card["accuracy"]["gate_judged_on_table"] = ["d20"]
    write_readme(card, readme)
    text = readme.read_text()
    assert "| d20 | 40 | 100.00% | 92.50% |" in text
    assert "The rows of d20 are the table's own held-out photos" in text


def test_the_readme_names_the_readers_the_card_links(tmp_path) -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    readers = reader_cards(card, DEFAULT_MODEL.parent)
    readme = tmp_path / "README.md"
    write_readme(card, readme, readers)
    text = readme.read_text()
    (expert,) = card["experts"]
    assert set(readers) == {"numerals", "pips", expert["file"]}, "both readers and the d4 expert"
    d20 = readers["numerals"]["accuracy"]["real_held_out"]["d20"]["value"]
    kinds = ", ".join(card["numerals"]["kinds"])
    assert f"- values of {kinds}: read by the numeral reader {card['numerals']['file']}" in text
    assert f"d20 {d20:.1%}" in text
    pipped = readers["pips"]["accuracy"]["real_pipped_d6"]
    assert f"- pips of d6: read by the pip reader {card['pips']['file']}" in text
    assert f"value right {pipped['value']:.1%}" in text
    d4 = readers[expert["file"]]["accuracy"]["real_held_out"]["d4"]["value"]
    assert f"- values of d4: read by the kind expert {expert['file']}" in text
    assert f"kinds: d4 {d4:.1%}" in text
    card.pop("numerals")
    write_readme(card, readme, readers)
    text = readme.read_text()
    assert "numeral reader" not in text and "pip reader" in text


def test_the_readme_shows_the_held_out_photos_as_smaller_dice_where_measured(tmp_path) -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    readers = reader_cards(card, DEFAULT_MODEL.parent)
    readme = tmp_path / "README.md"
    for px in SMALL_DICE:
        card["accuracy"].pop(small_die_key(px), None)
        readers["numerals"]["accuracy"].pop(small_die_key(px), None)
    write_readme(card, readme, readers)
    text = readme.read_text()  # cards measured before: no row and no table claimed
    assert "## Held-out real photo sequences as dice of" not in text and " px, d20 " not in text
    for i, px in enumerate(SMALL_DICE):
        row = {"n": 782, "kind": 1.0, "value": 0.9 - 0.1 * i}
        card["accuracy"][small_die_key(px)] = {"d20": row, "all": row}
        readers["numerals"]["accuracy"][small_die_key(px)] = {"d20": {"n": 782, "value": 0.8}}
    write_readme(card, readme, readers)
    text = readme.read_text()
    sizes = " / ".join(map(str, SMALL_DICE))
    assert f"as dice of {sizes} px, d20 " + " / ".join(["80.0%"] * len(SMALL_DICE)) in text
    for i, px in enumerate(SMALL_DICE):
        assert f"## Held-out real photo sequences as dice of {px} px give them" in text
        assert f"| d20 | 782 | 100.00% | {0.9 - 0.1 * i:.2%} |" in text


def test_the_readme_says_which_model_a_run_went_on_from(tmp_path) -> None:
    card = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    readme = tmp_path / "README.md"
    card["training"].update(trained_on_from="models/dice.onnx", trained_on_from_version="3.1.0")
    write_readme(card, readme)
    assert "on from version 3.1.0 (models/dice.onnx)" in readme.read_text()
    for key in ("trained_on_from", "trained_on_from_version"):
        del card["training"][key]
    write_readme(card, readme)
    assert "on from version" not in readme.read_text()
