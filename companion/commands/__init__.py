"""One module per `rollscribe` sub-command; each offers `register(subparsers)`."""

from __future__ import annotations

import argparse
from typing import Any


def documented_parser(sub: Any, name: str, help: str, doc: str) -> argparse.ArgumentParser:
    """A sub-command parser whose description and epilog are the module docstring, so `--help`
    and the code say the same thing (exit codes, formats)."""
    lines = doc.splitlines()
    return sub.add_parser(
        name,
        help=help,
        description=lines[0],
        epilog="\n".join(lines[2:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
