"""The module tree, parameter groups and shape table describe the model correctly."""

from run_helpers import small_run

from explorer.core.introspect import (
    COMPONENTS,
    component_source,
    module_tree,
    parameter_groups,
    tied_names,
)
from explorer.core.shape_table import shape_rows

_run = small_run


def test_module_tree_hides_hook_points_only():
    model, _ = _run()
    tree = module_tree(model)
    assert "HookPoint" not in tree
    assert tree.startswith("EncoderDecoder(")
    assert "(linears): ModuleList" in tree and "(w_1): Linear" in tree


def test_parameter_groups_sum_to_total_and_count_ties_once():
    model, _ = _run()
    groups = parameter_groups(model)
    assert sum(groups.values()) == sum(p.numel() for p in model.parameters())
    assert "Decoder cross-attention" in groups and "Encoder self-attention" in groups
    tied, _ = _run(tie_weights="decoder")
    assert tied_names(tied) == [("tgt_embed.0.lut.weight", "generator.proj.weight")]
    assert sum(parameter_groups(tied).values()) == sum(groups.values()) - 12 * 16


def test_component_source_for_every_component():
    for name in COMPONENTS:
        assert name in component_source(name)


def test_shape_rows_name_every_dimension():
    model, cache = _run()
    rows = shape_rows(cache, model.config)
    assert len(rows) == len(cache)
    by_name = {r.name: r for r in rows}
    q = by_name["decoder.layers.1.src_attn.hook_q"]
    assert q.dims == "(batch=1, h=4, tgt_len=4, d_k=4)"
    k = by_name["decoder.layers.1.src_attn.hook_k"]
    assert k.dims == "(batch=1, h=4, src_len=5, d_k=4)"
    p = by_name["decoder.layers.0.src_attn.hook_pattern"]
    assert p.dims == "(batch=1, h=4, q:tgt_len=4, k:src_len=5)"
    assert by_name["encoder.layers.0.feed_forward.hook_hidden"].dims.endswith("d_ff=24)")
    assert by_name["generator.hook_log_probs"].dims == "(batch=1, tgt_len=4, vocab=12)"
    assert p.sublayer == "cross-attention" and p.stack == "Decoder"
    assert all(r.op for r in rows), [r.name for r in rows if not r.op]
    assert "Q @ K" in by_name["encoder.layers.0.self_attn.hook_scores"].op


def test_post_norm_describes_add_then_norm():
    model, cache = _run(norm_placement="post")
    rows = {r.name: r for r in shape_rows(cache, model.config)}
    assert rows["encoder.layers.0.sublayer.0.hook_normed"].op.startswith("LayerNorm(x + ")
    assert "no final norm" in rows["encoder.hook_out"].op


def test_component_source_parses_once_for_many_threads_at_once(monkeypatch):
    """CPython 3.11's parser is not thread-safe (sessions drawing the Model page together
    raised SystemError from ast.parse): the sources are read once, by one thread."""
    import inspect
    import threading

    from explorer.core import introspect

    calls: list[str] = []
    real = inspect.getsource

    def counting(obj):
        calls.append(obj.__name__)
        return real(obj)

    monkeypatch.setattr(introspect.inspect, "getsource", counting)
    introspect._component_sources_unlocked.cache_clear()
    start = threading.Barrier(16)
    shown: list[tuple[str, ...]] = []

    def draw_model_page() -> None:
        start.wait()
        shown.append(tuple(component_source(name) for name in COMPONENTS))

    threads = [threading.Thread(target=draw_model_page) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(calls) == sorted(COMPONENTS)  # each component read once, not per thread
    assert shown == [tuple(component_source(name) for name in COMPONENTS)] * 16
    introspect._component_sources_unlocked.cache_clear()
