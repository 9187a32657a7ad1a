"""`rollscribe doctor` on this machine: real camera replay, real pins on MockFactory, real SQLite."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from firmware.checks import (
    Status,
    check_camera,
    check_database,
    check_disk,
    check_gpio,
    check_model,
    probe,
)

MODEL = Path(__file__).resolve().parents[2] / "models" / "dice.onnx"
DETECTOR = MODEL.with_name("detector.onnx")
NUMERALS = MODEL.with_name("numerals.onnx")
MEMORY_KEY = MODEL.with_name("memory.onnx")


@pytest.fixture
def tray_frames(tmp_path: Path) -> Path:
    folder = tmp_path / "frames"
    folder.mkdir()
    frame = np.full((120, 160, 3), (40, 90, 30), np.uint8)  # green felt
    cv2.rectangle(frame, (60, 40), (80, 60), (250, 250, 250), -1)  # a die
    cv2.imwrite(str(folder / "tray.jpg"), frame)
    return folder


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["doctor", *args])
    return code, capsys.readouterr().out


def test_a_bad_model_fails_with_advice_and_a_nonzero_exit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tray_frames: Path
) -> None:
    broken = tmp_path / "dice.onnx"
    broken.write_bytes(b"not a model")
    code, out = doctor(capsys, "--camera", f"replay:{tray_frames}", "--gpio", "mock",
                       "--model", str(broken), "--db", str(tmp_path / "h.db"))
    assert code == 1
    assert "[     ok] camera: replay:" in out and "160x120 picture" in out
    assert "[     ok] gpio: mock pins claimed" in out
    assert "[   FAIL] model:" in out and "what to do: reinstall Rollscribe" in out
    assert "[     ok] database:" in out
    assert out.rstrip().endswith("1 problem(s): model")


@pytest.mark.skipif(not MODEL.exists(), reason="no shipped model in models/ yet")
def test_a_healthy_box_passes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tray_frames: Path
) -> None:
    code, out = doctor(capsys, "--camera", f"replay:{tray_frames}", "--gpio", "mock",
                       "--db", str(tmp_path / "h.db"))
    assert code == 0, out
    assert out.rstrip().endswith("all good")
    card = json.loads(MODEL.with_suffix(".json").read_text())
    detector_card = json.loads(DETECTOR.with_suffix(".json").read_text())
    checked = ", ".join(k for k in card["accuracy"].get("always_check", {}) if k == "d6")
    model_line = next(line for line in out.splitlines() if "] model:" in line)
    assert f"classifier {MODEL} loads (version {card['version']})" in model_line
    assert f"detector {DETECTOR} loads (version {detector_card['version']})" in model_line
    assert f"numerals {NUMERALS} loads" in model_line
    assert f"memory key {MEMORY_KEY} loads" in model_line
    assert (f"a {checked} value by the classifier alone" in model_line) == bool(checked)


@pytest.mark.parametrize(("module", "name", "file"), [
    ("vision.detect", "DEFAULT_DETECTOR", "detector.onnx"),
    ("vision.memory_key", "DEFAULT_MODEL", "memory.onnx"),
])
def test_a_missing_model_file_fails_the_model_check(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, module: str, name: str, file: str
) -> None:
    monkeypatch.setattr(importlib.import_module(module), name, tmp_path / file)
    result = check_model()
    assert result.failed and "ModelError" in result.found and file in result.found
    assert "reinstall Rollscribe" in result.advice


def test_a_missing_die_check_fails_the_model_check(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import vision.die_check

    monkeypatch.setattr(vision.die_check, "DEFAULT_CHECK", tmp_path / "die_check.json")
    result = check_model()
    assert result.failed and "die check not found" in result.found


def test_camera_problems_are_named(tmp_path: Path, tray_frames: Path) -> None:
    assert check_camera(f"replay:{tmp_path / 'nowhere'}").status is Status.FAIL
    black = tmp_path / "black"
    black.mkdir()
    cv2.imwrite(str(black / "x.jpg"), np.zeros((60, 80, 3), np.uint8))
    result = check_camera(f"replay:{black}")
    assert result.failed and "all-black" in result.found
    assert check_camera("nonsense").failed
    dim = tmp_path / "dim"
    dim.mkdir()
    frame = np.full((60, 80, 3), 12, np.uint8)
    frame[20:30, 20:30] = 200
    cv2.imwrite(str(dim / "x.jpg"), frame)
    assert check_camera(f"replay:{dim}").status is Status.WARN


def test_database_problems_are_named(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite" * 100)
    assert check_database(garbage).failed
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    result = check_database(blocked / "h.db")  # its folder is a file: cannot be created
    assert result.failed and "read-only" in result.advice
    assert check_database(tmp_path / "new" / "h.db").status is Status.OK


def test_gpio_problems_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "pins.toml"
    bad.write_text("[buttons]\nroll = 27\n")
    assert "both use GPIO27" in check_gpio("mock", bad).found
    assert check_gpio("none").status is Status.OK
    try:
        import lgpio  # noqa: F401
    except ImportError:
        result = check_gpio("pi")  # this machine is no Pi: lgpio is missing
        assert result.failed and "python3-lgpio" in result.advice


def test_disk_check_reports_free_space(tmp_path: Path) -> None:
    result = check_disk(tmp_path / "not" / "yet" / "h.db")
    assert result.status is not Status.FAIL and "MB free" in result.found


def test_a_failing_check_makes_a_probe_that_raises(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"x" * 4096)
    with pytest.raises(RuntimeError, match="not a database"):
        probe(check_database, garbage)()
    probe(check_database, tmp_path / "fine.db")()


def test_the_network_check_says_the_mode_the_addresses_and_the_name(tmp_path: Path) -> None:
    from companion.network import MdnsName, Network, WifiSettings, save_settings
    from firmware.checks import check_network

    save_settings(tmp_path / "wifi.json", WifiSettings(Network("Rollscribe-AB12", "12345678")))
    named = check_network(tmp_path / "r.db", MdnsName("rollscribe.local", lambda n: True))
    unnamed = check_network(tmp_path / "r.db", MdnsName("rollscribe.local", lambda n: False))
    assert "rollscribe.local resolves" in named.found and "http://" in named.found
    assert "does not resolve" in unnamed.found and unnamed.status is Status.WARN
    assert "Avahi" in unnamed.advice and not unnamed.failed
    (tmp_path / "wifi.json").write_text("[]")
    damaged = check_network(tmp_path / "r.db")
    assert damaged.status is Status.WARN and "cannot be read" in damaged.found
