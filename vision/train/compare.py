"""What a training run logs of the models it wrote, and how they read against the ones it
replaced.

`make model` writes over models/, and on a slow day its hour trains weaker models than the
shipped ones (the shipped dice model had 40 minutes, a `make model` run about 22). The run's log
ends with every figure both cards hold, before and after, and says when the new models read
worse, so nobody commits weaker models without knowing. No torch here: the suite checks it
without the `train` extra.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from vision.train.card import SMALL_DICE, small_die_key

# The card's sets of photos compared, and the drop (a share, 0.005 = half a point) from which a
# figure counts as worse: a run-to-run spread smaller than that is noise, not a weaker model.
COMPARED = (
    "real_held_out",
    *(small_die_key(px) for px in SMALL_DICE),
    "real_table_held_out",
    "real_other_camera_d6",
    "synthetic_held_out",
)
WORSE_BY = 0.005


def previous_accuracy(model_path: Path) -> dict:
    """The accuracy on the card of the model a run is about to replace: {} when there is no
    card or it cannot be read (a first run, a card someone broke: nothing to compare with)."""
    try:
        card = json.loads(model_path.with_suffix(".json").read_text())
        accuracy = card["accuracy"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return accuracy if isinstance(accuracy, dict) else {}


def changes(before: dict, after: dict) -> tuple[list[str], int]:
    """A line for every kind and set of photos both accuracies hold (kind and value right,
    before -> after), and how many of those figures fell by WORSE_BY or more."""
    lines, worse = [], 0
    for name in COMPARED:
        old_rows, new_rows = before.get(name, {}), after.get(name, {})
        for kind in (k for k in new_rows if k in old_rows):
            old, new = old_rows[kind], new_rows[kind]
            figures = []
            for figure in ("kind", "value"):
                drop = old[figure] - new[figure]
                worse += drop >= WORSE_BY
                mark = " (worse)" if drop >= WORSE_BY else ""
                figures.append(f"{figure} {old[figure]:.2%} -> {new[figure]:.2%}{mark}")
            lines.append(f"{name:22s} {kind:4s} " + ", ".join(figures))
    return lines, worse


def verdict(worse: int) -> str:
    """What the log says after the lines of `changes`."""
    if not worse:
        return "no figure read worse than the models this run replaced"
    return (
        f"warning: {worse} figures read at least {WORSE_BY:.1%} worse than the models this run "
        "replaced; `git checkout models/` brings back the committed ones"
    )


def report(accuracy: dict, log: Callable[[str], None], previous: dict | None = None) -> None:
    """Log a card's accuracy, a line per kind and set of photos, then how it compares with the
    `previous` card's (the models the run replaced), if there was one."""
    for name in COMPARED:
        for kind, r in accuracy.get(name, {}).items():
            log(f"{name:22s} {kind:4s} n={r['n']:5d} kind {r['kind']:.4f} value {r['value']:.4f}")
    log(f"unsure rates {accuracy['synthetic_unsure_rate']}")
    if previous:
        lines, worse = changes(previous, accuracy)
        log("against the models this run replaced:")
        for line in lines:
            log(line)
        log(verdict(worse))
