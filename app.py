"""Transformer Explorer: build the encoder-decoder Transformer live and look inside it.

Entry point: page config, the shared sidebar (its widgets live here so that switching
pages never resets them), and navigation over the files in pages/.
"""

import streamlit as st
import torch

from explorer.ui import page_context, render_sidebar

# One intra-op thread per forward pass: on a 2-core server shared by a class, sessions run
# in parallel threads, and more torch threads per pass only make them fight (README).
torch.set_num_threads(1)

st.set_page_config(
    page_title="Transformer Explorer", page_icon=":material/neurology:", layout="wide"
)

PAGES = [
    st.Page("pages/model.py", title="Model", icon=":material/account_tree:", default=True),
    st.Page("pages/embeddings.py", title="Embeddings & positions", icon=":material/waves:"),
    st.Page("pages/masks.py", title="Masks", icon=":material/grid_on:"),
    st.Page("pages/attention.py", title="Attention", icon=":material/visibility:"),
    st.Page("pages/shapes.py", title="Shapes", icon=":material/straighten:"),
    st.Page("pages/train.py", title="Train & decode", icon=":material/model_training:"),
]

page = st.navigation(PAGES)
with page_context(render_sidebar()):
    page.run()
