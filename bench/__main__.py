"""`python -m bench [NAME...]`: run every bench/*_bench.py module's main(), or only those named."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    names = sorted(p.stem for p in Path(__file__).parent.glob("*_bench.py"))
    wanted = [n if n.endswith("_bench") else f"{n}_bench" for n in argv] or names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        print(f"unknown bench module(s) {', '.join(unknown)}; known: {', '.join(names)}")
        return 2
    for name in wanted:
        print(f"== {name}")
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
