"""`rollscribe serve`: options, a game ready to play, resuming, and the demo's mock buttons."""

from __future__ import annotations

import pytest
from panel_support import GAME

from companion.cli import build_parser
from companion.commands.serve import build, table_camera
from companion.table import TableError, TableSession


def args(*argv: str):
    return build_parser().parse_args(["serve", *argv])


def test_serve_starts_the_game_asked_for_and_resumes_it_next_time(tmp_path):
    db = str(tmp_path / "s.db")
    table, controller = build(args("--db", db, "--game", GAME, "--players", "Ann, Bob,Cy"))
    assert controller is None and table.dice_source is None
    snap = table.snapshot()
    assert snap["game"]["players"] == ["Ann", "Bob", "Cy"]
    table.type_roll("d20=5 d20=12 d20=3 d20=9")
    again, _ = build(args("--db", db, "--game", GAME))
    assert again.game_id == table.game_id and again.snapshot()["state"] == table.snapshot()["state"]


def test_demo_has_a_simulated_camera_mock_buttons_and_a_game(tmp_path):
    # a seeded throw: an unseeded one is a new render each run, and the reader misses a die
    # of some (bench demo_camera: 99.3% of dice found), which is no fault of `serve`
    table, controller = build(args("--demo", "--db", str(tmp_path / "demo.db"),
                                   "--camera", "simulated:1"))
    try:
        assert table.snapshot()["game"]["name"] == "monstrous-horde"
        assert table.dice_source is not None and controller is not None
        assert len(table.read_dice().dice) == 4  # the roll wanted, thrown and read
    finally:
        controller.close()


def test_a_camera_that_cannot_open_is_a_fault_not_a_crash(tmp_path):
    # The camera opens on the first read, so the server starts and the panel shows the fault.
    table, _ = build(args("--db", str(tmp_path / "c.db"), "--game", GAME,
                          "--camera", f"replay:{tmp_path / 'nothing-here'}"))
    with pytest.raises(TableError, match="could not read the dice"):
        table.read_dice()
    assert table.snapshot()["faults"][0]["kind"] in ("camera", "model")


def test_a_missing_taught_store_stops_serve_with_a_clear_message(tmp_path):
    with pytest.raises(SystemExit, match="--taught: no store at"):
        build(args("--db", str(tmp_path / "t.db"), "--taught", str(tmp_path / "none.json"),
                   "--camera", f"replay:{tmp_path}"))


def test_a_taught_store_without_a_camera_is_refused_not_ignored(tmp_path):
    store = tmp_path / "taught.json"
    store.write_text("{}")
    with pytest.raises(SystemExit, match="--taught needs a camera"):
        build(args("--db", str(tmp_path / "t.db"), "--taught", str(store)))


def test_the_tables_camera_reads_the_dice_kept_beside_its_database(tmp_path):
    """The served reader matches the table's own taught dice (the store beside the history)
    without --taught, and the buttons' lights hear when the dice settle."""
    demo = args("--demo", "--db", str(tmp_path / "demo.db"))
    camera = table_camera(demo)
    assert camera.store.path == tmp_path / "demo.dice.sqlite" and camera.taught is None
    table, controller = build(demo, camera)
    try:
        assert table.dice_source == camera.read
        assert camera.settled_hooks == [controller.dice_phase_reading]
    finally:
        controller.close()


def test_the_demo_teaches_its_simulated_camera_the_symbol_dice(tmp_path, monkeypatch, capsys):
    """Only the simulated camera is taught (a replayed one shows real dice), through the table
    camera's own Teacher and store (teach_drawn itself, and that a taught store is taught
    nothing again, are tested with the camera in tests/vision/test_simulated_camera.py)."""
    import vision.simulated_camera as simulated
    from companion.commands.serve import teach_demo_dice

    taught = []
    monkeypatch.setattr(simulated, "teach_drawn", lambda teacher, store: taught.append(
        (teacher, store)))
    camera = table_camera(args("--demo", "--db", str(tmp_path / "demo.db")))
    monkeypatch.setattr(camera, "teacher", lambda: "the table's teacher")
    teach_demo_dice(camera)
    assert taught == [("the table's teacher", camera.store)]
    assert "Teaching the demo camera the village, village-day, village-night, monsters dice" \
        in capsys.readouterr().out
    replayed = table_camera(args("--demo", "--camera", "replay:x", "--db", str(tmp_path / "r.db")))
    teach_demo_dice(replayed)
    assert len(taught) == 1
    # taught on an earlier start: nothing is taught and the models are not opened at start
    monkeypatch.setattr(simulated, "to_teach", lambda store: {})
    monkeypatch.setattr(camera, "teacher", lambda: pytest.fail("the models were opened"))
    teach_demo_dice(camera)
    assert len(taught) == 1


def test_pin_refuses_a_database_that_is_not_there_and_makes_none(tmp_path, capsys):
    """A mistyped --db would otherwise make a new database with a PIN no server knows."""
    from companion.cli import main

    assert main(["pin", "--db", str(tmp_path / "none.db")]) == 1
    assert "no history database at" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_the_join_link_is_an_address_the_server_answers_on(tmp_path, capsys):
    """Served on 127.0.0.1 alone, the panel's QR link and `rollscribe pin`'s are that address
    (not the LAN's or a .local name, where nothing answers), and it opens the table."""
    import html
    import re
    import urllib.request

    from panel_support import PIN, running

    from companion.cli import main
    from companion.commands.pin import asking
    from companion.history import History

    db = tmp_path / "j.db"
    table = TableSession(History(db))
    with running(table, HOST="127.0.0.1") as server:
        panel = urllib.request.urlopen(f"{server}/panel", timeout=10).read().decode()
        link = html.unescape(re.search(r'<p class="url">([^<]*)</p>', panel).group(1))
        assert link == f"{server}/join#pin={PIN}"
        assert urllib.request.urlopen(link, timeout=10).status == 200
    port = server.rsplit(":", 1)[1]
    command = asking(args("--db", str(db), "--host", "127.0.0.1"), int(port))
    assert "--host 127.0.0.1" in command
    assert main(command.split()[1:]) == 0
    assert f"open http://127.0.0.1:{port}/join#pin=" in capsys.readouterr().out
