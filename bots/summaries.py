"""A summarised legal-move entry made concrete: the choices it leaves open, taken at random.

The projections fold many moves into one entry (module docs of projections/<game>.py):
a take of some of a list of cards (`from`, `max`), a bid in a range (`min`, `max`), a forced
discard of some cards of the hand (`count`), a meld with a number of extra cards to force or draw
(`force_max`, `draw_max`), an arrangement of ranks (`ranks`). Any other entry is already a move.
"""

from __future__ import annotations

import random

from .base import SeatView


def random_move(view: SeatView, entry: dict, rng: random.Random) -> dict:
    """One move the entry allows, every open choice drawn uniformly from `rng`."""
    kind = entry["type"]
    if kind == "take" and "from" in entry:
        return view.move(entry, cards=rng.sample(entry["from"], rng.randint(0, entry["max"])))
    if kind == "bid" and "min" in entry:
        return view.move(entry, amount=rng.randint(entry["min"], entry["max"]))
    if kind == "forced_discard" and "count" in entry:
        return view.move(entry, cards=rng.sample(view.hand, entry["count"]))
    if "force_max" in entry:
        return view.move(entry, force=rng.randint(0, entry["force_max"]))
    if "draw_max" in entry:
        return view.move(entry, draw=rng.randint(0, entry["draw_max"]))
    if kind == "arrange" and "ranks" in entry:
        return view.move(entry, formation=rng.sample(entry["ranks"], len(entry["ranks"])))
    return view.move(entry)
