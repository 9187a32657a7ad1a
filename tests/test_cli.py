"""The `rollscribe` dispatcher offers every command module there is, and nothing else."""

from __future__ import annotations

import pkgutil

import pytest

import companion.commands
from companion.cli import COMMANDS, main


def test_every_command_module_is_offered(capsys: pytest.CaptureFixture[str]) -> None:
    modules = {m.name for m in pkgutil.iter_modules(companion.commands.__path__)}
    assert set(COMMANDS) == modules
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    listed = capsys.readouterr().out
    assert all(f"    {name}  " in listed for name in COMMANDS), listed


def test_an_unknown_command_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["juggle"])
    assert done.value.code == 2
    assert "invalid choice: 'juggle'" in capsys.readouterr().err
