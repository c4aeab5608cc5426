"""One table of interface text per language, with the same keys (see explorer/i18n.py)."""
