"""`rollscribe serve`: the table session, the camera, the buttons and the phone panel together.

`--demo` is what `make run` starts: a simulated tray camera that renders, on each roll, the dice
the game asks for (read by the real reader), the buttons and lights on gpiozero's MockFactory,
and a game ready to play.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.faults import CAMERA
from companion.history import History, HistoryError
from companion.reading import TrayReading
from companion.table import TableSession

DEMO_GAME = "monstrous-horde"
DEMO_DB = "var/demo.db"
DB = "var/rollscribe.db"


def register(sub: Any) -> None:
    parser = sub.add_parser("serve", help="run the table and the phone panel",
                            description=__doc__.splitlines()[0])
    parser.add_argument("--camera", metavar="SPEC",
                        help="replay:PATH | opencv:N | picamera | simulated[:SEED] (default: none;"
                        " --demo: simulated)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (all by default)")
    parser.add_argument("--db", metavar="PATH", help=f"history database (default {DB})")
    parser.add_argument("--game", help="start this game if none is running (e.g. monstrous-horde)")
    parser.add_argument("--players", default="Ann,Bob", help="comma-separated names for --game")
    parser.add_argument("--pin", help="the table PIN (default: a random one, kept in the database)")
    parser.add_argument("--pin-digits", type=int, default=4, choices=range(4, 13), metavar="N",
                        help="digits of the random PIN, 4-12 (default 4; 6 or more make "
                        "guessing it far slower)")
    parser.add_argument("--public-url", help="address phones use, for the QR code")
    parser.add_argument("--gpio", choices=("none", "mock", "pi"), default=None,
                        help="buttons and lights: none, gpiozero MockFactory, or the Pi's pins")
    parser.add_argument("--taught", type=Path, metavar="STORE",
                        help="custom dice taught by `rollscribe enroll`, read by the camera too")
    parser.add_argument("--demo", action="store_true",
                        help="simulated camera, mock buttons, a game ready to play")
    parser.set_defaults(func=run)


def samples_dir() -> Path:
    from vision.samples import SAMPLES_DIR

    return SAMPLES_DIR


def camera_dice_source(
    spec: str, on_settled: Callable[[], object] | None = None, taught: Path | None = None
) -> Callable[[list[str] | None], TrayReading]:
    """A dice source over a camera spec; camera, models and `taught` store (custom dice from
    `rollscribe enroll`) open on first use, so a missing one becomes a fault on the panel
    instead of a server that will not start."""
    lock = threading.Lock()
    opened: dict[str, Any] = {}  # "reader" once loaded; "source" while the camera works

    def reader() -> Any:
        try:
            from vision.classify import Classifier
            from vision.prototypes import load_taught
            from vision.reader import DiceReader
        except ImportError as exc:
            raise RuntimeError(f"the dice reader is not installed: {exc}") from exc
        classifier = Classifier()
        # a store taught with another model is embedded again from its shots here
        prototypes = load_taught(taught, classifier)[0] if taught else None
        return DiceReader(classifier=classifier, prototypes=prototypes,
                          keep_crops=True)  # for `rollscribe photos`

    def source() -> Any:
        from vision import capture
        from vision.reader import Settling

        kind, _, path = spec.partition(":")
        # A replayed still frame must repeat long enough for the reader to see it settle.
        return (capture.ReplaySource(path, hold=Settling().still_frames + 2)
                if kind == "replay" and path else capture.open_source(spec))

    def read(kinds: list[str] | None) -> TrayReading:
        with lock:
            # Each part is kept only once it opened: a camera plugged in (or a replay folder
            # made) after a failed try is opened on the next read, without a restart.
            if "reader" not in opened:
                opened["reader"] = reader()
            if "source" not in opened:
                opened["source"] = source()
            camera = opened["source"]
            if hasattr(camera, "throw"):  # the demo's simulated tray rolls what is asked for
                camera.throw(kinds or [])
            try:
                return opened["reader"].read_settled(camera, expect=kinds, on_settled=on_settled)
            except RuntimeError as exc:
                if getattr(exc, "fault", None) == CAMERA:  # gone: open it again next time
                    with contextlib.suppress(Exception):
                        opened.pop("source").close()
                raise

    return read


def build(args: argparse.Namespace) -> tuple[TableSession, Any]:
    """The session (resuming the last game), with its camera and, if asked, its buttons."""
    camera = args.camera or ("simulated" if args.demo else None)
    # A database that cannot be written or read is a fault on the panel, not a server that
    # will not start: nobody could even watch.
    history = History(args.db or (DEMO_DB if args.demo else DB), fallback=True)
    settled: list[Callable[[], object]] = []  # the buttons' lights, once they exist
    if args.taught and not camera:  # without a camera nothing would ever read the store
        raise SystemExit("rollscribe serve: --taught needs a camera (--camera SPEC or --demo)")
    if args.taught and not args.taught.is_file():
        raise SystemExit(f"rollscribe serve: --taught: no store at {args.taught}")
    source = (camera_dice_source(camera, lambda: [hook() for hook in settled], args.taught)
              if camera else None)
    table = TableSession(history, source)
    game = args.game or (DEMO_GAME if args.demo else None)
    if game and (table.game_id is None or table.snapshot()["game"]["over"]):
        try:
            table.new_game(game, [p.strip() for p in args.players.split(",") if p.strip()])
        except HistoryError:
            pass  # the database fault is on the panel already; watching still works
    gpio = args.gpio or ("mock" if args.demo else "none")
    controller = None
    if gpio != "none":
        from firmware import controller as firmware

        if gpio == "mock":
            controller = firmware.start_mock(table)
        else:
            from firmware.pins import load_pins

            controller = firmware.start_gpio(table, load_pins())
        if controller is not None:
            settled.append(controller.dice_phase_reading)
    return table, controller


def run(args: argparse.Namespace) -> int:
    from companion.network import panel_base
    from companion.web import create_app
    from companion.web.access import join_link
    from companion.web.qr import qr_text
    from companion.web.server import make_server

    table, controller = build(args)
    app = create_app({"TABLE": table, "PIN": args.pin, "PIN_DIGITS": args.pin_digits,
                      "PUBLIC_URL": args.public_url})
    server = make_server(app, args.host, args.port)
    services = app.extensions["rollscribe"]
    pin, port = services.pin, server.effective_port
    join = join_link(panel_base(args.public_url, port, services.mdns), pin)
    print(f"Rollscribe panel on http://{args.host}:{port}/  (table PIN {pin};"
          f" the table's own screen: http://127.0.0.1:{port}/panel)", flush=True)
    print(f"Phones: scan this or open {join}\n{qr_text(join)}", flush=True)
    try:
        server.run()
    finally:
        server.close()
        if controller is not None:
            with contextlib.suppress(Exception):
                controller.close()
        table.history.close()
    return 0
