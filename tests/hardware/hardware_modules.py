"""Loads the hardware/ calculation scripts (plain files, not an installed package) for tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"hardware_{name}", HARDWARE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module
