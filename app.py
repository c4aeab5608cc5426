"""Transformer Explorer: build the encoder-decoder Transformer live and look inside it.

Entry point: page config, the shared sidebar (drawn here, before the page, so that switching
pages never resets it; its code is in explorer/sidebar.py), and navigation over pages/.
"""

import streamlit as st
import torch

from explorer.context import page_context
from explorer.i18n import set_lang, t
from explorer.links import load_url_state
from explorer.sidebar import render_sidebar

# One intra-op thread per forward pass: on a 2-core server shared by a class, sessions run
# in parallel threads, and more torch threads per pass only make them fight (README).
torch.set_num_threads(1)

load_url_state()  # a shared link's settings, on the session's first run
set_lang(st.session_state.get("lang"))  # the interface language of this run
# The browser tab's title, in the learner's language (set here, it names the tab on every page)
st.set_page_config(page_title=t("app.title"), page_icon=":material/neurology:", layout="wide")

# (file, text key of the title, icon, URL path): the six pages, in teaching order.
PAGES = [
    ("pages/model.py", "nav.model", ":material/account_tree:", "model"),
    ("pages/embeddings.py", "nav.embeddings", ":material/waves:", "embeddings"),
    ("pages/masks.py", "nav.masks", ":material/grid_on:", "masks"),
    ("pages/attention.py", "nav.attention", ":material/visibility:", "attention"),
    ("pages/shapes.py", "nav.shapes", ":material/straighten:", "shapes"),
    ("pages/train.py", "nav.train", ":material/model_training:", "train"),
]
pages = [st.Page(path, title=t(title), icon=icon, url_path=url) for path, title, icon, url in PAGES]
# Streamlit serves the default page at "/" only, so "/model" (a link a teacher types from
# the page's name) would show "Page not found". The default is therefore the Model page
# under another name, and /model is a page of its own; the menu below shows one entry.
home = st.Page(PAGES[0][0], title=t(PAGES[0][1]), icon=PAGES[0][2], url_path="home",
               default=True)
page = st.navigation([home, *pages], position="hidden")
with st.sidebar.container(key="nav"):
    for entry in pages:
        # the Model entry points at the page being shown, so it is highlighted on "/" too
        st.page_link(home if entry is pages[0] and page is home else entry)
st.sidebar.divider()
with page_context(render_sidebar()):  # the sidebar also writes the view into the link
    page.run()
