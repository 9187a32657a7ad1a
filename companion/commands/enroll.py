"""`rollscribe enroll`: teach Rollscribe a custom symbol die from a few photos of each face.

Each shot is a photo or camera frame showing the die alone with that face up: on the tray as the
camera sees it, or held close to a camera (the die may fill most of the photo, even cut by its
edges; vision.shots finds it). The classifier's embedding of each shot makes the face's
prototype (vision.prototypes): nothing is retrained. Faces already in the store are kept, except
the ones taught again, which are replaced. Self-consistency reads every shot back against
prototypes built without it (leave-one-out).

The store records the model it was taught with and keeps each shot's crop (PNG, about 10 kB), so
when models/dice.onnx is replaced the faces are embedded again from the shots, on load.

Exit status: 0 taught (store written), 1 a shot could not be used (unreadable image, no die or
several dice in it), 2 bad arguments (a face with no shots, a standard kind as the die's name),
3 a model or the store is missing or corrupt (or the store was taught with another model before
stores kept their shots: teach its dice again into a new store). Unless the status is 0 the store
is untouched; it is always replaced whole (temp file + rename), so a kill never leaves half a
store behind.

Read taught dice with `rollscribe read --taught STORE IMAGE...`, or at the table with
`rollscribe serve --taught STORE`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.commands import documented_parser

if TYPE_CHECKING:
    from vision.classify import Classifier
    from vision.detect import Detector
    from vision.prototypes import FacePrototype, Prototypes

EXIT_BAD_SHOT, EXIT_USAGE, EXIT_MODEL = 1, 2, 3


def register(sub: Any) -> None:
    parser = documented_parser(
        sub, "enroll", "teach a custom symbol die from a few photos of each face", __doc__
    )
    parser.add_argument(
        "--store",
        required=True,
        type=Path,
        metavar="PATH",
        help="JSON file of taught faces (created, or extended)",
    )
    parser.add_argument(
        "--die", required=True, metavar="NAME", help='the die\'s name, e.g. "monster"'
    )
    parser.add_argument(
        "--face",
        action="append",
        nargs="+",
        required=True,
        metavar=("NAME", "IMAGE"),
        help="a face's name then its shots, e.g. --face claw a.jpg b.jpg c.jpg",
    )
    parser.add_argument(
        "--model", metavar="PATH", help="the dice classifier's ONNX model (default: the shipped one)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.classify import Classifier
    from vision.detect import Detector
    from vision.errors import ModelError
    from vision.prototypes import FacePrototype, Prototypes, load_taught
    from vision.shots import ShotError

    die = args.die.strip()
    shots: dict[str, list[str]] = {}
    for name, *images in args.face:
        shots.setdefault(name.strip(), []).extend(images)
    empty = [name for name, images in shots.items() if not images or not name]
    if not die or empty:
        what = "a die name" if not die else f"shots of face {', '.join(map(repr, empty))}"
        return _fail(f"no {what}: give --face NAME IMAGE [IMAGE...]", EXIT_USAGE)
    try:
        classifier = Classifier(args.model)
        detector = Detector()  # boxes the die of shots taken as the tray camera sees it
        # a store taught with another model comes back embedded with this one, and is saved so
        stored, note = (
            load_taught(args.store, classifier) if args.store.exists() else (Prototypes(()), None)
        )
    except ModelError as exc:
        return _fail(f"{exc}; nothing written", EXIT_MODEL)
    if die.casefold() in classifier.kinds:
        return _fail(f"{die!r} is a standard kind; name the custom die otherwise", EXIT_USAGE)
    try:
        embedded = {
            face: embed_shots(classifier, images, detector) for face, images in shots.items()
        }
    except ShotError as exc:
        return _fail(f"{exc}; nothing written", EXIT_BAD_SHOT)
    new = [FacePrototype.from_embeddings(die, face, *e) for face, e in embedded.items()]
    taught = teach(stored, new, classifier.card["sha256"])
    try:
        save_atomically(taught, args.store)
    except OSError as exc:
        return _fail(f"cannot write {args.store}: {exc}; the store is unchanged", EXIT_MODEL)
    if note:
        print(f"rollscribe enroll: {note}", file=sys.stderr)
    report(die, taught, {face: vectors for face, (vectors, _) in embedded.items()}, shots)
    print(f"saved {len(taught.faces)} taught faces to {args.store}")
    return 0


def _fail(message: str, status: int) -> int:
    print(f"rollscribe enroll: {message}", file=sys.stderr)
    return status


def embed_shots(
    classifier: Classifier, images: list[str], detector: Detector | None = None
) -> tuple[np.ndarray, list[bytes]]:
    """The classifier's embedding of the one die in each shot (one batched model call), and
    its crop as PNG (kept in the store to embed again with another model); ShotError naming the
    image when a shot cannot be read or does not show one die."""
    from vision.errors import ImageError
    from vision.prototypes import encode_shot
    from vision.reader import load_image
    from vision.shots import ShotError, locate_one_die

    crops = []
    for path in images:
        try:
            frame = load_image(path)
            box = locate_one_die(frame, detector).box
        except (ImageError, ShotError) as exc:
            raise ShotError(str(exc) if isinstance(exc, ImageError) else f"{path}: {exc}") from exc
        crops.append(classifier.crops(frame, [box])[0])
    embeddings = classifier.run(classifier.preprocess(crops))["embedding"]
    return embeddings, [encode_shot(crop) for crop in crops]


def teach(stored: Prototypes, new: list[FacePrototype], model_sha256: str) -> Prototypes:
    """The store with these faces learnt (replacing any taught before under the same names),
    all of them embeddings of the model `model_sha256`."""
    from vision.prototypes import Prototypes

    kept = [f for f in stored.faces if (f.die, f.face) not in {(n.die, n.face) for n in new}]
    return Prototypes([*kept, *new], stored.match_at, model_sha256)


def leave_one_out(
    taught: Prototypes, die: str, face: str, embeddings: np.ndarray
) -> list[FacePrototype | None]:
    """Per shot: what it reads as against the store with its face learnt from the other shots
    (None: nothing close enough). Empty for a single shot, which has no others to learn from."""
    from vision.prototypes import FacePrototype, Prototypes

    others = [f for f in taught.faces if (f.die, f.face) != (die, face)]
    read_as: list[FacePrototype | None] = []
    for i in range(len(embeddings) if len(embeddings) > 1 else 0):
        without = FacePrototype.from_embeddings(die, face, np.delete(embeddings, i, axis=0))
        match = Prototypes([*others, without], taught.match_at).match(embeddings[i : i + 1])[0]
        read_as.append(match.prototype if match else None)
    return read_as


def report(
    die: str, taught: Prototypes, embeddings: dict[str, np.ndarray], shots: dict[str, list[str]]
) -> None:
    """Shots per face, each shot read back (leave-one-out), and the misread shots by name."""
    right = total = 0
    for face, vectors in embeddings.items():
        read_as = leave_one_out(taught, die, face, vectors)
        ok = sum(p is not None and (p.die, p.face) == (die, face) for p in read_as)
        right, total = right + ok, total + len(read_as)
        back = f"{ok}/{len(read_as)} read back" if read_as else "add a shot to check it"
        print(f"{die}:{face}: {len(vectors)} shot{'s' * (len(vectors) != 1)}, {back}")
        for path, p in zip(shots[face], read_as, strict=False):
            if p is None or (p.die, p.face) != (die, face):
                seen = f"{p.die}:{p.face}" if p else "nothing taught"
                print(f"  {path} reads as {seen}: retake it or add more shots of {face}")
    if total:
        print(f"self-consistency (leave-one-out): {right}/{total} = {right / total:.0%}")


def save_atomically(taught: Prototypes, path: Path) -> None:
    """Write the whole store to a temp file beside it, then rename it over the old one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        taught.save(Path(temp))
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
