# Two commands: `make run` and `make test`. Both set up everything they need.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
ASSETS_STAMP := static/vendor/.stamp
PORT ?= 8501

.PHONY: run test test-install bench bench-baseline setup system-deps doc-deps sample clean-venv

# A fresh Debian's python3 has no ensurepip until the python3-venv package is installed: install it then.
# The packages are installed by uv (itself installed by pip, from PyPI, into the venv): it fetches and unpacks them
# in parallel where pip takes them one at a time (the install of a fresh clone: 9.7 s against 90 s wall on this
# machine, the same versions). Its cache is kept in the venv, so a fresh clone downloads what it needs and reads
# nothing another checkout left. It byte-compiles nothing (as pip's --no-compile: the 700 or so modules a run
# imports are compiled when first imported). If uv cannot be had, pip installs them as before.
$(STAMP): requirements.txt requirements-test.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  rm -rf $(VENV); \
	  echo "python3 -m venv needs Debian's python3-venv: installing it"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    python3-venv >/dev/null && $(PYTHON) -m venv $(VENV); }
	{ $(PY) -m pip install -q --disable-pip-version-check --no-compile uv \
	  && $(VENV)/bin/uv pip install -q --python $(PY) --cache-dir $(VENV)/.uv-cache -r requirements.txt -r requirements-test.txt; } \
	|| $(PY) -m pip install -q --disable-pip-version-check --no-compile -r requirements.txt -r requirements-test.txt
	@touch $(STAMP)

# Leaflet, Leaflet.draw and jQuery from the npm registry, integrity-checked; Python's standard library
# only (no npm needed).
$(ASSETS_STAMP): tools/fetch_assets.py
	$(PYTHON) tools/fetch_assets.py

setup: $(STAMP) $(ASSETS_STAMP)

# Debian packages the tests need: chromium (browser tests), gdal-bin (gdaldem, the slope reference),
# poppler-utils (pdftoppm, to look at the PDF report's pages); for the serving test and deploy/'s scripts
# (tests/test_deploy*.py): nginx-light (Debian's small build of nginx), sqlite3 (backups), curl (the
# health check) and systemd (systemd-analyze verify, on the rendered units); orca, xvfb and dbus-x11: the screen
# reader's pass (tests/browser/test_browser_screen_reader.py: Orca on a virtual display).
system-deps:
	@if [ ! -x /usr/lib/chromium/chromium ] || ! command -v gdaldem >/dev/null || ! command -v pdftoppm >/dev/null \
	    || [ ! -x /usr/sbin/nginx ] || ! command -v sqlite3 >/dev/null || ! command -v curl >/dev/null \
	    || ! command -v systemd-analyze >/dev/null || ! command -v orca >/dev/null || ! command -v Xvfb >/dev/null \
	    || ! command -v dbus-run-session >/dev/null || ! ldconfig -p | grep -q libpangoft2-1.0.so.0 \
	    || ! ldconfig -p | grep -q libharfbuzz-subset.so.0; then \
	  echo "Installing Debian packages: chromium gdal-bin poppler-utils nginx-light sqlite3 curl systemd orca xvfb dbus-x11 libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    chromium gdal-bin poppler-utils nginx-light sqlite3 curl systemd orca xvfb dbus-x11 \
	    libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 >/dev/null; \
	fi

# The libraries WeasyPrint renders the PDFs with (Pango, HarfBuzz's subsetter): the app's downloads need them, so
# `make run` installs them too (the tests' list above includes them).
doc-deps:
	@if ! ldconfig -p | grep -q libpangoft2-1.0.so.0 || ! ldconfig -p | grep -q libharfbuzz-subset.so.0; then \
	  echo "Installing Debian packages: libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 >/dev/null; \
	fi

sample: $(STAMP)
	$(PY) tools/make_sample_data.py

# `streamlit run app.py`, through a launcher that loads the layers before the first visitor (tools/serve.py).
run: setup doc-deps
	@echo "Starting the Sloatsburg environmental-controls dashboard on http://localhost:$(PORT)"
	$(PY) tools/serve.py --server.port $(PORT)

# Lint first (ruff, settings in ruff.toml), then the tests: two parallel workers, the ten slowest printed,
# Hypothesis derandomised (pytest.ini, tests/conftest.py). PYTHONDONTWRITEBYTECODE is taken out of the
# environment: with it set, every process (each worker, each streamlit server and CLI child a test starts)
# compiles the project's modules again and pytest rewrites the test files again; without it they are
# compiled once into __pycache__ (git-ignored) and read from there.
test: setup system-deps
	$(PY) -m ruff check .
	env -u PYTHONDONTWRITEBYTECODE HYPOTHESIS_PROFILE=ci $(PY) -m pytest -q

# deploy/install.sh and upgrade.sh as root runs them, on a fresh Debian 12 host booted with systemd as PID 1 (a
# debootstrap container under systemd-nspawn; tests/install/). Not in `make test`: about five minutes, with
# Debian's base system and every Python package downloaded; it needs root and ports 80, 8501 and 8502 free.
test-install: setup
	@if ! command -v debootstrap >/dev/null || ! command -v systemd-nspawn >/dev/null; then \
	  echo "Installing Debian packages: debootstrap systemd-container"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    debootstrap systemd-container >/dev/null; \
	fi
	SLOAT_INSTALL_TEST=1 $(PY) -m pytest -q -n 0 tests/install

# Each figure against bench/baseline.json (committed): ratio beside it, more than 25 % above it a REGRESSION.
bench: setup system-deps
	$(PY) bench/run.py

# The bench, then its figures written as the new baseline (bench/baseline.json: commit it). On purpose only,
# on a quiet machine.
bench-baseline: setup system-deps
	$(PY) bench/run.py --save-baseline

clean-venv:
	rm -rf $(VENV)
