"""The top numeral's placement learnt from confirmed dice, on every real rig: `python -m bench placement`.

Why: a table learns where its camera shows a kind's top numeral from the dice its players
confirm (vision.placement). Here each ucffool rig plays a table: one photo in EVERY of each run
of numbered dice (a d4 at its column of upright windows), each cut into the crop the table
keeps (a KEPT_CROP_SIDE px JPEG) and read as vision.placement reads it, and read from the whole
photo at each candidate placement and by the locator's windows. Then, for SPLITS seeded draws
of K of a rig-kind's photos as the dice players confirmed, the placement chosen from their
crops reads the rest. Printed per rig and kind, worst first, averaged over the draws: value right with the
learnt placement and without it, the share sure and the sure readings that were wrong, and how
often a placement was chosen. Neither model saw these rigs: the figures are cross-rig. Printed,
never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict

import numpy as np

from bench.numerals_bench import sample
from bench.table_memory_bench import kept_crop_image
from vision.numerals import NumeralReader, TableSight, placed_verdict, placements_for
from vision.placement import KINDS, choose, trusts, verdicts
from vision.train.realdata import datasets_root, locate_die, read_photo
from vision.train.realsets import rig_of, rig_table

EVERY = 8
SPLITS = 20  # seeded draws of the confirmed dice; each figure is their mean
CONFIRMED = (10, 20)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bench placement")
    p.add_argument("--every", type=int, default=EVERY)
    args = p.parse_args(argv or [])
    reader = NumeralReader(threads=2)
    table = rig_table(datasets_root())
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    seconds: dict[str, list[float]] = defaultdict(list)
    start = time.perf_counter()
    photos = [photo for photo in sample(args.every) if photo.kind in KINDS]
    for photo in photos:
        image = read_photo(photo)
        box = locate_die(image)
        t0 = time.perf_counter()
        usual = reader.read_many(image, [box], [photo.kind])[0]
        t1 = time.perf_counter()
        reader.read_many(image, [box], [photo.kind],
                         TableSight({photo.kind: placements_for(photo.kind)[-1]}))
        t2 = time.perf_counter()
        crop = verdicts(reader, kept_crop_image(image, box), photo.kind, photo.value)
        seconds["alone"].append(t1 - t0)
        seconds["placed"].append(t2 - t1)
        seconds["learnt"].append(time.perf_counter() - t2)
        trusted = reader.read_many(image, [box], [photo.kind],
                                   TableSight(trusted=frozenset([photo.kind])))[0]
        placed = [placed_verdict(r, usual)
                  for r in reader.read_placed(image, box, photo.kind,
                                                  placements_for(photo.kind))]
        groups[(rig_of(table, photo), photo.kind)].append({
            "value": photo.value, "usual": usual, "trusted": trusted, "placed": placed,
            "crop": crop})
    print(f"numbered dice, ucffool's rigs, one photo in {args.every} of each run "
          f"({len(photos)} photos, read in {time.perf_counter() - start:.0f} s); each rig "
          f"plays a table; means of {SPLITS} draws of the dice confirmed")
    ms = {key: 1000 * statistics.median(times) for key, times in seconds.items()}
    print(f"a die read (median, two threads, in one run): by the locator's windows "
          f"{ms['alone']:.0f} ms, at a placement {ms['placed']:.0f} ms; a confirmed die "
          f"learnt (its kept crop read every way vision.placement tries) {ms['learnt']:.0f} ms")
    for k in CONFIRMED:
        print(f"after {k} confirmed dice of a kind, the rest read:")
        lines, total = [], Counter()
        for key, dice in groups.items():
            if len(dice) <= k:
                continue
            got = Counter()
            for seed in range(SPLITS):
                order = np.random.default_rng(seed).permutation(len(dice))
                rows = [dice[i]["crop"] for i in order[:k]]
                placement, trust = choose(rows, key[1]), trusts(rows)
                got["chose"] += placement is not None
                got["trust"] += trust
                for i in order[k:]:
                    die = dice[i]
                    reading = (die["placed"][placements_for(key[1]).index(placement)] if placement
                               else die["trusted"] if trust else die["usual"])
                    got["n"] += 1
                    got["right"] += reading.value == die["value"]
                    got["before"] += die["usual"].value == die["value"]
                    got["sure"] += not reading.why_unsure
                    got["sure_before"] += not die["usual"].why_unsure
                    got["wrong"] += not reading.why_unsure and reading.value != die["value"]
            total.update(got)
            line = (f"  {key[0]:15s} {key[1]:4s} {len(dice):4d} "
                    f"dice: value right {100 * got['right'] / got['n']:5.1f}% (locator "
                    f"alone {100 * got['before'] / got['n']:5.1f}%), sure "
                    f"{100 * got['sure'] / got['n']:5.1f}% (alone "
                    f"{100 * got['sure_before'] / got['n']:5.1f}%), sure and wrong "
                    f"{got['wrong'] / SPLITS:.1f} a draw; a placement chosen in "
                    f"{got['chose']}, the locator trusted in {got['trust']} of {SPLITS} "
                    f"draws")
            lines.append((got["right"] / got["n"], line))
        print("\n".join(line for _, line in sorted(lines)))
        if total["n"]:
                print(f"  all: value right {100 * total['right'] / total['n']:.1f}% (locator "
                  f"alone {100 * total['before'] / total['n']:.1f}%), sure "
                  f"{100 * total['sure'] / total['n']:.1f}% (alone "
                  f"{100 * total['sure_before'] / total['n']:.1f}%), sure and wrong "
                  f"{100 * total['wrong'] / max(1, total['sure']):.2f}% of the sure")


if __name__ == "__main__":
    main(sys.argv[1:])
