"""Pure Python training: tasks, recipes, one run, the server's hub and its worker
processes, decoding, break-a-part experiments and knock-outs."""
