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
    """Start `writer` with `args`, wait for its "ready", let it work up to `longest` seconds,
    SIGKILL it, and return the acknowledgement lines it printed whole (a line cut by the kill
    is no ack)."""
    proc = subprocess.Popen([sys.executable, str(writer), *args], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(rng.uniform(0.02, longest))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return proc.stdout.read().split("\n")[:-1]
