"""Streamlit sections the pages call: one module per part of a page."""
