"""`make tune` (`python -m vision.train --tune`): the shipped models trained a little further on
one table's own dice photos.

Why: `make model` retrains everything from scratch within the hour, and on this machine that
hour gives weaker models than the shipped ones (their dice model trained 40 minutes, its d4
expert 25 more). A table that has collected its players' checked and corrected dice
(`rollscribe photos DIR`) wants its own dice read better without losing what the shipped models
read. So the dice model goes on from models/dice.onnx (its weights taken back from the file:
vision.train.recover) at a third of `make model`'s peak rate, the table's photos a quarter of
every batch's real crops (sampling.TABLE_SHARE) beside the shared photos and renders it learnt
from; the d4 expert and the numeral and pip readers are kept (`--expert-minutes N` trains the
expert on from models/d4.onnx too, when the table's photos hold d4s). The table's held-out
games (one in five) measure the result.

Measured (2026-11-26; docs/reader-history.md, "A table's own photos"): with another camera's
d6 crops standing in for a table (two days trained on, the third day's 53 held out), that
day's d6 value went from 84.9% to 92.5% tuned from dice model 3.2.0 (the shared held-out real
photos 98.09% -> 98.28%), and from 90.6% to 94.3% from 3.2.1 (98.24% -> 97.94%: a table's
gain may cost the shared photos a few tenths). The expert is kept by default:
on a stand-in table of shared d4 photos, which teach it nothing new, five minutes of it read
the held-out d4s 87.7% where keeping it read 90.3%.

No torch here: the suite checks these choices without the `train` extra.
"""

from __future__ import annotations

import argparse

# Minutes of the dice model, of the d4 expert (0: kept as it is; see above), and the dice
# model's peak learning rate: the rate the d4 expert goes on at (expert.ExpertConfig), a third of
# a run from scratch.
MINUTES = 10.0
EXPERT_MINUTES = 0.0
LR = 1e-3


def tune_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> argparse.Namespace:
    """`args` of a `--tune` run with what it implies filled in: the weights it goes on from
    (--out's own file), no new readers, and the minutes and rate above where none were given.
    Errors through `parser` when the run has nothing to tune on or nothing to go on from."""
    if not args.table_photos:
        parser.error("--tune needs --table-photos DIR (written by `rollscribe photos DIR`)")
    if args.expert_only:
        parser.error("--tune and --expert-only exclude each other")
    if args.init is not None and args.init != args.out:
        parser.error("--tune goes on from --out's own file, not from --init")
    for path in (args.out, args.out.with_suffix(".json")):
        if not path.is_file():
            parser.error(f"--tune goes on from {path}, which is missing")
    args.init = args.out
    args.numeral_minutes = args.pip_minutes = 0.0
    args.minutes = MINUTES if args.minutes is None else args.minutes
    args.expert_minutes = EXPERT_MINUTES if args.expert_minutes is None else args.expert_minutes
    args.lr = LR if args.lr is None else args.lr
    args.deadline = 0.0  # `make model`'s hour is not this run's
    return args


def tuned_version(version: str) -> str:
    """A tuned model's version: the one it went on from, marked as a table's (semver build
    metadata, so it still sorts as the model it came from)."""
    return version if version.endswith("+table") else f"{version}+table"
