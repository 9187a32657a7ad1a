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
    assert "--system-site-packages" in script
    assert '--require-hashes -r "$SOURCE/requirements/pi.lock"' in script  # the lock, pinned
    assert 'PREFIX=/opt/rollscribe' in script and EXEC.startswith("/opt/rollscribe/venv/")
    assert "for unit in rollscribe.service " in script and "\"$SOURCE/firmware/$unit\"" in script


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


def test_the_panel_listens_on_port_80_with_only_the_capability_that_needs() -> None:
    service = configparser.ConfigParser(strict=False, interpolation=None)
    service.read(UNIT)
    argv = service["Service"]["ExecStart"].split()
    assert argv[argv.index("--port") + 1] == "80"  # http://rollscribe.local, no port to type
    assert service["Service"]["AmbientCapabilities"] == "CAP_NET_BIND_SERVICE"
    assert service["Service"]["CapabilityBoundingSet"] == "CAP_NET_BIND_SERVICE"
    assert service["Service"]["User"] == "rollscribe"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not here")
def test_the_wifi_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    for name in ("rollscribe-wifi.service", "rollscribe-wifi.path"):
        text = (FIRMWARE / name).read_text()
        (tmp_path / name).write_text(text.replace(EXEC, "/bin/true"))
    service = configparser.ConfigParser(strict=False, interpolation=None)
    service.read(FIRMWARE / "rollscribe-wifi.service")
    assert service["Service"]["ExecStart"].split()[:3] == [EXEC, "wifi", "apply"]
    assert "User" not in service["Service"]  # NetworkManager's keyfiles are root's
    path = configparser.ConfigParser(strict=False, interpolation=None)
    path.read(FIRMWARE / "rollscribe-wifi.path")
    assert path["Path"]["PathChanged"] == "/var/lib/rollscribe/wifi.json"
    assert path["Path"]["Unit"] == "rollscribe-wifi.service"
    done = verify(tmp_path / "rollscribe-wifi.path")
    if "Failed to" in done.stderr and "bus" in done.stderr.lower():
        pytest.skip(f"systemd-analyze cannot run here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert verify(tmp_path / "rollscribe-wifi.service").returncode == 0


def test_avahi_announces_the_panel_on_port_80() -> None:
    import xml.etree.ElementTree as ET

    group = ET.parse(FIRMWARE / "rollscribe.avahi.service").getroot()
    assert group.tag == "service-group" and group.find("name") is not None
    service = group.find("service")
    assert service is not None
    assert (service.findtext("type"), service.findtext("port")) == ("_http._tcp", "80")


def test_install_sets_up_the_wifi_the_name_and_every_unit() -> None:
    script = (FIRMWARE / "install.sh").read_text()
    for needed in ("network-manager", "avahi-daemon", "wifi setup", "hostnamectl set-hostname",
                   "rollscribe.avahi.service", "/etc/avahi/services/rollscribe.service",
                   "rollscribe-wifi.service", "rollscribe-wifi.path",
                   'chown "$SERVICE_USER:$SERVICE_USER" "$DATA/wifi.json"'):
        assert needed in script, needed


def test_install_on_a_machine_that_is_not_a_pi_stops_before_touching_it(tmp_path: Path) -> None:
    # A stand-in apt-get notes whether the script got past its checks; it must not.
    fake = tmp_path / "bin"
    fake.mkdir()
    marker = tmp_path / "apt-ran"
    (fake / "apt-get").write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    (fake / "apt-get").chmod(0o755)
    if Path("/proc/device-tree/model").exists():
        pytest.skip("this machine reports a device-tree model: it may be a Pi")
    done = subprocess.run(["bash", str(FIRMWARE / "install.sh")], capture_output=True, text=True,
                          timeout=60, check=False,
                          env={"PATH": f"{fake}:/usr/sbin:/usr/bin:/sbin:/bin"})
    assert done.returncode == 1 and not marker.exists()
    assert ("not a Raspberry Pi" in done.stderr and "--force" in done.stderr) \
        or "run me with sudo" in done.stderr
