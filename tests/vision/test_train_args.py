"""`python -m vision.train`'s arguments: which runs of the folds it takes."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")  # vision.train needs the train extra, which CI does not install
from vision.train.__main__ import parse_args


def test_fold_detectors_alone_can_be_trained_for_an_a_b_run() -> None:
    args = parse_args(["--folds-only", "--only", "detector", "--fold", "4", "--fold", "2"])
    assert args.only == "detector" and args.folds_only and args.fold == [4, 2]


@pytest.mark.parametrize("argv", [
    ["--folds", "--only", "detector"],  # the shipped folds measure both models into the cards
    ["--folds-only", "--only", "classifier"],  # a fold's classifier is read with its detector
])
def test_folds_that_need_both_models_refuse_one(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(argv)
