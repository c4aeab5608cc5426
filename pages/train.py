"""Train & decode: teach a fresh model a toy task live, then watch it decode step by step.

The page reads as its table of contents: each section is drawn by a function of
`explorer/sections/train.py` (the task, training), `explorer/sections/decode.py` (decoding,
before and after, the schedule), `explorer/sections/film.py` (the attention film) or
`explorer/sections/experiment.py` (break a part and train it beside the correct model). The
trained model lives in this learner's st.session_state only; the untrained model of the
same key is shared, read-only.
"""

import streamlit as st

from explorer.sections.decode import decoding_section
from explorer.sections.experiment import experiment_section
from explorer.sections.film import film_section
from explorer.sections.frame import context
from explorer.sections.schedule import schedule_section
from explorer.sections.train import (
    how_training_works,
    read_task,
    start_early,
    task_section,
    training_section,
)
from explorer.text.i18n import t
from transformer import dates as D

st.title(t("train.title"))
st.markdown(t("train.intro", languages=len(D.LANGUAGES)))
how = st.expander(t("train.how_title"), expanded=False)  # filled once the task is known

ctx = context()
train_settings, task = read_task(ctx.settings.source)  # read once, for every section
request = start_early(ctx, train_settings, task)  # a Train click trains before the page draws
task_section(train_settings, task, ctx.settings.source)  # 1. the task
how_training_works(how, task)  # its numbers are the chosen task's
result = training_section(ctx, train_settings, task, request)  # 2. training
decoding_section(ctx, result, task)  # 3. decoding step by step, beam search; 4. before/after
film_section(ctx, result.trained)  # 5. the attention film: how attention formed
schedule_section(ctx, ctx.settings)  # 6. the schedule and label smoothing
experiment_section(ctx, train_settings, result, task)  # 7. break a part, train both
