"""`rollscribe read`: read the dice in image files (one JSON line each with --json).

Exit status: 0 when every image was read (dice flagged unsure still count as read), 1 when at
least one image could not be read (its line carries "error"; the others are still printed),
2 for bad arguments (a die in --expect that is neither a standard kind nor taught: the message
names the known dice), 3 when a model (the classifier or the detector) or the --taught store is
missing or corrupt, or the store was taught with another model and keeps no shots to embed again
(no image can be read, nothing is printed on stdout). A store taught with another model that keeps its shots is
embedded again for this one, said once on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.commands import documented_parser

EXIT_UNREADABLE, EXIT_USAGE, EXIT_MODEL = 1, 2, 3


def register(sub: Any) -> None:
    parser = documented_parser(sub, "read", "read the dice in image files", __doc__)
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files of the tray")
    parser.add_argument("--json", action="store_true", help="one JSON object per image and line")
    parser.add_argument(
        "--expect",
        metavar="KINDS",
        help='the dice rolled, e.g. "d4,d6,d10,d12" or "2d6,d20"; a taught die by its name, '
        'several as 2xNAME (with --taught), e.g. "d6,2xskulls"',
    )
    parser.add_argument(
        "--model", metavar="PATH", help="the dice classifier's ONNX model (default: the shipped one)"
    )
    parser.add_argument(
        "--taught", type=Path, metavar="STORE", help="custom dice taught by `rollscribe enroll`"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.classify import Classifier
    from vision.errors import ImageError, ModelError
    from vision.prototypes import load_taught
    from vision.reader import DiceReader, load_image, parse_expect

    try:
        expect = parse_expect(args.expect)
        # both models loaded once for every image of the run; photo mode, so a die
        # photographed close is read as one die (vision.photo_mode)
        classifier = Classifier(args.model)
        taught, note = load_taught(args.taught, classifier) if args.taught else (None, None)
        # the die check is fitted for the shipped classifier: another one reads without it
        reader = DiceReader(classifier=classifier, photo_fallback=True, prototypes=taught,
                            check_faint=args.model is None)
        reader.resolve(expect)
    except ValueError as exc:
        print(f"rollscribe read: --expect: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ModelError as exc:
        print(f"rollscribe read: {exc}", file=sys.stderr)
        return EXIT_MODEL
    if note:
        print(f"rollscribe read: {note}", file=sys.stderr)
    status = 0
    for path in args.images:
        try:
            reading = reader.read_frame(load_image(path), expect)
        except ImageError as exc:
            status = EXIT_UNREADABLE
            result: dict[str, Any] = {"image": path, "error": str(exc)}
        else:
            result = {"image": path, "dice": [d.to_json() for d in reading.dice]}
        if args.json:
            print(json.dumps(result), flush=True)
        else:
            print(_table(result), flush=True)
    return status


def _table(result: dict[str, Any]) -> str:
    """A readable block per image: one row per die, unsure ones with the reason."""
    if "error" in result:
        return f"{result['image']}: cannot read: {result['error']}"
    dice = result["dice"]
    lines = [f"{result['image']}: {len(dice)} {'die' if len(dice) == 1 else 'dice'}"]
    if dice:
        lines.append(f"  {'#':>2}  {'die':<4} {'value':>5}  {'conf':>4}  {'box':<22} note")
    for i, d in enumerate(dice, 1):
        box = "({},{})-({},{})".format(*d["box"])
        note = f"UNSURE: {d['why_unsure']}" if d.get("unsure") else ""
        lines.append(
            f"  {i:>2}  {d['die']:<4} {d['value']!s:>5}  {d['confidence']:.2f}  {box:<22} {note}"
        )
    return "\n".join(lines).rstrip()
