"""The reader across rigs: every figure of the leave-one-rig-out run, printed.

`python -m vision.train --folds-only` trains each fold's models without its rigs, reads them and
writes artifacts/cross_rig.json (on an H100, 1.6 minutes of data and 4.1 of folds; on this
machine's CPU a quarter of make model's 65 minutes of training five times, about 81 minutes,
not run); the run that trained the shipped models with --folds wrote models/cross_rig.json. This prints the newer of the two (or the file
ROLLSCRIBE_CROSS_RIG names).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FILES = (REPO / "artifacts" / "cross_rig.json", REPO / "models" / "cross_rig.json")


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def report(figures: dict) -> list[str]:
    """The lines to print for one cross-rig run."""
    summary = figures["summary"]
    lines = [summary["method"],
             f"worst rig: {summary['worst_rig']['rig']} {_pct(summary['worst_rig']['value_right'])}",
             "", f"{'rig':<18} {'kind':<5} {'dice':>6} {'right':>7} {'sure':>7} {'sure wrong':>11}"]
    for fold in figures["folds"].values():
        for rig, fig in fold.items():
            if rig == "frames":
                continue
            for kind, row in fig["crops"].items():
                if kind == "bare_surface":
                    continue
                lines.append(f"{rig:<18} {kind:<5} {row['dice']:>6} {_pct(row['value_right']):>7}"
                             f" {_pct(row['sure']):>7} {_pct(row['sure_wrong']):>11}")
            bare = fig["crops"]["bare_surface"]
            lines.append(f"{rig:<18} bare surface crops {bare['crops']}, read as a sure die "
                         f"{bare['read_as_sure_die']}")
    lines += ["", "whole frames, by the fold's models (detector and classifier):",
              (f"{'fold':<32} {'frames':>6} {'dice':>5} {'recall':>7} {'precision':>9} "
              f"{'right':>7} {'sure':>7} {'sure wrong':>10} {'no die, sure':>12}")]
    for name, f in summary["frames"].items():
        lines.append(f"{name:<32} {f['frames']:>6} {f['dice']:>5} {_pct(f['recall']):>7} "
                     f"{_pct(f['precision']):>9} {_pct(f['value_right']):>7} {_pct(f['sure']):>7}"
                     f" {_pct(f['sure_wrong']):>10} {f['no_die_read_sure']:>12}")
    return lines


def main() -> None:
    named = os.environ.get("ROLLSCRIBE_CROSS_RIG")
    found = [Path(named)] if named else [p for p in FILES if p.exists()]
    if not found:
        print("no cross-rig figures: run `python -m vision.train --folds-only`")
        return
    path = max(found, key=lambda p: p.stat().st_mtime)
    print(f"from {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    print("\n".join(report(json.loads(path.read_text()))))


if __name__ == "__main__":
    main()
