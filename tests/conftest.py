"""Shared test setup."""

import torch

# As in app.py: one intra-op thread. Small models run faster and repeatably this way, and
# tests do not fight each other (or a busy CI machine) for the two cores.
torch.set_num_threads(1)

# Browser fixtures (app_url, browser, page) for every test module: tests/browser_support.py.
from browser_support import app_url, browser, page  # noqa: E402,F401
