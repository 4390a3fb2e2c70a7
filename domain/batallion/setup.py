"""Batallion set-up (BA-1, BA-6.4): players, variants, chips — validated before any move."""

from __future__ import annotations

from dataclasses import dataclass

from ..kit.setup import Seated, options_object, seat_numbers
from ..players import individual_names
from ..rules import InvalidSetup

VARIANTS = ("five_six", "jokers", "blind", "guts", "scarcity")
CHIP_CHOICES = (15, 20)  # BA-1.1, five_six only


@dataclass(frozen=True)
class Setup(Seated):
    """A validated Batallion table."""

    names: tuple[str, ...]
    variants: tuple[str, ...] = ()
    chips: int = 10
    dealer: int | None = None
    starter: None = None

    def has(self, variant: str) -> bool:
        """Whether a variant is in play."""
        return variant in self.variants

    @property
    def packs(self) -> int:
        """BA-1.1: two packs, three with five_six."""
        return 3 if self.has("five_six") else 2

    @property
    def jokers(self) -> int:
        """BA-1.4: the jokers of the first two packs (four) with `jokers`, else none."""
        return 4 if self.has("jokers") else 0

    @property
    def hand_size(self) -> int:
        """BA-1.2: ten cards, seven with `guts`."""
        return 7 if self.has("guts") else 10

    @property
    def min_bid(self) -> int:
        """BA-3.2: at least 4, five_six 5."""
        return 5 if self.has("five_six") else 4

    @property
    def max_group(self) -> int:
        """BA-1.3: twins in the base game, triplets with five_six."""
        return 3 if self.has("five_six") else 2

    def options(self) -> dict:
        """The options object of a record for this set-up, canonical: `chips` always with five_six, never without."""
        out: dict = {"variants": list(self.variants)}
        if self.has("five_six"):
            out["chips"] = self.chips
        return out


def configure(options, players, dealer=None, starter=None) -> Setup:
    """Validate options and players (BA-1.1, BA-6.4); raises InvalidSetup naming the field."""
    options = options_object(options, ("variants", "chips"), "Batallion")
    variants = options.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise InvalidSetup("options.variants", f"must be a list of variant names from {', '.join(VARIANTS)}")
    for v in variants:
        if v not in VARIANTS:
            raise InvalidSetup("options.variants", f"unknown variant {v[:40]!r}: expected some of {', '.join(VARIANTS)} (BA-6.4)")
    if len(set(variants)) != len(variants):
        raise InvalidSetup("options.variants", "a variant is named twice (BA-6.4)")
    five_six = "five_six" in variants
    chips = 10
    if "chips" in options:
        if not five_six:
            raise InvalidSetup("options.chips", "chips may only be chosen with the five_six variant (BA-1.1, BA-6.4)")
        chips = options["chips"]
        if type(chips) is not int or chips not in CHIP_CHOICES:
            raise InvalidSetup("options.chips", "must be 15 or 20 (BA-1.1)")
    elif five_six:
        chips = 15
    low, high = (5, 6) if five_six else (3, 4)
    if not isinstance(players, list) or not low <= len(players) <= high:
        raise InvalidSetup("players", f"Batallion needs a list of {low} or {high} players"
                           + (" with five_six (BA-1.1)" if five_six else " (five_six: 5 or 6) (BA-1.1)"))
    names = individual_names(players, "Batallion is played by individuals: no teams (BA-6.4)")
    seat_numbers(len(names), {"dealer": dealer})
    if starter is not None:  # invalid, not ignored: a record naming a first attacker claims what BA-3/BA-4.1 decide
        raise InvalidSetup("starter", "Batallion has no starter: the high bidder (or the dealer, BA-3.3) attacks first (BA-4.1)")
    return Setup(tuple(names), tuple(variants), chips, dealer, None)
