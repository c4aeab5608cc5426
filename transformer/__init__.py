"""The encoder-decoder Transformer of "Attention Is All You Need", built to be looked inside.

Pure PyTorch: nothing here imports streamlit or plotly.
"""

from .config import DecoderMask, TransformerConfig
from .hook_paths import (
    ATTENTION_POINTS,
    EMBED_OF,
    SUBLAYER_POINTS,
    SUBLAYERS,
    AttentionModule,
    AttentionPoint,
    FeedForwardPoint,
    GeneratorPoint,
    PositionalPoint,
    Stack,
    SublayerPoint,
    attention_hook,
    embedding_hook,
    feed_forward_hook,
    generator_hook,
    layer_hook,
    positional_hook,
    stack_output_hook,
    sublayer_hook,
)
from .hooks import HookPoint, capture, hook_names, intervene, knock_out, zero
from .model import (
    MASK_FILL,
    Decoder,
    DecoderLayer,
    Embeddings,
    Encoder,
    EncoderDecoder,
    EncoderLayer,
    Generator,
    LayerNorm,
    MultiHeadedAttention,
    PositionalEncoding,
    PositionwiseFeedForward,
    SublayerConnection,
    attention,
    build_model,
    clones,
    decoder_self_mask,
    make_model,
    sinusoid_table,
    subsequent_mask,
)
from .tasks import TASKS, Task, make_task
from .tokenize import BOS, EOS, PAD, SPECIALS, UNK, TokenizeError, Vocab, tokenize
from .train import (
    Batch,
    BeamResult,
    DecodeStep,
    Hypothesis,
    LabelSmoothing,
    StepInfo,
    TrainConfig,
    beam_search,
    decode_steps,
    greedy_decode,
    length_penalty,
    rate,
    sequence_accuracy,
    train,
)

__all__ = [
    "ATTENTION_POINTS", "EMBED_OF", "MASK_FILL", "SUBLAYERS", "SUBLAYER_POINTS",
    "BOS", "EOS", "PAD", "SPECIALS", "TASKS", "UNK",
    "AttentionModule", "AttentionPoint", "Batch", "BeamResult", "DecodeStep", "Decoder",
    "DecoderLayer", "DecoderMask", "Hypothesis",
    "Embeddings", "Encoder", "EncoderDecoder", "EncoderLayer", "FeedForwardPoint", "Generator",
    "GeneratorPoint", "HookPoint", "LabelSmoothing", "LayerNorm", "MultiHeadedAttention",
    "PositionalEncoding", "PositionalPoint", "PositionwiseFeedForward", "Stack", "StepInfo",
    "SublayerConnection", "SublayerPoint", "Task", "TokenizeError", "TrainConfig",
    "TransformerConfig", "Vocab",
    "attention", "attention_hook", "beam_search", "build_model", "capture", "clones",
    "decode_steps", "decoder_self_mask", "intervene", "knock_out", "length_penalty", "zero",
    "embedding_hook", "feed_forward_hook", "generator_hook", "greedy_decode", "hook_names",
    "layer_hook", "make_model", "make_task", "positional_hook", "rate", "sequence_accuracy",
    "sinusoid_table", "stack_output_hook", "subsequent_mask", "sublayer_hook", "tokenize",
    "train",
]
