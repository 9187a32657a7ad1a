"""`rollscribe` command line: one sub-command per module under companion/commands/.

Each command module offers `register(subparsers)` (adds its parser, sets `func`) so that the
commands stay apart and heavy imports (onnxruntime, flask) happen only for the command run.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = ("serve", "pin", "read", "simulate", "doctor", "enroll", "photos", "wifi")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rollscribe", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"companion.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
