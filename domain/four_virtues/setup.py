"""The Four Virtues of Royalty set-up (FV-1, FV-5.3): two players, a target score — validated before any move."""

from __future__ import annotations

from dataclasses import dataclass

from ..players import individual_names
from ..rules import InvalidSetup


@dataclass(frozen=True)
class Setup:
    """A validated Four Virtues table."""

    names: tuple[str, ...]
    target: int = 300
    dealer: int | None = None  # the first round's dealer (else from the seed, label `dealer`)
    starter: int | None = None  # FV-5.3: means nothing here, kept as given

    @property
    def n(self) -> int:
        """Number of seats (always 2)."""
        return len(self.names)

    def options(self) -> dict:
        """The options object of a record for this set-up."""
        return {"target": self.target}

    def players(self) -> list[dict]:
        """The players list of a record for this set-up."""
        return [{"name": n} for n in self.names]


def configure(options, players, dealer=None, starter=None) -> Setup:
    """Validate options and players (FV-1.1, FV-1.2, FV-5.4); raises InvalidSetup naming the field."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise InvalidSetup("options", "must be an object")
    unknown = set(options) - {"target"}
    if unknown:
        raise InvalidSetup("options", f"unknown Four Virtues option(s): {', '.join(sorted(map(str, unknown)))}; known: target")
    target = options.get("target", 300)
    if not isinstance(target, int) or isinstance(target, bool) or not 100 <= target <= 1000:
        raise InvalidSetup("options.target", "must be an integer from 100 to 1000 (FV-1.2)")
    if not isinstance(players, list) or len(players) != 2:
        raise InvalidSetup("players", "The Four Virtues needs a list of exactly 2 players (FV-1.1)")
    names = individual_names(players, "The Four Virtues is played by two individuals: no teams (FV-5.4)")
    for field, value in (("dealer", dealer), ("starter", starter)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2):
            raise InvalidSetup(field, "must be a seat number, 0 or 1")
    return Setup(tuple(names), target, dealer, starter)
