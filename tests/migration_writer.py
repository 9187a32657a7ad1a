"""Moves old tables' dice into one memory until killed (tests/test_dice_migration.py): table
after table written in the old files, whole, under ROOT/N, then opened (and so moved), printing
N once its dice store has opened."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's, not an install's
sys.path.insert(0, str(Path(__file__).resolve().parent))

from old_dice_files import write_old_table

from companion.dice_store import DiceStore, store_path


def main(root: str) -> None:
    n = len(list(Path(root).iterdir()))
    print("ready", flush=True)
    while True:
        making = Path(root) / f"making-{n}"
        making.mkdir()
        write_old_table(making / "t.db")
        table = making.rename(Path(root) / str(n))  # whole old tables only
        DiceStore(store_path(table / "t.db")).close()
        print(n, flush=True)
        n += 1


if __name__ == "__main__":
    main(sys.argv[1])
