"""Masks: which positions each attention may look at, and what masking does to the softmax."""

import streamlit as st

from explorer.app.charts import chart_as_text
from explorer.app.numbers import number_box
from explorer.app.page import show_problems
from explorer.figures.common import MAX_LABELLED
from explorer.figures.masks import (
    HALF_ROOM_WIDE,
    batch_masks_figure,
    effect_scores,
    example_words,
    fill_checks,
    mask_figure,
    mask_text,
    masking_effect_figure,
    padded_pair,
    sentence_positions,
)
from explorer.sections.frame import context
from explorer.sections.mask_notes import (
    show_conventions,
    show_fill_leak,
    show_head_axis,
    show_seed_example,
)
from explorer.state.urlstate import EXTRAS
from explorer.state.view import MASK_LEN_RANGE, MASK_SIZE_RANGE
from explorer.text.i18n import get_lang, t
from transformer.model import subsequent_mask

# Short lines (32 characters at most): the code sits in a half-width column, which cuts a
# longer line off on the right; they also fit presenter mode's larger font.
SUBSEQUENT_MASK_CODE = """def subsequent_mask(size):
    # True where j <= i
    shape = (1, size, size)
    ones = torch.ones(
        shape, dtype=torch.bool)
    return torch.tril(ones)"""
LEN_RANGE = MASK_LEN_RANGE  # the two sentence lengths of the padding example
LEN_DEFAULTS = {EXTRAS[k][0]: EXTRAS[k][1] for k in ("la", "lb")}  # 3 and 4, as in the link


st.title(t("mask.title"))
st.markdown(t("mask.intro"))

ctx = context()
lang = get_lang()  # the figures' and tables' language, handed to them
text_ok = show_problems(ctx, need_model=False)
tokens = list(ctx.tokens.tgt_in_tokens) if text_ok else ["<s>", "a", "b", "c"]

st.header(t("mask.sub_header"))
# The mask's size: the decoder input's length, unless the learner picks one (e.g. 5 or 20,
# the sizes the walk-throughs print); checked again here, whatever was typed or sent.
m1, m2 = st.columns(2)
with m2:
    chosen = number_box(st, t("mask.size_label"), "mask_size", *MASK_SIZE_RANGE, step=1,
                        default=None, value=None,
                        blank=t("mask.size_sentence", n=len(tokens)),
                        placeholder=t("mask.size_placeholder", n=len(tokens)),
                        help=t("mask.size_help"))
    st.markdown(t("mask.sub_text"))
    st.code(SUBSEQUENT_MASK_CODE, language="python", wrap_lines=True)
size = len(tokens)  # the decoder input's positions (the sections below use the sentence)
sub = subsequent_mask(size)[0].numpy()
shown = chosen or size
# a size larger than the sentence: the positions past its end have no token
labels = tokens if chosen is None else sentence_positions(tokens, shown, lang=lang)
shown_mask = sub if chosen is None else subsequent_mask(shown)[0].numpy()
# The page's figures and numbers are fixed by the sentence's tokens, the lengths and sizes
# asked for, the language and, for the softmax sections, the scores: made once for every
# learner who shows the same ones (a class following its teacher).
# half the page: on a projector, fewer column labels side by side (presenter mode's 18 px)
room = HALF_ROOM_WIDE if ctx.presenter else MAX_LABELLED
fig, name = ctx.fixed(("masks", "sub", tuple(labels), lang, room), lambda: mask_figure(
    shown_mask, labels, labels, f"subsequent_mask({shown})[0]", lang=lang, room=room))
ctx.chart(fig, "mask_subsequent", key="mask_sub", where=m1, share=name, text=False)
chart_as_text(mask_text(shown_mask, labels, lang=lang), t("a11y.mask_as_text"), where=m1)
m2.caption(t("mask.sub_caption", size=shown, allowed=int(shown_mask.sum()),
             total=shown * shown))
if shown > size:
    m2.caption(t("mask.sub_beyond", first=size, last=shown - 1, none=t("fig.masks.no_token")))

st.header(t("mask.pad_header"))
st.markdown(t("mask.pad_text"))
p1, p2 = st.columns(2)
lengths = []
for where, (key, default), name in zip((p1, p2), LEN_DEFAULTS.items(), "AB", strict=True):
    # The value comes from session state only (a link sets it before the page runs), checked
    # again here: whatever was typed or sent, the box shows the length used.
    lengths.append(number_box(where, t("mask.len_label", name=name), key, *LEN_RANGE, step=1,
                              default=default))
len_a, len_b = lengths
pair, _ = ctx.fixed(("masks", "pair", tuple(tokens), len_a, len_b),
                    lambda: padded_pair(example_words(tokens), len_a, len_b))
src_mask = pair.batch.src_mask.numpy()  # (2, 1, width)
b1, b2 = st.columns([3, 2])
pair_name = (tuple(tokens), len_a, len_b, lang)
fig, name = ctx.fixed(("masks", "pad", *pair_name), lambda: mask_figure(
    src_mask[:, 0, :], ["A", "B"], pair.longer_src_tokens,
    t("mask.src_mask_title", shape=tuple(src_mask.shape)),
    lang=lang, row_noun=t("mask.row_sentence"), col_noun=t("mask.col_position")))
ctx.chart(fig, "mask_padding", key="mask_pad", where=b1, share=name, text=False)
chart_as_text(mask_text(src_mask[:, 0, :], ["A", "B"], lang=lang, row_noun=t("mask.row_sentence")),
              t("a11y.mask_as_text"), where=b1)
b2.caption(t("mask.pad_caption"))
b2.caption(t("mask.cross_mask", pads=abs(len_a - len_b)))
# The two target masks get the page's whole width: side by side in a column, their row
# labels (e.g. "5:<pad>") ran into the padding-mask chart beside them.
fig, name = ctx.fixed(("masks", "tgt", *pair_name), lambda: batch_masks_figure(
    pair.batch.tgt_mask.numpy(), pair.tgt_tokens,
    [t("mask.tgt_title", i=0, name="A", n=len_a),
     t("mask.tgt_title", i=1, name="B", n=len_b)], lang=lang))
ctx.chart(fig, "mask_target", key="mask_tgt", share=name)
st.caption(t("mask.tgt_caption", shape=tuple(pair.batch.tgt_mask.shape)))
st.markdown(t("mask.heads_text"))
show_head_axis(ctx, pair, (tuple(tokens), len_a, len_b), lang)  # mask.unsqueeze(0)
# A common mistake: the decoder's self-attention mask called the src-attention mask.
st.caption(t("mask.mistake_src", T=size, future=int(size * size - sub.sum())))

st.header(t("mask.effect_header"))
yours = text_ok and ctx.cfg is not None
scores = effect_scores(ctx.run().cache if yours else None, size)  # (T, T)


def of_scores(parts: tuple, build):
    """A figure of `scores` and its shared name: shared when the scores are (a run every
    session reads, or the seeded random ones), else made here."""
    if yours:
        return ctx.from_run(parts, build)
    return ctx.fixed(("masks", "random scores", tuple(tokens), *parts), build)


st.caption(t("mask.effect_yours") if yours else t("mask.effect_random"))
fig, name = of_scores(("mask_fx", lang), lambda: masking_effect_figure(scores, sub, tokens,
                                                                         lang=lang))
ctx.chart(fig, "mask_softmax_effect", key="mask_fx", share=name)
st.markdown(t("mask.effect_text"))
show_seed_example(ctx)  # a walk-through's 4 tokens, without and with every key blocked
# A walk-through's claim: -1e9 still lets "a little" of the future through, on the scores above
checks, _ = of_scores(("fill checks",), lambda: fill_checks(scores, sub))
show_fill_leak(checks, lang)

show_conventions(ctx, scores, sub, tokens, lang, of_scores)  # the other convention, on them
