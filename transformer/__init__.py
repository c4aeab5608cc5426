"""The encoder-decoder Transformer of "Attention Is All You Need", built to be looked inside.

Pure PyTorch: nothing here imports streamlit or plotly.
"""

from .hooks import HookPoint, capture, hook_names
from .model import (
    ATTENTION_POINTS,
    MASK_FILL,
    SUBLAYER_POINTS,
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
    TransformerConfig,
    attention,
    attention_hook,
    build_model,
    clones,
    layer_hook,
    make_model,
    sinusoid_table,
    stack_output_hook,
    sublayer_hook,
    subsequent_mask,
)
from .tasks import TASKS, Task, make_task
from .tokenize import BOS, EOS, PAD, SPECIALS, UNK, TokenizeError, Vocab, tokenize
from .train import (
    Batch,
    DecodeStep,
    LabelSmoothing,
    StepInfo,
    TrainConfig,
    decode_steps,
    greedy_decode,
    rate,
    sequence_accuracy,
    train,
)

__all__ = [
    "ATTENTION_POINTS", "MASK_FILL", "SUBLAYER_POINTS",
    "BOS", "EOS", "PAD", "SPECIALS", "TASKS", "UNK",
    "Batch", "DecodeStep", "Decoder", "DecoderLayer", "Embeddings", "Encoder",
    "EncoderDecoder", "EncoderLayer", "Generator", "HookPoint", "LabelSmoothing", "LayerNorm",
    "MultiHeadedAttention", "PositionalEncoding", "PositionwiseFeedForward", "StepInfo",
    "SublayerConnection", "Task", "TokenizeError", "TrainConfig", "TransformerConfig", "Vocab",
    "attention", "attention_hook", "build_model", "capture", "clones", "decode_steps",
    "greedy_decode", "hook_names", "layer_hook", "make_model", "make_task", "rate",
    "sequence_accuracy", "sinusoid_table", "stack_output_hook", "subsequent_mask",
    "sublayer_hook", "tokenize", "train",
]
