"""A training worker does not run the server's main script again.

Under `streamlit run`, the main script is Streamlit's launcher, which imports all of
Streamlit; a spawned child normally runs its parent's main script first (as `__mp_main__`),
so every worker would carry Streamlit for nothing (explorer/training/worker.py
`_without_main_script`).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = textwrap.dedent("""
    import os
    import sys

    if __name__ == "__mp_main__":  # a spawned child running this script again
        with open(os.environ["MARKER"], "a") as f:
            f.write("imported\\n")

    if __name__ == "__main__":
        sys.path.insert(0, os.environ["ROOT"])
        import multiprocessing

        if sys.argv[1] == "plain":
            child = multiprocessing.get_context("spawn").Process(target=os.getpid)
            child.start()
            child.join(120)
        else:
            from explorer.training.worker import Worker

            worker = Worker()
            worker.close()
            worker.process.join(120)
            assert __file__ and __spec__ is None  # given back after the start
""")


@pytest.mark.parametrize("mode, imported", [("plain", True), ("worker", False)])
def test_a_worker_does_not_run_the_main_script_again(tmp_path, mode, imported):
    script = tmp_path / "launcher.py"
    script.write_text(SCRIPT)
    marker = tmp_path / "marker"
    env = {**os.environ, "MARKER": str(marker), "ROOT": str(ROOT)}
    done = subprocess.run([sys.executable, str(script), mode], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    # "plain" shows what a spawned child does by default; the worker must not do it
    assert marker.exists() == imported
