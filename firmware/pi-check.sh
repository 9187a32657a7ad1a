#!/usr/bin/env bash
# The Pi path, proven without a Pi (`sudo make pi-check`; slow, so not in `make test`).
#
# Builds a Debian bookworm arm64 root with debootstrap (kept in /var/cache between runs), runs
# its programs under qemu-user through binfmt_misc, installs Rollscribe there with
# `firmware/install.sh --force` exactly as on a Pi (from requirements/pi.lock; what only Raspberry
# Pi OS has, picamera2 and lgpio, is skipped and said), then runs `rollscribe read` on the
# bundled samples, `rollscribe doctor`, and the rules, table and history tests, all as arm64.
# It prints each step's time and writes the summary to var/pi-check.txt. Emulation is not a
# Pi's speed: the frame time here is a smoke check only.
set -euo pipefail

SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The root lives outside the checkout: setuptools would otherwise walk its files on every install.
ROOT="${PI_ROOT:-/var/cache/rollscribe-pi-check/root}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUMMARY="$SOURCE/var/pi-check.txt"
IN_ROOT=/opt/src/rollscribe  # where the checkout lies inside the root
TESTS=(tests/rules/test_core.py tests/rules/test_conformance.py tests/rules/test_horde_examples.py
       tests/rules/test_horde_rules.py tests/rules/test_board_horde_turns.py
       tests/rules/test_board_horde_squares.py tests/test_table.py tests/test_history.py)

say() { printf '\n== %s\n' "$*"; }
die() { printf 'pi-check: %s\n' "$*" >&2; exit 1; }
step() {  # step NAME COMMAND...: run it, note its time and outcome in the summary
    local name=$1 start rc=0
    shift
    say "$name"
    start=$(date +%s)
    "$@" || rc=$?
    printf '%-34s %s in %ss\n' "$name" "$([[ $rc == 0 ]] && echo ok || echo "FAILED ($rc)")" \
        "$(( $(date +%s) - start ))" >> "$SUMMARY"
    return "$rc"
}
inside() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 "$@"; }

[[ $(id -u) -eq 0 ]] || die "run me as root (debootstrap, binfmt_misc and chroot need it)"
mkdir -p "$(dirname "$SUMMARY")"
printf 'pi-check %s, %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(git -C "$SOURCE" rev-parse --short HEAD)" \
    > "$SUMMARY"

emulator() {  # the Debian packages named in requirements/debian.txt
    local packages missing=()
    read -r -a packages <<< "$(sed -n 's/^pi-check: *//p' "$SOURCE/requirements/debian.txt")"
    for package in "${packages[@]}"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    if (( ${#missing[@]} )); then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    [[ -e /proc/sys/fs/binfmt_misc/register ]] \
        || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    # Debian's entry for qemu-aarch64 fixes the interpreter at registration ("F"), so the root
    # needs no copy of qemu.
    [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] || update-binfmts --enable qemu-aarch64
    [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] || die "binfmt_misc has no qemu-aarch64 entry"
}

root() {
    if [[ ! -x $ROOT/usr/bin/python3 ]]; then
        rm -rf "$ROOT"
        debootstrap --arch=arm64 --variant=minbase --include=python3,ca-certificates,git \
            bookworm "$ROOT" "$MIRROR"
    fi
    inside uname -m | grep -qx aarch64 || die "the root does not run as aarch64"
}

mounts() {
    for fs in proc sys dev; do
        mountpoint -q "$ROOT/$fs" || mount --bind "/$fs" "$ROOT/$fs"
    done
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # This machine's own certificate authorities (a proxy's, say), so the root reaches PyPI too.
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
        inside update-ca-certificates >/dev/null
    fi
    # The root shares this machine's network: no daemon it installs (NetworkManager, Avahi) may
    # start, or it would manage this machine's interfaces. Debian's own switch for chroots:
    printf '#!/bin/sh\nexit 101\n' > "$ROOT/usr/sbin/policy-rc.d"
    chmod 755 "$ROOT/usr/sbin/policy-rc.d"
}
unmount() {
    for fs in dev sys proc; do
        mountpoint -q "$ROOT/$fs" && umount -l "$ROOT/$fs"
    done
    return 0
}
trap unmount EXIT

checkout() {  # the working tree as git sees it (tracked and new files, nothing ignored)
    rm -rf "${ROOT:?}$IN_ROOT"
    mkdir -p "$ROOT$IN_ROOT"
    (cd "$SOURCE" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) \
        | tar -xf - -C "$ROOT$IN_ROOT"
}

read_samples() {
    inside bash -c "cd $IN_ROOT && time /opt/rollscribe/venv/bin/rollscribe read --json \
        vision/samples/*.jpg" | tee "$SOURCE/var/pi-check-read.jsonl"
    local frames
    frames=$(grep -c '"dice"' "$SOURCE/var/pi-check-read.jsonl")
    (( frames > 0 )) || die "rollscribe read read no frame"
}

frame_time() {  # both models loaded, one warm-up, then the median of 5 reads of each sample
    inside /opt/rollscribe/venv/bin/python -c "
import statistics, time, cv2
from vision.reader import DiceReader
from vision.samples import sample_frames
reader = DiceReader()
frames = [cv2.imread(str(path)) for path in sample_frames()]
reader.read_frame(frames[0])
times = []
for frame in frames:
    for _ in range(5):
        start = time.perf_counter()
        reader.read_frame(frame)
        times.append(time.perf_counter() - start)
print(f'frame time under emulation: median {1000 * statistics.median(times):.0f} ms '
      f'over {len(times)} reads of {len(frames)} samples')
" | tee -a "$SUMMARY"
}

doctor() {
    inside /opt/rollscribe/venv/bin/rollscribe doctor --camera "replay:$IN_ROOT/vision/samples" \
        --gpio mock --db /tmp/pi-check.db
}

tests() {
    local pytest
    pytest=$(sed -n 's/^\(pytest==[^ ]*\).*/\1/p' "$SOURCE/requirements/dev.lock")
    inside /opt/rollscribe/venv/bin/pip install --quiet "$pytest"
    inside bash -c "cd $IN_ROOT && /opt/rollscribe/venv/bin/python -m pytest -q \
        -p no:cacheprovider -o addopts='' ${TESTS[*]}"
}

step "emulator (qemu-user, binfmt_misc)" emulator
step "debian bookworm arm64 root" root
mounts
step "checkout copied in" checkout
step "install.sh --force" inside bash "$IN_ROOT/firmware/install.sh" --force
step "rollscribe read, 4 samples" read_samples
step "frame time (smoke check only)" frame_time
step "rollscribe doctor" doctor
step "rules, table and history tests" tests
say "summary"
cat "$SUMMARY"
