"""Batallion's stored events as a viewer may see them while the game is on (BA-1.2, BA-2.1, BA-2.2, BA-4.6).

`redact(kind, data, viewer, n)` takes an event's data as stored (cards as strings, without
its `type`) and keeps only what the viewer may see. The referee sees everything; once the
game is over the event log shows everything to everyone (projections.event_log decides).

- `dealt`: everyone sees the dealer, the hand size and sizes, the stock's size and the
  up-card (BA-2.1, face up); a seat also its own hand:
  ``{"dealer", "hand_size", "hand_sizes", "stock_count", "up_card", "hand"?}``.
- `drew`: a draw from the discard pile is public (the card lay face up); from the stock
  (acquisition or drawing back, BA-4.6) only the drawer sees the card; others see
  ``{"seat", "source", "refill"?}``.
- `reshuffled`: nobody but the referee sees the new stock's order; others see ``{"k", "count"}``.
- discards, bids and passes, attack turns, attacks, defences, chips moving, the end and
  table talk (PUBLIC_KINDS) are public; a kind not listed shows nothing (``{}``) to anyone
  but the referee, so a new event is private until someone decides otherwise.
"""

from __future__ import annotations

from ..kit import redactor, reshuffle_size, without
from ..viewers import Viewer

PUBLIC_KINDS = frozenset({
    "discarded", "bid", "passed", "attack_turn", "attacked", "defended", "chips_lost", "chips_paid", "ended", "said",
})


def drew_for(data: dict, viewer: Viewer, n: int) -> dict:
    """BA-2.2: a card drawn from the discard pile is seen by all; from the stock, by the drawer only."""
    if data["source"] == "discard" or viewer.is_seat(data["seat"]):
        return dict(data)
    return without(data, "card")


def dealt_for(data: dict, viewer: Viewer, n: int) -> dict:
    """BA-1.2 and BA-2.1 as a viewer sees them: sizes and the up-card; a seat also its own hand."""
    dealer, order, size = data["dealer"], data["order"], data["hand_size"]
    dealt = size * n
    out = {"dealer": dealer, "hand_size": size, "hand_sizes": [size] * n, "stock_count": len(order) - dealt - 1,
           "up_card": order[dealt]}
    if viewer.role == "seat":
        out["hand"] = [order[i] for i in range(dealt) if (dealer + 1 + i) % n == viewer.seat]
    return out


redact = redactor(PUBLIC_KINDS, {"dealt": dealt_for, "drew": drew_for, "reshuffled": reshuffle_size})
