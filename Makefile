# The project's set-up. `make run` and `make test` are all a fresh machine needs.
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
STAMP  := $(VENV)/.installed

.PHONY: setup run test model bench chromium lint clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Debian's chromium drives the panel's browser tests (Playwright never downloads a browser here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

run: setup
	$(VENV)/bin/rollscribe serve --demo --port $(PORT)

test: setup chromium
	$(PY) -m pytest

# Reproduces models/*.onnx from scratch (needs the `train` extra: CPU torch).
model: setup
	$(PY) -m pip install --quiet -e '.[train,dev]'
	$(PY) -m vision.train

bench: setup
	$(PY) -m bench

lint: setup
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
