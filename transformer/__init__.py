"""The encoder-decoder Transformer of "Attention Is All You Need", built to be looked inside.

Pure PyTorch: nothing here imports streamlit or plotly.
"""

from .hooks import HookPoint, capture, hook_names
from .model import (
    ATTENTION_POINTS,
    EMBED_OF,
    MASK_FILL,
    SUBLAYER_POINTS,
    SUBLAYERS,
    AttentionModule,
    AttentionPoint,
    Decoder,
    DecoderLayer,
    Embeddings,
    Encoder,
    EncoderDecoder,
    EncoderLayer,
    FeedForwardPoint,
    Generator,
    GeneratorPoint,
    LayerNorm,
    MultiHeadedAttention,
    PositionalEncoding,
    PositionalPoint,
    PositionwiseFeedForward,
    Stack,
    SublayerConnection,
    SublayerPoint,
    TransformerConfig,
    attention,
    attention_hook,
    build_model,
    clones,
    embedding_hook,
    feed_forward_hook,
    generator_hook,
    layer_hook,
    make_model,
    positional_hook,
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
    "ATTENTION_POINTS", "EMBED_OF", "MASK_FILL", "SUBLAYERS", "SUBLAYER_POINTS",
    "BOS", "EOS", "PAD", "SPECIALS", "TASKS", "UNK",
    "AttentionModule", "AttentionPoint", "Batch", "DecodeStep", "Decoder", "DecoderLayer",
    "Embeddings", "Encoder", "EncoderDecoder", "EncoderLayer", "FeedForwardPoint", "Generator",
    "GeneratorPoint", "HookPoint", "LabelSmoothing", "LayerNorm", "MultiHeadedAttention",
    "PositionalEncoding", "PositionalPoint", "PositionwiseFeedForward", "Stack", "StepInfo",
    "SublayerConnection", "SublayerPoint", "Task", "TokenizeError", "TrainConfig",
    "TransformerConfig", "Vocab",
    "attention", "attention_hook", "build_model", "capture", "clones", "decode_steps",
    "embedding_hook", "feed_forward_hook", "generator_hook", "greedy_decode", "hook_names",
    "layer_hook", "make_model", "make_task", "positional_hook", "rate", "sequence_accuracy",
    "sinusoid_table", "stack_output_hook", "subsequent_mask", "sublayer_hook", "tokenize",
    "train",
]
