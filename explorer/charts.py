"""Drawing a figure in the page: PNG download names and presenter-mode sizes in one place.

Pages call `show_chart(fig, "attention_enc_L0", key=...)` instead of `st.plotly_chart`: the
plotly toolbar's camera button then saves `attention_enc_L0_tiny.png` (at twice the screen
resolution), and in presenter mode every font of the figure is enlarged for a projector.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from explorer.exports import download_name

PRESENTER_KEY = "presenter"  # the sidebar toggle's session-state key
PRESENTER_FONT = 20  # base font size of figures in presenter mode (plotly's default is 12)
PRESENTER_HEIGHT = 1.3  # figure heights are scaled by this in presenter mode


def presenter() -> bool:
    """Whether this session is in presenter mode."""
    return st.session_state.get(PRESENTER_KEY) is True


def show_chart(fig: go.Figure, name: str, *, key: str, where: Any = None,
               **kwargs: Any) -> None:
    """Draw `fig` in `where` (a container or column; default the page) with a PNG file name."""
    from explorer.ui import current_settings  # late import: no cycle at import time

    if presenter():
        fig = go.Figure(fig)  # a copy: the figure may come from a cache shared by sessions
        fig.update_layout(font_size=PRESENTER_FONT)
        if fig.layout.height:
            fig.update_layout(height=int(fig.layout.height * PRESENTER_HEIGHT))
    config = {
        "displaylogo": False,
        "toImageButtonOptions": {"format": "png", "scale": 2,
                                 "filename": download_name(name, current_settings(), "png")
                                 .removesuffix(".png")},
    }
    kwargs.setdefault("width", "stretch")
    (where or st).plotly_chart(fig, key=key, config=config, **kwargs)
