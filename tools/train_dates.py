"""Train the date translator the app ships, and check it: one command, fixed seed.

    .venv/bin/python -m tools.train_dates            # train, evaluate, write models/dates.pt
    .venv/bin/python -m tools.train_dates --check    # evaluate the shipped file only

The recipe is `transformer.recipes.DATES`; the task `transformer.dates.DateTask`. Training
stops early once greedy decoding gets 99.8% of 1,000 fresh *training-split* dates right
(checked every 250 steps), so held-out dates are never used to choose when to stop. Then
2,000 held-out dates (days never seen in training, spread evenly over every locale, style
and case) give the reported accuracy, per locale, and the cross-attention alignment. The
file is written only if held-out accuracy is at least 99%.
"""

from __future__ import annotations

import argparse
import sys
import time
from importlib.metadata import version
from pathlib import Path

import torch

from explorer.core.exports import checkpoint_bytes
from transformer import dates as D
from transformer.recipes import DATES
from transformer.train import StepInfo, train

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "models" / "dates.pt"
SEED = 0  # the model's weights and the batches
MAX_LEN = 64  # positions in the saved PE table: sources are at most ~31 tokens with </s>
CHECK_EVERY = 250  # steps between early-stop checks
CHECK_N = 1000  # fresh training-split dates per check
STOP_AT = 0.998  # early stop: share of the check decoded exactly
HELD_OUT_N = 2000  # held-out dates in the final evaluation
TARGET = 0.99  # the file is written only at or above this held-out accuracy


def build() -> torch.nn.Module:
    """A fresh model of the DATES recipe for the date vocabulary."""
    return DATES.build(len(D.vocab()), seed=SEED, max_len=MAX_LEN)


def evaluate(model: torch.nn.Module, n: int = HELD_OUT_N) -> dict[str, object]:
    """Held-out exact match (overall, per locale, per style) and cross-attention alignment."""
    examples = D.held_out_examples(n)
    right = D.exact_matches(model, examples)
    align = D.alignment(model, examples)
    return {
        "held_out_n": n,
        "held_out_exact": sum(right) / n,
        "per_locale": {k: r / m for k, (r, m) in D.accuracy_by(examples, right).items()},
        "per_style": {k: r / m for k, (r, m) in D.accuracy_by(examples, right, "style").items()},
        "alignment_layer": align.layer,
        "alignment": dict(align.shares),
    }


def report(result: dict[str, object]) -> str:
    """The evaluation as a small Markdown table."""
    lines = [f"held-out exact match: {result['held_out_exact']:.2%} of {result['held_out_n']}",
             "", "| locale | exact |", "|---|---|"]
    lines += [f"| {k} | {v:.2%} |" for k, v in result["per_locale"].items()]  # type: ignore[union-attr]
    lines += ["", f"alignment (decoder layer {result['alignment_layer']}, heads averaged):", "",
              "| field | digits whose cross-attention argmax is inside the field |", "|---|---|"]
    lines += [f"| {k} | {v:.1%} |" for k, v in result["alignment"].items()]  # type: ignore[union-attr]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="evaluate models/dates.pt only")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # as the app runs; also makes the run reproducible
    if args.check:
        from explorer.core.checkpoint import load_checkpoint

        loaded = load_checkpoint(args.out.read_bytes(), None, None)
        print(report(evaluate(loaded.model)))
        return 0

    model = build()
    checks = D.DateTask().examples(CHECK_N, torch.Generator().manual_seed(SEED + 1))
    log: list[str] = []

    def on_step(info: StepInfo) -> bool:
        if info.step % CHECK_EVERY:
            return False
        share = sum(D.exact_matches(model, checks)) / CHECK_N
        model.train()
        line = (f"step {info.step:5d}  {info.elapsed:6.1f} s  loss {info.loss:.4f}  "
                f"check {share:.2%}")
        print(line, flush=True)
        log.append(line)
        return share >= STOP_AT

    start = time.perf_counter()
    history = train(model, D.DateTask(), DATES.train, on_step)
    seconds = time.perf_counter() - start
    model.eval()
    result = evaluate(model)
    print(report(result))
    if result["held_out_exact"] < TARGET:  # type: ignore[operator]
        print(f"Held-out accuracy below {TARGET:.0%}: {args.out} not written.", file=sys.stderr)
        return 1
    meta = {
        "task": "dates",
        "token_mode": "char",  # how the app must read a typed date (D.source_tokens)
        "recipe": DATES.name,
        "seed": SEED,
        "steps": len(history),
        "train_seconds": round(seconds, 1),
        "babel": version("babel"),
        "torch": torch.__version__.split("+")[0],
        **result,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(checkpoint_bytes(model, list(D.vocab().itos), meta))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) after {len(history)} "
          f"steps, {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
