"""The fair-deal check (contract §4), for any game: every random step decided again from the revealed seed.

The opening and each move are decided again by the game's own decider (service.verification.redecision), with a
chance that hands out the outcomes the store holds (so play follows the stored line) and checks each against what the
seed alone gives for the same cards. `consistent` says whether the stored game agrees with its revealed seed (an
integrity check); `fair` says more: consistent, and dealt by arbiter from a seed it drew (a stacked deck or a
creator's seed is provenance, not tampering: consistent but never fair).
"""

from __future__ import annotations

from typing import Any

from domain.game import Game

from .decoded import DecodedGame
from domain.games import decider_for
from domain.randomness import commitment

PENDING = "pending: the seed is revealed when the game ends"
FALLBACK = {"fair": False, "consistent": False, "stacked": None, "shuffles": []}  # a deal that could not be checked


class DealCheck:
    """The deal's report, built as the re-decision goes (`start`, then `decided` for each decision it hands over,
    then `report`)."""

    def __init__(self, decoded: DecodedGame):
        self.decoded = decoded
        self.created = created = decoded.rows[0].event
        self.revealed = decoded.revealed_seed
        self.out = {"commitment": created.commitment, "seed": self.revealed, "stacked": created.stacked,
                    "seed_given": created.seed_given, "fixed_outcomes": sorted(created.outcomes), "shuffles": [],
                    "fair": None, "consistent": None}
        self.problems: list[str] = []
        self.done = False

    def start(self) -> bool:
        """Whether the deal needs the re-decision: not while the seed is unrevealed, nor when it fails its commitment."""
        if self.revealed is None:
            self.out["status"] = PENDING
            self.done = True
        elif commitment(self.revealed) != self.created.commitment:
            self.out.update(fair=False, consistent=False, status="the revealed seed does not match the commitment")
            self.done = True
        else:
            decider_for(self.created.game)  # an unknown game cannot be decided again
        return not self.done

    def decided(self, decision: Any, chance: Any, error: Exception | None) -> None:
        """A decision with stored random outcomes, decided again: its shuffles and rolls against the seed's."""
        created, version = self.created, decision.version
        if error is not None:  # the stored line cannot be decided again: not the seed's game
            self.problems.append(f"version {version}: the stored move cannot be decided again ({type(error).__name__})")
        for label, ok in chance.checked:
            fixed = label in created.outcomes or (label == "dealer" and created.dealer is not None) \
                or (label == "starter" and created.starter is not None)
            self.out["shuffles"].append({"label": label, "version": version, "fixed_by_record": fixed,
                                         "verified": ok or fixed})
            if not ok and not fixed:
                self.problems.append(f"version {version}: {label} is not the seed's shuffle or roll")

    def report(self) -> dict:
        """The deal's report once every decision is decided."""
        if self.done:
            return self.out
        rows, first, problems = self.decoded.rows, self.decoded.first_reveal, self.problems
        reveal_at = rows[first].version  # rows come in version order: a later version is a later row
        if any(r.kind is Game.Rewound and r.version > reveal_at for r in rows[first + 1:]):
            problems.append(f"play resumed after a rewind once the seed had been revealed (version {reveal_at}): "
                            "every later draw was known in advance")
        return deal_verdict(self.out, self.created, problems)


def deal_verdict(out: dict, created: Any, problems: list[str]) -> dict:
    """The deal's conclusion: consistent and fair (or not), and the status that says why."""
    out["consistent"] = not problems
    out["fair"] = not problems and not created.stacked and not created.seed_given and not created.outcomes
    if problems:
        out["status"] = "; ".join(problems)
    elif created.stacked or created.outcomes:
        out["status"] = "consistent, but not a random deal: the record fixed the deck or shuffles (stacked game)"
    elif created.seed_given:
        out["status"] = "consistent, but the seed was chosen by the game's creator, not drawn by arbiter"
    else:
        out["status"] = "fair: the commitment and every shuffle match the revealed seed"
    return out
