"""Small Battle set-up (SB-1, SB-4.3): two players, no teams — validated before any move."""

from __future__ import annotations

from dataclasses import dataclass

from ..kit.setup import Seated, seat_numbers
from ..players import individual_names
from ..rules import InvalidSetup


@dataclass(frozen=True)
class Setup(Seated):
    """A validated Small Battle table."""

    names: tuple[str, ...]
    dealer: int | None = None  # SB-4.3: means nothing here, kept as given
    starter: int | None = None

    def options(self) -> dict:
        """The options object of a record for this set-up (none)."""
        return {}


def configure(options, players, dealer=None, starter=None) -> Setup:
    """Validate options and players (SB-1.1, SB-4.3); raises InvalidSetup naming the field."""
    if options not in (None, {}):
        if not isinstance(options, dict):
            raise InvalidSetup("options", "must be an object")
        raise InvalidSetup("options", f"Small Battle has no options, got {', '.join(sorted(map(str, options)))}")
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidSetup("players", "Small Battle needs a list of exactly 2 players (SB-1.1)")
    names = individual_names(players, "Small Battle is played by two individuals: no teams (SB-4.3)")
    seat_numbers(2, {"dealer": dealer, "starter": starter}, listed=True)
    return Setup(tuple(names), dealer, starter)
