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

# Reproduces models/*.onnx from scratch (needs the `train` extra: CPU torch), within the hour
# counted from STARTED (when make began, before the venv and installs).
STARTED := $(shell date +%s)
# TABLE_PHOTOS="dir ...": also train on tables' own dice photos (`rollscribe photos DIR`).
model: setup fonts
	$(PY) -m pip install --quiet -e '.[train,dev]'
	$(PY) -m vision.train --started $(STARTED) $(foreach d,$(TABLE_PHOTOS),--table-photos $(d))

# Trains the shipped models on from their files with tables' own dice photos (TABLE_PHOTOS="dir
# ...", written by `rollscribe photos DIR`) instead of from scratch: vision/train/tune.py.
tune: setup fonts
	$(PY) -m pip install --quiet -e '.[train,dev]'
	$(PY) -m vision.train --tune $(foreach d,$(TABLE_PHOTOS),--table-photos $(d))

bench: setup
	$(PY) -m bench

lint: setup
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
