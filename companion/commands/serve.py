"""`rollscribe serve`: the table session, the camera, the buttons and the phone panel together.

`--demo` is what `make run` starts: a simulated tray camera that renders, on each roll, the dice
the game asks for (read by the real reader), the buttons and lights on gpiozero's MockFactory,
and a game ready to play.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.dice_store import DiceStore, open_store
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
    spec: str, taught: Path | None = None, store: DiceStore | None = None
) -> Callable[[list[str] | None], TrayReading]:
    """A dice source over a camera spec, reading the custom dice of `taught` (a store made by
    `rollscribe enroll`) and of the table's own `store`; see vision.table_camera."""
    from vision.table_camera import TableCamera

    return TableCamera(spec, taught, store).read


def db_path(args: argparse.Namespace) -> str:
    return args.db or (DEMO_DB if args.demo else DB)


def table_camera(args: argparse.Namespace) -> Any:
    """The table's camera (a vision.table_camera.TableCamera reading the table's own dice and
    `--taught`'s), or None when there is no camera."""
    camera = args.camera or ("simulated" if args.demo else None)
    if args.taught and not camera:  # without a camera nothing would ever read the store
        raise SystemExit("rollscribe serve: --taught needs a camera (--camera SPEC or --demo)")
    if args.taught and not args.taught.is_file():
        raise SystemExit(f"rollscribe serve: --taught: no store at {args.taught}")
    if not camera:
        return None
    from vision.table_camera import TableCamera

    return TableCamera(camera, args.taught, open_store(db_path(args))[0])


def teach_demo_dice(camera: Any) -> None:
    """--demo with the simulated camera: the Village Attacks and Monsters! dice it draws are
    taught to the demo table's dice store from its own renders, through the Dice page's checks
    (the first start only, some seconds), so that a roll of them is read by the real reader,
    not typed."""
    if camera is None or camera.store is None or not camera.spec.startswith("simulated"):
        return
    from vision.simulated_camera import teach_drawn, to_teach

    store = camera.store
    untaught = to_teach(store)
    if not untaught:  # taught on an earlier start: the models open on the first roll, as ever
        return
    print(f"Teaching the demo camera the {', '.join(untaught)} dice from renders (first start"
          " only, some seconds)...", flush=True)
    try:
        teach_drawn(camera.teacher(), store)
    except (RuntimeError, OSError) as exc:  # no models: the panel says so; these rolls are typed
        print(f"The demo camera was not taught them: {exc}", flush=True)


def build(args: argparse.Namespace, camera: Any = None) -> tuple[TableSession, Any]:
    """The session (resuming the last game), with its camera (`table_camera(args)` unless
    given) and, if asked, its buttons."""
    camera = camera or table_camera(args)
    # A database that cannot be written or read is a fault on the panel, not a server that
    # will not start: nobody could even watch.
    history = History(db_path(args), fallback=True)
    store = camera.store if camera else open_store(db_path(args))[0]  # what the table learns into
    table = TableSession(history, camera.read if camera else None, store)
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
        if controller is not None and camera is not None:
            camera.settled_hooks.append(controller.dice_phase_reading)
    return table, controller


def run(args: argparse.Namespace) -> int:
    from companion.commands.pin import asking
    from companion.web import create_app
    from companion.web.server import make_server

    camera = table_camera(args)
    if args.demo:
        teach_demo_dice(camera)
    table, controller = build(args, camera)
    app = create_app({"TABLE": table, "PIN": args.pin, "PIN_DIGITS": args.pin_digits,
                      "PUBLIC_URL": args.public_url, "HOST": args.host,
                      "DICE_STORE": table.memory,
                      "TEACHER": camera.teacher if camera else None})
    server = make_server(app, args.host, args.port)
    port = server.effective_port
    # Never the PIN or the join link (which carries it): this output goes to the journal.
    shown = "the one given with --pin" if args.pin else f"`{asking(args, port)}` shows it"
    print(f"Rollscribe panel on http://{args.host}:{port}/\nThe table PIN and the phones' join"
          f" code are on the table's own screen, http://127.0.0.1:{port}/panel; the PIN is"
          f" {shown}", flush=True)
    try:
        server.run()
    finally:
        server.close()
        if controller is not None:
            with contextlib.suppress(Exception):
                controller.close()
        table.history.close()
    return 0
