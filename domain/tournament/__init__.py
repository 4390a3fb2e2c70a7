"""Tournaments as pure rules (no I/O): the spec's validation, pairings and seat rotation, standings and tie-breaks.

The aggregate that records a tournament lives in service/tournament.py; who deals and starts each game of a
match comes from the game's own decider (`next_deal`, domain/rules.py). docs/tournaments.md says it in words.
"""
