"""Transformer Explorer: build the encoder-decoder Transformer live and look inside it.

Entry point: page config, the shared sidebar (its widgets live here so that switching
pages never resets them), and navigation over the files in pages/.
"""

import streamlit as st
import torch

from explorer.i18n import set_lang, t
from explorer.ui import load_url_state, page_context, render_sidebar

# One intra-op thread per forward pass: on a 2-core server shared by a class, sessions run
# in parallel threads, and more torch threads per pass only make them fight (README).
torch.set_num_threads(1)

st.set_page_config(
    page_title="Transformer Explorer", page_icon=":material/neurology:", layout="wide"
)

load_url_state()  # a shared link's settings, on the session's first run
set_lang(st.session_state.get("lang"))  # the interface language of this run

PAGES = [
    st.Page("pages/model.py", title=t("nav.model"), icon=":material/account_tree:",
            default=True, url_path="model"),
    st.Page("pages/embeddings.py", title=t("nav.embeddings"), icon=":material/waves:",
            url_path="embeddings"),
    st.Page("pages/masks.py", title=t("nav.masks"), icon=":material/grid_on:",
            url_path="masks"),
    st.Page("pages/attention.py", title=t("nav.attention"), icon=":material/visibility:",
            url_path="attention"),
    st.Page("pages/shapes.py", title=t("nav.shapes"), icon=":material/straighten:",
            url_path="shapes"),
    st.Page("pages/train.py", title=t("nav.train"), icon=":material/model_training:",
            url_path="train"),
]

page = st.navigation(PAGES)
with page_context(render_sidebar()):  # the sidebar also writes the view into the link
    page.run()
