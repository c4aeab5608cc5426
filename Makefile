# Two commands for a fresh clone: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8501

.PHONY: run test test-fast lint bench clean browser redis

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files re-run pip only when a requirements file changes.
$(VENV)/.run-deps: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt -r requirements-dev.txt
	touch $@ $(VENV)/.run-deps

run: $(VENV)/.run-deps
	$(BIN)/streamlit run app.py --server.port $(PORT) --server.address 0.0.0.0

lint: $(VENV)/.dev-deps
	$(BIN)/ruff check .

# The browser tests drive Debian's Chromium (never a downloaded browser). Install it when it
# is missing and we are root with apt (as in CI); otherwise those tests say how to get it.
browser:
	@if ! command -v chromium >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi

# The class store's tests start a redis-server of their own (Debian's): installed the same way.
redis:
	@if ! command -v redis-server >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Debian's redis-server for the class store's tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; \
	fi

# The browser tests one at a time in the foreground (each serves the app and drives Chromium,
# and waits on what the page draws: two at once would halve each one's machine), while
# everything else runs beside them at the lowest priority in two worker processes: a browser
# test mostly waits (one at a time they use about a quarter of two cores), so the rest fills
# the idle cores and gives them back when a browser test needs them (`nice`). The benchmarks'
# smoke runs that drive Chromium go with the rest: they assert what they print, never a time.
# The rest's output follows the browser part's. In a fresh clone on 2 cores: about 21
# minutes, 20 of them the browser part's (the rest, about 13, ends well before it).
test: $(VENV)/.dev-deps browser redis
	$(BIN)/ruff check .
	@rest_log=$$(mktemp) rest_tmp=$$(mktemp -d); \
	nice -n 19 $(BIN)/python -m pytest -m "not browser or slow" -n 2 -p no:cacheprovider \
		--basetemp=$$rest_tmp > $$rest_log 2>&1 & rest=$$!; \
	$(BIN)/python -m pytest -m "browser and not slow" --durations=25; browser_rc=$$?; \
	wait $$rest; rest_rc=$$?; \
	echo "=== everything but the browser tests (run beside them) ==="; cat $$rest_log; \
	rm -rf $$rest_log $$rest_tmp; \
	echo "browser tests: exit $$browser_rc; the rest: exit $$rest_rc"; \
	test $$browser_rc = 0 && test $$rest_rc = 0

# The inner loop (about 90 s on an idle 2-core machine): everything but the browser tests and
# the slow ones (the benchmarks' smoke runs, long trainings, extra cases: tests/conftest.py),
# in two worker processes (pytest-xdist), one per core.
test-fast: $(VENV)/.dev-deps
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not browser and not slow" -x -n 2

# Benchmarks (about an hour; run on an idle machine): writes bench/results.md.
bench: $(VENV)/.dev-deps browser
	$(BIN)/python -m bench.run_all

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
