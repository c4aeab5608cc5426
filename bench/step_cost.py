"""One training step of this app's model beside `torch.nn.Transformer` of the same size.

Rerun: `.venv/bin/python -m bench.step_cost` (options: --steps N, --rounds N, --smoke).

Both models train on the same copy batches (the Train button's task: digits, `<s> answer
</s>`) at the fast recipe's size (N=1, d_model 32, h 2, d_ff 64, batch 64, dropout 0), with
the same loss (this app's LabelSmoothing, epsilon 0), Adam (fused) and learning rate. The
peer is `nn.Transformer(batch_first=True)` with the same embeddings (x sqrt(d_model)),
sinusoidal positions and output layer around it, so the two do the same arithmetic. They
are timed alternately, --rounds rounds of --steps steps each, in one process on one thread
(as the app trains), so the shared machine's drift hits both alike. Each step is split into
forward (with the loss), backward and optimiser. "ours, written out" is the same model with
the fused attention off (the path a captured pass takes, as the pages show it). Target:
ours <= 1.0x the peer's step (stretch 0.7x).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence

import torch
from torch import nn

from bench.common import machine_facts, table
from transformer.hooks import HookPoint, capture
from transformer.model import EncoderDecoder, make_model, sinusoid_table, subsequent_mask
from transformer.recipes import FAST
from transformer.tasks import make_task
from transformer.train import Batch, LabelSmoothing

TARGET = 1.0


class Peer(nn.Module):
    """torch.nn.Transformer with this app's embeddings, positions and output layer."""

    def __init__(self, vocab: int, d_model: int, h: int, d_ff: int, N: int) -> None:
        super().__init__()
        self.src_embed = nn.Embedding(vocab, d_model)
        self.tgt_embed = nn.Embedding(vocab, d_model)
        self.register_buffer("pe", sinusoid_table(64, d_model))
        self.core = nn.Transformer(d_model, h, N, N, d_ff, dropout=0.0, batch_first=True)
        self.proj = nn.Linear(d_model, vocab)
        self.scale = math.sqrt(d_model)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor, src_pad: torch.Tensor,
                tgt_pad: torch.Tensor) -> torch.Tensor:
        s = self.src_embed(src) * self.scale + self.pe[: src.size(1)]
        t = self.tgt_embed(tgt) * self.scale + self.pe[: tgt.size(1)]
        causal = ~subsequent_mask(tgt.size(1))[0]  # nn's convention: True = not allowed
        out = self.core(s, t, tgt_mask=causal, src_key_padding_mask=src_pad,
                        tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)
        return self.proj(out).log_softmax(-1)


def _ours(model: EncoderDecoder) -> Callable[[Batch], torch.Tensor]:
    def forward(b: Batch) -> torch.Tensor:
        return model.generator(model(b.src, b.tgt, b.src_mask, b.tgt_mask))
    return forward


def _peer(model: Peer) -> Callable[[Batch], torch.Tensor]:
    def forward(b: Batch) -> torch.Tensor:
        return model(b.src, b.tgt, ~b.src_mask[:, 0], b.tgt == 0)
    return forward


def timed_steps(model: nn.Module, forward: Callable[[Batch], torch.Tensor],
                batches: Sequence[Batch], vocab: int) -> dict[str, float]:
    """Train `model` one step per batch; median ms of forward+loss, backward, optimiser and
    the whole step, and the slowest step's ms ("slowest")."""
    criterion = LabelSmoothing(vocab, 0, 0.0)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9,
                           fused=True)
    model.train()
    parts: dict[str, list[float]] = {"forward": [], "backward": [], "optimiser": [],
                                     "step": []}
    for b in batches:
        t0 = time.perf_counter()
        log_probs = forward(b)
        loss = criterion(log_probs.reshape(-1, vocab), b.tgt_y.reshape(-1)) / b.ntokens
        t1 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        t2 = time.perf_counter()
        opt.step()
        t3 = time.perf_counter()
        for name, value in (("forward", t1 - t0), ("backward", t2 - t1),
                            ("optimiser", t3 - t2), ("step", t3 - t0)):
            parts[name].append(1000 * value)
    return {**{k: statistics.median(v) for k, v in parts.items()}, "slowest": max(parts["step"])}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args(argv)
    steps, rounds = (5, 1) if args.smoke else (args.steps, args.rounds)
    torch.set_num_threads(1)
    task = make_task("copy")
    vocab = len(task.vocab)
    gen = torch.Generator().manual_seed(0)
    batches = [Batch(*task.sample(FAST.train.batch_size, gen)) for _ in range(steps)]
    ours = make_model(vocab, vocab, FAST.N, FAST.d_model, FAST.d_ff, FAST.h, 0.0, seed=0)
    torch.manual_seed(0)
    peer = Peer(vocab, FAST.d_model, FAST.h, FAST.d_ff, FAST.N)
    runs: dict[str, list[dict[str, float]]] = {"ours": [], "ours, written out": [],
                                                "peer": []}
    # An active capture of another model turns the fused attention off (hooks.quiet) and
    # records nothing of ours: the path a captured pass takes, without the recording.
    elsewhere = nn.Sequential(HookPoint())
    for _ in range(rounds):  # alternate, so drift hits all alike
        runs["ours"].append(timed_steps(ours, _ours(ours), batches, vocab))
        with capture(elsewhere):
            runs["ours, written out"].append(timed_steps(ours, _ours(ours), batches, vocab))
        runs["peer"].append(timed_steps(peer, _peer(peer), batches, vocab))
    med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
           for name, rs in runs.items()}
    params = {name: sum(p.numel() for p in m.parameters()) for name, m in
              (("ours", ours), ("ours, written out", ours), ("peer", peer))}
    print(f"Machine: {machine_facts()}. Fast recipe size (N={FAST.N}, d_model {FAST.d_model}, "
          f"h {FAST.h}, d_ff {FAST.d_ff}), batch {FAST.train.batch_size}, copy on digits; "
          f"median of {rounds} rounds x {steps} steps, 1 thread.\n")
    rows = [[name, f"{params[name]:,}", *(f"{med[name][k]:.2f}" for k in
                                          ("forward", "backward", "optimiser", "step"))]
            for name in runs]
    print(table(["model", "parameters", "forward + loss ms", "backward ms", "optimiser ms",
                 "step ms"], rows))
    ratio = med["ours"]["step"] / med["peer"]["step"]
    print()
    print(table(["ours / nn.Transformer (step)", "target", "met?"],
                [[f"{ratio:.2f}x", f"<= {TARGET:.1f}x", "yes" if ratio <= TARGET else "NO"]]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
