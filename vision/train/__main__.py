"""`python -m vision.train` (= `make model`): render, train, export and measure models/dice.onnx
and the models beside it (models/numerals.onnx, models/pips.onnx, models/d4.onnx).

Steps: the numeral reader and the pip reader (vision.train.numerals, vision.train.pips: patches,
a short run, export, measure), then real photo crops and synthetic renders (cached in
artifacts/), a time-boxed training run, ONNX export, the d4 expert trained on from it
(vision.train.expert), each model's convolutions made int8 after its export
(vision.train.quantize), then accuracy of the exported file, reading with the readers and the
expert, on held-out real sequences and held-out renders, written into the model card.
`--expert-only --init W` trains just the d4 expert from dice weights W and links it into the
card of --out, measured again. `--tune --table-photos DIR` (`make tune`) trains the shipped
models on from their files with a table's own photos instead (vision.train.tune).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch

from vision.classify import EXPERTS, Classifier
from vision.train import dataset, expert, numerals, pips, tune
from vision.train.card import reader_cards, update_card, write_readme
from vision.train.compare import previous_accuracy, report
from vision.train.deadline import DEADLINE, training_minutes
from vision.train.evaluate import measure, remeasure
from vision.train.export import export_onnx, write_card
from vision.train.model import DiceNet, parameter_count
from vision.train.quantize import calibration_crops, quantize
from vision.train.realdata import (
    HELD_OUT_SEQUENCES,
    REPO,
    is_held_out,
    is_table,
    load_photos,
    load_table_photos,
    measured_on,
    varied,
)
from vision.train.recover import starting_weights
from vision.train.render import missing_faces
from vision.train.train import TrainConfig, bf16_is_fast, train

# 2.0.0: the value embedding sees the crop's centre unpooled (embeddings of 1.x are not comparable)
# 3.0.0: 96 px input, trained in bfloat16 (embeddings of 2.x are not comparable)
# 3.1.0: the same network; renders v3, renders drawn by kind focus, real dice on swapped tables
# 3.2.0: the same network; renders v4 (TrueType numerals), bands of replicated edge in training
# 3.3.0: the same network; renders v5 (edge-read d4 numerals no longer overlap). Not shipped yet:
#        models/ still holds 3.2.0 (a 40-minute run of this recipe read held-out real values
#        93.42% and the other camera's d6 75.5% / 66.9%, against 3.2.0's 93.50% and 90.7% / 78.8%)
# 3.4.0: the same network; renders v6 (half the d4s seen from the side by a level camera, those
#        crops and the real d4 photos kept upright in training). Not shipped yet: two 40-minute
#        runs read held-out real values 95.25% / 94.99% (d4 74.6% / 71.3%) but the other camera's
#        d6 75.5% / 70.9% (through `rollscribe read` 64.9%), against 3.2.0's 78.8% (73.5%)
# 3.5.0: the same network and renders; the first half of the run on 64 px crops
#        (train.TrainConfig.small_share), so the hour's minutes show 1.5x as many crops
# 3.2.1 (shipped): 3.2.0 trained 10 minutes on from its file on renders v7 at lr 1e-3 (`--init
#        models/dice.onnx`; docs/reader-history.md, "Dice model 3.2.1")
MODEL_VERSION = "3.5.0"
# The dice model's training budget. `make model` must finish within the hour on this 2-core
# machine: besides these minutes it trains the numeral reader (9.8 min with its patches and the
# installs in the 57:13 run of 2026-11-26 noon), the pip reader (9.3 min: 2.9 drawing, 6
# training), draws 48,000 renders and crops the real photos (5.8 min with renders v7, 7.1 with
# v6), trains the d4 expert (vision.train.expert, 7 min) and measures the models (1 min). So on
# a slow day vision.train.deadline cuts these 25 minutes to about 23 to end the run within the
# hour (that run: 6,154 steps, held-out real values 96.38% with its readers). The shipped dice model 3.2.0 trained 40 minutes
# before the numeral and pip readers and the d4 expert took their shares: single runs gave 91.7%
# at 36 minutes and 93.5% at 40, and the d4 expert's ten minutes then raised held-out real d4s
# from 64.4% to 79.5% (all values 93.5% -> 96.1%), which is why the readers' minutes come out of
# the dice model's. docs/reader-history.md has every run.
MINUTES = 25.0


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__)
    p.add_argument(
        "--minutes",
        type=float,
        help=f"the dice model's training budget (default {MINUTES:g}; --tune {tune.MINUTES:g})",
    )
    p.add_argument(
        "--deadline",
        type=float,
        default=DEADLINE,
        help="the whole run ends this many minutes after --started: the dice model's training "
        "is cut to fit (0: no deadline)",
    )
    p.add_argument(
        "--started",
        type=float,
        help="when the run began, in Unix seconds (make model: before its venv and installs); "
        "default now",
    )
    p.add_argument("--synthetic", type=int, default=32_000, help="rendered training crops")
    p.add_argument(
        "--synthetic-extra", type=int, default=16_000, help="more renders, from another seed"
    )
    p.add_argument("--synthetic-test", type=int, default=2_800, help="rendered held-out crops")
    p.add_argument("--workers", type=int, default=2, help="rendering processes")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--lr",
        type=float,
        help=f"peak learning rate (default {TrainConfig.lr:g}; --tune {tune.LR:g})",
    )
    p.add_argument(
        "--real-value-weight",
        type=float,
        default=0.2,
        help="weight of value labels from real runs of one die showing one or two values "
        "(0: those teach kind and state only; runs of re-rolled dice always count fully)",
    )
    p.add_argument(
        "--small-share",
        type=float,
        default=TrainConfig.small_share,
        help="share of the dice model's minutes trained on smaller crops (faster steps); "
        "none with --init: trained weights keep their size",
    )
    p.add_argument(
        "--threads", type=int, default=2, help="torch threads (1 when other work shares the CPU)"
    )
    p.add_argument(
        "--precision",
        choices=("auto", "bf16", "fp32"),
        default="auto",
        help="training arithmetic; auto: bfloat16 where the CPU has it natively",
    )
    p.add_argument(
        "--init",
        type=Path,
        help="go on training these weights: a checkpoint (artifacts/*.pt) or a dice model's "
        "ONNX file (models/dice.onnx: the shipped model)",
    )
    p.add_argument("--out", type=Path, default=REPO / "models" / "dice.onnx")
    p.add_argument(
        "--checkpoint", type=Path, help="where the torch weights go (default artifacts/<out>.pt)"
    )
    p.add_argument("--version", default=MODEL_VERSION, help="the model card's version")
    p.add_argument(
        "--numeral-minutes",
        type=float,
        default=numerals.NumeralConfig.minutes,
        help="the numeral reader's training budget, trained first (0: keep the one beside --out)",
    )
    p.add_argument(
        "--pip-minutes",
        type=float,
        default=pips.PipConfig.minutes,
        help="the pip reader's training budget, trained second (0: keep the one beside --out)",
    )
    p.add_argument(
        "--expert-minutes",
        type=float,
        help="the d4 expert's training budget, trained on from the dice model (0: no expert; "
        f"default {expert.ExpertConfig.minutes:g}); with --tune, on from the expert's own file "
        "when the table's photos hold d4s (default 0: the expert is kept)",
    )
    p.add_argument(
        "--expert-only",
        action="store_true",
        help="train only the d4 expert, from --init, and link it into --out's card",
    )
    p.add_argument(
        "--table-photos",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a table's own dice photos (`rollscribe photos DIR`), trained on and measured on "
        "(one game in five held out); may be given again for more tables",
    )
    p.add_argument(
        "--tune",
        action="store_true",
        help="train the dice model of --out on from its file with the --table-photos "
        "(`make tune`); the d4 expert and the readers stay (see --expert-minutes)",
    )
    args = p.parse_args(argv)
    if args.tune:
        return tune.tune_args(args, p)
    if args.expert_only and args.init is None:
        p.error("--expert-only needs --init: the dice model's weights")
    args.minutes = MINUTES if args.minutes is None else args.minutes
    args.lr = TrainConfig.lr if args.lr is None else args.lr
    if args.expert_minutes is None:
        args.expert_minutes = expert.ExpertConfig.minutes
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    command = "python -m vision.train " + " ".join(argv)
    t0 = time.monotonic()
    started = args.started if args.started is not None else time.time()
    previous = previous_accuracy(args.out)  # before this run writes over the card
    # the card of the model file trained on from (--init models/dice.onnx; --tune's own), read
    # before a run that writes over it
    init_card_path = args.init.with_suffix(".json") if args.init else None
    init_card = {}
    if init_card_path is not None and init_card_path.is_file():
        init_card = json.loads(init_card_path.read_text())

    def log(msg: str) -> None:
        print(f"[{(time.monotonic() - t0) / 60:5.1f} min] {msg}", flush=True)

    photos = load_photos() + load_table_photos(args.table_photos)
    train_photos = [p for p in photos if not is_held_out(p)]
    test_photos = measured_on(photos)
    log(f"{len(train_photos)} real training photos, {len(test_photos)} held out")
    missing = missing_faces()
    if missing:
        log(
            f"warning: {len(missing)} TrueType faces missing, drawn in Hershey faces instead "
            "(apt install fonts-dejavu-core fonts-liberation): " + ", ".join(missing)
        )
    bf16 = args.precision == "bf16" or (args.precision == "auto" and bf16_is_fast())
    readers = ((numerals.RECIPE, args.numeral_minutes), (pips.RECIPE, args.pip_minutes))
    for recipe, minutes in readers:
        if minutes > 0 and not args.expert_only:
            config = replace(recipe.defaults, minutes=minutes, seed=args.seed, bf16=bf16,
                             threads=args.threads)
            numerals.build_reader(recipe, args.out.parent / recipe.file, config, args.workers,
                                  log, command)
    real_train = dataset.real(train_photos, "train", args.workers)
    syn_train = dataset.synthetic(args.synthetic, args.seed + 1, args.workers)
    if args.synthetic_extra:
        extra = dataset.synthetic(args.synthetic_extra, args.seed + 3, args.workers)
        syn_train = dataset.concat(syn_train, extra)
    # the d4 expert's renders: the dice model's of its kinds and its own, drawn before the dice
    # model trains so that the deadline counts the time they take
    syn_expert = syn_train
    # the experts of the model trained on from: a tune trains its d4 expert on from that file
    # (--expert-minutes), a run that trains none keeps them
    kept = init_card.get(EXPERTS, [])
    expert_from = args.out.parent / kept[0]["file"] if args.tune and kept else None
    table_kinds = {p.kind for p in train_photos if is_table(p)}
    if args.tune and not (expert_from and table_kinds & set(expert.KINDS_READ)):
        args.expert_minutes = 0.0  # the expert has nothing new to learn: it is kept
    if args.expert_minutes > 0:
        own = expert.own_renders(args.seed, args.workers)
        syn_expert = dataset.concat(syn_train.take(syn_train.of_kinds(expert.KINDS_READ)), own)
        log(f"{len(own)} renders of {', '.join(expert.KINDS_READ)} alone for the expert")
    log(f"data ready: {len(syn_train)} renders, {len(real_train)} real crops")

    init = starting_weights(args.init, syn_train, real_train) if args.init else None
    table = np.array([is_table(p) for p in train_photos], bool)
    expert_config = replace(expert.ExpertConfig(), minutes=args.expert_minutes, seed=args.seed,
                            bf16=bf16, threads=args.threads)

    def train_expert(dice: DiceNet, source: str) -> dict:
        entry = expert.build_expert(dice, syn_expert, real_train, varied(train_photos), table,
                                    expert_config, args.out.parent, log, command, source,
                                    tune.tuned_version(expert.VERSION) if args.tune
                                    else expert.VERSION)
        return {EXPERTS: [entry]}

    if args.expert_only:
        assert init is not None  # parse_args saw to it
        source = (f"{args.init} version {init_card['version']} (its weights recovered from the "
                  "file: vision.train.recover)" if init_card else f"the dice weights {args.init}")
        update_card(args.out, train_expert(init, source))
        report(remeasure(args.out, args.table_photos)["accuracy"], log, previous)
        return 0

    expert_minutes = max(args.expert_minutes, 0.0)
    minutes = training_minutes(
        args.minutes, args.deadline, (time.time() - started) / 60, expert_minutes
    )
    if minutes < args.minutes:
        log(f"the dice model trains {minutes:.1f} of its {args.minutes:g} minutes, to end "
            f"{args.deadline:g} minutes after the start")
    config = TrainConfig(
        minutes=minutes,
        seed=args.seed,
        lr=args.lr,
        real_value_weight=args.real_value_weight,
        bf16=bf16,
        threads=args.threads,
        small_share=args.small_share,
    )
    model, summary = train(syn_train, real_train, config, log, init, varied(train_photos), table)
    torch.save(
        model.state_dict(), args.checkpoint or dataset.artifacts_dir() / f"{args.out.stem}.pt"
    )
    export_onnx(model, args.out)
    training = {
        **summary,
        "parameters": parameter_count(model),
        "synthetic_crops": len(syn_train),
        "real_crops": len(real_train),
        "held_out_sequences": sorted(HELD_OUT_SEQUENCES),
        "table_photos": [str(d) for d in args.table_photos],
        "truetype_faces_missing": missing,
        "minutes_wanted": args.minutes,
        **({"trained_on_from": str(args.init)} if args.init else {}),
        **({"trained_on_from_version": init_card["version"]} if init_card else {}),
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
    }
    # a card with the checksum first, so the file can be loaded to be measured
    links = {
        recipe.key: entry
        for recipe, _ in readers
        if (entry := recipe.link(args.out.parent / recipe.file))
    }
    version = tune.tuned_version(init_card["version"]) if args.tune else args.version
    if expert_minutes and expert_from:
        # syn_expert holds renders of its kinds alone; its batch norms are measured on those
        real_mine = real_train.take(real_train.of_kinds(expert.KINDS_READ))
        start = starting_weights(expert_from, syn_expert, real_mine)
        links.update(train_expert(start, f"the expert {expert_from} ({EXPERTS} of the card)"))
    elif expert_minutes:
        links.update(train_expert(model, "the dice model of the same run"))
    elif kept and all((args.out.parent / entry["file"]).is_file() for entry in kept):
        links[EXPERTS] = kept  # their files beside --out (--tune; `--init ... --expert-minutes 0`)
    write_card(args.out, version, {}, training, links)
    quantize(args.out, calibration_crops(args.workers))

    accuracy = measure(
        Classifier(args.out), args.workers, args.synthetic_test, args.seed, args.table_photos
    )
    card = write_card(args.out, version, accuracy, training, links)
    write_readme(card, args.out.parent / "README.md", reader_cards(card, args.out.parent))
    log(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    report(accuracy, log, previous)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
