"""El Royale's stored events as a viewer may see them while the game is on (ER-2.2, ER-2.5, ER-7).

`redact(kind, data, viewer, n)` takes an event's data as stored (cards as strings, without
its `type`) and keeps only what the viewer may see. The referee sees everything; once the
game is over the event log shows everything to everyone (projections.event_log decides).

- `dealt`: a seat sees the dealer and its own four cards; others see the dealer, the hand
  sizes and the deck's size: ``{"dealer", "hand_sizes", "deck_count", "hand"?}``.
- `drew`: only the drawer sees the card; others see ``{"seat"}``.
- `reshuffled`: nobody but the referee sees the order; others see ``{"k", "count"}``.
- plays, shows, talk and every other kind listed in PUBLIC_KINDS are public; a kind not
  listed shows nothing (``{}``) to anyone but the referee, so a new event is private
  until someone decides otherwise.
"""

from __future__ import annotations

from domain.el_royale.setup import HAND_SIZE

from ..kit import redactor, reshuffle_size
from ..viewers import Viewer

PUBLIC_KINDS = frozenset({
    "battle_started", "attacked", "threw_in", "beat", "passed", "conceded", "claimed", "pile_discarded",
    "eliminated", "took", "laid_out_discarded", "showed", "said", "won", "drawn",
})


def drew_for(data: dict, viewer: Viewer, n: int) -> dict:
    """ER-3.9: a drawn card is seen by the drawer only; the others see who drew."""
    return dict(data) if viewer.is_seat(data["seat"]) else {"seat": data["seat"]}


def dealt_for(data: dict, viewer: Viewer, n: int) -> dict:
    """ER-2.1 as a viewer sees it: the dealer and sizes; a seat also its own four cards."""
    dealer, order = data["dealer"], data["order"]
    dealt = HAND_SIZE * n
    out = {"dealer": dealer, "hand_sizes": [HAND_SIZE] * n, "deck_count": len(order) - dealt}
    if viewer.role == "seat":
        out["hand"] = [order[i] for i in range(dealt) if (dealer + i) % n == viewer.seat]
    return out


redact = redactor(PUBLIC_KINDS, {"dealt": dealt_for, "drew": drew_for, "reshuffled": reshuffle_size})
