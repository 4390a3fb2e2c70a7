"""Tournaments: the facade section, the sealed referee tokens, the JSON Lines bundles."""
