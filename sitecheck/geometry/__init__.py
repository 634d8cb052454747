"""Vectorised geometry work: overlays by group, tiled surfaces, lots split by lot line, threads."""
