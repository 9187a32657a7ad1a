"""When `make model` must be done, and what that leaves the dice model's training.

`make model` must finish within the hour on this 2-core machine, and the clock keeps that, not
estimates of each step: a slow day (this machine's speed varies about twofold between days) would
otherwise run over it. No torch here, so the suite checks it without the `train` extra.
"""

from __future__ import annotations

# `make model` passes when it started (before the venv and installs); the dice model's minutes
# are cut so the run ends DEADLINE minutes after that, leaving AFTER_TRAINING for export,
# measuring and the card (0.6 min of measuring on 2026-11-25's fast day; room for a slow one)
# and two of the hour's minutes spare.
DEADLINE = 58.0
AFTER_TRAINING = 2.0


def training_minutes(wanted: float, deadline: float, elapsed: float, after: float = 0.0) -> float:
    """The dice model's budget: `wanted` minutes, or what is left before the run's deadline
    (minutes after its start, `elapsed` gone) once AFTER_TRAINING and the `after` minutes of
    training that follow it (the kind expert's) are kept back; 0 = no deadline.
    At least a minute (or `wanted`, if less), so a run that is already late still writes a model
    (its card tells how little it trained)."""
    if deadline <= 0:
        return wanted
    return min(wanted, max(1.0, deadline - elapsed - AFTER_TRAINING - after))
