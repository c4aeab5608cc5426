"""Train & decode: teach a fresh model a toy task live, then watch it decode step by step.

The page reads as its table of contents: each section is drawn by a function of
`explorer/train_view.py` (the task, training), `explorer/decode_view.py` (decoding,
before and after, the schedule), `explorer/film_view.py` (the attention film) or
`explorer/experiment_view.py` (break a part and train it beside the correct model). The
trained model lives in this learner's st.session_state only; the untrained model of the
same key is shared, read-only.
"""

import streamlit as st

from explorer.decode_view import decoding_section, schedule_section
from explorer.experiment_view import experiment_section
from explorer.film_view import film_section
from explorer.i18n import t
from explorer.page import context
from explorer.train_view import how_training_works, start_early, task_section, training_section
from transformer import dates as D

st.title(t("train.title"))
st.markdown(t("train.intro", languages=len(D.LANGUAGES)))
how = st.expander(t("train.how_title"), expanded=False)  # filled once the task is known

ctx = context()
start_early(ctx)  # a click on Train: the training starts before the page is drawn
train_settings, task = task_section(ctx.settings.source)  # 1. the task
how_training_works(how, task)  # its numbers are the chosen task's
result = training_section(ctx, train_settings, task)  # 2. training
decoding_section(ctx, result, task)  # 3. decoding step by step, beam search; 4. before/after
film_section(ctx, result.trained)  # 5. the attention film: how attention formed
schedule_section(ctx, ctx.settings)  # 6. the schedule and label smoothing
experiment_section(ctx, train_settings, result, task)  # 7. break a part, train both
