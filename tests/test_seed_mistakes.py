"""The walk-throughs' mistakes (and worked examples) shown live: each number the pages state is
recomputed here independently, and each page shows the text in both languages."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from apptest_helpers import app, app_in

from explorer.app.context import build_context
from explorer.core.settings import Settings
from explorer.text.i18n import TABLES

LANGS = ("en", "zh")


def _texts(at) -> list[str]:
    return [m.value for m in at.markdown] + [c.value for c in at.caption]


# ---- 1. NLLLoss returns -x[y], not x[y] (Train & decode, "The loss per token") ---------------


def test_nll_example_is_minus_the_labels_log_probability():
    from explorer.figures.train import nll_example

    ctx = build_context(Settings())
    lp = ctx.run().cache["generator.hook_log_probs"][0]  # (positions, vocab)
    labels = ctx.tokens.tgt_in_ids[1:]
    ex = nll_example(lp, labels)
    x_y = float(lp[0, labels[0]])
    assert x_y < 0 and ex.x_y == pytest.approx(x_y) and ex.loss == pytest.approx(-x_y)
    picked = np.array([lp[i, y] for i, y in enumerate(labels)], dtype=np.float64)
    assert ex.labels == len(labels) and ex.mean_x_y == pytest.approx(picked.mean(), rel=1e-5)
    assert ex.mean_loss == pytest.approx(-picked.mean(), rel=1e-5)
    assert ex.smoothing_zero == pytest.approx(-picked.mean(), rel=1e-5)
    # the walk-through's x[y] would be the negative of the loss torch computes
    torch_loss = F.nll_loss(torch.tensor(lp[:1]), torch.tensor(labels[:1]))
    assert float(torch_loss) == pytest.approx(-x_y) and float(torch_loss) > 0 > x_y


def test_cross_entropy_and_nll_give_the_same_number_on_logits_0_to_4():
    from explorer.figures.train import cross_entropy_example

    expected = -math.log(math.exp(3) / sum(math.exp(i) for i in range(5)))  # 1.4519
    ce = cross_entropy_example()
    assert ce["ce"] == pytest.approx(expected, rel=1e-6)
    assert ce["nll"] == pytest.approx(expected, rel=1e-6)
    assert ce["by_hand"] == pytest.approx(expected, rel=1e-12)
    assert ce["x_y"] == pytest.approx(-expected, rel=1e-6)
    assert f"{expected:.4f}" == "1.4519"


def test_cross_entropy_on_log_probabilities_is_wasted_work_and_the_real_mistakes_differ():
    """log_softmax(log p) = log p: CrossEntropyLoss on log-probabilities gives NLLLoss's loss
    and gradient. On probabilities, or NLLLoss on logits, the numbers are wrong."""
    from explorer.figures.train import cross_entropy_example

    logits = [0.0, 1.0, 2.0, 3.0, 4.0]
    ce = cross_entropy_example()
    assert ce["ce_log"] == pytest.approx(ce["nll"], rel=1e-6) and ce["grad_gap"] < 1e-6
    probs = [math.exp(v) / sum(math.exp(w) for w in logits) for v in logits]
    on_probs = -math.log(math.exp(probs[3]) / sum(math.exp(q) for q in probs))
    assert ce["ce_probs"] == pytest.approx(on_probs, rel=1e-6)  # 1.6044, not 1.4519
    floor = -math.log(math.e / (math.e + 4))  # a perfect one-hot "probability" row
    assert ce["ce_probs_floor"] == pytest.approx(floor, rel=1e-6) and floor > 0.9
    assert ce["nll_logits"] == -3.0  # -x[y] of the raw logit: below zero


@pytest.mark.parametrize("lang", LANGS)
def test_train_page_shows_nll_and_cross_entropy(lang):
    ctx = build_context(Settings())
    lp = ctx.run().cache["generator.hook_log_probs"][0]
    labels = ctx.tokens.tgt_in_ids[1:]
    x_y = float(lp[0, labels[0]])
    mean = -float(np.mean([lp[i, y] for i, y in enumerate(labels)], dtype=np.float64))
    at = app("train", lang=lang, tr_loss_open=True)
    assert not at.exception, at.exception
    text = " ".join(_texts(at))
    assert TABLES[lang]["train.loss_expander"] in [e.label for e in at.expander]
    assert f"x[y] = {x_y:.4f}" in text and f"**{-x_y:.4f}** = −x[y]" in text
    assert f"{mean:.4f}" in text
    assert text.count("1.4519") >= 4 and "−x[y]" in text
    assert "**1.6044**" in text and "0.9048" in text and "**-3.0000**" in text
    wasted = "白做了一步" if lang == "zh" else "only wasted work"
    assert wasted in text and "second time" not in text and "第二遍" not in text
    marker = "漏掉了负号" if lang == "zh" else "the minus sign is missing"
    assert marker in text


# ---- 2. -1e9 leaks nothing in float32 (Masks, "What masking does") ----------------------------


def _learner_scores(source: str) -> np.ndarray:
    from explorer.figures.masks import EFFECT_SCORES

    return build_context(Settings(source=source)).run().cache[EFFECT_SCORES][0, 0]


def test_blocked_weights_are_exactly_zero_in_float32_and_when_they_are_not():
    from explorer.figures.masks import fill_checks, underflow_below

    scores = _learner_scores("a b c d")
    n = scores.shape[0]
    allowed = torch.tril(torch.ones(n, n, dtype=torch.bool))
    s32 = torch.tensor(scores, dtype=torch.float32)
    p = s32.masked_fill(~allowed, -1e9).softmax(-1)
    assert (p[~allowed] == 0).all() and int((~allowed).sum()) == n * (n - 1) // 2
    leak = s32.masked_fill(~allowed, -10.0).softmax(-1)[~allowed].max()
    assert leak > 0
    with pytest.raises(RuntimeError, match="overflow"):
        s32.half().masked_fill(~allowed, -1e9)
    p16 = s32.half().masked_fill(~allowed, -65504.0).softmax(-1)
    assert (p16[~allowed] == 0).all()
    f32, small, big16, min16, small16 = fill_checks(scores, allowed.numpy())
    assert (f32.exact_zeros, f32.blocked, f32.largest) == (n * (n - 1) // 2,) * 2 + (0.0,)
    assert small.largest == pytest.approx(float(leak)) and small.exact_zeros == 0
    assert big16.error and big16.largest is None
    assert min16.exact_zeros == min16.blocked and small16.largest > 0
    # the underflow limits the text states
    cut32, cut16 = underflow_below(torch.float32), underflow_below(torch.float16)
    assert round(cut32, 1) == -104.0 and round(cut16, 1) == -17.3
    assert torch.exp(torch.tensor(-104.0)) == 0 < torch.exp(torch.tensor(-103.9))
    assert torch.exp(torch.tensor(-17.4).half()) == 0 < torch.exp(torch.tensor(-17.2).half())


def test_a_row_with_every_key_blocked_spreads_one_over_n_not_zeros():
    """The exact zeros hold only in a row that keeps a key: the app's attention() on a row
    whose keys are all blocked gives 1/n each, as its texts say."""
    from transformer.model import attention

    n = 4
    q = torch.randn(1, 1, n, 8, generator=torch.Generator().manual_seed(0))
    mask = torch.ones(1, 1, n, n, dtype=torch.bool)
    mask[..., 2, :] = False  # row 2: every key blocked
    mask[..., 0, 1:] = False  # row 0: only key 0 left
    _, p = attention(q, q, q, mask)
    assert torch.equal(p[0, 0, 2], torch.full((n,), 1 / n))
    assert (p[0, 0, 0, 1:] == 0).all() and p[0, 0, 0, 0] == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ["masks", "attention"])
def test_the_exact_zero_claim_names_the_row_with_every_key_blocked(lang, page):
    key = "mask.intro" if page == "masks" else "attn.step3"
    assert "1/n" in TABLES[lang][key]
    if (page, lang) == ("masks", "zh"):
        return  # AppTest draws this page's lines above its sidebar in English (a browser
        # draws them in Chinese); the table's text is checked above
    with app_in(lang, page) as at:
        assert not at.exception, at.exception
        assert TABLES[lang][key] in " ".join(_texts(at))


def test_the_weights_are_named_the_softmax_of_the_masked_scores():
    """What the Model and Shapes pages call hook_pattern is what it holds."""
    from explorer.core.shape_table import _ops
    from transformer.config import TransformerConfig

    assert _ops(TransformerConfig(11, 11))["hook_pattern"] == "softmax(masked_scores, dim=-1)"
    cache = build_context(Settings(source="a b c")).run().cache
    for where in ("encoder.layers.0.self_attn", "decoder.layers.0.self_attn"):
        masked = torch.tensor(cache[f"{where}.hook_masked_scores"].copy())
        assert torch.allclose(torch.tensor(cache[f"{where}.hook_pattern"].copy()),
                              masked.softmax(-1), atol=1e-6)
    decoder = torch.tensor(cache["decoder.layers.0.self_attn.hook_masked_scores"].copy())
    assert (decoder[0, 0].triu(1) == -1e9).any()  # the decoder's are masked indeed


@pytest.mark.parametrize("lang", LANGS)
def test_masks_page_shows_the_exact_zeros(lang):
    scores = _learner_scores("a b c d")
    n = scores.shape[0]
    blocked = n * (n - 1) // 2
    allowed = torch.tril(torch.ones(n, n, dtype=torch.bool))
    leak = float(torch.tensor(scores, dtype=torch.float32).masked_fill(~allowed, -10.0)
                 .softmax(-1)[~allowed].max())
    at = app("masks", source="a b c d", lang=lang)
    assert not at.exception, at.exception
    text = " ".join(_texts(at))
    if lang == "en":
        assert f"**{blocked} of the {blocked}**" in text
    else:
        assert f"**{blocked} 个**被屏蔽的权重中有 **{blocked} 个**" in text
    assert "−104.0" in text and "−17.3" in text and "1.4e-45" in text and "65,504" in text
    assert f"{leak:.2e}" in text
    table = next(d.value for d in at.dataframe if TABLES[lang]["mask.col_fill"] in d.value)
    assert list(table[TABLES[lang]["mask.col_fill"]]) == ["−1e9", "−10", "−1e9", "−65504", "−10"]
    assert list(table[TABLES[lang]["mask.col_zeros"]])[0] == f"{blocked} / {blocked}"


# ---- 4. unsqueeze(0) instead of unsqueeze(1) (Masks, padding section) -------------------------


def test_unsqueeze_0_puts_the_sentences_on_the_head_axis():
    from explorer.figures.masks import head_axis_rows, padded_pair, walkthrough_head_axis

    pair = padded_pair(["a", "b", "c", "d"], 3, 4)
    src_mask = pair.batch.src_mask  # (2, 1, 4)
    for h in (4, 2):
        scores = torch.zeros(2, h, 4, 4)
        right = scores.masked_fill(src_mask.unsqueeze(1) == 0, -1e9)
        assert right.shape == (2, h, 4, 4)
        src, tgt = head_axis_rows(pair.batch, h)
        assert src.right == (2, 1, 1, 4) and src.wrong == (1, 2, 1, 4)
        assert tgt.right == (2, 1, 4, 4) and tgt.wrong == (1, 2, 4, 4)
        if h != 2:
            with pytest.raises(RuntimeError):
                scores.masked_fill(src_mask.unsqueeze(0) == 0, -1e9)
            assert src.wrong_result is None and tgt.wrong_result is None
        else:  # batch == h: runs, but head j of every sentence gets sentence j's mask
            wrong = scores.masked_fill(src_mask.unsqueeze(0) == 0, -1e9)
            assert not torch.equal(wrong, right) and src.wrong_result == (2, 2, 4, 4)
    seed, per_sentence = walkthrough_head_axis()
    assert seed.mask == (8, 4, 4) and seed.wrong_result == (2, 8, 4, 4)
    assert per_sentence.wrong_result is None and per_sentence.right_result == (2, 8, 4, 4)


@pytest.mark.parametrize("lang", LANGS)
def test_masks_page_shows_both_unsqueezes(lang):
    h = build_context(Settings()).cfg.h
    at = app("masks", lang=lang)
    assert not at.exception, at.exception
    text = " ".join(_texts(at))
    assert "mask.unsqueeze(0)" in text and f"h = {h}" in text
    assert "(1, 8, 4, 4)" in text and "(2, 8, 4, 4)" in text
    table = next(d.value for d in at.dataframe if "unsqueeze(0)" in d.value)
    assert list(table["unsqueeze(1)"]) == [f"(2, 1, 1, 4) → (2, {h}, 4, 4)",
                                           f"(2, 1, 4, 4) → (2, {h}, 4, 4)"]
    error = TABLES[lang]["mask.unsqueeze_error"]
    assert list(table["unsqueeze(0)"]) == [f"(1, 2, 1, 4) → {error}", f"(1, 2, 4, 4) → {error}"]


# ---- 3. K and V: one input, two projections (Attention, step 1) ------------------------------


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_k_and_v_come_from_one_tensor_and_differ(placement):
    from explorer.core.kinds import KINDS
    from explorer.figures.attention import key_value_source

    ctx = build_context(Settings(norm_placement=placement))
    model, cache, cfg = ctx.model(), ctx.run().cache, ctx.cfg
    memory = torch.tensor(cache["encoder.hook_out"])  # (1, src_len, d_model)
    attn = model.decoder.layers[0].src_attn
    with torch.no_grad():
        k, v = (lin(memory).view(1, -1, cfg.h, cfg.d_k).transpose(1, 2)
                for lin in attn.linears[1:3])
    assert np.allclose(k.numpy(), cache["decoder.layers.0.src_attn.hook_k"], atol=1e-5)
    assert np.allclose(v.numpy(), cache["decoder.layers.0.src_attn.hook_v"], atol=1e-5)
    for kind in KINDS.values():
        kv = key_value_source(model, cache, kind, 0, 1, placement == "pre")
        got_k = cache[kind.hook(0, "hook_k")][0, 1]
        got_v = cache[kind.hook(0, "hook_v")][0, 1]
        assert kv.recompute_error < 1e-5
        assert kv.mean_diff == pytest.approx(np.abs(got_k - got_v).mean(), rel=1e-5)
        assert kv.mean_diff > 0.1 and not np.allclose(got_k, got_v)
        assert kv.source == ("memory" if kind.key == "cross" else "x")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["enc", "cross"])
def test_attention_page_shows_k_and_v_differ(lang, kind):
    from explorer.core.kinds import KINDS

    ctx = build_context(Settings())
    cache = ctx.run().cache
    got_k = cache[KINDS[kind].hook(0, "hook_k")][0, 0]
    got_v = cache[KINDS[kind].hook(0, "hook_v")][0, 0]
    at = app("attention", lang=lang, attn_kind=kind)
    assert not at.exception, at.exception
    caption = next(c.value for c in at.caption if "W^K" in c.value)
    assert f"{np.abs(got_k - got_v).mean():.3f}" in caption
    assert f"{np.abs(got_k).mean():.3f}" in caption and f"{np.abs(got_v).mean():.3f}" in caption
    assert ("memory" in caption) == (kind == "cross")


# ---- 5. The (30, 8, 33, 64) walk, and teacher forcing on "<sos> it is a good day" -----------


def test_the_30_8_33_64_walk():
    from explorer.figures.shapes import attention_walk_shapes

    rows, more = attention_walk_shapes()
    q = torch.zeros(30, 8, 33, 64)
    scores = q @ q.transpose(-2, -1)
    assert tuple(scores.shape) == (30, 8, 33, 33)
    assert tuple((scores.softmax(-1) @ q).shape) == (30, 8, 33, 64)
    assert dict(rows) == {"walk_q": (30, 8, 33, 64), "walk_k": (30, 8, 33, 64),
                          "walk_v": (30, 8, 33, 64), "walk_mask": (30, 1, 1, 33),
                          "walk_scores": (30, 8, 33, 33), "walk_masked_scores": (30, 8, 33, 33),
                          "walk_pattern": (30, 8, 33, 33), "walk_out": (30, 8, 33, 64)}
    assert dict(more) == {"dec_mask": (30, 1, 33, 33), "dec_weights": (30, 8, 33, 33),
                          "dec_out": (30, 8, 33, 64), "cross_k": (30, 8, 20, 64),
                          "cross_weights": (30, 8, 33, 20), "cross_out": (30, 8, 33, 64)}


@pytest.mark.parametrize("lang", LANGS)
def test_shapes_page_shows_the_walk(lang):
    at = app("shapes", lang=lang)
    assert not at.exception, at.exception
    text = " ".join(_texts(at))
    assert "(30, 8, 33, 64)" in text and "(30, 8, 33, 20)" in text and "(30, 1, 33, 33)" in text
    sizes = [list(d.value.iloc[:, 1]) for d in at.dataframe if d.value.shape[1] == 3]
    assert ["30 × 8 × 33 × 64"] * 3 + ["30 × 1 × 1 × 33"] + ["30 × 8 × 33 × 33"] * 3 + [
        "30 × 8 × 33 × 64"] in sizes


@pytest.mark.parametrize("lang", LANGS)
def test_train_page_shows_the_teacher_forcing_example(lang):
    at = app("train", lang=lang)
    assert not at.exception, at.exception
    col_in, col_label = TABLES[lang]["train.col_input"], TABLES[lang]["train.col_label"]
    sentence = ["<s>", "it", "is", "a", "good", "day", "</s>"]
    tables = [d.value for d in at.dataframe if col_in in d.value]
    assert any(list(tb[col_in]) == sentence[:-1] and list(tb[col_label]) == sentence[1:]
               for tb in tables)
    text = " ".join(_texts(at))
    assert "good day" in text and "(1, 6, 6)" in text
    # inside the teacher-forcing expander, beside the task's own example
    inside = next(e for e in at.expander if e.label == TABLES[lang]["train.tf_expander"])
    assert any("good day" in m.value for m in inside.markdown)


# ---- walk-through mistakes named where they happen ---------------------------------------------


def test_a_minus_infinity_fill_of_a_fully_blocked_row_gives_nan():
    from explorer.figures.masks import minus_inf_weights, self_attention_example

    _, scores = self_attention_example(blocked=False)
    weights = minus_inf_weights(scores)
    assert np.isnan(weights).all()
    p, _ = self_attention_example(blocked=True)  # the app's -1e9: 1/n, a number
    assert np.allclose(p, 0.25)


@pytest.mark.parametrize("lang", LANGS)
def test_the_masks_page_names_the_nan_and_the_cross_attention_mask(lang):
    with app_in(lang, "masks", mask_len_a=3, mask_len_b=5) as at:
        assert not at.exception, at.exception
        captions = [c.value for c in at.caption]
    table = TABLES[lang]
    assert table["mask.inf_caption"].format(row="nan nan nan nan") in captions
    assert table["mask.cross_mask"].format(pads=2) in captions


def test_the_module_list_claim_is_computed_on_the_stack_without_changing_it():
    from torch import nn

    from explorer.core.introspect import module_list_check

    for placement, final_norm in (("pre", True), ("post", False)):
        ctx = build_context(Settings(norm_placement=placement))
        encoder = ctx.model().encoder
        before = [id(p) for p in encoder.parameters()]
        check = module_list_check(encoder)
        layers = sum(p.numel() for p in encoder.layers.parameters())
        assert check.is_module and issubclass(nn.ModuleList, nn.Module)
        assert check.registered == sum(p.numel() for p in encoder.parameters())
        assert check.in_a_list == check.registered - layers
        assert (check.in_a_list > 0) is final_norm  # post-norm: no final norm, nothing left
        assert [id(p) for p in encoder.parameters()] == before


@pytest.mark.parametrize("lang", LANGS)
def test_the_model_page_and_the_sidebar_name_the_walk_throughs_claims(lang):
    with app_in(lang, "model", model_component="Decoder", teaching_open=True) as at:
        assert not at.exception, at.exception
        captions = " ".join(c.value for c in at.caption)
        helps = " ".join(str(w.help) for kind in ("radio", "selectbox")
                         for w in at.sidebar.get(kind))
    assert "issubclass(nn.ModuleList, nn.Module)` " in captions and "True" in captions
    assert TABLES[lang]["sidebar.norm_placement_help"] in helps
    assert TABLES[lang]["sidebar.tie_weights_help"] in helps
    paper_shares = "it shares them" if lang == "en" else "其实论文把它们绑定为同一个权重矩阵"
    assert paper_shares in TABLES[lang]["sidebar.tie_weights_help"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_shapes_page_gives_q_k_and_v_their_sequence_axis(lang):
    """Not batchsize x d_model, and 3-D when forward receives them, 4-D only once split into
    heads: the live shapes of encoder layer 0 (the default sentence)."""
    ctx = build_context(Settings())
    S, d, h = len(ctx.tokens.src_tokens), ctx.cfg.d_model, ctx.cfg.h
    with app_in(lang, "shapes") as at:
        assert not at.exception, at.exception
        captions = [c.value for c in at.caption]
    want = TABLES[lang]["shapes.qkv_seq"].format(x=(1, S, d), q=(1, h, S, d // h),
                                                 scores=(1, h, S, S))
    assert want in captions


def test_the_walk_throughs_pe_printout_is_reproduced_and_its_last_rows_are_of_50000():
    from explorer.figures.embeddings import pe_steps

    steps = pe_steps(68)
    assert (steps.half, steps.max_len) == (34, 1024)  # div_term (34,), pe (1024, 68)
    c = steps.corners
    assert [c[k][1] for k in ("0", "1", "2", "66", "67")] == [  # the printout's row 1
        "8.4147e-01", "5.4030e-01", "6.9087e-01", "1.3111e-04", "1.0000e+00"]
    assert [c[k][2] for k in ("0", "1", "2", "66")] == [
        "9.0930e-01", "-4.1615e-01", "9.9897e-01", "2.6223e-04"]
    assert c["pos"][-1] == "1023" and c["0"][-1] != "-5.2517e-01"  # not its printed last row
    far = pe_steps(68, 50_000).corners  # ... which is position 49,999's
    assert [far[k][-1] for k in ("0", "1", "65", "67")] == [
        "-5.2517e-01", "-8.5100e-01", "-6.7518e-01", "9.6314e-01"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_embeddings_page_builds_the_table_step_by_step(lang):
    with app_in(lang, "embeddings", pe_d_model=68) as at:
        assert not at.exception, at.exception
        captions = [c.value for c in at.caption]
        tables = [d.value for d in at.dataframe]
    assert TABLES[lang]["emb.steps_caption"].format(
        first="0.99236", last="-0.91649", row="1,023") in captions
    assert any(list(tbl.columns)[:2] == ["pos", "0"] and len(tbl.columns) == 7 for tbl in tables)
