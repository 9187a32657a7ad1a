"""A writer process killed mid-work (SIGKILL), for the crash tests of the SQLite stores."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path


def acks_before_kill(writer: Path, args: list[str], rng: random.Random, longest: float
                     ) -> list[str]:
    """Start `writer` with `args`, wait for its "ready" and then for none, one or two of its
    acknowledgements, let it work up to `longest` seconds more, SIGKILL it, and return the
    acknowledgement lines it printed whole (a line cut by the kill is no ack). The acks waited
    for make each run go on from where the last stopped however busy the machine: with the
    suite's tests running beside it, a writer killed on the clock alone committed nothing in
    twenty runs."""
    proc = subprocess.Popen([sys.executable, str(writer), *args], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    acks = [proc.stdout.readline() for _ in range(rng.randrange(3))]
    time.sleep(rng.uniform(0.02, longest))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return ("".join(acks) + proc.stdout.read()).split("\n")[:-1]
