"""The Streamlit app's support code, in layers: each package imports only the ones below it
(tests/test_layers.py checks this, and that no modules import each other in a circle).

    sections/   Streamlit: the parts of a page that pages/*.py call, one module per part
    app/        Streamlit: the sidebar, links, page frame and context, charts, shared caches
    state/      pure: the view (everything that decides what a learner sees) and its link
    classroom/  pure: the class store (codes, teacher key, the view a class follows,
                students, questions, answers) in SQLite or Redis
    training/   pure: tasks, one training run, the server's hub and workers, decoding,
                break-a-part experiments, knock-outs
    figures/    pure: data in, plotly figure out, one module per page
    core/       pure: settings, runs through the model, checkpoints, exports, introspection
    text/       the interface text in each language, and the glossary
    transformer/ (its own package, below all of these) is the model.
"""
