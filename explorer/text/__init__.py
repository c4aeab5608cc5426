"""Words: the interface text in each language (i18n, locales) and the glossary."""
