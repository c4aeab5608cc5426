"""The date task: Babel's renderings, spans, split, batches and the alignment measure."""

import datetime as dt

import pytest
import torch

from transformer import dates as D
from transformer.tokenize import BOS, EOS, PAD


def test_every_locale_and_style_renders_the_example_date():
    d = dt.date(2026, 11, 23)
    texts = {v.name: D.render(d, v).text for v in D.variants()}
    assert texts["de/full"] == "Montag, 23. November 2026"
    assert texts["de/full-lower"] == "montag, 23. november 2026"
    assert texts["en_US/abbr"] == "Mon, Nov 23, 2026"
    assert texts["zh_Hans/full"] == "2026年11月23日星期一"
    assert texts["fr/long"] == "23 novembre 2026"
    assert {v.locale for v in D.variants()} == set(D.LOCALES)
    assert {v.style for v in D.variants()} == set(D.STYLES)


def test_fields_come_from_babel_not_from_tables_here():
    from babel.dates import format_date

    gen = torch.Generator().manual_seed(0)
    for ex in D.DateTask().examples(300, gen):
        ref = format_date(ex.date, D.pattern(ex.locale, ex.style), locale=ex.locale)
        assert ex.text == (ref.lower() if ex.variant.lower else ref)


@pytest.mark.parametrize("variant", D.variants(), ids=lambda v: v.name)
def test_spans_hold_each_field_and_tokens_are_the_char_tokenizer(variant):
    d = dt.date(1987, 3, 9)  # one-digit day and month, a weekday
    ex = D.render(d, variant)
    assert D.source_tokens(ex.text) == list(ex.tokens)
    year = "".join(ex.tokens[slice(*ex.spans["year"])])
    day = "".join(ex.tokens[slice(*ex.spans["day"])])
    assert year == "1987"
    assert day.lstrip("0") == "9"
    month = ex.text[slice(*ex.text_spans["month"])]
    # a month written with digits ("3", "03", Korean "3월") is not a word
    assert ex.month_is_word == (not any(ch.isdigit() for ch in month))
    if not ex.month_is_word:
        assert "".join(ch for ch in month if ch.isdigit()).lstrip("0") == "3"


def test_two_digit_years_and_ambiguous_numeric_orders_are_left_out():
    for v in D.variants():
        pat = D.pattern(v.locale, v.style)
        assert "yy" not in pat.replace("yyyy", "")
        assert v.style != "short"


def test_held_out_days_never_reach_training():
    train_days = set(D._days("train").tolist())
    held = D._days("held_out").tolist()
    assert held and not train_days & set(held)
    assert 0.03 < len(held) / (len(held) + len(train_days)) < 0.07
    gen = torch.Generator().manual_seed(1)
    for ex in D.DateTask().examples(500, gen):
        assert not D.is_held_out(ex.date)
        assert D.FIRST_YEAR <= ex.date.year <= D.LAST_YEAR
    for ex in D.held_out_examples(200):
        assert D.is_held_out(ex.date)


def test_held_out_examples_cover_every_variant_evenly():
    examples = D.held_out_examples(len(D.variants()) * 3)
    counts = D.accuracy_by(examples, [True] * len(examples), key="variant")
    assert set(counts) == {v.name for v in D.variants()}
    assert {n for _, n in counts.values()} == {3}


def test_sample_is_seeded_and_framed_like_the_other_tasks():
    task = D.DateTask()
    src, tgt = task.sample(32, torch.Generator().manual_seed(3))
    src2, tgt2 = task.sample(32, torch.Generator().manual_seed(3))
    assert torch.equal(src, src2) and torch.equal(tgt, tgt2)
    assert tgt.shape == (32, D.TGT_LEN)
    assert (tgt[:, 0] == BOS).all() and (tgt[:, -1] == EOS).all()
    # every source row: its characters, then </s>, then padding only
    for row in src.tolist():
        end = row.index(EOS)
        assert PAD not in row[:end] and set(row[end + 1:]) <= {PAD}
    vocab = task.vocab
    text = "".join(vocab.decode(tgt[0, 1:-1].tolist()))
    assert dt.date.fromisoformat(text)


def test_vocab_is_every_character_and_source_fits_the_longest():
    vocab = D.vocab()
    assert set("0123456789-") <= set(vocab.itos)
    assert D.max_source_tokens() >= len(D.render(dt.date(2026, 9, 23),
                                                 D.Variant("es", "full")).tokens)


def test_task_refuses_bad_arguments():
    with pytest.raises(ValueError, match="split"):
        D.DateTask(split="test")
    with pytest.raises(ValueError, match="lower_share"):
        D.DateTask(lower_share=1.5)


def test_alignment_counts_digits_inside_their_fields():
    ex = D.render(dt.date(2026, 11, 23), D.Variant("de", "long"))  # "23.November2026"
    argmax = torch.tensor([[ex.spans["year"][0]] * 4 + [0] + [ex.spans["month"][0]] * 2 + [0]
                           + [ex.spans["day"][0]] * 2])  # (1, 10): every digit on its field
    shares, counts = D._shares(argmax, [ex])
    assert shares["year"] == shares["month"] == shares["day"] == 1.0
    assert counts == {"year": 4, "month": 2, "month_word": 2, "day": 2}
    wrong = torch.zeros_like(argmax) + ex.spans["year"][0]  # everything on the year
    shares, _ = D._shares(wrong, [ex])
    assert shares["year"] == 1.0 and shares["day"] == 0.0 and shares["month"] == 0.0
