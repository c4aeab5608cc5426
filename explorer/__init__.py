"""The Streamlit app's support code, one module per job.

Pure Python (no streamlit): `settings.py` (the sidebar's settings, each declared once, and
their validation), `urlstate.py` (settings <-> link), `runs.py` (build a model, run the
text through it), `introspect.py` (names and shapes of what was captured), `checkpoint.py`,
`exports.py`, the Train page's `train_settings.py`, `train_task.py`, `training.py` and
`decoding.py`, and `figures/` (one module of pure figure functions per page).

Streamlit: `cache.py` (the shared, read-only models and runs), `context.py` (the page
context every page reads), `sidebar.py`, `links.py` (the link in the address bar),
`import_panel.py` (a learner's own checkpoint), `charts.py` (drawing a figure), and the
Train page's session state (`train_state.py`) and sections (`train_view.py`,
`decode_view.py`).
"""
