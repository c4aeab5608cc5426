"""Pure figure functions: data in, `plotly.graph_objects.Figure` out, never `st.*`."""
