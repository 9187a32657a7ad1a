"""What a `--tune` run goes on from and how long it trains (no torch needed)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from vision.train.tune import EXPERT_MINUTES, LR, MINUTES, tune_args, tuned_version


def namespace(model: Path, **given: object) -> argparse.Namespace:
    """Arguments as `python -m vision.train --tune` parses them before tune_args."""
    parsed = {
        "table_photos": [Path("photos")], "expert_only": False, "out": model, "init": None,
        "minutes": None, "lr": None, "expert_minutes": None, "numeral_minutes": 9.0,
        "pip_minutes": 6.0, "deadline": 58.0,
    }
    return argparse.Namespace(**{**parsed, **given})


@pytest.fixture
def out(tmp_path: Path) -> Path:
    path = tmp_path / "dice.onnx"
    path.write_bytes(b"a model")
    path.with_suffix(".json").write_text("{}")
    return path


def test_a_tune_goes_on_from_the_model_it_replaces_and_keeps_the_readers(out: Path) -> None:
    args = tune_args(namespace(out), argparse.ArgumentParser())
    assert args.init == out
    assert (args.numeral_minutes, args.pip_minutes) == (0.0, 0.0)
    assert (args.minutes, args.expert_minutes, args.lr) == (MINUTES, EXPERT_MINUTES, LR)
    assert args.deadline == 0.0


def test_a_model_without_its_card_is_refused(out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out.with_suffix(".json").unlink()
    with pytest.raises(SystemExit):
        tune_args(namespace(out), argparse.ArgumentParser(prog="train"))
    assert "dice.json, which is missing" in capsys.readouterr().err


def test_minutes_and_rate_given_are_kept(out: Path) -> None:
    given = namespace(out, minutes=3.0, expert_minutes=5.0, lr=5e-4, init=out)
    args = tune_args(given, argparse.ArgumentParser())
    assert (args.minutes, args.expert_minutes, args.lr, args.init) == (3.0, 5.0, 5e-4, out)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"table_photos": []}, "--tune needs --table-photos"),
        ({"expert_only": True}, "exclude each other"),
        ({"init": Path("weights.pt")}, "not from --init"),
        ({"out": Path("/nowhere/dice.onnx")}, "dice.onnx, which is missing"),
    ],
)
def test_a_tune_with_nothing_to_tune_on_or_from_is_refused(
    out: Path, given: dict, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        tune_args(namespace(out, **given), argparse.ArgumentParser(prog="train"))
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_a_tuned_version_names_what_it_came_from_once() -> None:
    assert tuned_version("3.2.0") == "3.2.0+table"
    assert tuned_version(tuned_version("3.2.0")) == "3.2.0+table"
