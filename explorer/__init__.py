"""The Streamlit app's support code: settings, cached compute, sidebar and figures.

`settings.py`, `runs.py`, `introspect.py` and `figures/` are free of streamlit; only
`ui.py` (and the pages) call `st.*`.
"""
