"""Page snapshots: a proof that a structural refactor changed nothing a learner sees.

`record` runs each page as tests do (`apptest_helpers.app`; nothing clicked) for 4 models (tiny
default, "paper base" size, the shipped date translator, an imported Annotated-Transformer
checkpoint) in en and zh: 48 views. Per view: every element of main, sidebar and event block
in page order (type, depth, its proto's fields: text, labels, options, values, help; tables
as lists; expanders, columns), every plotly spec in full, and the exceptions. `compare`
prints per view the texts that changed and each changed figure's first differing path, and
exits 1 on any change. Run from /work/main (`python tests/page_snapshot.py ...` works too):

    .venv/bin/python -m tests.page_snapshot record OUT.json [--only PAGE ...]
    .venv/bin/python -m tests.page_snapshot compare OLD.json NEW.json
    .venv/bin/python -m tests.page_snapshot check OLD.json [--only PAGE ...]  # record+compare
To record the baseline of the last commit while the tree is edited, clone it, copy this file
into the clone's tests/ and run `record` there (with this checkout's .venv/bin/python).

Left out or normalised (not seen by a learner, or different between two runs of one code):
ids' hashes ("$$ID-<hash>-<key>": the key is kept); download buttons' deferred_file_id (a
random uuid); the seconds in texts estimated from a measured time (TIMINGS: the knock-out's
"about 6 s here" / "这里大约需要 6 秒" varied between two runs); exceptions' stack traces (paths
move in a refactor; type and message kept, unredacted: showErrorDetails is "full" here);
floats rounded to 6 significant digits and |x| < 1e-12 to 0 (plotly's base64 arrays decoded
first; NaN/inf as strings); a widget value that is not plain data as its type name.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import functools
import io
import json
import math
import re
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:  # as pytest's pythonpath: `from apptest_helpers import app`
    sys.path.insert(0, str(TESTS))

PAGES = ("model", "embeddings", "masks", "attention", "shapes", "train")
SOURCES = ("tiny", "paper base", "dates", "imported")
LANGS = ("en", "zh")
TIMEOUT = 300.0
# As tests/test_import_explore.py: The Annotated Transformer's special tokens come first.
VOCAB = ["<s>", "</s>", "<blank>", "<unk>", "the", "cat", "sat", "on", "mat", "a"]
DROP = {"id", "stack_trace", "arrow_data", "spec", "deferred_file_id"}  # see the docstring
TIMINGS = [re.compile(r"(about )\d+( s here)"), re.compile(r"(这里大约需要 )\d+( 秒)")]


def set_lang(lang: str) -> None:
    """The interface language of this (the test's) thread, as tests' `app_in` sets it."""
    from explorer.text.i18n import set_lang as set_thread_lang

    set_thread_lang(lang)


@functools.cache
def imported_checkpoint():
    """A state_dict saved as The Annotated Transformer saves one, loaded as the sidebar does."""
    import torch

    from transformer import make_model

    model = make_model(len(VOCAB), len(VOCAB), N=2, d_model=16, d_ff=32, h=4, seed=3)
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    from explorer.core.checkpoint import load_checkpoint

    return load_checkpoint(buf.getvalue(), 4, "\n".join(VOCAB))


def plain(x):
    """`x` as JSON data: floats rounded to 6 significant digits, typed arrays decoded."""
    if isinstance(x, dict) and "bdata" in x and "dtype" in x:
        import numpy as np

        a = np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]))
        if x.get("shape"):
            a = a.reshape([int(s) for s in str(x["shape"]).split(",")])
        return {"dtype": x["dtype"], "values": plain(a.tolist())}
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [plain(v) for v in x]
    if hasattr(x, "item") and not hasattr(x, "__len__"):  # a numpy scalar
        x = x.item()
    if isinstance(x, float):
        return str(x) if not math.isfinite(x) else 0.0 if abs(x) < 1e-12 else float(f"{x:.6g}")
    if isinstance(x, str):
        return functools.reduce(lambda s, r: r.sub(r"\1<timing>\2", s), TIMINGS, x)
    if x is None or isinstance(x, int | bool):
        return x
    return str(x) if hasattr(x, "isoformat") else f"<{type(x).__name__}>"


def describe(node, depth: int, elements: list, figures: list) -> None:
    """Append `node` and everything inside it, in page order, to `elements` and `figures`."""
    from google.protobuf.json_format import MessageToDict
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    proto = getattr(node, "proto", None)
    if proto is not None:
        fields = MessageToDict(proto, preserving_proto_field_name=True)
        if str(fields.get("id", "")).startswith("$$ID-"):
            fields["key"] = fields["id"].split("-", 2)[2]
        if "arrow_data" in fields:
            df = convert_arrow_bytes_to_pandas_df(proto.arrow_data.data)
            fields["table"] = {"columns": [str(c) for c in df.columns], "index": list(df.index),
                               "rows": df.astype(object).values.tolist()}
        if "spec" in fields:
            fields["figure"] = len(figures)
            figures.append(plain(json.loads(proto.spec)))
        if "id" in fields and node.type not in ("plotly_chart", "bidi_component"):
            try:
                fields["value"] = node.value
            except Exception as exc:  # a widget AppTest cannot read back
                fields["value"] = f"<{type(exc).__name__}>"
        fields = {k: plain(v) for k, v in fields.items() if k not in DROP}
        elements.append({"type": node.type, "depth": depth, "fields": fields})
    for key in sorted(getattr(node, "children", None) or {}):
        describe(node.children[key], depth + (proto is not None), elements, figures)


def record_view(page: str, source: str, lang: str) -> dict:
    """Run the app on `page` showing `source` in `lang`; what it shows."""
    from apptest_helpers import PAPER_BASE, app

    state = {"tiny": {}, "paper base": PAPER_BASE, "dates": {"model_source": "dates"},
             "imported": {"source": "the cat sat on the sofa"}}[source]
    if source == "imported":
        state["imported_checkpoint"] = imported_checkpoint()
    set_lang(lang)
    try:
        at = app(page, timeout=TIMEOUT, lang=lang, **state)
    except Exception as exc:  # a timeout or a crash of AppTest itself
        return {"elements": [], "figures": [], "exception": [f"run failed: {exc!r}"]}
    finally:
        set_lang("en")
    elements: list = []
    figures: list = []
    for name, block in sorted(at._tree.children.items()):  # event, main, sidebar
        elements.append({"type": name, "depth": 0, "fields": {}})
        describe(block, 1, elements, figures)
    return {"elements": elements, "figures": figures,
            "exception": [f"{e.proto.type}: {e.proto.message}" for e in at.exception]}


def record(out: str, only: list[str] | None = None) -> None:
    """Record every view (of the `only` pages) to `out`."""
    from streamlit import config
    from streamlit.logger import set_log_level

    config.set_option("client.showErrorDetails", "full")  # an exception's message, unredacted
    set_log_level("error")  # not "missing ScriptRunContext" for every element
    snap, start = {}, time.time()
    for name in [f"{p}/{s}/{lang}" for p in only or PAGES for s in SOURCES for lang in LANGS]:
        t0 = time.time()
        view = snap[name] = record_view(*name.split("/"))
        print(f"{name}: {len(view['elements'])} elements, {len(view['figures'])} figures, "
              f"{time.time() - t0:.1f} s", *view["exception"], file=sys.stderr, flush=True)
    where = getattr(sys.modules.get("explorer"), "__file__", None)  # the code under test
    print(f"explorer from {where}; {len(snap)} views in {time.time() - start:.0f} s -> {out}",
          file=sys.stderr)
    Path(out).write_text(json.dumps({"views": snap}, ensure_ascii=False, sort_keys=True))


def clip(a: str, b: str = "", width: int = 160) -> tuple[str, str]:
    """`a` and `b` cut around their first difference."""
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    lo = max(0, i - width // 3)
    return tuple(("…" if lo else "") + s[lo:lo + width] + ("…" if lo + width < len(s) else "")
                 for s in (a, b))


def differences(a, b, path: str = ""):
    """Yield (path, a's value, b's value) for every leaf where `a` and `b` differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys()):
            yield from differences(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from differences(x, y, f"{path}[{i}]")
    elif a != b:
        both_lists = isinstance(a, list) and isinstance(b, list)
        yield (f"{path} (length)", len(a), len(b)) if both_lists else (path, a, b)


def compare_view(old: dict, new: dict) -> list[str]:
    """The differences between two recordings of one view, as readable lines."""
    out = []
    if old["exception"] != new["exception"]:
        out.append(f"  exceptions: {old['exception']} -> {new['exception']}")
    a, b = ([f"{'  ' * e['depth']}{e['type']} {json.dumps(e['fields'], ensure_ascii=False)}"
             for e in view["elements"]] for view in (old, new))
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:  # changed in place: shown around the change
            for k in range(i2 - i1):
                x, y = clip(a[i1 + k], b[j1 + k])
                out += [f"  - #{i1 + k} {x}", f"  + #{j1 + k} {y}"]
        elif op != "equal":
            out += [f"  - #{i} {clip(a[i])[0]}" for i in range(i1, i2)]
            out += [f"  + #{j} {clip(b[j])[0]}" for j in range(j1, j2)]
    if len(old["figures"]) != len(new["figures"]):
        out.append(f"  figures: {len(old['figures'])} -> {len(new['figures'])}")
    for k, (f, g) in enumerate(zip(old["figures"], new["figures"], strict=False)):
        if diffs := list(differences(f, g)):
            title = f.get("layout", {}).get("title", "")
            title = title.get("text", "") if isinstance(title, dict) else title
            path, x, y = (json.dumps(v, ensure_ascii=False)[:80] for v in diffs[0])
            out.append(f"  figure {k} {title!r:.60}: {len(diffs)} values differ, the first at "
                       f"{path[1:-1]}: {x} -> {y}")
    return out


def compare(old_file: str, new_file: str, only: list[str] | None = None) -> int:
    """Print the differences between two snapshots; 0 if identical, else 1."""
    old = json.loads(Path(old_file).read_text())["views"]
    new = json.loads(Path(new_file).read_text())["views"]
    old = {k: v for k, v in old.items() if not only or k.split("/")[0] in only}
    changed = 0
    for name in sorted(old.keys() | new.keys()):
        lines = (compare_view(old[name], new[name]) if name in old and name in new
                 else [f"  only in {old_file if name in old else new_file}"])
        if lines:
            print(f"{name}:", *lines, sep="\n")
            changed += 1
    elements = sum(len(v["elements"]) for v in new.values())
    figures = sum(len(v["figures"]) for v in new.values())
    verdict = f"{changed} views differ" if changed else "identical"
    print(f"{len(new)} views, {elements} elements ({figures} figures), {verdict}")
    return 1 if changed else 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("record", "compare", "check"))
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--only", nargs="+", choices=PAGES, metavar="PAGE")
    args = parser.parse_args(argv)
    if len(args.files) != 1 + (args.command == "compare"):
        parser.error("record OUT | compare OLD NEW | check OLD")
    if args.command == "compare":
        return compare(*args.files, args.only)
    with tempfile.TemporaryDirectory() as tmp:
        new = args.files[0] if args.command == "record" else f"{tmp}/new.json"
        record(new, args.only)
        return 0 if args.command == "record" else compare(args.files[0], new, args.only)


if __name__ == "__main__":
    sys.exit(main())
