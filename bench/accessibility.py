"""Accessibility audit: what axe-core finds on every page, by rule and impact.

Rerun: `.venv/bin/python -m bench.accessibility` (options: --app PATH, another checkout's
app.py, to audit it the same way (its "before"); --smoke: the Model page in English only).

One `streamlit run app.py` (tests.serve.serve, 127.0.0.1, a free port, stopped at the end)
and Debian's Chromium. Each view is opened by its address, every expander opened, and
audited whole (tests/axe_audit.py: axe-core 4.12 from the pinned axe-playwright-python,
the WCAG 2.0, 2.1 and 2.2 A and AA rules, the viewport as tall as the page so that no text
is left off-screen; a disabled widget's faded label left out, as WCAG 1.4.3 allows):

- the six pages x {English, Chinese} x {laptop 1280 x 720, presenter mode (pres=1) at 1280 x
  720, phone 390 x 844};
- a lesson's step with its self-check ("Attention, step by step", step 2), both languages;
- each laptop view again at 200% zoom (640 x 360 CSS pixels, tests/axe_audit.py `reflowed`):
  what needs a sideways swipe there (WCAG 1.4.4, 1.4.10).

The class's panels (a teacher asking, a student answering, the reveal) are audited in the
browser test tests/test_e2e_class_lesson.py, where a class runs.

Printed: findings by rule and impact (how many views, how many elements), and every view
with a serious or critical finding. Target: 0 serious, 0 critical (issue-free views).
"""

from __future__ import annotations

import argparse
import collections
import time
from collections.abc import Sequence
from pathlib import Path

from bench.common import PAGES, ROOT, free_port, have_chromium, machine_facts, serve, table
from tests.axe_audit import BLOCKING, TAGS, audit, open_every_expander, reflowed
from tests.serve import CHROMIUM, CHROMIUM_ARGS, wait_idle

LAPTOP, PHONE = {"width": 1280, "height": 720}, {"width": 390, "height": 844}
SCREENS = {"laptop": (LAPTOP, ""), "presenter": (LAPTOP, "&pres=1"), "phone": (PHONE, "")}
LESSON = "/?lesson=attention_step_by_step&lstep=2"


def views(smoke: bool) -> list[tuple[str, str, str]]:
    """(name, address path and query, screen) of every view audited."""
    if smoke:
        return [("model/en/laptop", "/model?lang=en", "laptop")]
    out = [(f"{page}/{lang}/{screen}", f"/{page}?lang={lang}{extra}", screen)
           for screen, (_, extra) in SCREENS.items() for lang in ("en", "zh") for page in PAGES]
    out += [(f"lesson step 2/{lang}/laptop", f"{LESSON}&lang={lang}", "laptop")
            for lang in ("en", "zh")]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--app", type=Path, default=ROOT / "app.py")
    ap.add_argument("--smoke", action="store_true")
    args = ap.parse_args(argv)
    if not have_chromium():
        print(f"No Chromium at {CHROMIUM}: the audit needs Debian's chromium.")
        return 1
    from playwright.sync_api import sync_playwright

    found: dict[str, list] = {}
    sideways: dict[str, list[str]] = {}  # a laptop view at 200% zoom: what needs a swipe
    t0 = time.perf_counter()
    with serve(free_port(), script=args.app) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, path, screen in views(args.smoke):
            page = browser.new_context(viewport=SCREENS[screen][0]).new_page()
            page.goto(url + path)
            page.wait_for_selector("h1", timeout=120_000)
            wait_idle(page)
            open_every_expander(page, wait_idle)
            found[name] = audit(page)
            if screen == "laptop":
                sideways[name] = reflowed(page)
            page.context.close()
        browser.close()
    seconds = time.perf_counter() - t0

    rules: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    for findings in found.values():
        for f in findings:
            rules[(f.rule, f.impact)][0] += 1
            rules[(f.rule, f.impact)][1] += f.nodes
    order = ("critical", "serious", "moderate", "minor")
    print(machine_facts() + "\n")
    print(f"axe-core rules: {', '.join(TAGS)}; {len(found)} views audited in {seconds:.0f} s "
          f"({args.app.relative_to(ROOT) if args.app.is_relative_to(ROOT) else args.app}).\n")
    rows = [[rule, impact, views_, nodes] for (rule, impact), (views_, nodes) in
            sorted(rules.items(), key=lambda kv: (order.index(kv[0][1]), kv[0][0]))]
    print(table(["rule", "impact", "views", "elements"], rows or [["(none)", "", 0, 0]]))
    bad = {name: [f for f in fs if f.impact in BLOCKING] for name, fs in found.items()}
    bad = {name: fs for name, fs in bad.items() if fs}
    by_impact = {impact: sum(n for (_, i), (_, n) in rules.items() if i == impact)
                 for impact in order}
    print()
    print(table(["impact", "elements", "target", "met"],
                [[i, by_impact[i], 0 if i in BLOCKING else "-",
                  ("yes" if by_impact[i] == 0 else "no") if i in BLOCKING else "-"]
                 for i in order]))
    wide = {name: found for name, found in sideways.items() if found}
    print(f"\nAt 200% zoom (640 x 360): {len(sideways) - len(wide)} of {len(sideways)} "
          "laptop views need no sideways swipe.")
    for name, found in wide.items():
        print(f"- {name}: " + "; ".join(found[:3]))
    if bad:
        print("\nViews with a serious or critical finding:")
        for name, fs in bad.items():
            print(f"- {name}: " + "; ".join(f"{f.rule} ({f.nodes})" for f in fs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
