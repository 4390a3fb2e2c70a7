"""Who is looking: a seat, a spectator (no token) or the referee (contract §3)."""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("seat", "spectator", "referee")


@dataclass(frozen=True)
class Viewer:
    """A viewer of a game: `role` is seat, spectator or referee; `seat` is set for a seat only."""

    role: str
    seat: int | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"viewer role {self.role!r}: expected one of {', '.join(ROLES)}")
        if (self.role == "seat") != (self.seat is not None):
            raise ValueError("a seat viewer names its seat, and only a seat viewer does")

    @classmethod
    def of_seat(cls, seat: int) -> "Viewer":
        """The viewer playing at `seat`."""
        return cls("seat", seat)

    @property
    def is_referee(self) -> bool:
        """Whether this viewer sees everything at any time."""
        return self.role == "referee"

    def is_seat(self, seat: int) -> bool:
        """Whether this viewer is the player at `seat`."""
        return self.role == "seat" and self.seat == seat

    def as_dict(self) -> dict:
        """Simple types for views."""
        return {"role": self.role, "seat": self.seat}


SPECTATOR = Viewer("spectator")
REFEREE = Viewer("referee")
