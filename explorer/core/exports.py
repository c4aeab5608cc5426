"""Downloads: a run's tensors as .npz, a model as a checkpoint, and safe file names.

Pure numpy/torch, no streamlit. Everything returned is bytes, ready for a download button.
"""

from __future__ import annotations

import dataclasses
import io
import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import torch

from transformer.config import TransformerConfig
from transformer.hook_paths import generator_hook
from transformer.model import EncoderDecoder

from .runs import ImportedTokens, Run, Tokens
from .settings import Settings, preset_of

FORMAT = "transformer-explorer/1"  # the `format` entry of this app's checkpoints
MAX_META_DEPTH = 8  # nesting allowed in a checkpoint's `meta`
MAX_NAME_CHARS = 80  # longest file name stem download_name returns

# Names of the non-hook arrays in run_to_npz (hook names start with a module name).
TOKEN_ARRAYS = ("tokens.src", "tokens.tgt", "tokens.tgt_in", "tokens.vocab", "tokens.src_vocab")
MASK_ARRAYS = ("mask.src", "mask.tgt")
LOG_PROBS = generator_hook("hook_log_probs")  # (1, tgt_len, target vocabulary)


def model_vocabs(tokens: Tokens) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(source, target) id -> token of the model that read `tokens`.

    A checkpoint's model (shipped, trained here, imported) reads the text in its own
    vocabularies, which `ImportedTokens` carries; the sidebar's model is built for the
    text's own vocabulary, shared by both sides.
    """
    if isinstance(tokens, ImportedTokens):
        return tuple(tokens.src_itos), tuple(tokens.tgt_itos)
    return tuple(tokens.vocab.itos), tuple(tokens.vocab.itos)


def run_to_npz(run: Run) -> bytes:
    """Every captured tensor of `run` (hook name -> array) plus tokens and masks, as .npz bytes.

    `tokens.vocab` names the model's output ids (its target vocabulary: entry i is the
    token of column i of the log-probabilities, so `vocab[argmax(log_probs)]` is the
    predicted token); `tokens.src_vocab` names the ids of its source embedding (the same
    list when one vocabulary serves both sides). Token arrays are numpy unicode strings,
    so `np.load(..., allow_pickle=False)` reads all. Raises ValueError if the target
    vocabulary does not have one entry per column of the captured log-probabilities.
    """
    src_vocab, tgt_vocab = model_vocabs(run.tokens)
    log_probs = run.cache.get(LOG_PROBS)
    if log_probs is not None and len(tgt_vocab) != log_probs.shape[-1]:
        raise ValueError(f"The target vocabulary has {len(tgt_vocab)} tokens but the model "
                         f"predicts {log_probs.shape[-1]}.")
    arrays: dict[str, np.ndarray] = {name: np.asarray(a) for name, a in run.cache.items()}
    extra = {
        "tokens.src": run.tokens.src_tokens,
        "tokens.tgt": run.tokens.tgt_tokens,
        "tokens.tgt_in": run.tokens.tgt_in_tokens,
        "tokens.vocab": tgt_vocab,
        "tokens.src_vocab": src_vocab,
    }
    for name, toks in extra.items():
        arrays[name] = np.array(list(toks), dtype=np.str_)
    arrays["mask.src"] = np.asarray(run.src_mask)
    arrays["mask.tgt"] = np.asarray(run.tgt_mask)
    arrays["train_mode"] = np.array(run.train_mode)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()


def _check_meta(value: object, where: str = "meta", depth: int = 0) -> None:
    """Raise ValueError unless `value` is plain data that torch.load(weights_only=True) reads."""
    if depth > MAX_META_DEPTH:
        raise ValueError(f"{where} is nested more than {MAX_META_DEPTH} levels deep.")
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where} must be a finite number, got {value}.")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_meta(item, f"{where}[{i}]", depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValueError(f"{where} keys must be strings, got {type(key).__name__}.")
            _check_meta(item, f"{where}[{key!r}]", depth + 1)
        return
    raise ValueError(
        f"{where} must hold only None, bool, int, float, str, lists and dicts; "
        f"got {type(value).__name__}."
    )


def checkpoint_bytes(
    model: EncoderDecoder, vocab: Sequence[str] | None, meta: Mapping[str, object]
) -> bytes:
    """torch.save of {state_dict, config, vocab, meta, format} that loads with weights_only=True.

    `vocab` (id -> token) is the one vocabulary shared by source and target, so its length
    must equal both vocabulary sizes; None stores no token names. Raises ValueError if the
    model has no config or `vocab` / `meta` do not fit.
    """
    cfg = model.config
    if not isinstance(cfg, TransformerConfig):
        raise ValueError("The model has no TransformerConfig; build it with build_model.")
    tokens: list[str] | None = None
    if vocab is not None:
        if isinstance(vocab, str) or not all(isinstance(t, str) for t in vocab):
            raise ValueError("vocab must be a sequence of token strings (id -> token).")
        tokens = list(vocab)
        if not len(tokens) == cfg.src_vocab == cfg.tgt_vocab:
            raise ValueError(
                f"vocab has {len(tokens)} tokens but the model's vocabularies have "
                f"{cfg.src_vocab} (source) and {cfg.tgt_vocab} (target) entries."
            )
    meta_dict = dict(meta)
    _check_meta(meta_dict)
    payload = {
        "format": FORMAT,
        "config": dataclasses.asdict(cfg),
        "state_dict": model.state_dict(),
        "vocab": tokens,
        "meta": meta_dict,
    }
    buf = io.BytesIO()
    torch.save(payload, buf)
    return buf.getvalue()


def _safe(text: str, cap: int) -> str:
    """ASCII letters, digits, '-' and '_' only; other runs become one '_'."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "_", text, flags=re.ASCII)
    cleaned = re.sub(r"_{2,}", "_", cleaned).strip("_-")
    return cleaned[:cap].strip("_-")


def size_tag(model: TransformerConfig | Settings) -> str:
    """The preset's name ("tiny", "paper-base") or the custom size ("N3-d64-h4-ff256").

    `model`: the config of the model that runs (an imported checkpoint's, a trained
    model's), or settings of the same size; N, d_model, h, d_ff and dropout are compared
    with the presets.
    """
    name = preset_of(model)  # reads the five size fields by name, from either type
    if name != "custom":
        return _safe(name.replace(" ", "-"), 32)
    return f"N{model.N}-d{model.d_model}-h{model.h}-ff{model.d_ff}"


def download_name(kind: str, model: TransformerConfig | Settings | None, ext: str) -> str:
    """A safe file name "<kind>_<size>.<ext>", e.g. attention_enc_L0_H1_tiny.png.

    The size is `size_tag(model)`, of the model that runs; None leaves it out. ASCII only,
    no path separators, no leading dot; a bad `ext` becomes "bin".
    """
    stem = _safe(str(kind), MAX_NAME_CHARS) or "export"
    if model is not None:
        stem = f"{stem}_{size_tag(model)}"
    suffix = str(ext).lstrip(".").lower()
    if not re.fullmatch(r"[a-z0-9]{1,8}", suffix, flags=re.ASCII):
        suffix = "bin"
    return f"{stem}.{suffix}"
