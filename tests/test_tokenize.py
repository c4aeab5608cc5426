"""Tokenizer: deterministic text -> tokens, friendly errors, and never any other exception."""

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_inputs import bad_input_params

from transformer.tokenize import (
    BOS,
    EOS,
    MAX_TEXT_CHARS,
    MAX_TOKENS,
    PAD,
    SPECIALS,
    UNK,
    TokenizeError,
    Vocab,
    normalize,
    tokenize,
)

MODES = ("word", "char")
FAST = settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Characters that must never survive inside a token (ZWJ is checked separately: it may only
# sit between two pictographs of one emoji sequence).
FORBIDDEN = frozenset(
    [chr(c) for c in (0x200B, 0x200C, 0x200E, 0x200F, 0xFEFF, 0x00AD)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2060, 0x2065)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)
ZWJ = "\u200d"
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
FLAG_CN = "\U0001f1e8\U0001f1f3"
FLAG_US = "\U0001f1fa\U0001f1f8"


OWN_HOSTILE = {
    "empty": "",
    "spaces": "     ",
    "tabs and newlines": "\t\n\r\n",
    "zero-width only": "\u200b\u200b\ufeff",
    "html bold": "<b>bold</b>",
    "script tag": "<script>alert(1)</script>",
    "markdown link": "[click](javascript:alert(1))",
    "latex": "$\\alpha$",
    "repeated": "the cat the cat the",
    "chinese": "我爱自然语言处理",
    "emoji zwj and flags": f"{FAMILY} {FLAG_CN} {FLAG_US}",
    "accents nfc": unicodedata.normalize("NFC", "école café"),
    "accents nfd": unicodedata.normalize("NFD", "école café"),
    "arabic": "مرحبا بالعالم",
    "bidi override": "\u202eevil text",
    "2000-char word": "a" * 2000,
    "200 words": " ".join(["word"] * 200),
    "single": "a",
    "digits": "1 2 3 4 5 6 7 8 9",
    "lone surrogate": "\ud800",
    "lone low surrogate in word": "ab\udc00cd",
    "split surrogate pair": "\ud83d\ude00",
    "orphan zwj": "\u200d",
    "orphan variation selector": "\ufe0f",
    "hangul filler": "\u3164",
    "only controls": "\x00\x01\x7f\x85",
    "nul inside": "a\x00b",
    "line separators": "a\u2028b\u2029c",
    "tag characters alone": "\U000e0067\U000e0062\U000e007f",
}


def _shared_cases() -> list:
    return bad_input_params()


def _is_pictograph_neighbour(ch: str) -> bool:
    cp = ord(ch)
    return unicodedata.category(ch) == "So" or 0x1F3FB <= cp <= 0x1F3FF or ch == "\ufe0f"


def assert_clean_outcome(text: str, mode: str) -> None:
    """Either good tokens, or a TokenizeError with a message: nothing else."""
    try:
        tokens = tokenize(text, mode)
    except TokenizeError as err:
        assert str(err).strip()
        return
    assert isinstance(tokens, list) and tokens
    assert len(tokens) <= MAX_TOKENS
    for tok in tokens:
        assert isinstance(tok, str) and tok
        assert not any(ch.isspace() for ch in tok), repr(tok)
        assert not FORBIDDEN.intersection(tok), repr(tok)
        assert not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in tok), repr(tok)
        for i, ch in enumerate(tok):
            if ch == ZWJ:
                assert 0 < i < len(tok) - 1, repr(tok)
                assert _is_pictograph_neighbour(tok[i - 1]), repr(tok)
                assert unicodedata.category(tok[i + 1]) == "So", repr(tok)


# ------------------------------------------------------------------------------------------
# Hostile inputs
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", _shared_cases())
def test_shared_bad_inputs(text: str, mode: str) -> None:
    assert_clean_outcome(text, mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", list(OWN_HOSTILE.values()), ids=list(OWN_HOSTILE))
def test_own_hostile_inputs(text: str, mode: str) -> None:
    assert_clean_outcome(text, mode)


@pytest.mark.parametrize(
    "name, word, char",
    [
        ("html bold", ["<", "b", ">", "bold", "<", "/", "b", ">"], None),
        ("script tag", ["<", "script", ">", "alert", "(", "1", ")", "<", "/", "script", ">"], None),
        ("markdown link", ["[", "click", "]", "(", "javascript", ":", "alert", "(", "1", ")", ")"],
         None),
        ("latex", ["$", "\\", "alpha", "$"], ["$", "\\", "a", "l", "p", "h", "a", "$"]),
        ("repeated", ["the", "cat", "the", "cat", "the"], None),
        ("chinese", list("我爱自然语言处理"), list("我爱自然语言处理")),
        ("emoji zwj and flags", [FAMILY, FLAG_CN, FLAG_US], [FAMILY, FLAG_CN, FLAG_US]),
        ("accents nfc", ["école", "café"], ["é", "c", "o", "l", "e", "c", "a", "f", "é"]),
        ("arabic", ["مرحبا", "بالعالم"], None),
        ("bidi override", ["evil", "text"], list("eviltext")),
        ("single", ["a"], ["a"]),
        ("digits", list("123456789"), list("123456789")),
        ("lone surrogate", ["\ufffd"], ["\ufffd"]),
        ("lone low surrogate in word", ["ab", "\ufffd", "cd"], ["a", "b", "\ufffd", "c", "d"]),
        ("split surrogate pair", ["\U0001f600"], ["\U0001f600"]),
        ("nul inside", ["a", "b"], ["a", "b"]),
        ("line separators", ["a", "b", "c"], ["a", "b", "c"]),
    ],
)
def test_hostile_inputs_expected_tokens(name: str, word: list[str], char: list[str] | None):
    text = OWN_HOSTILE[name]
    assert tokenize(text, "word") == word
    if char is not None:
        assert tokenize(text, "char") == char


@pytest.mark.parametrize(
    "name",
    ["empty", "spaces", "tabs and newlines", "zero-width only", "orphan zwj",
     "orphan variation selector", "hangul filler", "only controls", "tag characters alone"],
)
@pytest.mark.parametrize("mode", MODES)
def test_empty_after_cleaning_is_refused_with_the_friendly_message(name: str, mode: str):
    with pytest.raises(TokenizeError) as err:
        tokenize(OWN_HOSTILE[name], mode)
    assert str(err.value) == (
        "The text is empty (after removing spaces and invisible characters). "
        "Type at least one word."
    )


def test_nfc_and_nfd_tokenize_identically() -> None:
    nfc, nfd = OWN_HOSTILE["accents nfc"], OWN_HOSTILE["accents nfd"]
    assert nfc != nfd
    for mode in MODES:
        assert tokenize(nfc, mode) == tokenize(nfd, mode)


# ------------------------------------------------------------------------------------------
# Limits and errors
# ------------------------------------------------------------------------------------------


def test_constants() -> None:
    assert SPECIALS == ("<pad>", "<s>", "</s>", "<unk>")
    assert (PAD, BOS, EOS, UNK) == (0, 1, 2, 3)
    assert SPECIALS[PAD] == "<pad>" and SPECIALS[UNK] == "<unk>"
    assert MAX_TEXT_CHARS == 1000 and MAX_TOKENS == 64
    assert issubclass(TokenizeError, ValueError)


@pytest.mark.parametrize("mode", MODES)
def test_too_long_text_names_the_count_and_the_cap(mode: str) -> None:
    with pytest.raises(TokenizeError) as err:
        tokenize("a" * 2000, mode)
    msg = str(err.value)
    assert "2000" in msg and str(MAX_TEXT_CHARS) in msg and "Shorten" in msg


def test_length_is_checked_before_any_work() -> None:
    # Pure whitespace would be "empty" after cleaning; the length check must come first.
    with pytest.raises(TokenizeError, match="limit is 1000"):
        tokenize(" " * (MAX_TEXT_CHARS + 1))
    assert tokenize("a" * MAX_TEXT_CHARS) == ["a" * MAX_TEXT_CHARS]


def test_too_many_tokens_names_the_count_and_the_cap() -> None:
    with pytest.raises(TokenizeError) as err:
        tokenize(OWN_HOSTILE["200 words"])
    msg = str(err.value)
    assert "200 tokens" in msg and str(MAX_TOKENS) in msg
    assert len(tokenize(" ".join(["w"] * MAX_TOKENS))) == MAX_TOKENS
    with pytest.raises(TokenizeError, match="65 tokens"):
        tokenize(" ".join(["w"] * (MAX_TOKENS + 1)))
    assert tokenize("a" * (MAX_TOKENS + 1), "word") == ["a" * (MAX_TOKENS + 1)]
    with pytest.raises(TokenizeError, match="65 tokens"):
        tokenize("a" * (MAX_TOKENS + 1), "char")


def test_custom_max_tokens() -> None:
    assert tokenize("a b", max_tokens=2) == ["a", "b"]
    with pytest.raises(TokenizeError, match="3 tokens; the limit is 2"):
        tokenize("a b c", max_tokens=2)
    with pytest.raises(TokenizeError, match="3 tokens; the limit is 2"):
        tokenize("abc", "char", max_tokens=2)
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(TokenizeError):
            tokenize("a", max_tokens=bad)


@pytest.mark.parametrize("mode", ["words", "", "WORD", "bpe", None, 3])
def test_unknown_mode_names_the_valid_modes(mode: object) -> None:
    with pytest.raises(TokenizeError) as err:
        tokenize("hello", mode)  # type: ignore[arg-type]
    msg = str(err.value)
    assert "'word'" in msg and "'char'" in msg


@pytest.mark.parametrize("text", [None, 42, b"bytes", ["a", "b"], 3.5])
def test_non_string_is_refused(text: object) -> None:
    with pytest.raises(TokenizeError, match="string"):
        tokenize(text)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------
# normalize
# ------------------------------------------------------------------------------------------


def test_normalize_nfc_and_whitespace() -> None:
    assert normalize("e\u0301") == "\u00e9"
    assert normalize("  a\t\tb\r\n\nc  ") == "a b c"
    assert normalize("a\x00b\x1fc\x7fd") == "a b c d"
    assert normalize("a\u00a0\u3000b") == "a b"
    assert normalize("") == ""


@pytest.mark.parametrize(
    "cp",
    [0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
     0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0xFEFF, 0x00AD],
)
def test_normalize_drops_invisible_characters(cp: int) -> None:
    assert normalize(f"ab{chr(cp)}cd") == "abcd"
    assert normalize(chr(cp)) == ""


def test_normalize_keeps_zwj_only_inside_emoji() -> None:
    assert normalize(FAMILY) == FAMILY
    woman_technologist = "\U0001f469\U0001f3fd\u200d\U0001f4bb"  # skin tone before the ZWJ
    assert normalize(woman_technologist) == woman_technologist
    heart_on_fire = "\u2764\ufe0f\u200d\U0001f525"  # variation selector before the ZWJ
    assert normalize(heart_on_fire) == heart_on_fire
    assert normalize("a\u200db") == "ab"
    assert normalize("\u200d\U0001f468") == "\U0001f468"
    assert normalize("\U0001f468\u200d") == "\U0001f468"
    assert normalize("\U0001f468\u200da") == "\U0001f468a"
    assert normalize("\U0001f468\u200d\u200d\U0001f469") == "\U0001f468\u200d\U0001f469"


def test_normalize_never_raises_on_surrogates() -> None:
    assert normalize("\ud800") == "\ufffd"
    assert normalize("x\udfffy") == "x\ufffdy"
    assert normalize("\ud83d\ude00") == "\U0001f600"  # a split pair is put back together
    assert normalize("\ude00\ud83d") == "\ufffd\ufffd"


# ------------------------------------------------------------------------------------------
# Word and char modes
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("hello, world!", ["hello", ",", "world", "!"]),
        ("Transformer模型很强大, attention", ["Transformer", "模", "型", "很", "强", "大", ",",
                                            "attention"]),
        ("1+1=2 costs $5 © 2024", ["1", "+", "1", "=", "2", "costs", "$", "5", "©", "2024"]),
        ("«quoted» — “dash”…", ["«", "quoted", "»", "—", "“", "dash", "”", "…"]),
        ("don't 3.14", ["don", "'", "t", "3", ".", "14"]),
        ("hi😀there", ["hi", "😀", "there"]),
        ("👍🏽👍", ["👍🏽", "👍"]),
        ("❤️ ok", ["❤️", "ok"]),
        ("1️⃣2️⃣", ["1️⃣", "2️⃣"]),
        ("🇨🇳🇺🇸🇫", [FLAG_CN, FLAG_US, "🇫"]),
        ("日本語のテキスト", list("日本語のテキスト")),
        ("ภาษาไทย", list("ภาษาไทย")),
        ("𠀀𠀁", ["𠀀", "𠀁"]),  # CJK extension B
        ("안녕 세상", ["안녕", "세상"]),  # Korean uses spaces: words stay words
        ("مرحبا، عالم", ["مرحبا", "،", "عالم"]),
        ("q\u0307x z", ["q\u0307x", "z"]),  # a mark with no precomposed form stays attached
        ("ＡＢＣ，ｄｅｆ", ["ＡＢＣ", "，", "ｄｅｆ"]),
    ],
)
def test_word_mode(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected
    assert tokenize(text, "word") == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a b", ["a", "b"]),  # spaces are dropped in char mode
        ("e\u0301t\u00e9", ["\u00e9", "t", "\u00e9"]),
        ("q\u0307\u0323", ["q\u0323\u0307"]),  # NFC reorders the marks, they stay together
        ("👍🏽!", ["👍🏽", "!"]),
        (f"{FAMILY}{FLAG_CN}", [FAMILY, FLAG_CN]),
        ("🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f x",
         ["🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f", "x"]),
        ("#️⃣", ["#️⃣"]),
        ("ก้า", ["ก้", "า"]),
        ("hi, 你好", ["h", "i", ",", "你", "好"]),
    ],
)
def test_char_mode(text: str, expected: list[str]) -> None:
    assert tokenize(text, "char") == expected


def test_tokenize_is_deterministic() -> None:
    text = "Transformer模型很强大, attention 👨‍👩‍👧‍👦 école"
    assert tokenize(text) == tokenize(text)
    assert tokenize(text, "char") == tokenize(text, "char")


# ------------------------------------------------------------------------------------------
# Properties
# ------------------------------------------------------------------------------------------

TRICKY = st.sampled_from(
    ["a", "Z", "é", "e", "\u0301", "\u0323", " ", "\t", "\n", "\r", "\x00", "\u200b", "\u200d",
     "\u202e", "\ufeff", "\u00ad", "\ufe0f", "\ufe0e", "\U0001f3fd", "\U0001f468", "\U0001f469",
     "\u2764", "\U0001f1e8", "\U0001f1f3", "\U000e0067", "\U000e007f", "\U0001f3f4", "中", "の",
     "ก", "\u0e49", "م", "1", "#", "\u20e3", ",", "!", "$", "\ud800", "\udc00", "\ud83d",
     "\ude00", "\u3164", "\u034f", "\u2028", "\u1100", "\u1161", "\u11a8"]
)
TRICKY_TEXT = st.lists(TRICKY, max_size=40).map("".join)
ANY_TEXT = st.one_of(
    st.text(max_size=80),
    st.text(st.characters(exclude_categories=()), max_size=80),
    TRICKY_TEXT,
)


@FAST
@given(text=ANY_TEXT, mode=st.sampled_from(MODES))
def test_property_only_tokenize_error_and_no_whitespace(text: str, mode: str) -> None:
    assert_clean_outcome(text, mode)


@FAST
@given(text=ANY_TEXT)
def test_property_normalize_is_total_and_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once
    assert once == once.strip() and "  " not in once


@FAST
@given(text=ANY_TEXT, mode=st.sampled_from(MODES))
def test_property_nfc_nfd_agree(text: str, mode: str) -> None:
    text = normalize(text)  # surrogates gone, so NFD is well defined

    def outcome(t: str) -> list[str] | str:
        try:
            return tokenize(t, mode, max_tokens=10_000)
        except TokenizeError as err:
            return "error: " + str(err).split(";")[0].split(" has ")[0]

    nfc, nfd = unicodedata.normalize("NFC", text), unicodedata.normalize("NFD", text)
    if len(nfc) <= MAX_TEXT_CHARS and len(nfd) <= MAX_TEXT_CHARS:
        assert outcome(nfc) == outcome(nfd)


# ------------------------------------------------------------------------------------------
# Vocab
# ------------------------------------------------------------------------------------------


def test_vocab_layout() -> None:
    v = Vocab(["the", "cat", "the", "<unk>", "sat", "<s>", "cat"])
    assert v.itos == ("<pad>", "<s>", "</s>", "<unk>", "the", "cat", "sat")
    assert isinstance(v.itos, tuple)
    assert len(v) == 7
    assert v.stoi["the"] == 4 and v.stoi["<pad>"] == PAD
    assert all(v.stoi[tok] == i for i, tok in enumerate(v.itos))
    assert "cat" in v and "dog" not in v
    assert len(Vocab([])) == len(SPECIALS)


def test_vocab_encode_decode() -> None:
    v = Vocab(["the", "cat"])
    assert v.encode(["the", "cat", "dog"]) == [4, 5, UNK]
    assert v.encode(["cat"], add_bos=True, add_eos=True) == [BOS, 5, EOS]
    assert v.encode([], add_bos=True) == [BOS]
    assert v.encode([], add_eos=True) == [EOS]
    assert v.decode([BOS, 4, 5, EOS, PAD]) == ["<s>", "the", "cat", "</s>", "<pad>"]
    assert v.decode([99, -1, len(v)]) == ["<unk>"] * 3
    assert v.decode([]) == []
    with pytest.raises(TypeError):
        v.encode("the")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        v.decode([1.5])  # type: ignore[list-item]


def test_vocab_equality_and_immutability() -> None:
    a = Vocab(["x", "y"])
    assert a == Vocab(["x", "y", "x"])
    assert a != Vocab(["y", "x"])
    assert a != ("x", "y")
    assert hash(a) == hash(Vocab(["x", "y"]))
    with pytest.raises(AttributeError):
        a.itos = ("z",)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        a.stoi["z"] = 9  # type: ignore[index]
    assert a.itos == ("<pad>", "<s>", "</s>", "<unk>", "x", "y")


def test_vocab_rejects_non_token_input() -> None:
    with pytest.raises(TypeError):
        Vocab("hello")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Vocab(["a", 1])  # type: ignore[list-item]


def test_vocab_from_text() -> None:
    v = Vocab.from_text("the cat the cat the")
    assert v.itos[len(SPECIALS):] == ("the", "cat")
    assert Vocab.from_text("ab a", mode="char").itos[len(SPECIALS):] == ("a", "b")
    assert v == Vocab(tokenize("the cat the cat the"))
    with pytest.raises(TokenizeError):
        Vocab.from_text("   ")


@FAST
@given(tokens=st.lists(st.text(min_size=1, max_size=5), max_size=30))
def test_property_vocab_round_trip(tokens: list[str]) -> None:
    v = Vocab(tokens)
    ids = v.encode(tokens, add_bos=True, add_eos=True)
    assert ids[0] == BOS and ids[-1] == EOS
    assert all(0 <= i < len(v) for i in ids)
    assert v.decode(ids[1:-1]) == list(tokens)
    assert len(v) == len(SPECIALS) + len(set(tokens) - set(SPECIALS))


@FAST
@given(text=TRICKY_TEXT, mode=st.sampled_from(MODES))
def test_property_vocab_round_trip_on_tokenized_text(text: str, mode: str) -> None:
    try:
        tokens = tokenize(text, mode)
    except TokenizeError:
        return
    v = Vocab(tokens)
    assert v.decode(v.encode(tokens)) == tokens


# ------------------------------------------------------------------------------------------
# Labels
# ------------------------------------------------------------------------------------------
