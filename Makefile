# Two commands for a fresh clone: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8501

.PHONY: run test lint bench clean

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

test: $(VENV)/.dev-deps
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
