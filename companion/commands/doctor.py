"""`rollscribe doctor`: check the camera, the buttons' pins, the models, the database, the disk
and the network, and say in plain words what is wrong and what to do. Exits non-zero when
anything failed."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

DB = "var/rollscribe.db"  # the same default as `rollscribe serve`


def on_a_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def register(sub: Any) -> None:
    pi = on_a_pi()
    parser = sub.add_parser("doctor", help="check camera, GPIO, models and database",
                            description=__doc__.splitlines()[0])
    parser.add_argument("--camera", metavar="SPEC", default="picamera" if pi else "opencv:0",
                        help="replay:PATH | opencv:N | picamera (default: %(default)s)")
    parser.add_argument("--gpio", choices=("pi", "mock", "none"), default="pi" if pi else "mock",
                        help="pin factory to try (default: %(default)s)")
    parser.add_argument("--pins", metavar="PATH", help="pin file (default: $ROLLSCRIBE_PINS)")
    parser.add_argument("--model", metavar="PATH",
                        help="the dice classifier's ONNX model (default: the shipped one; the "
                        "detector is always the shipped one)")
    parser.add_argument("--db", metavar="PATH", default=DB, help="history database")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from firmware.checks import (
        check_camera,
        check_database,
        check_disk,
        check_gpio,
        check_model,
        check_network,
    )

    results = [
        check_camera(args.camera),
        check_gpio(args.gpio, args.pins),
        check_model(args.model),
        check_database(args.db),
        check_disk(args.db),
        check_network(args.db),
    ]
    for result in results:
        print(f"[{result.status.value:>7}] {result.name}: {result.found}")
        if result.advice:
            print(f"          what to do: {result.advice}")
    failed = [r.name for r in results if r.failed]
    print("all good" if not failed else f"{len(failed)} problem(s): {', '.join(failed)}")
    return 1 if failed else 0
