"""Pure Python the pages build on: settings, runs, checkpoints, exports, introspection."""
