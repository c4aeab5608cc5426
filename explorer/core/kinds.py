"""The three places the Transformer uses attention (encoder self-attention, decoder masked
self-attention, cross-attention), declared once: the Attention page's kinds, the Shapes
page's head split, the knock-outs' parts and the links' values all read `KINDS`."""

from __future__ import annotations

from dataclasses import dataclass

from transformer.hook_paths import AttentionModule, AttentionPoint, Stack, attention_hook

from ..text.i18n import t


@dataclass(frozen=True)
class AttentionKind:
    """One of the three places attention is used."""

    key: str  # "enc", "dec", "cross"
    stack: Stack  # "encoder" or "decoder"
    module: AttentionModule  # "self_attn" or "src_attn" (cross-attention)
    queries: str  # "src" or "tgt": which tokens ask
    keys: str  # "src" or "tgt": which tokens are looked at

    @property
    def label(self) -> str:
        """Its name, in the run's language."""
        return t(f"fig.attention.kind_{self.key}")

    def hook(self, layer: int, point: AttentionPoint) -> str:
        """The capture name of `point` (e.g. "hook_pattern") in this attention of `layer`."""
        return attention_hook(self.stack, layer, self.module, point)

    @property
    def mask(self) -> str:
        """What mask this attention uses, in the run's language."""
        return t(f"fig.attention.mask_{self.key}")


# The three attentions by key: the Attention page's kinds, the Shapes page's head split,
# the knock-outs' parts and the links' values (view.ATTENTION_KINDS) all read them here.
KINDS: dict[str, AttentionKind] = {
    "enc": AttentionKind("enc", "encoder", "self_attn", "src", "src"),
    "dec": AttentionKind("dec", "decoder", "self_attn", "tgt", "tgt"),
    "cross": AttentionKind("cross", "decoder", "src_attn", "tgt", "src"),
}
