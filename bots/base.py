"""What every bot is: a seat's view in, a record move out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class SeatView:
    """Everything a bot is shown on its turn: the same data a seat's player gets, nothing more.

    `table` is the game's projection for this seat (its hand, the public table and its
    `legal_moves` in the projection's summarised form); `players` is the public list
    ``[{"seat", "name", "team"}]``.
    """

    game: str
    seat: int
    table: dict
    players: list = field(default_factory=list)
    options: dict = field(default_factory=dict)

    @classmethod
    def from_http(cls, view: dict) -> "SeatView":
        """The SeatView of a ``GET /games/{id}/view`` answer for a seat token."""
        return cls(view["game"], view["viewer"]["seat"], view["table"], view.get("players", []), view.get("options", {}))

    @property
    def legal_moves(self) -> list[dict]:
        """The seat's legal moves as its projection lists them (empty when it is not to act)."""
        return self.table.get("legal_moves") or []

    @property
    def hand(self) -> list[str]:
        """The seat's own cards (none in a game whose table shows no hand)."""
        return list(self.table.get("hand") or [])

    def move(self, entry: dict, **fields) -> dict:
        """A record move of this seat from a legal-move entry (minus summary keys) and extra fields."""
        summary = SUMMARY_KEYS.get(entry["type"], ())
        out = {"seat": self.seat, "type": entry["type"]}
        out.update({k: v for k, v in entry.items() if k != "type" and k not in summary})
        out.update(fields)
        return out


# Keys a projection adds to a legal-move entry to summarise many moves as one (not fields of the move), by type:
# a take from a list, a bid in a range, a forced discard, a meld's forced or drawn extras, an arrangement of ranks.
SUMMARY_KEYS = {"take": ("from", "max"), "bid": ("min", "max"), "forced_discard": ("count",),
                "meld": ("force_max", "draw_max"), "arrange": ("ranks",)}


class Bot(Protocol):
    """A player for one seat of one game; it may remember what its own views showed it."""

    kind: str

    def choose(self, view: SeatView) -> dict:
        """The move to make now (record shape, with `seat`); called only when the seat may act."""
        ...
