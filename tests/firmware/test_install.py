"""The Pi install script passes shellcheck and the systemd unit passes `systemd-analyze verify`."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
UNIT = FIRMWARE / "rollscribe.service"
EXEC = "/opt/rollscribe/venv/bin/rollscribe"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_install_script_passes_shellcheck() -> None:
    done = subprocess.run(["shellcheck", "-x", str(FIRMWARE / "install.sh")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_script_installs_what_the_unit_runs() -> None:
    script = (FIRMWARE / "install.sh").read_text()
    for package in ("python3-picamera2", "python3-lgpio", "python3-gpiozero"):
        assert package in script
    assert "--system-site-packages" in script and "${SOURCE}[pi]" in script
    assert 'PREFIX=/opt/rollscribe' in script and EXEC.startswith("/opt/rollscribe/venv/")
    assert "firmware/rollscribe.service" in script


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", "verify", "--man=no", str(unit)],
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not here")
def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # The service binary exists only on an installed Pi; verify a copy that runs /bin/true so
    # that every other line is still checked.
    text = UNIT.read_text()
    assert EXEC in text
    copy = tmp_path / "rollscribe.service"
    copy.write_text(text.replace(EXEC, "/bin/true"))
    done = verify(copy)
    if "Failed to" in done.stderr and "bus" in done.stderr.lower():
        pytest.skip(f"systemd-analyze cannot run here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    broken = tmp_path / "broken.service"
    broken.write_text(copy.read_text().replace("Restart=on-failure", "Restart=sometimes"))
    assert "restart specifier" in verify(broken).stderr  # a bad line is reported


def test_unit_starts_serve_with_the_pi_camera_and_gpio_and_restarts() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT)
    service = unit["Service"]
    argv = service["ExecStart"].split()
    assert argv[:2] == [EXEC, "serve"]
    assert argv[argv.index("--camera") + 1] == "picamera"
    assert argv[argv.index("--gpio") + 1] == "pi"
    assert service["Restart"] == "on-failure"
    assert service["StandardOutput"] == "journal"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
