"""The locks: every Python dependency pinned to one version with its hashes, per use.

    python requirements/lock.py          # (make lock) resolve again from pyproject.toml
    python requirements/lock.py --check  # the locks were made from today's pyproject.toml

uv's `pip compile` makes them: it resolves for another platform than the one it runs on (the
Pi's aarch64 from this x86-64 machine), takes wheels only, writes every hash, and needs nothing
but PyPI. Each lock starts with a digest of what it was resolved from (pyproject.toml's
dependencies and this file's targets), so a change to either without `make lock` is caught by
the suite (tests/test_lock.py) before it reaches a Pi.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYPROJECT = HERE.parent / "pyproject.toml"
PYTHON = "3.11"  # Raspberry Pi OS Bookworm's python3, and this machine's
DIGEST = "# resolved from: "

# name -> (extras, platform, extra uv options). The build backend is locked too, so that the
# project itself installs with --no-build-isolation and nothing unpinned is fetched.
TARGETS: dict[str, tuple[tuple[str, ...], str, tuple[str, ...]]] = {
    # make setup, make test and CI on this machine
    "dev": (("dev",), "x86_64-manylinux_2_28", ()),
    # make model and make tune: torch is the CPU build this machine keeps in /opt/wheels
    "train": (("dev", "train"), "x86_64-manylinux_2_28", ("--find-links", "/opt/wheels")),
    # firmware/install.sh on the Pi: lgpio and picamera2 come from Raspberry Pi OS's apt, and
    # numpy stays 1.x for picamera2's compiled helpers; its gpiozero is the apt one's version
    "pi": (("pi",), "aarch64-manylinux_2_28",
           ("--no-binary", "lgpio", "--no-emit-package", "lgpio",
            "--constraint", str(HERE / "pi-constraints.txt"))),
}


def digest(name: str) -> str:
    """What the lock `name` depends on: the project's requirements and its target's options."""
    project = tomllib.loads(PYPROJECT.read_text())
    extras, platform, options = TARGETS[name]
    source = {
        "build": project["build-system"]["requires"],
        "python": project["project"]["requires-python"],
        "dependencies": project["project"]["dependencies"],
        "extras": {e: project["project"]["optional-dependencies"][e] for e in extras},
        "target": [PYTHON, platform, [o.replace(str(HERE), "requirements") for o in options]],
        "constraints": [Path(options[i + 1]).read_text() for i, option in enumerate(options)
                        if option == "--constraint"],
    }
    text = json.dumps(source, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def lock_path(name: str) -> Path:
    return HERE / f"{name}.lock"


def make(name: str) -> None:
    extras, platform, options = TARGETS[name]
    build = HERE / "build.in"
    command = ["uv", "pip", "compile", str(PYPROJECT), str(build),
               "--python-version", PYTHON, "--python-platform", platform,
               "--generate-hashes", "--only-binary", ":all:", "--no-header",
               *(a for e in extras for a in ("--extra", e)), *options]
    text = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    text = text.replace(str(HERE.parent) + "/", "")  # paths as in the repository
    header = (f"{DIGEST}{digest(name)}\n# `make lock` writes this file ({name}: extras "
              f"{', '.join(extras)}; Python {PYTHON} on {platform}); do not edit it\n")
    lock_path(name).write_text(header + text)


def stale() -> list[str]:
    """The locks not made from today's pyproject.toml and targets."""
    out = []
    for name in TARGETS:
        path = lock_path(name)
        first = path.read_text().splitlines()[0] if path.exists() else ""
        if first != f"{DIGEST}{digest(name)}":
            out.append(name)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.check:
        old = stale()
        print(f"stale locks: {', '.join(old)}; run make lock" if old else "locks up to date")
        return 1 if old else 0
    for name in TARGETS:
        make(name)
        print(f"wrote {lock_path(name).relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
