"""The Model page renders for every kind of setting, and its figures are drawn from the config."""

import json
import re

import plotly.graph_objects as go
import pytest
from apptest_helpers import PAPER_BASE, ROOT
from streamlit.testing.v1 import AppTest

from explorer.figures.model import architecture_figure, parameter_chart
from transformer.model import TransformerConfig

ALLOWED_MARKUP = re.compile(r"</?b>|<br>|<span style='font-size:\d+px'>|</span>")


def run_app(**state: object) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()  # the Model page is the default page
    return at


def specs(at: AppTest) -> list[dict]:
    """The page's own figures (not the trained-model preview box above them)."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")
            if "preview_chart" not in el.proto.id]


def texts(fig: dict | go.Figure) -> list[str]:
    if isinstance(fig, go.Figure):
        fig = fig.to_plotly_json()
    return [a.get("text", "") for a in fig["layout"].get("annotations", [])]


def shape_names(fig: dict | go.Figure) -> set[str]:
    if isinstance(fig, go.Figure):
        fig = fig.to_plotly_json()
    return {s.get("name") for s in fig["layout"].get("shapes", []) if s.get("name")}


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def check_page(at: AppTest) -> dict:
    assert not at.exception
    assert not [e.value for e in at.main.error]
    total = metric(at, "Parameters (distinct tensors)")
    assert int(total.replace(",", "")) > 0
    assert any(c.value.startswith("EncoderDecoder(") for c in at.code)
    assert "HookPoint" not in next(c.value for c in at.code if c.value.startswith("Encoder"))
    figs = specs(at)
    arch = next(f for f in figs if any("Encoder layer" in t for t in texts(f)))
    assert at.dataframe  # parameter table, every parameter, live shapes
    return arch


@pytest.mark.parametrize(
    "state",
    [{}, {"norm_placement": "post", "tie_weights": "decoder"}],
    ids=["default", "post-norm-tied"],
)
def test_model_page_renders(state):
    at = run_app(**state)
    arch = check_page(at)
    assert any("× 2" in t for t in texts(arch))
    post = state.get("norm_placement") == "post"
    assert ("box:encoder.norm" in shape_names(arch)) is not post
    assert ("tie:decoder" in shape_names(arch)) is post
    if post:
        assert any("generator.proj.weight" in i.value for i in at.info)
    # groups add up to the total, and the sidebar's estimate agrees for pre-norm
    table = next(d.value for d in at.dataframe if "share" in d.value.columns)
    total = int(metric(at, "Parameters (distinct tensors)").replace(",", ""))
    assert int(table["parameters"].sum()) == total
    if not post:
        assert metric(at, "Parameters") == metric(at, "Parameters (distinct tensors)")


def test_model_page_paper_base():
    at = run_app(**PAPER_BASE)
    arch = check_page(at)
    assert any("× 6" in t for t in texts(arch))
    assert any("d_model=512" in t for t in texts(arch))
    enc = int(metric(at, "Encoder stack").replace(",", ""))
    dec = int(metric(at, "Decoder stack").replace(",", ""))
    assert 44_000_000 < enc + dec < 44_200_000  # the stacks of the paper's base model
    assert any("paper's base model" in m.value for m in at.markdown)


def test_read_the_code_shows_live_shapes_for_each_component():
    # AppTest re-sends a text_input seeded only by the script's setdefault as "", so the
    # sentence is put in the session state explicitly for these reruns.
    at = run_app(source="the cat sat on the mat", target="")
    for name, expect in [("MultiHeadedAttention", "hook_q · encoder.layers.0.self_attn"),
                         ("Embeddings", "hook_out · src_embed.0"),
                         ("subsequent_mask", "tgt_mask"),
                         ("Decoder", "hook_out · decoder")]:
        at.selectbox(key="model_component").set_value(name).run()
        assert not at.exception, name
        assert not at.main.error, name
        assert any(f"def {name}" in c.value or f"class {name}" in c.value for c in at.code)
        shapes = at.main.dataframe[-1].value
        assert list(shapes.columns) == ["tensor", "dims", "operation"]
        assert expect in set(shapes["tensor"]), name


def test_bad_text_still_draws_the_architecture_and_bad_architecture_stops():
    at = run_app(source="   ")
    assert not at.exception
    assert at.main.error  # the friendly reason
    arch = specs(at)[0]
    assert any("src_len" in t and "src_len=" not in t for t in texts(arch))
    assert not any("vocab=" in t for t in texts(arch))  # the placeholder vocabulary is hidden
    at = run_app(d_model=30)  # h=4 does not divide 30
    assert not at.exception
    assert at.main.error and not specs(at)  # only the trained-model preview is drawn


# ---- Pure figure functions ----------------------------------------------------------------


def cfg(**options) -> TransformerConfig:
    return TransformerConfig(10, 10, N=2, d_model=32, d_ff=64, h=4, **options)


def test_architecture_figure_follows_the_config():
    fig = architecture_figure(cfg(), 6, 7, lang="en")
    assert isinstance(fig, go.Figure)
    labels = " ".join(texts(fig))
    assert "Encoder layer × 2" in labels and "Decoder layer × 2" in labels
    assert "(1, src_len=6, d_model=32)" in labels and "vocab=10" in labels
    assert "(1, 1, tgt_len=7, tgt_len=7)" in labels  # the decoder self-attention mask
    assert {"box:encoder.norm", "box:decoder.norm"} <= shape_names(fig)
    assert not any(n.startswith("tie:") for n in shape_names(fig))
    assert fig.layout.dragmode is False
    assert "√d_model" in labels

    post = architecture_figure(cfg(norm_placement="post", tie_weights="all",
                                   scale_embedding=False), 6, 7, lang="en")
    names = shape_names(post)
    assert "box:encoder.norm" not in names and "box:decoder.norm" not in names
    assert {"tie:decoder", "tie:all"} <= names
    assert "shared weights" in " ".join(texts(post))
    assert "not scaled" in " ".join(texts(post))
    big = architecture_figure(TransformerConfig(10, 10, N=6), 3, 4, lang="en")
    assert "Encoder layer × 6" in " ".join(texts(big))


def test_architecture_labels_are_escaped():
    fig = architecture_figure(cfg(), 0, 0, lang="en")  # unknown lengths: symbols only
    labels = texts(fig)
    joined = " ".join(labels)
    assert "&lt;s&gt;" in joined  # "<s> y1 y2 ..." is shown as text, not as a tag
    for text in labels:
        assert "<" not in ALLOWED_MARKUP.sub("", text), text
    assert "src_len=" not in joined and "(1, 1, 1, src_len)" in joined


def test_parameter_chart():
    groups = {"Encoder self-attention": 4224, "<b>odd</b> group": 10, "Generator": 330}
    fig = parameter_chart(groups, lang="en")
    assert isinstance(fig, go.Figure)
    bar = fig.data[0]
    assert bar.orientation == "h"
    assert list(bar.x) == [330, 10, 4224]  # first group at the top
    assert "&lt;b&gt;odd&lt;/b&gt; group" in bar.y
    assert any("4,224" in t for t in bar.text)
    assert parameter_chart({}, lang="en").data[0].x == ()


def test_the_first_run_sends_a_blank_chart_first_and_removes_it(monkeypatch):
    """app.py's plotly warm-up: the session's first chart is the blank one, sent before any
    page chart; it is gone by the end of the run, and later runs do not send it again."""
    from streamlit.delta_generator import DeltaGenerator

    sent: list[tuple[int, int]] = []
    real = DeltaGenerator.plotly_chart

    def spy(self, figure, *args, **kwargs):
        layout = figure.to_dict().get("layout", {}) if isinstance(figure, go.Figure) else {}
        sent.append((layout.get("width", 0), layout.get("height", 0)))
        return real(self, figure, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "plotly_chart", spy)
    at = run_app()
    assert not at.exception
    assert sent[0] == (10, 10) and len(sent) > 1  # the blank one, then the page's own
    drawn = [json.loads(el.proto.spec)["layout"] for el in at.get("plotly_chart")]
    assert drawn and all((lay.get("width"), lay.get("height")) != (10, 10) for lay in drawn)
    sent.clear()
    at.run()
    assert not at.exception
    assert (10, 10) not in sent and len(at.get("plotly_chart")) == len(drawn)


def test_page_model_rebuilds_the_pages_untrained_model_from_a_script():
    """What the Model page says of its model holds: not make_model's own draw, and
    page_model(cfg, seed, vocab) gives the very numbers the pages show."""
    import numpy as np
    import torch

    from explorer.app.context import build_context
    from explorer.core.runs import forward, page_model
    from explorer.core.settings import Settings
    from transformer import make_model

    ctx = build_context(Settings(source="the cat sat", seed=3))
    shown = ctx.run().cache
    rebuilt = forward(page_model(ctx.cfg, 3, ctx.tokens.vocab), ctx.tokens).cache
    assert shown.keys() == rebuilt.keys()
    assert all(np.array_equal(shown[k], rebuilt[k]) for k in shown)
    V = len(ctx.tokens.vocab)
    torch.manual_seed(3)
    own = make_model(V, V, N=ctx.cfg.N, d_model=ctx.cfg.d_model, d_ff=ctx.cfg.d_ff,
                     h=ctx.cfg.h).state_dict()
    ours = page_model(ctx.cfg, 3, ctx.tokens.vocab).state_dict()
    assert own.keys() == ours.keys()
    assert any(not torch.equal(own[k], ours[k]) for k in own)  # as the caption says


def _sized_text(at: AppTest, opening: str = "The logits are") -> str:
    return next(m.value for m in at.markdown if m.value.startswith(opening))


def test_the_model_page_builds_the_walk_through_s_500_to_1000_token_model():
    at = run_app()
    result = _sized_text(at)
    assert "**(2, 4, 1,000)**" in result and "45,421,544" in result
    weights = next(df.value for df in at.dataframe if "W^V: d_model → h·d_v" in
                   df.value.iloc[:, 0].tolist())
    shapes = dict(zip(weights.iloc[:, 0], weights.iloc[:, 2], strict=True))
    assert shapes["source embedding: a row per source token"] == "(500, 512)"
    assert shapes["generator: a row per target token"] == "(1,000, 512)"
    at.number_input(key="sized_d_v").set_value(100).run()
    assert not at.exception
    weights = next(df.value for df in at.dataframe if "W^V: d_model → h·d_v" in
                   df.value.iloc[:, 0].tolist())
    shapes = dict(zip(weights.iloc[:, 0], weights.iloc[:, 2], strict=True))
    assert shapes["W^V: d_model → h·d_v"] == "(800, 512)"
    assert shapes["W^O: h·d_v → d_model"] == "(512, 800)"
    assert "8 × 100 = 800" in _sized_text(at)
    at.selectbox(key="lang").set_value("zh").run()
    assert "**(2, 4, 1,000)**" in _sized_text(at, "logits 的形状是")


@pytest.mark.parametrize(("key", "value", "said"), [
    ("sized_h", 7, "divisible by h (7)"),  # 512 heads of 7: refused with a reason
    ("sized_d_model", 511, "d_model must be even"),
])
def test_sizes_that_cannot_build_a_model_are_explained_in_the_page(key, value, said):
    at = run_app()
    at.number_input(key=key).set_value(value).run()
    assert not at.exception
    assert any(said in w.value for w in at.warning)


def test_a_size_beyond_its_limit_sent_by_a_client_is_brought_back_in_range():
    at = run_app(sized_N=10_000, sized_length=-3)
    assert not at.exception
    assert "(2, 1, 1,000)" in _sized_text(at)  # a length of at least 1


def test_sizes_of_your_own_stay_when_the_learner_leaves_the_page_and_travel_in_a_link():
    from explorer.state.urlstate import params_to_state

    at = run_app()
    at.number_input(key="sized_d_v").set_value(100).run()
    at.switch_page("pages/shapes.py").run()
    at.switch_page("pages/model.py").run()
    assert not at.exception
    assert at.number_input(key="sized_d_v").value == 100
    assert "8 × 100 = 800" in _sized_text(at)
    assert at.query_params["zdv"] in ("100", ["100"])  # the address the page wrote
    state, notices = params_to_state({"zdv": "100", "zb": "3"})
    assert (state["sized_d_v"], state["sized_batch"], notices) == (100, 3, [])
    state, notices = params_to_state({"zdv": "99999"})  # over its limit: refused, said
    assert "sized_d_v" not in state and notices
