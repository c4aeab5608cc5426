"""One table of interface text per language, with the same keys (see explorer/text/i18n.py)."""
