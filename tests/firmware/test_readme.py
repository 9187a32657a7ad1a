"""The light-pattern table in firmware/README.md is the one the controller uses."""

from __future__ import annotations

from pathlib import Path

from firmware.controller import PATTERNS, TurnState

README = Path(__file__).resolve().parents[2] / "firmware" / "README.md"


def readme_rows() -> dict[str, list[str]]:
    text = README.read_text()
    table = text[text.index("| state | what it means"):].split("\n\n")[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()]
    return {row[0]: row for row in rows[2:]}


def test_the_readme_table_lists_every_state_with_its_pattern() -> None:
    rows = readme_rows()
    assert set(rows) == {state.value for state in TurnState}
    for state, pattern in PATTERNS.items():
        _, _, ready, reading, attention, player, beep, lasts = rows[state.value]
        assert [ready, reading, attention, player] == [
            pattern.ready.value, pattern.reading.value, pattern.attention.value,
            pattern.player.value], state
        assert beep == ("-" if pattern.beep.name == "NONE" else pattern.beep.name.lower()), state
        if pattern.seconds is not None:
            assert lasts == f"{pattern.seconds:.1f} s", state
        else:
            assert not lasts.endswith(" s"), state
