"""`rollscribe photos OUT`: the table's own dice photos, labelled by the players, for training.

Writes OUT/crops/*.jpg (one die each, as the reader cut it) and OUT/labels.csv with the columns
path, die, top_value, how, confidence, sequence. `how` is "corrected" (a player set the die),
"checked" (a player accepted the reading it was part of) or "read" (applied at once, unasked);
training uses the first two. Only rolls still in the game count: an undone roll says nothing sure.
Run it again at any time: the folder is brought up to date and labels.csv is replaced whole.
Then train the classifier again with them: `make tune TABLE_PHOTOS=OUT` (on a machine with the
`train` extra).

Exit status: 0 written (even if there was nothing to write), 2 the history cannot be read.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.commands import documented_parser
from companion.commands.serve import DB


def register(sub: Any) -> None:
    parser = documented_parser(
        sub, "photos", "write the table's dice photos, labelled by the players' checks", __doc__
    )
    parser.add_argument("out", type=Path, metavar="OUT", help="folder to write (created)")
    parser.add_argument("--db", type=Path, default=Path(DB), help=f"history database ({DB})")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.die_photos import HOW, export
    from companion.history import History, HistoryError

    if not args.db.is_file():
        print(f"rollscribe photos: no history at {args.db}")
        return 2
    try:
        history = History(args.db)
        try:
            counts = export(history, args.out)
        finally:
            history.close()
    except (HistoryError, OSError) as exc:
        print(f"rollscribe photos: {exc}")
        return 2
    detail = ", ".join(f"{counts[how]} {how}" for how in HOW)
    print(f"{sum(counts.values())} dice photos in {args.out} ({detail})")
    return 0
