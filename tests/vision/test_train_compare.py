"""How a training run's models compare with those it replaced (vision.train.compare)."""

import json

from vision.classify import DEFAULT_MODEL
from vision.train.card import SMALL_DICE, small_die_key
from vision.train.compare import WORSE_BY, changes, previous_accuracy, report, verdict


def _row(kind: float, value: float, n: int = 100) -> dict[str, float]:
    return {"n": n, "kind": kind, "value": value}


def test_a_drop_of_half_a_point_or_more_counts_as_worse() -> None:
    before = {"real_held_out": {"d4": _row(1.0, 0.8966), "d8": _row(1.0, 1.0)}}
    after = {"real_held_out": {"d4": _row(0.9978, 0.806), "d8": _row(0.9653, 0.9975)}}
    lines, worse = changes(before, after)
    # d4 value and d8 kind fell by WORSE_BY or more; d4 kind (0.22 points) and d8 value
    # (0.25 points) are within the runs' spread
    assert worse == 2
    assert lines == [
        "real_held_out          d4   kind 100.00% -> 99.78%, value 89.66% -> 80.60% (worse)",
        "real_held_out          d8   kind 100.00% -> 96.53% (worse), value 100.00% -> 99.75%",
    ]
    assert "2 figures" in verdict(worse) and "git checkout models/" in verdict(worse)


def test_only_figures_both_cards_hold_are_compared() -> None:
    before = {
        "real_held_out": {"d6": _row(1.0, 0.99)},
        "real_other_camera_d6": {"d6": _row(0.947, 0.841)},
    }
    after = {
        "real_held_out": {"d6": _row(1.0, 0.99 + WORSE_BY), "d20": _row(0.5, 0.5)},
        "real_table_held_out": {"d6": _row(0.1, 0.1)},
    }
    lines, worse = changes(before, after)
    assert worse == 0
    assert len(lines) == 1 and lines[0].startswith("real_held_out          d6")
    assert verdict(worse).startswith("no figure read worse")


def test_the_replaced_card_is_read_before_it_is_written_over(tmp_path) -> None:
    shipped = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    model = tmp_path / "dice.onnx"
    assert previous_accuracy(model) == {}  # a first run: nothing to compare with
    model.with_suffix(".json").write_text("{not json")
    assert previous_accuracy(model) == {}  # a broken card is not a reason to stop a run
    model.with_suffix(".json").write_text(json.dumps(shipped))
    accuracy = previous_accuracy(model)
    assert accuracy["real_held_out"]["all"]["n"] == shipped["accuracy"]["real_held_out"]["all"]["n"]
    # the shipped card compared with itself: every figure it holds, none worse
    lines, worse = changes(accuracy, accuracy)
    assert worse == 0 and len(lines) == sum(
        len(accuracy[name])
        for name in ("real_held_out", *(small_die_key(px) for px in SMALL_DICE),
                     "real_other_camera_d6", "synthetic_held_out")
    )


def test_a_run_logs_its_figures_then_the_comparison_when_it_replaced_models() -> None:
    accuracy = {
        "real_held_out": {"d8": _row(0.9653, 0.9628, 403)},
        "synthetic_unsure_rate": {"cocked": 0.7, "empty": 1.0, "flat_unsure": 0.5},
    }
    first: list[str] = []
    report(accuracy, first.append)  # a first run: nothing replaced, nothing compared
    assert first == [
        "real_held_out          d8   n=  403 kind 0.9653 value 0.9628",
        "unsure rates {'cocked': 0.7, 'empty': 1.0, 'flat_unsure': 0.5}",
    ]
    again: list[str] = []
    report(accuracy, again.append, {"real_held_out": {"d8": _row(1.0, 1.0, 403)}})
    assert again[:2] == first and again[2] == "against the models this run replaced:"
    assert "(worse)" in again[3] and again[-1].startswith("warning: 2 figures")
