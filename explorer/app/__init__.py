"""Streamlit plumbing every page shares: the sidebar, links, the page frame and context,
charts, the shared caches, the model sources and the Train page's session state."""
