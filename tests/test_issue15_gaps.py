"""Issue 15, the gaps left: the link equals what is shown (item 7), a half-precision PE table
is recognised (item 1), file names describe the model that runs (item 4), and the live loss
chart follows presenter mode (item 10)."""

from __future__ import annotations

import io
import json
import threading

import plotly.io as pio
import pytest
import streamlit as st
import torch
from apptest_helpers import ROOT, app
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest
from test_learner_paths import LONG_DIGITS
from test_presenter_layout import assert_all_larger

from explorer.app.charts import PRESENTER_FONT, sized_figure
from explorer.app.context import build_context
from explorer.core.checkpoint import MIN_POSITIONS, load_checkpoint
from explorer.core.exports import checkpoint_bytes, download_name, size_tag
from explorer.core.settings import PRESETS, Settings
from explorer.figures.train import loss_figure
from explorer.text.i18n import set_lang
from explorer.training.run import ModelKey, build_model_for
from explorer.training.task import task_for
from transformer import make_model
from transformer.model import TransformerConfig, build_model
from transformer.recipes import FAST

PE_KEYS = ("src_embed.1.pe", "tgt_embed.1.pe")
CHECKPOINT_TAG = "N2-d64-h2-ff128"  # the size of `small_import`, which is no preset


def reopen(at: AppTest, page: str) -> AppTest:
    """A new session opened with the link `at` shows (as a learner pastes it)."""
    other = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    other.query_params.update(dict(at.query_params))
    other.switch_page(f"pages/{page}.py")
    other.run()
    assert not other.exception, other.exception
    return other


def chart_names(at: AppTest) -> dict[str, str]:
    """The PNG file name (without .png) of every chart, by the chart's element key."""
    return {el.proto.id.rsplit("-", 1)[-1]:
            json.loads(el.proto.config)["toImageButtonOptions"]["filename"]
            for el in at.get("plotly_chart")}


# ---- Item 7: the link says what the page shows ----------------------------------------------


def test_a_layer_filter_the_model_lost_leaves_the_link():
    at = app("shapes", shape_layer="layer 1")
    assert dict(at.query_params)["sl"] == "layer 1"
    at.number_input(key="N").set_value(1).run()
    assert not at.exception
    assert at.selectbox(key="shape_layer").value == "all"
    assert "sl" not in at.query_params
    other = reopen(at, "shapes")
    assert not other.sidebar.warning  # nothing in the link was refused
    assert other.selectbox(key="shape_layer").value == "all"


def _pe_link(at: AppTest) -> dict[str, str | None]:
    return {k: dict(at.query_params).get(k) for k in ("ped", "dims")}


def test_pe_dimensions_the_d_model_lost_leave_the_link():
    at = app("embeddings")
    at.multiselect(key="pe_dims").set_value([1, 2, 9]).run()
    assert _pe_link(at) == {"ped": None, "dims": "1,2,9"}
    at.number_input(key="pe_d_model").set_value(8).run()  # dimension 9 is gone
    assert not at.exception
    assert at.multiselect(key="pe_dims").value == [1, 2]
    assert _pe_link(at) == {"ped": "8", "dims": "1,2"}
    other = reopen(at, "embeddings")
    assert not other.sidebar.warning  # nothing in the link was refused
    assert other.multiselect(key="pe_dims").value == [1, 2]

    at.multiselect(key="pe_dims").set_value([5, 7]).run()
    at.number_input(key="pe_d_model").set_value(3).run()  # rounded up to 4: none is left
    assert at.multiselect(key="pe_dims").value == [0, 1]
    assert _pe_link(at) == {"ped": "4", "dims": "0,1"}
    assert not reopen(at, "embeddings").sidebar.warning


# ---- Item 1: a PE table saved in half precision ---------------------------------------------


@pytest.fixture(scope="module")
def export_bytes() -> bytes:
    """The Train page's export of a copy model: its PE table has only task length + 2 rows."""
    set_lang("en")
    task, _ = task_for("copy", "digits", "")
    model = build_model_for(ModelKey.of(Settings(N=1, d_model=32, h=2, d_ff=64), task))
    assert model.config.max_len < len(LONG_DIGITS.split())
    return checkpoint_bytes(model, list(task.vocab.itos), {"task": "copy"})


def _cast(data: bytes, dtype: torch.dtype, everything: bool) -> bytes:
    """The export with its PE tables (or every weight) saved in `dtype`."""
    payload = torch.load(io.BytesIO(data), weights_only=True)
    payload["state_dict"] = {k: v.to(dtype) if everything or k in PE_KEYS else v
                             for k, v in payload["state_dict"].items()}
    buf = io.BytesIO()
    torch.save(payload, buf)
    return buf.getvalue()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("everything", [False, True], ids=["pe_only", "all_weights"])
def test_a_half_precision_export_is_extended_and_reads_a_long_sentence(export_bytes, dtype,
                                                                       everything):
    loaded = load_checkpoint(_cast(export_bytes, dtype, everything), None, None)
    assert loaded.config.max_len == MIN_POSITIONS
    assert any("extended" in note for note in loaded.notes)
    ctx = build_context(Settings(source=LONG_DIGITS), loaded)
    assert ctx.ok and ctx.text_error is None
    length = len(ctx.tokens.src_tokens)
    assert length >= len(LONG_DIGITS.split())
    assert ctx.run().cache["src_embed.1.hook_out"].shape[1] == length


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_a_learned_table_in_half_precision_is_still_not_the_formula(dtype):
    cfg = TransformerConfig(8, 8, N=1, d_model=8, d_ff=16, h=2, max_len=6)
    sd = build_model(cfg, seed=0).state_dict()
    learned = torch.randn(1, 6, 8, generator=torch.Generator().manual_seed(0)).to(dtype)
    buf = io.BytesIO()
    torch.save({**sd, **dict.fromkeys(PE_KEYS, learned)}, buf)
    assert load_checkpoint(buf.getvalue(), 2, None).config.max_len == 6  # kept as it is


# ---- Item 4: file names name the model that runs --------------------------------------------


@pytest.fixture(scope="module")
def small_import():
    """A checkpoint whose size (N=2, d_model=64, h=2, d_ff=128) differs from the sidebar's."""
    set_lang("en")
    buf = io.BytesIO()
    torch.save(make_model(11, 11, N=2, d_model=64, d_ff=128, h=2, seed=1).state_dict(), buf)
    return load_checkpoint(buf.getvalue(), 2, None)


def test_the_size_tag_is_the_configs(small_import):
    assert size_tag(small_import.config) == CHECKPOINT_TAG
    for name, p in PRESETS.items():
        cfg = TransformerConfig(11, 11, N=p.N, d_model=p.d_model, h=p.h, d_ff=p.d_ff,
                                dropout=p.dropout)
        assert download_name("run", cfg, "npz") == f"run_{name.replace(' ', '-')}.npz"
    assert download_name("run", None, "npz") == "run.npz"


def _draw_chart() -> None:
    """A script: one chart drawn by show_chart for the model in session state."""
    import plotly.graph_objects as go
    import streamlit as st

    from explorer.app.charts import show_chart

    show_chart(go.Figure(go.Scatter(y=[1, 2])), "curve", st.session_state["model"], False,
               key="c", where=st.empty())


def test_show_chart_names_the_png_after_the_model_it_is_given(small_import):
    at = AppTest.from_function(_draw_chart)
    at.session_state["model"] = small_import.config
    at.run()
    assert not at.exception
    assert chart_names(at) == {"c": f"curve_{CHECKPOINT_TAG}"}


def test_the_attention_npz_is_named_after_the_imported_model(small_import, monkeypatch):
    names: list[str] = []
    download = st.download_button

    def spy(*args, **kwargs):
        names.append(kwargs.get("file_name"))
        return download(*args, **kwargs)

    monkeypatch.setattr(st, "download_button", spy)
    at = app("attention", imported_checkpoint=small_import)
    assert not at.exception, at.exception
    assert names == [f"run_{CHECKPOINT_TAG}.npz"]  # not the sidebar's run_tiny.npz


def test_every_png_on_a_page_is_named_after_the_imported_model(small_import):
    at = app("attention", imported_checkpoint=small_import)
    assert not at.exception, at.exception
    names = chart_names(at)
    assert names and all(name.endswith(f"_{CHECKPOINT_TAG}") for name in names.values())


# ---- Item 10 (and 4): the loss charts of a training in presenter mode ------------------------


def test_training_in_presenter_mode_draws_every_loss_chart_large(monkeypatch):
    from explorer.training import run as training

    live: list[tuple[str, dict, dict]] = []  # (key, figure, config) of each redrawn chart
    drawn = threading.Event()
    plotly_chart = DeltaGenerator.plotly_chart

    def spy(self, fig, *args, **kwargs):
        if "tr_live" in str(kwargs.get("key")):
            live.append((kwargs["key"], json.loads(pio.to_json(fig.to_dict(), validate=False)),
                         kwargs.get("config") or {}))
            drawn.set()
        return plotly_chart(self, fig, *args, **kwargs)

    real_record = training.record_step

    def record_step(state, info):  # the training (in the hub's thread) waits at step 10
        stop = real_record(state, info)  # until the page has drawn its progress once
        if info.step == 10:
            drawn.wait(60)
        return stop

    monkeypatch.setattr(DeltaGenerator, "plotly_chart", spy)  # the placeholder's method
    monkeypatch.setattr(training, "record_step", record_step)
    at = app("train", presenter=True, tr_steps=50, tr_batch=16, seed=31)
    at.button(key="tr_train").click().run()
    assert not at.exception, at.exception
    state = at.session_state["train_state"]
    normal = json.loads(sized_figure(loss_figure(state.history, 50)).to_json())
    # the fast recipe's model was trained, not the sidebar's (tiny) one
    tag = f"N{FAST.N}-d{FAST.d_model}-h{FAST.h}-ff{FAST.d_ff}"
    assert live and all(key.endswith("_presenter") for key, _, _ in live)
    for key, fig, config in live:
        assert_all_larger(normal, fig, key)
        assert config["toImageButtonOptions"]["filename"] == f"loss_copy_{tag}"
    final = {el.proto.id.rsplit("-", 1)[-1]: el for el in at.get("plotly_chart")}
    assert chart_names(at)["tr_loss_presenter"] == f"loss_copy_{tag}"
    big = json.loads(final["tr_loss_presenter"].proto.spec)
    assert_all_larger(normal, big, "tr_loss")
    assert big["layout"]["font"]["size"] >= PRESENTER_FONT
