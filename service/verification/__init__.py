"""Checking stored games: rows, hash chain, fair deal, evidence, replay, catalogue row; one game or all."""
