"""Class codes: six symbols of Crockford's base32, drawn with `secrets`, and the reading of a
code a person typed.

Crockford's alphabet leaves out I, L, O and U, the letters people mix up with 1, 0 and V
(and U with V, and rude words), so a code read aloud or off a projector is typed right;
what people type for the left-out letters is read as the digit they meant. 32**6 ≈ 1.07e9
codes: with the join rate limit (store.join_wait: past ten wrong codes a minute, one try
every JOIN_STEP seconds per address) guessing a live class is hopeless.
"""

from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6
# Crockford's decoding rule: the letters left out are read as the digits they look like.
_LOOKALIKES = {"I": "1", "L": "1", "O": "0"}
# What people put between groups when they copy or type a code ("K7Q-2XM", "k7q 2xm").
_DASHES = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2212_")
# Longer text is not a code with some spaces in it; reading it would only cost time.
_MAX_TYPED = 40


def new_code() -> str:
    """A fresh random code (the store makes sure no live class has it)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise_code(text: object) -> str | None:
    """The canonical code a person meant by `text`, or None if it cannot be one.

    Case, spaces and dashes do not matter, and I, L and O read as 1, 1 and 0. Only ASCII
    counts: `str.upper` turns some other letters into ASCII ones (the dotless ı into I),
    and full-width digits are digits to `isdigit`, so they are refused before, not after.
    Never raises, whatever it is given.
    """
    if not isinstance(text, str) or len(text) > _MAX_TYPED:
        return None
    symbols = []
    for char in text:
        if char.isspace() or char in _DASHES:
            continue
        if not char.isascii():
            return None
        char = char.upper()
        char = _LOOKALIKES.get(char, char)
        if char not in ALPHABET:
            return None
        symbols.append(char)
    return "".join(symbols) if len(symbols) == LENGTH else None
