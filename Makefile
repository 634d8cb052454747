# SiteCheck: the two commands of the README are `make demo` and `make test`.
# Both set up everything they need on a fresh Debian machine (system packages
# through apt-get, as root or with sudo).

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SAMPLE := sample_data
DEMO_OUT := $(SAMPLE)/out
SYSTEM_PYTHON := /usr/bin/python3
APT_PACKAGES := qgis python3-qgis qgis-providers python3-pytest gdal-bin poppler-utils xvfb xauth \
  postgresql postgresql-postgis chromium mmdebstrap

.PHONY: help install demo sample qgis screenshot images test test-fast test-engine test-qgis \
  test-qgis-lts test-qgis-matrix qgis-deps lint mutants bench package resources clean

help:
	@echo "make demo     install and run SiteCheck on the sample village"
	@echo "make test     install everything tests need (QGIS included) and run all tests"
	@echo "make test-fast  the edit loop: engine and layout tests not marked slow (no QGIS)"
	@echo "make test-qgis-matrix  the QGIS tests in QGIS 3.22, 3.40 LTR and 3.44 (Debian roots)"
	@echo "make lint     ruff, mypy over the engine and the plugin, and the dead-code check"
	@echo "make mutants  plant known bugs in a scratch copy; check a test fails for each"
	@echo "make bench    benchmarks against the peers (writes bench/results/)"
	@echo "make package  dist/sitecheck_qgis.zip for QGIS 'Install from ZIP'"
	@echo "make qgis     QGIS with the plugin and the sample village, the SiteCheck panel open"
	@echo "make screenshot  docs/images/dock.png (QGIS under Xvfb)"
	@echo "make images      every picture of the README, and docs/images/images.json"

# --- set-up -----------------------------------------------------------------

$(VENV)/.installed: pyproject.toml constraints.txt
	@command -v $(PYTHON) >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3 python3-venv; }
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv && $(PYTHON) -m venv $(VENV); }
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $@

install: $(VENV)/.installed

qgis-deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# --- the main job on the sample village -------------------------------------

$(SAMPLE)/village.gpkg: $(VENV)/.installed $(wildcard sitecheck/sample/*.py)
	$(VENV)/bin/sitecheck sample-village $(SAMPLE)

sample: $(SAMPLE)/village.gpkg

$(SAMPLE)/village.qgz: $(SAMPLE)/village.gpkg tools/make_project.py | qgis-deps
	QT_QPA_PLATFORM=offscreen $(SYSTEM_PYTHON) tools/make_project.py $(SAMPLE)

# QGIS desktop with the plugin in a throwaway profile, the styled sample village, the panel open.
qgis: $(SAMPLE)/village.qgz
	$(PYTHON) tools/run_qgis.py $(SAMPLE)

# The panel over the map, taken under Xvfb (docs/images/dock.png, shown in the README).
screenshot: $(SAMPLE)/village.qgz
	$(PYTHON) tools/run_qgis.py $(SAMPLE) --screenshot docs/images/dock.png

# Every picture the README shows, made afresh, and docs/images/images.json (what draws each).
images: $(SAMPLE)/village.qgz install
	$(SYSTEM_PYTHON) tools/make_images.py $(SAMPLE)

demo: sample
	@mkdir -p $(DEMO_OUT)
	$(VENV)/bin/sitecheck check --ordinance scarsdale \
	  --parcels $(SAMPLE)/village.gpkg:parcels \
	  --disturbance $(SAMPLE)/village.gpkg:disturbance \
	  --impervious-existing $(SAMPLE)/village.gpkg:impervious_existing \
	  --impervious-proposed $(SAMPLE)/village.gpkg:impervious_proposed \
	  --floodplain $(SAMPLE)/village.gpkg:floodplain \
	  --wetlands $(SAMPLE)/village.gpkg:wetlands \
	  --watercourses $(SAMPLE)/village.gpkg:watercourses \
	  --sda $(SAMPLE)/village.gpkg:sda \
	  --zoning $(SAMPLE)/village.gpkg:zoning \
	  --impaired-watersheds $(SAMPLE)/village.gpkg:impaired_watersheds \
	  --soils $(SAMPLE)/village.gpkg:soils \
	  --dem $(SAMPLE)/dem.tif \
	  --out $(DEMO_OUT)/sitecheck.gpkg --json $(DEMO_OUT)/sitecheck.json --report $(DEMO_OUT)/report.html

# --- tests ------------------------------------------------------------------

# A passed test's files are removed when the run ends; a failed test's stay for a look. The QGIS
# tests run in Debian 12's pytest 7.2, which lacks that option: they write under one folder that
# each run clears first (1.7 GB a run, most of it the engine set-up tests' venvs), so runs do not
# pile up in /tmp until the disk is full.
ENGINE_PYTEST := $(VENV)/bin/pytest -o tmp_path_retention_policy=failed
QGIS_TEST_FILES := $(abspath .cache/pytest-qgis)

test: install qgis-deps
	$(ENGINE_PYTEST)
	$(MAKE) --no-print-directory test-qgis
	$(MAKE) --no-print-directory test-qgis-lts

# The edit loop's tier: what is marked slow (thousands of parcels, Dask, killed runs, PostGIS,
# the browser) is left to make test, which CI runs.
test-fast: install qgis-deps
	$(ENGINE_PYTEST) -m "not slow"

test-engine: install qgis-deps
	$(ENGINE_PYTEST)

test-qgis: install qgis-deps
	@mkdir -p $(dir $(QGIS_TEST_FILES))
	SITECHECK_PYTHON=$(abspath $(VPY)) QT_QPA_PLATFORM=offscreen \
	  $(SYSTEM_PYTHON) -m pytest -p no:cacheprovider --basetemp=$(QGIS_TEST_FILES) tests/qgis

# The QGIS tests in the 3.40 LTR: a Debian 13 root under .cache/qgis-roots (built once, then
# reused), unless this machine is Debian 13 and test-qgis ran them there already.
test-qgis-lts: install qgis-deps
	$(SUDO) $(SYSTEM_PYTHON) tools/qgis_matrix.py test trixie --skip-native

# QGIS 3.22 (Debian 12), 3.40 LTR (Debian 13), 3.44 (unstable); records bench/results/qgis_matrix.json.
test-qgis-matrix: install qgis-deps
	$(SUDO) $(SYSTEM_PYTHON) tools/qgis_matrix.py test bookworm trixie sid --record

# Dead code: what no product module, tool or benchmark uses (tests do not count as users).
DEAD_CODE_SCOPE := sitecheck processing layers ui bridge tools bench plugin.py __init__.py

lint: install
	$(VENV)/bin/ruff check sitecheck tests bench processing layers ui bridge tools plugin.py __init__.py
	$(VENV)/bin/mypy
	$(VPY) tools/mypy_plugin.py
	$(VENV)/bin/vulture $(DEAD_CODE_SCOPE) tools/dead_code_allowed.py --min-confidence 60

# --- benchmarks and packaging -----------------------------------------------

mutants: install
	$(VPY) tools/plant_bugs.py

bench: install qgis-deps
	$(VPY) bench/run.py

package:
	$(PYTHON) tools/package.py

resources:
	$(PYTHON) tools/make_resources.py

clean:
	rm -rf $(SAMPLE) dist build .pytest_cache .mypy_cache .ruff_cache
