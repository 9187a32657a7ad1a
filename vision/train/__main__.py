"""`python -m vision.train` (= `make model`): the reader's two models from scratch, measured
across rigs.

Steps: the real crops of every rig (vision.train.realsets, packed once in artifacts/), renders
of all seven kinds and synthetic whole scenes (vision.train.render, vision.train.scenes, drawn
in worker processes), then the classifier (pretrained Lite0 fine-tuned) and the detector (from
scratch) on everything, the classifier's embedding then taught symbol-die faces
(vision.train.icon_embedding), written to --out with their cards. `--only embedding` does that
last step alone on the shipped model (its torch weights in --weights), changing nothing else.
With --folds, each group of rigs in realsets.RIG_FOLDS is then left out in turn: both models
are trained again without it (shorter) and read it, crops and whole frames (vision.train.crossrig); the figures go into the cards and
cross_rig.json, which bench/cross_rig_bench.py prints.

A CUDA GPU is used when there is one (the shipped models were trained on one); on this 2-core
machine the same command runs on the CPU, for longer.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from vision.classify import Classifier
from vision.detect import Detector
from vision.reader import DiceReader
from vision.train import crossrig, data, icon_embedding, realsets
from vision.train.fit import INPUT, device, scene_set, train_classifier, train_detector
from vision.train.nets import DiceClassifier
from vision.train.onnx_weights import detector_state_from_onnx
from vision.train.quantize import calibration
from vision.train.realsets import CropSet
from vision.train.render import missing_faces
from vision.train.scenes import REAL_SHARE
from vision.train.ship import ship_classifier, ship_detector, ship_embedding

VERSION = "4.0.0"  # 4: pretrained Lite0 classifier and a learned detector (issue 45)
REPO = Path(__file__).resolve().parents[2]
EVAL_SCENES = 60  # whole frames of a held-out rig's real dice pasted on its own surfaces
# (classifier seconds, detector seconds, renders, scenes) on a GPU and on this machine's CPU
BUDGETS = {"cuda": (100.0, 70.0, 30_000, 5_000), "cpu": (2400.0, 1500.0, 24_000, 3_000)}
FOLD_SHARE = 0.25  # a fold trains this share of the shipped models' seconds
PARTS = ("classifier", "detector")
ICON_DICE, NUMBERED = 400, 3000  # renders the embedding is taught on (icon_embedding)
GOING_ON = 0.3  # a run that goes on from trained weights peaks at this share of the rate

Log = Callable[[str], None]


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=REPO / "models")
    p.add_argument("--pack", type=Path, default=REPO / "artifacts" / "real-crops.npz",
                   help="the real crops, packed (made from ../shared/datasets when missing)")
    p.add_argument("--trays", type=Path, default=None,
                   help="nell-byler's tray folder (default: the datasets root's)")
    p.add_argument("--classifier-seconds", type=float)
    p.add_argument("--detector-seconds", type=float)
    p.add_argument("--detector-steps", type=int,
                   help="train the detector this many batches instead of for its seconds")
    p.add_argument("--renders", type=int)
    p.add_argument("--scenes", type=int)
    p.add_argument("--pretrained-detector", action="store_true",
                   help="train the detector's head on Lite0's frozen ImageNet features "
                        "(nets.PretrainedDetector) instead of the whole detector from scratch")
    p.add_argument("--photo-frames", type=int, default=0,
                   help="the detector trains on this many one-die photos of each rig too, "
                        "framed as they are (data.photo_frames; a fold leaves its rig's out)")
    p.add_argument("--hard-negatives", action="store_true",
                   help="draw the detector's scenes with issue 53's hard negatives too")
    p.add_argument("--folds", action="store_true", help="also measure leaving each rig out")
    p.add_argument("--folds-only", action="store_true", help="measure the folds, ship nothing")
    p.add_argument("--fold-share", type=float, default=FOLD_SHARE)
    p.add_argument("--fold", type=int, action="append", default=[],
                   help="with --folds-only: only this fold of realsets.RIG_FOLDS (repeatable)")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--weights", type=Path, default=REPO / "artifacts",
                   help="where the shipped models' torch weights are kept (to train on from)")
    p.add_argument("--init", type=Path,
                   help="go on from the weights in this folder (dice.pt, detector.pt; without "
                        "detector.pt, those of its detector.onnx)")
    p.add_argument("--only", choices=(*PARTS, "embedding"),
                   help="train and ship one model, keep the other; embedding: the shipped "
                        "classifier's embedding alone")
    p.add_argument("--icon-dice", type=int, default=ICON_DICE,
                   help="random symbol dice the embedding is taught on")
    p.add_argument("--table-photos", type=Path, action="append", default=[],
                   help="a table's own dice photos (`rollscribe photos DIR`), also trained on")
    args = p.parse_args(argv)
    if args.init and args.only in (None, "detector"):
        pretrained = _pretrained_run(args.init)
        if args.pretrained_detector and not pretrained:
            p.error("--pretrained-detector goes on only from a pretrained run's detector.pt "
                    "(a from-scratch detector is another network)")
        if pretrained and not args.pretrained_detector:
            p.error(f"{args.init}/detector.pt is a pretrained run's: add --pretrained-detector")
    if args.only and args.folds:
        p.error("--only trains one model; the shipped folds need both")
    if args.folds_only and args.only not in (None, "detector"):
        p.error("--folds-only trains both models, or the detector alone")
    return args


# --- one model pair ---------------------------------------------------------------------------


def train_pair(
    real: CropSet, renders: CropSet | None, scenes: list, trays: list, leave_out: tuple[str, ...],
    seconds: tuple[float, float], out: Path, log: Log, seed: int, version: str,
    weights: Path | None = None, init: Path | None = None, parts: tuple[str, ...] = PARTS,
    icon_dice: int = 0, workers: int = 1, detector_steps: int | None = None,
    pretrained_detector: bool = False,
) -> tuple[Path, Path]:
    """The classifier and the detector (`parts` of them) trained without the rigs `leave_out`
    (on from the weights in `init`, if given), the classifier's embedding then taught
    `icon_dice` symbol dice (0: not), shipped to `out`, their torch weights kept in `weights` if
    given. A card of a run that went on says what it went on from. `detector_steps`: the
    detector trains that many batches, not seconds[1]; `pretrained_detector`: its head on
    Lite0's frozen features (nets.PretrainedDetector)."""
    clf_path, det_path = out / "dice.onnx", out / "detector.onnx"
    if weights is not None:
        weights.mkdir(parents=True, exist_ok=True)
    if "classifier" in parts:
        unseen = (*leave_out, realsets.TABLE_HELD_OUT)
        keep = realsets.concat(real.without(unseen), *([renders] if renders else []))
        log(f"classifier without {list(leave_out) or 'nothing'}: {len(keep)} crops")
        start = _weights(init, "dice.pt")
        clf = train_classifier(keep, seconds[0], log, seed=seed, init=start,
                               peak_lr=2e-3 * (GOING_ON if start else 1.0))
        training = _training(leave_out, seconds[0], len(keep),
                             init / clf_path.name if init else None)
        if icon_dice:
            training |= icon_embedding.retrain(clf, icon_dice, NUMBERED, seed, workers, log)
        ship_classifier(clf, clf_path, version, INPUT, training, _checks(clf_path))
        if weights is not None:
            _save_half(clf, weights / "dice.pt")
    if "detector" in parts:
        frames = [(im, b) for (im, b, _), rig in scenes if rig not in leave_out]
        if "nell-byler-trays" not in leave_out:
            frames += [(im, np.array([t[2] for t in truth], np.float32)) for im, truth in trays]
        log(f"detector: {len(frames)} frames")
        start = _detector_weights(init)
        took = time.monotonic()
        scenes_in = scene_set(frames)
        det = train_detector(scenes_in, seconds[1], log, seed=seed, init=start,
                             peak_lr=3e-3 * (GOING_ON if start else 1.0), steps=detector_steps,
                             pretrained=pretrained_detector)
        training = _training(leave_out, seconds[1], len(frames),
                             init / det_path.name if init else None)
        if pretrained_detector:
            training["net"] = ("Lite0's ImageNet features to stride 16, frozen, in 8 bits; the "
                               "head trained")
        if detector_steps:
            training |= {"steps": detector_steps, "seconds": round(time.monotonic() - took)}
        ship_detector(det, det_path, version, training,
                      frames=calibration(scenes_in.images) if pretrained_detector else None)
        if weights is not None:
            torch.save(det.state_dict(), weights / "detector.pt")
    return clf_path, det_path


def _save_half(net: torch.nn.Module, path: Path) -> None:
    torch.save({k: v.half() if v.is_floating_point() else v
                for k, v in net.state_dict().items()}, path)


def embedding_only(args: argparse.Namespace, log: Log) -> None:
    """The shipped classifier's embedding taught symbol dice again, written into its ONNX file
    (every other weight as shipped) and its torch weights."""
    net = DiceClassifier(pretrained=False)
    net.load_state_dict({k: v.float() for k, v in _weights(args.weights, "dice.pt").items()})
    path = args.out / "dice.onnx"
    _check_same_model(net, path)
    training = json.loads(path.with_suffix(".json").read_text())["training"]
    training |= icon_embedding.retrain(net, args.icon_dice, NUMBERED, args.seed, args.workers,
                                       log)
    ship_embedding(net.embed, path, training)
    _save_half(net, args.weights / "dice.pt")


def _check_same_model(net: DiceClassifier, path: Path) -> None:
    """Refuse torch weights that are not the ONNX file's (an older run's dice.pt lying in
    --weights): the embedding would be trained on other features than the file's. Half
    precision moves kind logits by hundredths; another run's by tens."""
    x = np.random.default_rng(0).uniform(0, 255, (4, 3, INPUT, INPUT)).astype(np.float32)
    with torch.no_grad():
        kind = net.eval()(torch.from_numpy(x))[0].numpy()
    shipped = Classifier(path, threads=1).run(x)["kind"]
    if np.abs(kind - shipped).max() > 0.5:
        raise SystemExit(f"the torch weights are not {path}'s: use --weights with its dice.pt")


def _checks(path: Path) -> dict | None:
    """The kinds the card being replaced has players always check: a model trained again keeps
    them until folds measure it (None: the shipping default, every kind)."""
    if not path.with_suffix(".json").exists():
        return None
    checks = json.loads(path.with_suffix(".json").read_text()).get("accuracy", {})
    return {"always_check": checks["always_check"]} if "always_check" in checks else None


def _weights(folder: Path | None, name: str) -> dict | None:
    return torch.load(folder / name, map_location="cpu", weights_only=True) if folder else None


def _pretrained_run(folder: Path) -> bool:
    """Whether `folder`'s detector.pt holds a pretrained run's weights (Lite0's `backbone.`
    beside the head): a from-scratch detector's would not load into that network, nor its into
    the from-scratch one, and the run would fail only after minutes of scenes."""
    path = folder / "detector.pt"
    return path.exists() and any(key.startswith("backbone.") for key in
                                 torch.load(path, map_location="cpu", weights_only=True))


def _detector_weights(folder: Path | None) -> dict | None:
    """The detector's weights in `folder`: its detector.pt, else those read out of its
    detector.onnx (no torch checkpoint was kept of the shipped 4.0.0)."""
    if folder is not None and not (folder / "detector.pt").exists():
        return detector_state_from_onnx(folder / "detector.onnx")
    return _weights(folder, "detector.pt")


def _training(leave_out: tuple[str, ...], seconds: float, samples: int,
              went_on: Path | None) -> dict:
    """The card's account of a run (and of the runs it went on from: `went_on`, the model file
    whose weights it started from)."""
    training = {"left_out_rigs": list(leave_out), "seconds": seconds, "device": device().type,
                "samples": samples}
    if went_on is not None and went_on.with_suffix(".json").exists():
        training["went_on_from"] = json.loads(went_on.with_suffix(".json").read_text())["training"]
    return training


def measure_fold(
    clf_path: Path, det_path: Path, real: CropSet, rigs: tuple[str, ...], frames: list
) -> dict:
    """A fold's models on the rigs they never saw: each rig's crops, then whole frames."""
    threads = max(2, (os.cpu_count() or 2) // 2)
    classifier = Classifier(clf_path, threads=threads)
    reader = DiceReader(classifier=classifier, detector=Detector(det_path, threads=threads),
                        check_faint=False)  # the die check is fitted for the shipped models
    figures = {rig: {"crops": crossrig.read_crops(classifier, real.of((rig,)))} for rig in rigs}
    figures["frames"] = crossrig.read_frames(reader, frames)
    return figures


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    started = time.monotonic()

    def log(msg: str) -> None:
        print(f"[{(time.monotonic() - started) / 60:5.1f} min] {msg}", flush=True)

    dev = device()
    budget = BUDGETS[dev.type]
    seconds = (args.classifier_seconds or budget[0], args.detector_seconds or budget[1])
    log(f"device {dev}; classifier {seconds[0]:.0f} s, detector {seconds[1]:.0f} s")
    if missing_faces():
        log(f"TrueType faces missing ({', '.join(missing_faces())}): `make fonts`")
    torch.set_num_threads(max(1, args.workers))
    if args.only == "embedding":
        embedding_only(args, log)
        log(f"shipped to {args.out}")
        return 0
    if args.pack.exists():
        real = realsets.load(args.pack)
    else:
        real = realsets.build(workers=args.workers)
        args.pack.parent.mkdir(parents=True, exist_ok=True)
        realsets.save(real, args.pack)
    if args.table_photos:
        real = realsets.concat(real, realsets.table_crops(args.table_photos, args.workers))
    log(f"real crops: {len(real)} from rigs {sorted(str(r) for r in set(real.rigs))}")
    folds = realsets.RIG_FOLDS if (args.folds or args.folds_only) else ()
    folds = tuple(f for i, f in enumerate(folds) if not args.fold or i in args.fold)
    parts = (args.only,) if args.only else PARTS
    renders = None
    if "classifier" in parts:
        renders = data.renders(args.renders or budget[2], args.seed, args.workers)
        log(f"renders: {len(renders)}")
    scenes, held_scenes, trays = [], {}, []
    if "detector" in parts:
        scenes, held_scenes = data.scenes(
            real, args.scenes or budget[3], tuple(f[0] for f in folds), EVAL_SCENES, args.seed,
            args.workers, REAL_SHARE, args.hard_negatives,
        )
        trays = data.tray_frames(args.trays or realsets.datasets_root() / realsets.NELL)
        photos = data.photo_frames(args.photo_frames) if args.photo_frames else []
        scenes += photos
        log(f"scenes: {len(scenes) - len(photos)} drawn, {len(photos)} one-die photos, "
            f"{len(trays)} real trays")
    if not args.folds_only:
        args.out.mkdir(parents=True, exist_ok=True)
        train_pair(real, renders, scenes, trays, (), seconds, args.out, log, args.seed, VERSION,
                   args.weights, args.init, parts, args.icon_dice, args.workers,
                   args.detector_steps, args.pretrained_detector)
        log(f"shipped to {args.out}")
        if args.table_photos and "classifier" in parts:
            held = crossrig.read_crops(Classifier(args.out / "dice.onnx"),
                                       real.of((realsets.TABLE_HELD_OUT,)))
            crossrig.into_cards(args.out, {"table_held_out": held}, ("dice",))
            log(f"the table's held-out games: {json.dumps(held)}")
    report: dict = {}
    fold_seconds = (seconds[0] * args.fold_share, seconds[1] * args.fold_share)
    target = REPO / "artifacts" if args.folds_only else args.out
    for fold in folds:
        i = realsets.RIG_FOLDS.index(fold)
        out = REPO / "artifacts" / f"fold-{i}"
        paths = train_pair(real, renders, scenes, trays, fold, fold_seconds, out, log,
                           args.seed + 1 + i, f"{VERSION}-fold{i}", init=args.init, parts=parts,
                           detector_steps=args.detector_steps,
                           pretrained_detector=args.pretrained_detector)
        if "classifier" not in parts:  # the detector alone: bench/detector_rigs_bench.py reads it
            continue
        if "nell-byler-trays" in fold:
            frames = trays
        else:
            frames = [(im, [(k, v, tuple(map(float, box))) for (k, v), box in
                            zip(truth, boxes, strict=True)])
                      for im, boxes, truth in held_scenes.get(fold[0], [])]
        name = " + ".join(fold)
        report[name] = measure_fold(*paths, real, fold, frames)
        log(f"fold {name}: {json.dumps(report[name])}")
        summary = crossrig.summary(report, fold_seconds)
        (target / "cross_rig.json").write_text(
            json.dumps({"summary": summary, "folds": report}, indent=1) + "\n")
    if folds and not args.folds_only:
        summary = crossrig.summary(report, fold_seconds)
        crossrig.into_cards(args.out, {"cross_rig": summary})
        crossrig.into_cards(args.out, {"always_check": crossrig.checked_kinds(report)}, ("dice",))
    log("done")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
