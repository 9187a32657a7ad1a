"""Panel under load: 50 phones (the production server's sizing) on loopback for 60 s, each holding the live stream open and
loading pages and API answers, while one phone plays the game. Prints the latency percentiles
(pages, API, live-update delivery), the error count, and the server's memory.

Run: `python -m bench panel` (or `python -m bench.panel_bench --phones 50 --seconds 60`).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

from companion.web.server import PHONES

PIN = "4321"
PAGES = ("/", "/games", "/static/app.js", "/static/table.js", "/static/app.css")
API = ("/api/state", "/api/games", "/api/stats")
GRACE = 2.0  # seconds the phones keep listening after the load stops


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Load:
    """Shared tallies of every phone's requests."""

    def __init__(self, port: int, seconds: float) -> None:
        self.port = port
        self.stop_at = time.monotonic() + seconds
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.sent: dict[int, float] = {}  # version -> when the action that made it started
        self.arrivals: dict[int, list[float]] = defaultdict(list)

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    def request(
        self, method: str, path: str, body: dict | None = None, kind: str = "api"
    ) -> dict | None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = (
            {"X-Table-Pin": PIN, "Content-Type": "application/json"} if body is not None else {}
        )
        start = time.perf_counter()
        try:
            conn.request(
                method, path, body=json.dumps(body) if body is not None else None, headers=headers
            )
            answer = conn.getresponse()
            data = answer.read()
            elapsed = time.perf_counter() - start
            if answer.status >= 500 or (answer.status >= 400 and kind != "act"):
                self.fail(f"{method} {path}: {answer.status} {data[:120]!r}")
                return None
            with self.lock:
                self.latency[kind].append(elapsed)
            is_json = answer.getheader("Content-Type", "").startswith("application/json")
            return json.loads(data) if is_json else None
        except (OSError, http.client.HTTPException) as exc:
            self.fail(f"{method} {path}: {exc}")
            return None
        finally:
            conn.close()

    def fail(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def phone(load: Load, seed: int) -> None:
    """Page loads and API reads at a phone's pace (a tap every 0.5-1.5 s)."""
    rng = random.Random(seed)
    while load.running():
        if rng.random() < 0.5:
            load.request("GET", rng.choice(PAGES), kind="page")
        else:
            load.request("GET", rng.choice(API), kind="api")
        time.sleep(rng.uniform(0.5, 1.5))


def listen(load: Load) -> None:
    """One phone's live stream: note when each version arrives."""
    conn = http.client.HTTPConnection("127.0.0.1", load.port, timeout=30)
    try:
        conn.request("GET", "/events")
        stream = conn.getresponse()
        # the player's last change may still be on its way when time is up: keep listening
        while time.monotonic() < load.stop_at + GRACE:
            line = stream.fp.readline()
            if not line:
                load.fail("live stream closed by the server")
                return
            if line.startswith(b"id: "):
                with load.lock:
                    load.arrivals[int(line[4:])].append(time.perf_counter())
    except (OSError, http.client.HTTPException) as exc:
        load.fail(f"live stream: {exc}")
    finally:
        conn.close()


def player(load: Load, seed: int) -> None:
    """The phone that plays: a roll or a move every half second, a new game when one ends."""
    rng = random.Random(seed)
    time.sleep(1.0)  # let every phone's stream connect first: each change must reach them all
    while load.running():
        snap = load.request("GET", "/api/state") or {}
        start = time.perf_counter()
        if not snap.get("game") or snap["game"]["over"]:
            answer = load.request(
                "POST", "/api/games", {"game": "monstrous-horde", "players": ["Ann", "Bob"]}, "act"
            )
        elif snap.get("roll_wanted"):
            dice = " ".join(
                f"{kind}={rng.randint(1, int(kind[1:]))}" for kind in snap["roll_wanted"]["dice"]
            )
            answer = load.request("POST", "/api/roll", {"roll": dice}, "act")
        else:
            move = rng.choice(snap["moves"][:3])["move"]
            answer = load.request("POST", "/api/move", {"move": move}, "act")
        if answer and "version" in answer:
            with load.lock:
                load.sent[answer["version"]] = start
        time.sleep(0.5)


def memory_kib(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else float("nan")


def run(phones: int, seconds: float) -> dict[str, float]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen(
            [sys.executable, "-m", "bench.panel_bench", "--serve", str(port), f"{tmp}/bench.db"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert server.stdout is not None
            server.stdout.readline()  # the banner: listening
            idle = memory_kib(server.pid)
            load = Load(port, seconds)
            threads = [threading.Thread(target=listen, args=(load,)) for _ in range(phones)]
            threads += [threading.Thread(target=phone, args=(load, i)) for i in range(phones)]
            threads.append(threading.Thread(target=player, args=(load, 99)))
            for t in threads:
                t.start()
            for t in threads:
                t.join(seconds + 30)
            busy = memory_kib(server.pid)
        finally:
            server.terminate()
            server.wait(10)
    delays = [
        arrived - load.sent[v]
        for v, times in load.arrivals.items()
        if v in load.sent
        for arrived in times
    ]
    missed = sum(max(0, phones - len(load.arrivals.get(v, []))) for v in load.sent)
    return {
        "requests": sum(len(v) for v in load.latency.values()),
        "errors": len(load.errors),
        "page_p50_ms": pct(load.latency["page"], 0.5),
        "page_p99_ms": pct(load.latency["page"], 0.99),
        "api_p50_ms": pct(load.latency["api"], 0.5),
        "api_p99_ms": pct(load.latency["api"], 0.99),
        "act_p99_ms": pct(load.latency["act"], 0.99),
        "live_p50_ms": pct(delays, 0.5),
        "live_p99_ms": pct(delays, 0.99),
        "live_max_ms": max(delays, default=float("nan")) * 1000,
        "updates": len(load.sent),
        "updates_missed": missed,
        "rss_idle_mib": idle["VmRSS"] / 1024,
        "rss_busy_mib": busy["VmRSS"] / 1024,
        "rss_peak_mib": busy["VmHWM"] / 1024,
        "first_errors": load.errors[:3],  # type: ignore[dict-item]
    }


def serve(port: int, db: str) -> None:
    """The production server as `rollscribe serve --game monstrous-horde` runs it, in its own
    process, but taking all the phones' streams from loopback's one address (on a table each
    phone has its own, and companion.web.streams holds one address to a few)."""
    from companion.commands.serve import DEMO_GAME
    from companion.history import History
    from companion.table import TableSession
    from companion.web import create_app
    from companion.web.server import make_server

    table = TableSession(History(db))
    table.new_game(DEMO_GAME, ["Ann", "Bob"])
    app = create_app({"TABLE": table, "PIN": PIN, "SSE_PER_CLIENT": PHONES})
    server = make_server(app, "127.0.0.1", port)
    print("listening", flush=True)
    server.run()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DB"), help=argparse.SUPPRESS)
    parser.add_argument("--phones", type=int, default=PHONES)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--runs", type=int, default=1, help="median over this many runs")
    args = parser.parse_args(argv if argv is not None else [])
    if args.serve:
        return serve(int(args.serve[0]), args.serve[1])
    results = [run(args.phones, args.seconds) for _ in range(args.runs)]
    print(
        f"panel: {args.phones} phones x {args.seconds:.0f} s on loopback, "
        f"{args.runs} run(s), medians:"
    )
    for key in results[0]:
        if key == "first_errors":
            continue
        value = statistics.median(r[key] for r in results)
        print(f"  {key:15} {value:10.1f}")
    for r in results:
        for error in r["first_errors"]:  # type: ignore[union-attr]
            print(f"  error: {error}")


if __name__ == "__main__":
    main(sys.argv[1:])
