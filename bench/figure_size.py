"""Size: bytes of plotly figure JSON each page sends, and the page's whole message size.

Rerun: `.venv/bin/python -m bench.figure_size` (options: --pages, --presets, --smoke).

Each page runs in `streamlit.testing.v1.AppTest` with the default sentence ("the cat sat on
the mat", 6 tokens) and with a 64-token sentence (the tokenizer's limit: the worst case).
"figure JSON" is the sum of the plotly specs (`len` of the UTF-8 JSON in each
`plotly_chart` element); "page messages" is the protobuf size of every ForwardMsg of the run
(sidebar, text, dataframes and figures), which is what the server puts on the websocket.
The targets are for the attention page; the other pages are listed for comparison.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from bench.common import (
    PAGES,
    PRESET_NAMES,
    ROOT,
    long_sentence,
    machine_facts,
    met,
    preset_state,
    quiet_streamlit,
    table,
)

TARGET_BYTES = {"tiny": 1_000_000, "paper base": 5_000_000}  # attention page
MB = 1_000_000


@contextmanager
def message_bytes() -> Iterator[list[int]]:
    """Record the total ForwardMsg size of every AppTest run inside the block."""
    from streamlit.testing.v1.local_script_runner import LocalScriptRunner

    sizes: list[int] = []
    original = LocalScriptRunner.forward_msgs

    def forward_msgs(runner):
        msgs = original(runner)
        sizes.append(sum(m.ByteSize() for m in msgs))
        return msgs

    LocalScriptRunner.forward_msgs = forward_msgs
    try:
        yield sizes
    finally:
        LocalScriptRunner.forward_msgs = original


def measure(page: str, preset: str, text: str | None, sizes: list[int]) -> dict[str, object]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    for key, value in preset_state(preset).items():
        at.session_state[key] = value
    if text is not None:
        at.session_state["source"] = text
    at.switch_page(f"pages/{page}.py")
    at.run()
    if at.exception:
        raise RuntimeError(f"{page} ({preset}) raised: {at.exception[0].value}")
    charts = [(el.proto.id, len(el.proto.spec.encode())) for el in at.get("plotly_chart")]
    largest = max(charts, key=lambda c: c[1]) if charts else ("-", 0)
    key = largest[0].rsplit("-", 1)[-1] if largest[0] else "-"
    return {"page": page, "preset": preset, "charts": len(charts),
            "figure": sum(n for _, n in charts), "largest": largest[1], "largest_key": key,
            "messages": sizes[-1] if sizes else 0}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", default=",".join(PAGES))
    ap.add_argument("--presets", default=",".join(PRESET_NAMES))
    ap.add_argument("--long", action=argparse.BooleanOptionalAction, default=True,
                    help="also measure a 64-token sentence (default: on)")
    ap.add_argument("--smoke", action="store_true", help="tiny preset, attention page only")
    args = ap.parse_args(argv)
    pages = [p for p in args.pages.split(",") if p]
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    texts: list[tuple[str, str | None]] = [("default (6 tokens)", None)]
    if args.long:
        texts.append(("64 tokens", long_sentence()))
    if args.smoke:
        pages, presets, texts = ["attention"], ["tiny"], texts[:1]
    unknown = sorted(set(pages) - set(PAGES)) + sorted(set(presets) - set(PRESET_NAMES))
    if unknown:
        ap.error(f"unknown page or preset: {', '.join(unknown)}")

    import torch

    torch.set_num_threads(1)
    quiet_streamlit()
    print(machine_facts() + "\n")
    rows = []
    with message_bytes() as sizes:
        for preset in presets:
            for label, text in texts:
                for page in pages:
                    r = measure(page, preset, text, sizes)
                    r["text"] = label
                    rows.append(r)
                    print(f"  measured {page} / {preset} / {label}", file=sys.stderr, flush=True)

    print("Bytes each page sends (figure JSON = plotly specs; page messages = all "
          "ForwardMsgs of the run)\n")
    out = []
    for r in rows:
        if r["page"] == "attention":
            limit = TARGET_BYTES[r["preset"]]
            target, ok = f"≤ {limit / MB:g} MB", met(r["figure"], limit)
        else:
            target, ok = "-", "-"
        out.append([r["page"], r["preset"], r["text"], r["charts"], f"{r['figure'] / MB:.3f}",
                    f"{r['largest'] / MB:.3f} ({r['largest_key']})",
                    f"{r['messages'] / MB:.3f}", target, ok])
    print(table(["page", "preset", "text", "charts", "figure JSON MB", "largest chart MB",
                 "page messages MB", "target", "met?"], out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
