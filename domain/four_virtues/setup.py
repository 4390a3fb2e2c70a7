"""The Four Virtues of Royalty set-up (FV-1, FV-5.3): two players, a target score — validated before any move."""

from __future__ import annotations

from dataclasses import dataclass

from ..kit.setup import Seated, options_object, seat_numbers
from ..players import individual_names
from ..rules import InvalidSetup


@dataclass(frozen=True)
class Setup(Seated):
    """A validated Four Virtues table."""

    names: tuple[str, ...]
    target: int = 300
    dealer: int | None = None  # the first round's dealer (else from the seed, label `dealer`)
    starter: int | None = None  # FV-5.3: means nothing here, kept as given

    def options(self) -> dict:
        """The options object of a record for this set-up."""
        return {"target": self.target}


def configure(options, players, dealer=None, starter=None) -> Setup:
    """Validate options and players (FV-1.1, FV-1.2, FV-5.4); raises InvalidSetup naming the field."""
    options = options_object(options, ("target",), "Four Virtues")
    target = options.get("target", 300)
    if not isinstance(target, int) or isinstance(target, bool) or not 100 <= target <= 1000:
        raise InvalidSetup("options.target", "must be an integer from 100 to 1000 (FV-1.2)")
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidSetup("players", "The Four Virtues needs a list of exactly 2 players (FV-1.1)")
    names = individual_names(players, "The Four Virtues is played by two individuals: no teams (FV-5.4)")
    seat_numbers(2, {"dealer": dealer, "starter": starter}, listed=True)
    return Setup(tuple(names), target, dealer, starter)
