"""The locks match pyproject.toml: made from today's requirements (`make lock` after any change),
every package pinned to one version with its hashes, and every requirement met by its pin."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("lock", ROOT / "requirements" / "lock.py")
assert spec is not None and spec.loader is not None
lock = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lock)

PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;]+)")


def pins(name: str) -> dict[str, tuple[str, int]]:
    """Package -> (version, number of hashes) of one lock."""
    found: dict[str, tuple[str, int]] = {}
    current = None
    for line in lock.lock_path(name).read_text().splitlines():
        if match := PIN.match(line):
            current = canonicalize_name(match.group(1))
            found[current] = (match.group(2), 0)
        elif current and line.strip().startswith("--hash=sha256:"):
            version, hashes = found[current]
            found[current] = (version, hashes + 1)
    return found


def test_every_lock_was_made_from_todays_pyproject():
    assert lock.stale() == [], "pyproject.toml changed without `make lock`"


@pytest.mark.parametrize("name", sorted(lock.TARGETS))
def test_every_package_is_pinned_with_hashes_and_meets_the_requirements(name):
    locked = pins(name)
    assert locked and all(hashes >= 1 for _, hashes in locked.values())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras, _, options = lock.TARGETS[name]
    from_apt = {canonicalize_name(options[i + 1]) for i, o in enumerate(options)
                if o == "--no-emit-package"}
    wanted = [Requirement(r) for r in project["dependencies"]]
    wanted += [Requirement(r) for e in extras for r in project["optional-dependencies"][e]]
    for requirement in wanted:
        key = canonicalize_name(requirement.name)
        if key in from_apt:
            continue
        assert key in locked, f"{requirement} is not in {name}.lock"
        assert requirement.specifier.contains(locked[key][0], prereleases=True), \
            f"{name}.lock pins {key} {locked[key][0]}, outside {requirement.specifier}"


def test_a_changed_requirement_makes_its_locks_stale(monkeypatch, tmp_path):
    changed = tmp_path / "pyproject.toml"
    changed.write_text(lock.PYPROJECT.read_text().replace('"flask>=3.0"', '"flask>=3.1"'))
    monkeypatch.setattr(lock, "PYPROJECT", changed)
    assert sorted(lock.stale()) == sorted(lock.TARGETS)
