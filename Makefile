# The project's set-up. `make run` and `make test` are all a fresh machine needs.
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
STAMP  := $(VENV)/.installed

.PHONY: setup run test model tune bench tools fonts lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Debian packages the suite uses for real: chromium drives the panel's browser tests (Playwright
# never downloads a browser here), openscad renders the printed parts, shellcheck checks install.sh.
TOOLS := chromium openscad shellcheck
tools:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian's$$missing for the tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@$(MAKE) --no-print-directory $(NMCLI)

# NetworkManager's own nmcli (Debian bookworm's, as on the Pi) reads back the Wi-Fi keyfiles the
# table writes (tests/firmware/test_wifi.py). It is unpacked into the venv, never installed:
# nothing may touch this machine's own network.
NMCLI := $(VENV)/nm/usr/bin/nmcli
$(NMCLI):
	@echo "unpacking Debian's nmcli for the Wi-Fi tests"
	@mkdir -p $(VENV)/nm && cd $(VENV)/nm && \
	  { apt-get download network-manager libnm0 >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get download network-manager libnm0 >/dev/null; }; } && \
	  for deb in *.deb; do dpkg-deb -x "$$deb" .; done && rm -f ./*.deb

run: setup
	$(VENV)/bin/rollscribe serve --demo --port $(PORT)

test: setup tools
	$(PY) -m pytest

# Debian's TrueType faces the renderer draws numerals in: without them `make model` falls back to
# Hershey faces and trains on other renders than the shipped models' (render.missing_faces).
FONTS := fonts-dejavu-core fonts-liberation
fonts: setup
	@$(PY) -c 'from vision.train.render import missing_faces as m; raise SystemExit(bool(m()))' || { \
	  echo "installing Debian's $(FONTS) for the renders"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(FONTS) >/dev/null; }

# Trains models/dice.onnx and models/detector.onnx from scratch, on a CUDA GPU when there is one
# (vision/train/__main__.py); TABLE_PHOTOS="dir ...": also on tables' own dice photos
# (`rollscribe photos DIR`). FOLDS=1 also measures leaving each rig out (bench cross_rig).
model: setup fonts
	$(PY) -m pip install --quiet -e '.[train,dev]'
	$(PY) -m vision.train $(if $(FOLDS),--folds) $(foreach d,$(TABLE_PHOTOS),--table-photos $(d))

# Trains the classifier again with tables' own dice photos (TABLE_PHOTOS="dir ..."), keeping the
# detector; one game in five is kept out and measured.
tune: setup fonts
	$(PY) -m pip install --quiet -e '.[train,dev]'
	$(PY) -m vision.train --only classifier $(foreach d,$(TABLE_PHOTOS),--table-photos $(d))

bench: setup
	$(PY) -m bench

lint: setup
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
