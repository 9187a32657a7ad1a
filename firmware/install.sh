#!/usr/bin/env bash
# Install Rollscribe on Raspberry Pi OS Bookworm (Pi 4 or Pi 5) as a service started at boot.
#
#   sudo firmware/install.sh            # from a checkout of the repository, on the Pi
#   sudo firmware/install.sh --force    # on anything else (the Pi check under emulation):
#                                       # what only Raspberry Pi OS has is skipped, and said
#
# What it does: apt packages (picamera2 and lgpio come from Raspberry Pi OS, not PyPI), a system
# user in the video and gpio groups, a virtualenv under /opt/rollscribe that sees the system
# packages, the project installed with its `pi` extra, the pin file in /etc/rollscribe, the
# table's own Wi-Fi (NetworkManager; a name and a random password chosen here, kept in
# /var/lib/rollscribe/wifi.json), the name rollscribe.local (Avahi), and the systemd units
# (restart on failure, logs in the journal). It ends with `rollscribe doctor`.
# Running it again upgrades in place; the game history and the Wi-Fi password are kept.
#
#   ROLLSCRIBE_JOIN_SSID="Cafe"    also join this network instead, when in range (asks its password)
#   ROLLSCRIBE_HOSTNAME=name       the table's name on the network (default: rollscribe, taken
#                                  only from a Pi still called raspberrypi)
set -euo pipefail

PREFIX=/opt/rollscribe
DATA=/var/lib/rollscribe
CONF=/etc/rollscribe
SERVICE_USER=rollscribe
UNITS=/etc/systemd/system
HOST_NAME="${ROLLSCRIBE_HOSTNAME:-rollscribe}"
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf '\n== %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

FORCE=no
[[ ${1:-} == --force ]] && FORCE=yes
[[ $(id -u) -eq 0 ]] || die "run me with sudo: sudo $0"
[[ -f "$SOURCE/pyproject.toml" ]] || die "run me from a Rollscribe checkout ($SOURCE has no pyproject.toml)"
# shellcheck source=/dev/null
. /etc/os-release
if ! grep -qE 'Raspberry Pi (4|5)' /proc/device-tree/model 2>/dev/null; then
    [[ $FORCE == yes ]] || die "this is not a Raspberry Pi 4 or 5 (${PRETTY_NAME:-unknown OS}): \
install.sh sets up a Pi's camera, pins, Wi-Fi and hostname; for a development machine use \
\`make setup\`, or run \`sudo $0 --force\` to install here anyway"
    echo "warning: not a Raspberry Pi 4 or 5 (--force): the camera and GPIO will not work" >&2
fi
if [[ ${VERSION_CODENAME:-} != bookworm ]]; then
    echo "warning: this is ${PRETTY_NAME:-an unknown OS}; install.sh is made for Raspberry Pi OS Bookworm" >&2
fi
# Without a running systemd (a chroot, a container) units are installed and enabled, not started.
SYSTEMD=no
[[ -d /run/systemd/system ]] && SYSTEMD=yes

say "apt packages"
apt-get update -q
# Raspberry Pi OS patches its python3-gpiozero to its kernels: since kernel 6.6.45 a Pi 5's
# header pins are gpiochip0, which the PyPI gpiozero 2.0.1 does not know (it opens gpiochip4).
# The venv sees the system package, so pip keeps it; `rollscribe doctor` checks the pins.
wanted=(python3-venv python3-pip python3-picamera2 python3-lgpio python3-gpiozero
        network-manager avahi-daemon)
packages=()
for package in "${wanted[@]}"; do
    if apt-cache show "$package" >/dev/null 2>&1; then
        packages+=("$package")
    elif [[ $FORCE == yes ]]; then
        echo "skipping $package: this system's apt does not have it (Raspberry Pi OS does)" >&2
    else
        die "apt has no $package: is this Raspberry Pi OS Bookworm?"
    fi
done
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}"

say "service user $SERVICE_USER"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$DATA" --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in video gpio; do  # Raspberry Pi OS has both; plain Debian has no gpio group
    getent group "$group" >/dev/null || groupadd --system "$group"
done
usermod -a -G video,gpio "$SERVICE_USER"
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 750 "$DATA"

say "virtualenv in $PREFIX/venv (with system site packages, for picamera2 and lgpio)"
install -d -m 755 "$PREFIX"
python3 -m venv --system-site-packages "$PREFIX/venv"
# Every package pinned with its hashes (requirements/pi.lock: numpy 1.x for picamera2's compiled
# helpers, the apt gpiozero's version); what apt already put in the system is kept.
"$PREFIX/venv/bin/pip" install --quiet --require-hashes -r "$SOURCE/requirements/pi.lock"
# The project runs from its own copy in $PREFIX/src, installed in place: the models, the samples
# and the firmware files are found beside the code, as in a checkout (a wheel would leave
# models/ behind), and the checkout it came from may go.
if [[ $SOURCE != "$PREFIX/src" ]]; then
    rm -rf "$PREFIX/src.new"
    install -d -m 755 "$PREFIX/src.new"
    tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./var --exclude=./artifacts \
        -cf - . | tar -C "$PREFIX/src.new" -xf -
    rm -rf "$PREFIX/src"
    mv "$PREFIX/src.new" "$PREFIX/src"
fi
"$PREFIX/venv/bin/pip" install --quiet --no-deps --no-build-isolation -e "$PREFIX/src"
"$PREFIX/venv/bin/pip" check

say "pin file $CONF/pins.toml"
install -d -m 755 "$CONF"
if [[ -e "$CONF/pins.toml" ]]; then
    echo "keeping your $CONF/pins.toml"
else
    install -m 644 "$SOURCE/firmware/pins.toml" "$CONF/pins.toml"
fi

say "the table's Wi-Fi and its name"
"$PREFIX/venv/bin/rollscribe" wifi setup --db "$DATA/rollscribe.db"
if [[ -n ${ROLLSCRIBE_JOIN_SSID:-} ]]; then
    "$PREFIX/venv/bin/rollscribe" wifi join "$ROLLSCRIBE_JOIN_SSID" --db "$DATA/rollscribe.db"
fi
chown "$SERVICE_USER:$SERVICE_USER" "$DATA/wifi.json"  # the panel saves the player's choices
if [[ $SYSTEMD == no ]]; then
    echo "no systemd running here: the hostname is left as it is"
elif [[ $(hostname) == raspberrypi || -n ${ROLLSCRIBE_HOSTNAME:-} ]]; then
    hostnamectl set-hostname "$HOST_NAME"
    sed -i "s/^127\.0\.1\.1[[:space:]].*/127.0.1.1\t$HOST_NAME/" /etc/hosts
else
    echo "keeping this Pi's name $(hostname) (ROLLSCRIBE_HOSTNAME=rollscribe renames it)"
fi
install -d -m 755 /etc/avahi/services
install -m 644 "$SOURCE/firmware/rollscribe.avahi.service" /etc/avahi/services/rollscribe.service

say "systemd units"
for unit in rollscribe.service rollscribe-wifi.service rollscribe-wifi.path; do
    install -m 644 "$SOURCE/firmware/$unit" "$UNITS/$unit"
done
if command -v systemctl >/dev/null; then
    systemctl enable rollscribe.service rollscribe-wifi.service rollscribe-wifi.path
else
    echo "no systemctl here: the units are installed, not enabled"
fi
if [[ $SYSTEMD == yes ]]; then
    systemctl daemon-reload
    systemctl start rollscribe-wifi.path
    systemctl stop rollscribe.service  # doctor needs the camera and the pins to itself
fi

say "checking the box"
if ! runuser -u "$SERVICE_USER" -- env ROLLSCRIBE_PINS="$CONF/pins.toml" \
        "$PREFIX/venv/bin/rollscribe" doctor --camera picamera --gpio pi \
        --db "$DATA/rollscribe.db"; then
    echo "the service is installed, but doctor found problems: fix them, then" \
         "sudo systemctl restart rollscribe" >&2
fi
[[ $SYSTEMD == no ]] || systemctl start rollscribe.service
"$PREFIX/venv/bin/rollscribe" wifi show --db "$DATA/rollscribe.db"
echo "Rollscribe runs at boot. Phones: http://$(hostname).local/   Logs: journalctl -u rollscribe -f"
# Bringing the Wi-Fi up now would cut an SSH session that runs over it: it waits for the boot.
echo "The table's own Wi-Fi (or a known network in range) comes up at the next boot: sudo reboot"
