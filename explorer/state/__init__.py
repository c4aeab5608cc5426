"""The view: what a learner sees, declared once (view.py), and its link form (urlstate.py)."""
