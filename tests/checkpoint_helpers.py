"""The Train page's export of a copy model, as a learner downloads it, and sentences longer
than its positional table: for the tests of loading it and of exploring it on the pages."""

from __future__ import annotations

from explorer.core.exports import checkpoint_bytes
from explorer.core.settings import Settings
from explorer.text.i18n import set_lang
from explorer.training.run import ModelKey, build_model_for
from explorer.training.task import task_for

LONG_DIGITS = "3 1 4 1 5 9 2 6 5 3 5 8"  # 12 tokens: more than the export's 11 positions
LONG_CHINESE = "我今天在图书馆里读了一本关于注意力的书"  # 19 characters


def copy_export() -> bytes:
    """The Train page's export of a copy model: its PE table has only task length + 2 rows."""
    set_lang("en")
    task, _ = task_for("copy", "digits", "")
    model = build_model_for(ModelKey.of(Settings(N=1, d_model=32, h=2, d_ff=64), task))
    assert model.config.max_len == task.max_len + 2 < len(LONG_DIGITS.split()) + 1
    assert model.config.max_len < len(LONG_DIGITS.split())
    return checkpoint_bytes(model, list(task.vocab.itos), {"task": "copy"})
