"""`rollscribe serve` as the Pi runs it: the production server in its own process, a request
too big refused before it is read, every one of 50 phones' live streams getting a change, and
a flood of live streams from one client that leaves the pages and the API answering."""

from __future__ import annotations

import http.client
import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from panel_support import PIN, running

from companion.history import History
from companion.table import TableSession
from companion.web.limits import MAX_BODY
from companion.web.server import PHONES, RESERVED
from companion.web.streams import PER_CLIENT, STREAMS


@pytest.fixture
def served(tmp_path) -> Iterator[int]:
    """`rollscribe serve` on a free loopback port; yields the port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--db", str(tmp_path / "s.db"),
         "--host", "127.0.0.1", "--port", "0", "--pin", PIN],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        assert found, first
        yield int(found.group(1))
    finally:
        process.terminate()
        process.wait(10)


def test_serve_never_prints_the_pin_and_says_where_to_find_it(tmp_path):
    """The service's output goes to the journal: the PIN (and the join link carrying it) stay
    out of it; `rollscribe pin`, which the banner names, shows the PIN the server takes."""
    db = str(tmp_path / "quiet.db")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "serve", "--db", db, "--host", "127.0.0.1",
         "--port", "0", "--pin-digits", "8"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        banner = [process.stdout.readline() for _ in range(2)]
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", banner[0]).group(1))
        assert request(port, "GET", "/api/state")[0] == 200  # a request logged, if any is
        shown = subprocess.run(
            [sys.executable, "-m", "companion.cli", "pin", "--db", db, "--pin-digits", "8",
             "--port", str(port)], capture_output=True, text=True, check=True).stdout
        pin = re.search(r"Table PIN: (\d{8})\n", shown).group(1)
        assert f"/join#pin={pin}" in shown
        given = request(port, "POST", "/api/pin", json.dumps({"pin": pin}).encode(),
                        {"Content-Type": "application/json"})
        assert given[0] == 200
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=10)
    output = "".join(banner) + rest
    assert pin not in output and "join#" not in output
    assert f"http://127.0.0.1:{port}/panel" in output
    assert f"rollscribe pin --db {db} --port {port} --pin-digits 8" in output


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        conn.close()


def test_the_production_server_answers_and_refuses_a_body_too_big(served):
    status, headers, _ = request(served, "GET", "/api/state")
    assert status == 200 and headers["Server"] == "rollscribe"  # waitress, not Werkzeug
    big = json.dumps({"roll": "d20=1 " * (MAX_BODY // 6 + 10)}).encode()
    status, _, _ = request(served, "POST", "/api/roll", big,
                           {"Content-Type": "application/json", "X-Table-Pin": PIN})
    assert status == 413
    assert request(served, "GET", "/api/state")[0] == 200  # and it goes on serving


def test_every_phones_live_stream_gets_each_change(tmp_path):
    """Each phone has its own address at a table; here all share loopback's, so the bound per
    address is lifted to let the whole table's streams in."""
    table = TableSession(History(tmp_path / "p.db"))
    with running(table, SSE_PER_CLIENT=PHONES, SSE_MAX_SECONDS=300.0) as url:
        every_phone_gets_each_change(int(url.rsplit(":", 1)[1]))


def every_phone_gets_each_change(served: int) -> None:
    arrived: list[int] = []
    lock = threading.Lock()
    connected = threading.Barrier(PHONES + 1, timeout=30)

    def phone() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", served, timeout=30)
        conn.request("GET", "/events")
        stream = conn.getresponse()
        seen = 0
        while True:
            line = stream.fp.readline()
            if line.startswith(b"id: "):
                seen += 1
                if seen == 1:
                    connected.wait()  # the state on connect
                else:
                    with lock:
                        arrived.append(int(line[4:]))
                    conn.close()
                    return

    phones = [threading.Thread(target=phone, daemon=True) for _ in range(PHONES)]
    for p in phones:
        p.start()
    connected.wait()
    status, _, body = request(served, "POST", "/api/games",
                              json.dumps({"game": "monstrous-horde", "players": ["A", "B"]})
                              .encode(), {"Content-Type": "application/json",
                                          "X-Table-Pin": PIN})
    assert status == 201, body
    deadline = time.monotonic() + 20
    for p in phones:
        p.join(max(0.1, deadline - time.monotonic()))
    assert len(arrived) == PHONES and len(set(arrived)) == 1


def test_a_server_whose_trigger_is_gone_still_stops(tmp_path):
    """stop() wakes the server's loop through its trigger; when that pipe is already closed (seen
    once at a test's teardown) it closes the server's sockets itself, and the loop ends."""
    from companion.history import History
    from companion.table import TableSession
    from companion.web import create_app
    from companion.web.server import make_server, stop

    app = create_app({"TESTING": True, "TABLE": TableSession(History(tmp_path / "t.db")),
                      "PIN": PIN})
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    assert request(server.effective_port, "GET", "/api/state")[0] == 200  # its loop is serving
    server.trigger.close()  # its pipe's ends closed under the running loop
    stop(server)
    thread.join(10)
    assert not thread.is_alive()


FLOOD = STREAMS + RESERVED  # streams enough to hold every worker of an unbounded server


def flood(port: int, count: int) -> tuple[list[socket.socket], list[int]]:
    """`count` live streams opened on loopback and left open: the sockets and each status."""
    sockets, statuses = [], []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sockets.append(sock)
    for sock in sockets:
        statuses.append(int(sock.makefile("rb").readline().split()[1]))
    return sockets, statuses


def pages_and_api_answer(port: int) -> None:
    """The table page and the API answer while the streams are held (20 s to answer: a server
    with no worker left never does)."""
    assert request(port, "GET", "/api/state")[0] == 200
    assert request(port, "GET", "/")[0] == 200


def a_stream_opens_again(port: int) -> None:
    """Once the flood has gone, a stream is let in again (a stream's slot is freed when its
    next heartbeat finds the socket closed)."""
    deadline = time.monotonic() + 30
    while True:
        sockets, statuses = flood(port, 1)
        sockets[0].close()
        if statuses == [200] or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert statuses == [200]


@pytest.mark.parametrize("per_client, admitted, refusal", [
    (PER_CLIENT, PER_CLIENT, 429),  # one client's bound
    (FLOOD, STREAMS, 503),  # the bound over all clients, as many clients would reach it
])
def test_a_flood_of_live_streams_leaves_the_pages_and_api_answering(tmp_path, per_client,
                                                                   admitted, refusal):
    table = TableSession(History(tmp_path / "f.db"))
    with running(table, SSE_PER_CLIENT=per_client) as url:
        port = int(url.rsplit(":", 1)[1])
        sockets, statuses = flood(port, FLOOD)
        try:
            pages_and_api_answer(port)
            assert statuses.count(200) == admitted
            assert statuses.count(refusal) == FLOOD - admitted
        finally:
            for sock in sockets:
                sock.close()
        a_stream_opens_again(port)


def test_a_stream_whose_phone_has_gone_frees_its_place_at_once(tmp_path):
    """A phone moving between pages leaves a stream behind each time: its place is freed when
    the socket closes, not at the next heartbeat's failed write (five minutes here)."""
    table = TableSession(History(tmp_path / "g.db"))
    with running(table, SSE_HEARTBEAT=300.0, SSE_MAX_SECONDS=300.0) as url:
        port = int(url.rsplit(":", 1)[1])
        sockets, statuses = flood(port, PER_CLIENT)
        assert statuses == [200] * PER_CLIENT
        try:
            for sock in sockets:  # the phone's end closed as a page left closes it (FIN)
                sock.shutdown(socket.SHUT_WR)
            a_stream_opens_again(port)
        finally:
            for sock in sockets:
                sock.close()
