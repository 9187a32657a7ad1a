"""`/api/stats` on a long history (510 games, about 101,000 events, as the issue-57 probe had):
the first call, later calls with nothing changed and after one more roll, and the median of
`/api/state` alone, while ten clients call `/api/stats` without a pause, and (the floor: what
any ten such clients cost on this machine) while they call `/api/state`, through the
production server on loopback. Run: `python -m bench stats`. Medians of several runs, printed, never asserted."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

from bench.timing import median_ms
from companion.history import History

GAMES = 510
EVENTS = 198  # per game: 510 x 198 = 100,980 events
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
CLIENTS = 10


def fill(path: Path, seed: int = 57) -> None:
    """A history of GAMES Monstrous Horde games written straight into SQLite: rolls of four
    d20s, moves and the odd undo, most games finished (the rules engine would take minutes)."""
    History(path).close()  # the schema
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    event_id = 0
    for game in range(1, GAMES + 1):
        players = rng.sample(NAMES, rng.randint(2, 4))
        db.execute("INSERT INTO games (id, game, players, options, started) VALUES (?, ?, ?, ?, ?)",
                   (game, "monstrous-horde", json.dumps(players), "{}", game * 3600.0))
        rows = []
        for seq in range(1, EVENTS + 1):
            event_id += 1
            seat = (seq // 2) % len(players)
            kind, text, data = ("move", "attack e1=wizard+rogue", "{}")
            if seq % 2:
                kind = "roll"
                text = "roll " + " ".join(f"d20={rng.randint(1, 20)}" for _ in range(4))
            elif seq % 37 == 0:
                kind, text, data = "undo", "", '{"steps": 1}'
            last = seq == EVENTS and game % 8  # one game in eight abandoned unfinished
            outcome = json.dumps({"winners": [rng.randrange(len(players))]}) if last else None
            scores = json.dumps([seq * 2 + s for s in range(len(players))])
            rows.append((event_id, game, seq, game * 3600.0 + seq, kind, text, data, seat,
                         seq // 8, scores, outcome))
        db.executemany("INSERT INTO events (id, game_id, seq, at, kind, text, data, seat, turn,"
                       " scores, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()


def add_roll(path: Path, event_id: int) -> None:
    """One more roll in the newest game, written as the table writes one: an event appended."""
    db = sqlite3.connect(path)
    db.execute("INSERT INTO events (id, game_id, seq, at, kind, text, seat) VALUES (?, ?, ?, ?,"
               " 'roll', 'roll d20=20 d20=20 d20=20 d20=20', 0)",
               (event_id, GAMES, EVENTS + event_id, time.time()))
    db.commit()
    db.close()


def get_ms(port: int, path: str) -> float:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    conn.request("GET", path)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    assert answer.status == 200, (path, answer.status)
    return (time.perf_counter() - start) * 1000


def state_while_called(port: int, path: str, clients: int, samples: int) -> float:
    """The median of `samples` calls of /api/state while `clients` threads call `path` one
    call after another."""
    done = threading.Event()

    def client() -> None:
        while not done.is_set():
            get_ms(port, path)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    try:
        time.sleep(0.5)
        timings = []
        for _ in range(samples):
            timings.append(get_ms(port, "/api/state"))
            time.sleep(0.02)
    finally:
        done.set()
        for t in threads:
            t.join(120)
    return statistics.median(timings)


def main(argv: list[str] | None = None) -> None:
    from companion.table import TableSession
    from companion.web import create_app
    from companion.web.server import make_server, stop

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.db"
        fill(path)
        first = median_ms(lambda: History(path).player_stats(), 3)  # a fresh start each
        history = History(path)
        players = history.player_stats()
        same = median_ms(history.player_stats, 5)
        after = []
        for i in range(5):
            add_roll(path, GAMES * EVENTS + 1 + i)
            after.append(median_ms(history.player_stats, 1))
        print(f"stats: {GAMES} games, {GAMES * EVENTS} events, {len(players)} players")
        print(f"  first call            {first:9.1f} ms (median of 3)")
        print(f"  again, no change      {same:9.1f} ms (median of 5)")
        print(f"  after one more roll   {statistics.median(after):9.1f} ms (median of 5)")
        app = create_app({"TABLE": TableSession(history), "PIN": "4321"})
        server = make_server(app, "127.0.0.1", 0)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        try:
            port = server.effective_port
            get_ms(port, "/api/stats")
            alone = statistics.median(get_ms(port, "/api/state") for _ in range(50))
            print(f"  /api/state alone      {alone:9.1f} ms (median of 50)")
            # the second: what any ten clients calling without a pause cost (the floor)
            for path in ("/api/stats", "/api/state"):
                busy = state_while_called(port, path, CLIENTS, 50)
                print(f"  /api/state, {CLIENTS} clients on {path:10} {busy:6.1f} ms (median of 50)")
        finally:
            stop(server)
            thread.join(10)
            history.close()


if __name__ == "__main__":
    main()
