"""What the demo's reader gets right on its own renders: `python -m bench demo_camera`.

Why: `make run` plays through the simulated tray camera (vision.simulated_camera), so what a new
player sees the reader get right or wrong there is this figure. Seeded throws of the rolls the
games ask for (Monstrous Horde's line-up of four d20s, Board Horde's d6, Fantahzee's five d6s,
and one die of each kind as a melee team can roll) are thrown, settled and read by the real
reader as `rollscribe serve --demo` does, and matched to the true dice by their boxes: the same
throws in each of the demo's dice sets (a demo table draws one, vision.simulated_camera.SETS),
then with every die in a style of its own, as training's renders draw them. Printed, never
asserted.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

from vision.detect import iou
from vision.reader import DiceReader
from vision.simulated_camera import SETS, SimulatedTray
from vision.train.labels import KINDS
from vision.train.render import DieStyle

ROLLS = (["d20"] * 4, ["d6"], ["d6"] * 5, list(KINDS))
THROWS = 25  # of each roll
SEED = 40


def main() -> None:
    reader = DiceReader()
    for name, dice_set in SETS.items():
        measure(reader, (dice_set,), f"the demo's set of {name}")
    measure(reader, (), "every die in a style of its own (training's renders)")


def measure(reader: DiceReader, sets: tuple[DieStyle, ...], name: str) -> None:
    """The throws read, each die drawn in `sets`' one (none: a style of its own each)."""
    camera = SimulatedTray(seed=SEED, sets=sets)
    dice, found, kind_right, value_right = Counter(), Counter(), Counter(), Counter()
    extra = fits = whole = sure = sure_wrong = 0
    seconds = []
    for roll in ROLLS:
        for _ in range(THROWS):
            start = time.perf_counter()
            thrown = camera.throw(roll)
            reading = reader.read_settled(camera, expect=roll, timeout=10)
            seconds.append(time.perf_counter() - start)
            right = 0
            for kind, value, box in thrown:
                dice[kind] += 1
                best = max(reading.dice, key=lambda d: iou(d.box, box), default=None)
                if best is None or iou(best.box, box) < 0.4:
                    continue
                found[kind] += 1
                kind_right[kind] += best.die == kind
                value_right[kind] += (best.die, best.value) == (kind, value)
                right += (best.die, best.value) == (kind, value)
                sure += not best.unsure
                sure_wrong += not best.unsure and (best.die, best.value) != (kind, value)
            extra += max(0, len(reading.dice) - sum(1 for _ in thrown))
            fits += Counter(d.die for d in reading.dice) == Counter(roll)
            whole += right == len(roll) and len(reading.dice) == len(roll)
    throws = THROWS * len(ROLLS)
    total = sum(dice.values())

    def share(part: Counter, kind: str | None = None) -> str:
        hits, n = (part[kind], dice[kind]) if kind else (sum(part.values()), total)
        return f"{100 * hits / max(1, n):.1f}%"

    print(f"demo camera, {name}: {throws} throws ({THROWS} each of {len(ROLLS)} rolls), "
          f"{total} dice, seed {SEED}")
    print(f"  found {share(found)}, kind right {share(kind_right)}, value right "
          f"{share(value_right)}; boxes of no die {extra}; sure {sure} ({sure_wrong} wrong)")
    print("  value right by kind: " + ", ".join(f"{k} {share(value_right, k)}" for k in KINDS))
    print(f"  readings of exactly the kinds wanted (Confirm needs no fix but values) "
          f"{100 * fits / throws:.1f}%; every die right {100 * whole / throws:.1f}%")
    print(f"  a throw rendered, settled and read: median {statistics.median(seconds):.2f} s")


if __name__ == "__main__":
    main()
