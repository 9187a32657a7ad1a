"""`rollscribe pin`: the table PIN, the join link and its QR code, for the operator who asks.

`rollscribe serve` never prints the PIN: a service's output goes to the journal, which more
people and programs read than the table's screen. The PIN is on the table's own screen
(`/panel`, loopback only) and here: the one `serve` keeps in the history database (--db; with
--pin-digits N, the N-digit one). A PIN given to `serve --pin` is not kept and not shown here.
Exit codes: 0 shown, 1 no such database or it cannot be read.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from companion.commands import documented_parser
from companion.commands.serve import db_path
from companion.network import ANY_ADDRESS


def register(sub: Any) -> None:
    parser = documented_parser(sub, "pin", "show the table PIN and the join code", __doc__)
    parser.add_argument("--db", metavar="PATH", help="history database (default: serve's)")
    parser.add_argument("--demo", action="store_true", help="the demo's database")
    parser.add_argument("--pin-digits", type=int, default=4, choices=range(4, 13), metavar="N",
                        help="the PIN of this many digits, as serve was given (default 4)")
    parser.add_argument("--port", type=int, default=8000, help="the panel's port, for the link")
    parser.add_argument("--public-url", help="the address phones use, as serve was given")
    parser.add_argument("--host", default="", help="the address serve listens on, as given")
    parser.set_defaults(func=run)


def asking(args: argparse.Namespace, port: int) -> str:
    """The `rollscribe pin` command line that shows the PIN of `rollscribe serve` run with
    `args` on `port` (what serve prints in place of the PIN)."""
    words = ["rollscribe", "pin", "--db", db_path(args), "--port", str(port)]
    if args.pin_digits != 4:
        words += ["--pin-digits", str(args.pin_digits)]
    if args.public_url:
        words += ["--public-url", args.public_url]
    if args.host not in ANY_ADDRESS:  # the link must be an address the server answers on
        words += ["--host", args.host]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    from companion.history import History, HistoryError
    from companion.network import MdnsName, panel_base
    from companion.web.access import join_link, kept_pin
    from companion.web.qr import qr_text

    path = Path(db_path(args))
    if not path.is_file():  # a new database would make a new PIN that no server knows
        print(f"rollscribe pin: no history database at {path}: give the --db that"
              " `rollscribe serve` was given", file=sys.stderr)
        return 1
    try:
        history = History(path)
        try:
            pin = kept_pin(history, args.pin_digits)
        finally:
            history.close()
    except HistoryError as exc:
        print(f"rollscribe pin: {exc}", file=sys.stderr)
        return 1
    join = join_link(panel_base(args.public_url, args.port, MdnsName(), args.host), pin)
    print(f"Table PIN: {pin}\nPhones: scan this or open {join}\n{qr_text(join)}", flush=True)
    return 0
