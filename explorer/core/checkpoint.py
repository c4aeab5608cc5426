"""Import a checkpoint: weights from The Annotated Transformer, or this app's own export.

Pure torch, no streamlit. `load_checkpoint(data, h, vocab_text)` returns a
`LoadedCheckpoint` or raises `CheckpointError`, the only exception it lets out; its message
says what is wrong and what is expected, and never repeats the file's contents (a key name
from the file is shown only if it looks like a parameter name). Messages are in the language
of the run (`t()`); a loaded checkpoint's notes are kept as text keys and translated each
time they are read, so they follow the learner's language choice.

Accepted (always read with `torch.load(weights_only=True)`, which runs no code from the file):
(a) a raw `state_dict` of the Annotated `make_model` (`src_embed.0.lut.weight`, ...),
(b) a dict holding one under "state_dict", "model_state_dict" or "model",
(c) this app's export (`explorer.core.exports.checkpoint_bytes`, format "transformer-explorer/1").
N, d_model, d_ff, the vocabulary sizes, max_len, pre/post norm and weight tying are read
from the weights; the number of heads h cannot be (W^Q packs every head into one matrix)
and must be given, except for (c), whose config records it with the other options.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import re
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from typing import Any

import torch

from transformer.config import NormPlacement, TieWeights, TransformerConfig
from transformer.model import EncoderDecoder, build_model, sinusoid_table
from transformer.tokenize import MAX_TOKENS

from ..text.i18n import learner_message, t
from .exports import FORMAT
from .runs import encode, token_ids
from .settings import LIMITS, MAX_PARAMS, estimate_params

# The Annotated Transformer's trained Multi30k model (N=6, d_model=512, 55M parameters with
# its 8315/6384-word vocabularies, plus two 5000-position `pe` buffers) is ~230 MB: the cap
# admits it, while bounding a load's peak memory (file bytes + loaded tensors + built model,
# about 3x the file) to under 1 GB on the shared server.
# The Annotated copy-task model (N=2, d_model=512) is ~80 MB. Keep equal to
# .streamlit/config.toml's maxUploadSize (MB).
MAX_CHECKPOINT_BYTES = 256 * 1024 * 1024
MAX_VOCAB_TEXT_CHARS = 5_000_000  # a 100k-token list of long subwords fits
MAX_TOKEN_CHARS = 200  # longest token accepted in an uploaded token list
WRAPPER_KEYS = ("state_dict", "model_state_dict", "model")
DEFAULT_DROPOUT = 0.1  # The Annotated make_model's; it does nothing in eval mode
SPECIAL_NAMES: dict[str, tuple[str, ...]] = {  # names special tokens go by, per role
    "pad": ("<pad>", "<blank>"), "bos": ("<s>", "<bos>"), "eos": ("</s>", "<eos>"),
    "unk": ("<unk>",),
}
# Positions every imported model must cover: the longest text the app tokenizes, plus <s>
# and </s>. The sinusoid table is a function of the position, not a learned weight, so a
# shorter table saved in the file (this app's Train page saves max_len = task length + 2)
# is extended from the formula when it matches the formula (section 3.5 of the paper).
MIN_POSITIONS = MAX_TOKENS + 2
_PE_KEYS = ("src_embed.1.pe", "tgt_embed.1.pe")
_SHOWN = 5  # problems listed per kind in one message
_SAFE_KEY = re.compile(r"[A-Za-z0-9_.\-]{1,100}", re.ASCII)
_LAYER = re.compile(r"(encoder|decoder)\.layers\.([0-9]{1,6})\.", re.ASCII)


def _save_hint() -> str:
    return t("ckpt.err.save_hint")


class CheckpointError(ValueError):
    """A checkpoint that cannot be loaded; str(error) is a friendly, safe message."""


@dataclass(frozen=True)
class LoadedCheckpoint:
    """A model rebuilt from a checkpoint, in eval mode, with its token names."""

    model: EncoderDecoder
    config: TransformerConfig
    src_vocab: tuple[str, ...]  # id -> token of the source embedding
    tgt_vocab: tuple[str, ...]  # id -> token of the target embedding and generator
    kind: str  # "state_dict", "wrapped state_dict ('model')" or FORMAT
    meta: dict[str, Any] = field(default_factory=dict)  # the export's meta, else empty
    # what was assumed or adjusted, for the learner: (text key, its values) pairs
    note_keys: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # What fixes its weights, the same for every session that loads the same: ("file",
    # digest of the file and how it was read) or a training's content_id; None when not
    # known. Results of a model with a content are shared by it (app/context.py).
    content: tuple | None = None

    @property
    def notes(self) -> tuple[str, ...]:
        """The notes in the language of the current run."""
        return tuple(t(key, **dict(values)) for key, values in self.note_keys)

    def special_ids(self, side: str = "tgt") -> dict[str, int]:
        """Ids of the special tokens found by name, e.g. {"bos": 0, "eos": 1, "pad": 2}.

        An imported vocabulary need not put them where this app does: The Annotated
        Transformer's is <s>, </s>, <blank>, <unk>, so decode with these ids, not BOS/EOS.
        """
        itos = self.tgt_vocab if side == "tgt" else self.src_vocab
        stoi = token_ids(itos)
        found = {role: next((stoi[n] for n in names if n in stoi), None)
                 for role, names in SPECIAL_NAMES.items()}
        return {role: i for role, i in found.items() if i is not None}

    def source_marks(self) -> tuple[str, str] | None:
        """The names of the source vocabulary's start and end tokens ("<s>", "</s>"), which
        The Annotated Transformer's data puts around every source sentence; None when the
        vocabulary lacks either, or the model is this app's (its tasks end a source with
        </s> alone, added by the app)."""
        if isinstance(self.meta, Mapping) and "task" in self.meta:
            return None
        ids = self.special_ids("src")
        if "bos" not in ids or "eos" not in ids:
            return None
        return self.src_vocab[ids["bos"]], self.src_vocab[ids["eos"]]

    def src_ids(self, tokens: Sequence[str]) -> list[int]:
        """`tokens` in the source vocabulary; one it lacks reads as its <unk> (else id 0)."""
        return encode(self.src_vocab, tokens, self.special_ids("src").get("unk", 0))

    def start_id(self) -> int:
        """The id the decoder starts from, on every page: the target vocabulary's <s> found
        by name, else NAMELESS_START (`start_named` says which)."""
        return self.special_ids("tgt").get("bos", NAMELESS_START)

    @property
    def start_named(self) -> bool:
        """Whether the target vocabulary names its start token (<s> or <bos>)."""
        return "bos" in self.special_ids("tgt")


# A checkpoint whose vocabulary names no start token (a state_dict without a token list):
# decode from id 0, where The Annotated Transformer's vocabularies put <s>. (This app's own
# exports always carry their token names.)
NAMELESS_START = 0


# ---- Small helpers ----------------------------------------------------------------------


def _show(key: object) -> str:
    """A key from the file, shown only if it looks like a parameter name."""
    if isinstance(key, str) and _SAFE_KEY.fullmatch(key):
        return key
    return t("ckpt.err.not_a_name")


def _listing(items: list[str]) -> str:
    """The first few items, comma separated, with how many more there are."""
    shown = t("ckpt.err.list_sep").join(items[:_SHOWN])
    return shown + (t("ckpt.err.and_more", n=len(items) - _SHOWN) if len(items) > _SHOWN
                    else "")


def _layer_count(n: int) -> str:
    """"1 layer", "2 layers"."""
    return t("ckpt.err.one_layer") if n == 1 else t("ckpt.err.layers", n=n)


def _mb(n: int) -> str:
    """Bytes as megabytes for a message."""
    return f"{n / 1024 / 1024:.0f} MB" if n >= 1024 * 1024 else f"{n / 1024 / 1024:.2f} MB"


def valid_heads(d_model: int) -> list[int]:
    """The head counts h within the app's limits that divide d_model."""
    low, high = LIMITS["h"]
    return [k for k in range(low, min(high, d_model) + 1) if d_model % k == 0]


def parse_token_list(text: str | bytes) -> list[str]:
    """Tokens from an uploaded list: one per line if it has several lines, else by whitespace.

    One token per line: blank lines are skipped, spaces around a token removed, spaces inside
    kept. A single line (a final line break allowed) is split at whitespace.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CheckpointError(t("ckpt.err.list_not_utf8")) from None
    if not isinstance(text, str):
        raise CheckpointError(t("ckpt.err.list_not_text"))
    if len(text) > MAX_VOCAB_TEXT_CHARS:
        raise CheckpointError(t("ckpt.err.list_too_long", n=f"{len(text):,}",
                                limit=f"{MAX_VOCAB_TEXT_CHARS:,}"))
    text = text.lstrip("\ufeff")
    by_line = "\n" in text.strip() or "\r" in text.strip()
    if by_line:
        lines = [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1)]
        numbered = [(i, tok) for i, tok in lines if tok]
    else:
        numbered = [(i, tok) for i, tok in enumerate(text.split(), 1)]
    seen: dict[str, int] = {}
    where = "line" if by_line else "token"  # counted by line, or by whitespace-split token
    for i, tok in numbered:
        if len(tok) > MAX_TOKEN_CHARS:
            raise CheckpointError(t(f"ckpt.err.token_too_long_{where}", i=i, n=len(tok),
                                    limit=MAX_TOKEN_CHARS))
        if tok in seen:
            raise CheckpointError(t(f"ckpt.err.duplicate_{where}", a=seen[tok], b=i))
        seen[tok] = i
    return [tok for _, tok in numbered]


# ---- Reading the file -------------------------------------------------------------------


def _as_bytes(data: object) -> bytes:
    """The upload as bytes, refused if empty or over the size cap."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CheckpointError(t("ckpt.err.not_bytes"))
    size = memoryview(data).nbytes
    if size == 0:
        raise CheckpointError(t("ckpt.err.empty"))
    if size > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(t("ckpt.err.too_big", size=_mb(size),
                                limit=_mb(MAX_CHECKPOINT_BYTES)))
    return bytes(data)


def _check_zip(data: bytes) -> None:
    """Refuse a zip whose members would unpack to more than the size cap."""
    if not zipfile.is_zipfile(io.BytesIO(data)):
        return
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            total = sum(info.file_size for info in zf.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return  # torch.load reports a damaged archive below
    if total > MAX_CHECKPOINT_BYTES:
        raise CheckpointError(t("ckpt.err.unpacks_too_big", size=_mb(total),
                                limit=_mb(MAX_CHECKPOINT_BYTES)))


def _torch_load(data: bytes) -> object:
    """torch.load with weights_only=True, every failure turned into a CheckpointError."""
    try:
        return torch.load(io.BytesIO(data), weights_only=True, map_location="cpu")
    except pickle.UnpicklingError as exc:
        if "allowed global" in str(exc) or "Unsupported global" in str(exc):
            raise CheckpointError(t("ckpt.err.python_objects", hint=_save_hint())) from None
        problem = "ckpt.err.not_pytorch"
    except (EOFError, RuntimeError) as exc:
        damaged = "zip archive" in str(exc) or "EOF" in str(exc) or "corrupt" in str(exc)
        problem = "ckpt.err.damaged" if damaged else "ckpt.err.not_pytorch"
    except MemoryError:
        raise CheckpointError(t("ckpt.err.file_memory")) from None
    except Exception:  # any other way a non-checkpoint can fail to unpickle
        problem = "ckpt.err.not_pytorch"
    raise CheckpointError(t(problem, hint=_save_hint()))


def _unwrap(obj: object) -> tuple[Mapping[Any, Any], str, dict[str, Any] | None]:
    """(state_dict, kind, this app's payload or None) from whatever torch.load returned."""
    if not isinstance(obj, Mapping):
        raise CheckpointError(t("ckpt.err.not_a_dict", type=type(obj).__name__,
                                hint=_save_hint()))
    if "format" in obj:
        if obj.get("format") != FORMAT:
            raise CheckpointError(t("ckpt.err.unknown_format", format=repr(FORMAT)))
        sd, config = obj.get("state_dict"), obj.get("config")
        if not isinstance(sd, Mapping) or not isinstance(config, Mapping):
            raise CheckpointError(t("ckpt.err.export_incomplete", format=FORMAT))
        return sd, FORMAT, dict(obj)
    for key in WRAPPER_KEYS:
        inner = obj.get(key)
        if isinstance(inner, Mapping):
            return inner, f"wrapped state_dict ({key!r})", None
    if obj and all(isinstance(v, torch.Tensor) for v in obj.values()):
        return obj, "state_dict", None
    raise CheckpointError(t("ckpt.err.no_weights",
                            keys=t("ckpt.err.list_sep").join(repr(k) for k in WRAPPER_KEYS),
                            hint=_save_hint()))


Notes = list[tuple[str, tuple[tuple[str, str], ...]]]  # (text key, its values)


def _clean(sd: Mapping[Any, Any], notes: Notes) -> dict[str, torch.Tensor]:
    """String keys to float tensors; a DataParallel "module." prefix is removed."""
    bad = [k for k, v in sd.items() if not isinstance(k, str) or not isinstance(v, torch.Tensor)]
    if bad:
        raise CheckpointError(t("ckpt.err.not_named_tensors", n=len(bad),
                                listing=_listing([_show(k) for k in bad]), hint=_save_hint()))
    out: dict[str, torch.Tensor] = dict(sd)
    if out and all(k.startswith("module.") for k in out):
        out = {k[len("module."):]: v for k, v in out.items()}
        notes.append(("ckpt.note.module_prefix", ()))
    not_float = [k for k, v in out.items() if not v.is_floating_point()]
    if not_float:
        key = "ckpt.err.not_float_one" if len(not_float) == 1 else "ckpt.err.not_float_many"
        raise CheckpointError(t(key, listing=_listing([_show(k) for k in not_float])))
    return out


# ---- Reading the architecture from the weights ------------------------------------------


def _shape(sd: Mapping[str, torch.Tensor], key: str, ndim: int, what: str) -> tuple[int, ...]:
    """The shape of a required tensor, or a CheckpointError naming it and what it is for.

    `what`: the text key of what the tensor is.
    """
    tensor = sd.get(key)
    if tensor is None:
        raise CheckpointError(t("ckpt.err.missing_tensor", key=key, what=t(what)))
    if tensor.dim() != ndim:
        raise CheckpointError(t("ckpt.err.wrong_ndim", key=key, what=t(what), ndim=ndim,
                                got=tensor.dim()))
    return tuple(tensor.shape)


def _layers(sd: Mapping[str, torch.Tensor], stack: str) -> int:
    """How many layers a stack has: 1 + the highest index in `<stack>.layers.<i>.` names."""
    found = [int(m.group(2)) for k in sd if (m := _LAYER.match(k)) and m.group(1) == stack]
    if not found:
        raise CheckpointError(t(f"ckpt.err.no_layers_{stack}"))
    return max(found) + 1


def _same_tensor(a: torch.Tensor | None, b: torch.Tensor | None) -> bool:
    """Whether two loaded tensors share memory (torch.save keeps tied weights tied)."""
    if a is None or b is None or a.shape != b.shape:
        return False
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr() and (
        a.storage_offset() == b.storage_offset()
    )


@dataclass(frozen=True)
class Architecture:
    """The `TransformerConfig` fields that the weights' names and shapes determine.

    h, dropout, layer_norm and scale_embedding leave no trace in the shapes: h is asked
    for (or read from this app's export), the others come from the export or the defaults.
    """

    N: int
    d_model: int
    d_ff: int
    src_vocab: int
    tgt_vocab: int
    max_len: int | None  # None: no pe buffers in the file
    norm_placement: NormPlacement
    tie_weights: TieWeights


def infer_architecture(sd: Mapping[str, torch.Tensor]) -> Architecture:
    """Read N, d_model, d_ff, vocabulary sizes, max_len, norm placement and tying."""
    src_vocab, d_model = _shape(sd, "src_embed.0.lut.weight", 2, "ckpt.what.src_embed")
    tgt_vocab, _ = _shape(sd, "tgt_embed.0.lut.weight", 2, "ckpt.what.tgt_embed")
    d_ff = _shape(sd, "encoder.layers.0.feed_forward.w_1.weight", 2, "ckpt.what.ffn")[0]
    N, N_dec = _layers(sd, "encoder"), _layers(sd, "decoder")
    if N != N_dec:
        raise CheckpointError(t("ckpt.err.layer_counts", enc=_layer_count(N),
                                dec=_layer_count(N_dec)))
    max_len = None
    if "src_embed.1.pe" in sd:
        max_len = _shape(sd, "src_embed.1.pe", 3, "ckpt.what.pe")[1]
    enc_norm, dec_norm = "encoder.norm.a_2" in sd, "decoder.norm.a_2" in sd
    if enc_norm != dec_norm:
        raise CheckpointError(t("ckpt.err.one_final_norm_encoder" if enc_norm
                                else "ckpt.err.one_final_norm_decoder"))
    gen, tgt, src = (sd.get(k) for k in ("generator.proj.weight", "tgt_embed.0.lut.weight",
                                         "src_embed.0.lut.weight"))
    tie: TieWeights = "none"
    if _same_tensor(gen, tgt):
        tie = "all" if _same_tensor(src, tgt) else "decoder"
    placement: NormPlacement = "pre" if enc_norm else "post"
    return Architecture(N, d_model, d_ff, src_vocab, tgt_vocab, max_len, placement, tie)


def _check_size(arch: Architecture) -> None:
    """Refuse architectures beyond the app's limits before anything is built."""
    for name, value in (("N", arch.N), ("d_model", arch.d_model), ("d_ff", arch.d_ff)):
        low, high = LIMITS[name]
        if not low <= value <= high:
            raise CheckpointError(t("ckpt.err.out_of_range", name=name, value=value, low=low,
                                    high=high))
    params = (
        estimate_params(arch.N, arch.d_model, arch.d_ff, 0, "none", arch.norm_placement)
        + (arch.src_vocab + 2 * arch.tgt_vocab) * arch.d_model + arch.tgt_vocab
    )
    if params > MAX_PARAMS:
        raise CheckpointError(t("ckpt.err.too_many_params", params=f"{params / 1e6:.0f}",
                                limit=f"{MAX_PARAMS / 1e6:.0f}"))


def _heads(h: object, d_model: int, config: Mapping[str, Any] | None) -> int:
    """The head count: given by the caller, or recorded in this app's export."""
    stored = config.get("h") if config is not None else None
    if h is None and stored is not None:
        h = stored
    elif h is not None and stored is not None and h != stored:
        raise CheckpointError(t("ckpt.err.h_differs", stored=_plain(stored), given=_plain(h)))
    valid = ", ".join(map(str, valid_heads(d_model)))
    if h is None:
        raise CheckpointError(t("ckpt.err.h_needed", d_model=d_model, valid=valid))
    if isinstance(h, bool) or not isinstance(h, int) or h < 1 or d_model % h:
        raise CheckpointError(t("ckpt.err.h_not_divisor", h=_plain(h), d_model=d_model,
                                valid=valid))
    low, high = LIMITS["h"]
    if not low <= h <= high:
        raise CheckpointError(t("ckpt.err.h_out_of_range", h=h, low=low, high=high,
                                valid=valid))
    return h


def _plain(value: object) -> str:
    """A number for a message; anything else only by its type."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9:
        return str(value)
    return t("ckpt.err.a_type", type=type(value).__name__)


def _config(
    arch: Architecture, h: int, saved: Mapping[str, Any] | None, max_len: int
) -> TransformerConfig:
    """The TransformerConfig for the weights, checked against an export's saved config."""
    inferred = {**asdict(arch), "h": h, "max_len": max_len}
    # What the weights cannot tell (layer_norm, scale_embedding, the break switches): the
    # export's saved value, else TransformerConfig's default.
    options: dict[str, Any] = {f.name: f.default for f in fields(TransformerConfig)
                               if f.name not in inferred and f.default is not MISSING}
    options["dropout"] = DEFAULT_DROPOUT
    if saved is not None:
        for name, value in inferred.items():
            if name in saved and (type(saved[name]) is not type(value) or saved[name] != value):
                raise CheckpointError(t(
                    "ckpt.err.config_mismatch", name=name, saved=_plain(saved[name]),
                    value=_plain(value) if isinstance(value, int) else value))
        options.update({k: saved[k] for k in options if k in saved})
    try:
        return TransformerConfig(**inferred, **options)
    except (ValueError, TypeError) as exc:
        message = learner_message(exc) if isinstance(exc, ValueError) else ""
        message = message if len(message) < 400 else ""
        raise CheckpointError(t("ckpt.err.no_model", message=message).strip()) from None


def _is_sinusoid(sd: Mapping[str, torch.Tensor], cfg: TransformerConfig) -> bool:
    """Whether both saved positional-encoding tables are the paper's sinusoid table.

    Compared within the precision of the table's dtype: its values lie in [-1, 1], where
    rounding to the dtype errs by at most half its eps (float16 ~5e-4, bfloat16 ~4e-3), so
    one eps also admits a table computed a little differently before it was rounded, and a
    table saved in half precision is still recognised.
    """
    expected = sinusoid_table(cfg.max_len, cfg.d_model).unsqueeze(0)
    return all(
        torch.allclose(sd[k].float(), expected, atol=max(1e-5, torch.finfo(sd[k].dtype).eps))
        for k in _PE_KEYS
    )


# Above this many parameters the expected shapes come from a model on the meta device (no
# memory). Below, a CPU model is cheaper: the meta device's first use in a process imports
# about 2 s of torch's decompositions, which the shipped date model (200k parameters, loaded
# on a first visit) would otherwise pay on every server start.
META_ABOVE = 5_000_000


def _compare(sd: Mapping[str, torch.Tensor], cfg: TransformerConfig) -> None:
    """Refuse missing or extra names and wrong shapes, listing the first few of each."""
    vocab = max(cfg.src_vocab, cfg.tgt_vocab)
    big = estimate_params(cfg.N, cfg.d_model, cfg.d_ff, vocab) > META_ABOVE
    with torch.device("meta" if big else "cpu"):  # shapes only
        expected = {k: tuple(v.shape) for k, v in build_model(cfg).state_dict().items()}
    missing = [k for k in expected if k not in sd]
    extra = [_show(k) for k in sd if k not in expected]
    wrong = [t("ckpt.err.shape_is", key=k, shape=tuple(sd[k].shape), expected=expected[k])
             for k in expected if k in sd and tuple(sd[k].shape) != expected[k]]
    problems = []
    if missing:
        problems.append(t("ckpt.err.missing", n=len(missing), listing=_listing(missing)))
    if extra:
        problems.append(t("ckpt.err.unexpected", n=len(extra), listing=_listing(extra)))
    if wrong:
        problems.append(t("ckpt.err.wrong_shapes", n=len(wrong), listing=_listing(wrong)))
    if problems:
        raise CheckpointError(t(
            "ckpt.err.do_not_fit", N=cfg.N, d_model=cfg.d_model, d_ff=cfg.d_ff,
            src=cfg.src_vocab, tgt=cfg.tgt_vocab,
            problems=t("ckpt.err.problem_sep").join(problems)))


# ---- Vocabularies -----------------------------------------------------------------------


def _vocab_from_text(text: str, size: int, which: str, other: int | None) -> tuple[str, ...]:
    """Token names from an uploaded list, which must have exactly `size` entries.

    `which`: "shared", "source" or "target".
    """
    tokens = parse_token_list(text)
    if len(tokens) != size:
        hint = ""
        if other is not None and len(tokens) == other:
            hint = t("ckpt.err.swapped")
        raise CheckpointError(t(f"ckpt.err.list_size_{which}", n=len(tokens), size=size)
                              + hint)
    return tuple(tokens)


def _vocabs(
    arch: Architecture, vocab_text: str | None, tgt_vocab_text: str | None,
    saved: Mapping[str, Any] | None, notes: Notes,
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(source, target) token names: uploaded lists, the export's own, or tok0, tok1, ..."""
    S, T = arch.src_vocab, arch.tgt_vocab
    if S == T and (vocab_text is None) != (tgt_vocab_text is None):
        shared = _vocab_from_text(vocab_text or tgt_vocab_text or "", S, "shared", None)
        return shared, shared
    src = _vocab_from_text(vocab_text, S, "source", T) if vocab_text is not None else None
    tgt = _vocab_from_text(tgt_vocab_text, T, "target", S) if tgt_vocab_text is not None else None
    stored = saved.get("vocab") if saved is not None else None
    if stored is not None and (src is None or tgt is None):
        if not (isinstance(stored, list) and all(isinstance(tok, str) for tok in stored)
                and len(stored) == S == T):
            raise CheckpointError(t("ckpt.err.stored_vocab"))
        src, tgt = src or tuple(stored), tgt or tuple(stored)
    if src is None or tgt is None:
        notes.append(("ckpt.note.no_vocab", ()))
    return (src or tuple(f"tok{i}" for i in range(S)),
            tgt or tuple(f"tok{i}" for i in range(T)))


# ---- The entry point --------------------------------------------------------------------


def load_checkpoint(
    data: bytes,
    h: int | None,
    vocab_text: str | None,
    *,
    tgt_vocab_text: str | None = None,
) -> LoadedCheckpoint:
    """Rebuild the model saved in `data`; raise CheckpointError with a friendly message if not.

    `h`: the number of heads (None for this app's exports, which record it). `vocab_text`:
    token names, one per line, for the shared vocabulary or (if the sizes differ) the
    source; `tgt_vocab_text` for the target when it has its own.
    """
    try:
        loaded = _load(data, h, vocab_text, tgt_vocab_text)
    except CheckpointError:
        raise
    except MemoryError:
        raise CheckpointError(t("ckpt.err.load_memory")) from None
    except Exception as exc:  # never a traceback for the learner
        raise CheckpointError(t("ckpt.err.unexpected_failure", type=type(exc).__name__,
                                hint=_save_hint())) from exc
    return replace(loaded, content=("file", file_digest(data, h, vocab_text, tgt_vocab_text)))


def file_digest(data: bytes, h: int | None, vocab_text: str | None,
                tgt_vocab_text: str | None) -> str:
    """SHA-256 of a checkpoint's bytes and of what it was read with (one file read with
    another h or vocabulary is another model)."""
    digest = hashlib.sha256(_as_bytes(data))
    digest.update(repr((h, vocab_text, tgt_vocab_text)).encode("utf-8"))
    return digest.hexdigest()


def _load(
    data: bytes, h: int | None, vocab_text: str | None, tgt_vocab_text: str | None
) -> LoadedCheckpoint:
    """load_checkpoint without the last-resort exception handler."""
    raw = _as_bytes(data)
    _check_zip(raw)
    sd_raw, kind, payload = _unwrap(_torch_load(raw))
    del raw
    notes: Notes = []
    sd = _clean(sd_raw, notes)
    saved_cfg = payload.get("config") if payload is not None else None
    arch = infer_architecture(sd)
    _check_size(arch)
    heads = _heads(h, arch.d_model, saved_cfg)
    cfg = _config(arch, heads, saved_cfg, arch.max_len or 5000)
    with torch.no_grad():
        if arch.max_len is None and "tgt_embed.1.pe" not in sd:
            notes.append(("ckpt.note.no_pe", (("n", str(cfg.max_len)),)))
            pe = sinusoid_table(cfg.max_len, cfg.d_model).unsqueeze(0)  # as the model's buffer
            sd = {**sd, "src_embed.1.pe": pe, "tgt_embed.1.pe": pe}
        _compare(sd, cfg)
        bad = [k for k, v in sd.items() if not bool(torch.isfinite(v).all())]
        if bad:
            raise CheckpointError(t("ckpt.err.not_finite", listing=_listing(bad)))
        cfg, sd = _extended(cfg, sd, notes)
        src_vocab, tgt_vocab = _vocabs(arch, vocab_text, tgt_vocab_text, payload, notes)
        model = build_model(cfg)
        try:
            model.load_state_dict(sd, strict=True)
        except RuntimeError:
            raise CheckpointError(t("ckpt.err.load_state_dict")) from None
    if payload is None:
        notes.append(("ckpt.note.assumed_options", ()))
    raw = payload.get("meta") if payload is not None else None
    meta = dict(raw) if isinstance(raw, Mapping) else {}
    version = meta.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        meta.pop("version", None)  # the pages key their caches by it: a number, or nothing
    return _loaded(model, src_vocab, tgt_vocab, kind, meta, notes)


def _extended(cfg: TransformerConfig, sd: Mapping[str, torch.Tensor], notes: Notes
              ) -> tuple[TransformerConfig, Mapping[str, torch.Tensor]]:
    """A sinusoid table shorter than the app reads (MIN_POSITIONS), extended: the formula
    gives every row (a learned or broken table is kept as it is)."""
    if cfg.max_len >= MIN_POSITIONS or not _is_sinusoid(sd, cfg):
        return cfg, sd
    notes.append(("ckpt.note.pe_extended", (("saved", str(cfg.max_len)),
                                             ("n", str(MIN_POSITIONS)))))
    cfg = replace(cfg, max_len=MIN_POSITIONS)
    pe = sinusoid_table(cfg.max_len, cfg.d_model).unsqueeze(0)
    return cfg, {**sd, **dict.fromkeys(_PE_KEYS, pe)}


def _loaded(model: EncoderDecoder, src_vocab: tuple[str, ...], tgt_vocab: tuple[str, ...],
            kind: str, meta: dict[str, Any], notes: Notes) -> LoadedCheckpoint:
    """The model in eval mode, with the notes its options call for."""
    model.eval()
    cfg = model.config
    if cfg.norm_placement == "post":
        notes.append(("ckpt.note.post_norm", ()))
    if cfg.tie_weights != "none":
        notes.append(("ckpt.note.tied", (("tie", repr(cfg.tie_weights)),)))
    return LoadedCheckpoint(
        model=model, config=cfg, src_vocab=src_vocab, tgt_vocab=tgt_vocab, kind=kind,
        meta=meta, note_keys=tuple(notes),
    )


@torch.no_grad()
def from_model(model: EncoderDecoder, vocab: Sequence[str], meta: Mapping[str, Any],
               content: tuple | None = None) -> LoadedCheckpoint:
    """A model of this app (trained here) as its export would load (`load_checkpoint` of
    `checkpoint_bytes`), without the bytes: a copy of its weights (the original may go on
    changing), its sinusoid table extended like an import's, the shared vocabulary."""
    notes: Notes = []
    cfg, sd = _extended(model.config, model.state_dict(), notes)
    copy = build_model(cfg)
    copy.load_state_dict(sd, strict=True)  # copies every tensor
    tokens = tuple(vocab)
    return replace(_loaded(copy, tokens, tokens, FORMAT, dict(meta), notes), content=content)
