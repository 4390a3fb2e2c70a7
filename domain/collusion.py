"""Collusion screening: does a pair of seats play as if each saw the other's hand? (issue 37 part 3,
docs/fairplay.md "Collusion"). Pure, no I/O.

REFEREE ONLY, like domain.screening: it reads a seat's TRUE hand. Two seats who share their hands (a phone under the
table) each choose moves that do well given the partner's cards. The pair test asks that of every decision of each
of the two seats, with the per-player screen's rank construction (domain.fairplay.world_rank) narrowed to the
partner's hand:

- the partner's TRUE hand, and `worlds` hands drawn for the partner from the deciding seat's own knowledge alone;
- for each hand, `per_hand` full states "told" that hand: drawn from the deciding seat's knowledge with the partner
  holding exactly those cards and everything else (the other hands, the stock) drawn again (the game's sampler with
  `hands=`, spec `Analysis.hand`);
- the played move's advantage in each state (its value minus the mean of the candidates', the same rollout streams
  for the j-th state of every hand), its mean over a hand's states, and the true hand's rank among the W + 1
  (`rank_among`).

Why the rank is uniform under honest play: an honest seat's move depends on the hidden cards only through what it
saw. Given what it saw, its partner's true hand is one more draw from the hands it could not tell apart (the
assumption every rank test here rests on: the sampler draws what the seat could believe), just as each of the W
drawn hands is, and each hand's states are then drawn the same way given it. So the W + 1 hands with their states are
exchangeable, made independently of the move and judged by one procedure on the same random numbers: the true hand's
advantage is equally likely to be any of the W + 1. Its mid-rank share has mean 1/2 and the exact variance
`rank_among` gives, whatever the seat's skill. A seat who knows its partner's cards plays moves that do better where
the partner holds them, and its shares run high. Both seats' decisions (a judged with b's hand, b with a's) over the games they sat together make
one rank test (domain.fairplay.rank_test, each game one cluster, so the two directions of one game may move
together); the pair is referred at domain.screening.REFER and goes to a panel at PANEL, as a player is.

What it cannot see: a pair who share their hands but do not act on them, and help that is not a choice of moves
informed by the cards (soft play between partners, chip dumping); the sampler's own limits (it does not read the
other seats' choices as evidence of their cards) are the per-player screen's, measured in docs/fairplay.md.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from .analysis import NotAnalysable, analysis_of
from .fairplay import advantage, dealer, perfect_information_decision, rank_among, rank_test_of
from .screening import REFER, SAMPLES, WORLDS
from .spec import GameSpec

PER_HAND = 1  # worlds told each hand (the true one and each drawn one): their mean advantage is the hand's


def _hand_reader(spec: GameSpec):
    a = analysis_of(spec)
    if a.hand is None:
        raise NotAnalysable(f"{spec.title} has no pair test (its analysis declares no `hand`)")
    return a


def drawer(spec: GameSpec, setup: Any, seat: int, seen: list[dict], hands: dict | None = None, infer: bool = True):
    """rng -> one full state drawn from `seat`'s knowledge `seen`, with `hands` ({seat: cards}) held as given (the
    game's sampler, its knowledge read once where the game splits fold and deal, weighed by the game's opponent model
    where it has one and `infer`, as the screen's worlds are: domain.fairplay.dealer); None or {}: no hand told."""
    a = analysis_of(spec)
    told = {"hands": hands} if hands else {}
    if told:
        _hand_reader(spec)
    if a.fold is not None:
        return dealer(a, a.fold(setup, seat, seen, **told), infer)
    return lambda rng: a.sample(setup, seat, seen, rng, **told)


def partner_hand(spec: GameSpec, state: Any, partner: int) -> list:
    """REFEREE ONLY: the cards `partner` holds in the TRUE `state` (the game's `Analysis.hand`)."""
    return _hand_reader(spec).hand(state, partner)


def pair_decision(spec: GameSpec, setup: Any, seat: int, seen: list[dict], move: dict, state: Any, partner: int,
                  seed: str, ordinal: int, worlds: int = WORLDS, samples: int = SAMPLES,
                  per_hand: int = PER_HAND, glance: bool = False) -> tuple[float, float, tuple[int, ...]] | None:
    """One decision of `seat` judged against `partner`'s TRUE hand (read from the true `state`): the (share,
    variance, support) of the played move's advantage with that hand among its advantages with `worlds` hands drawn
    from the seat's own knowledge (see the module doc), or None when the decision is not analysed (one candidate, or
    a move beside the turn's choice). Each hand's advantage is the mean over `per_hand` worlds told that hand, the rest drawn again in
    each, `samples` rollouts a candidate in each (the j-th world of every hand on the same rollout streams);
    `glance`: each candidate judged by the game's glance instead, where it has one (the screen)."""
    a = _hand_reader(spec)
    base = f"arbiter-pair|{seed}|{ordinal}|{partner}"
    played = {k: v for k, v in spec.codec.format_move(move).items() if k != "seat"}

    def judged(hand: list, tag: str) -> float | None:
        draw = drawer(spec, setup, seat, seen, {partner: hand})
        total = 0.0
        for j in range(per_hand):
            rows = perfect_information_decision(spec, draw(random.Random(f"{base}|{tag}|{j}")), seat, move,
                                                f"{seed}|{j}", ordinal, samples, glance)
            if rows is None:
                return None
            total += advantage(rows, played)
        return total / per_hand

    true = judged(a.hand(state, partner), "told")
    if true is None:
        return None
    values = [true]
    own = drawer(spec, setup, seat, seen)
    for w in range(worlds):
        value = judged(a.hand(own(random.Random(f"{base}|hand|{w}")), partner), f"world|{w}")
        values.append(true if value is None else value)
    return rank_among(values)


def pairs_together(tables: list[list[str]]) -> list[tuple[str, str]]:
    """Every pair of players who sat at one table together (each pair once, names in order): the pairs a report
    tests, from the players of each game."""
    return sorted({tuple(sorted(p)) for table in tables for p in combinations(set(table), 2)})


def pair_line(pair: tuple[str, str], verdicts: list[dict], threshold: float = REFER) -> dict:
    """A pair's line: decisions judged (both directions: each seat's against the other's hand), the mean share
    (honest: 0.5), the one-sided p-value of the rank test over them with each game one cluster (`verdicts`:
    ``{"rank", "rank_variance", "game"}``), and whether it is at or below `threshold` (referred)."""
    ranks = [v["rank"] for v in verdicts]
    p = rank_test_of(verdicts)
    return {"pair": list(pair), "decisions": len(ranks),
            "rank_mean": round(sum(ranks) / len(ranks), 4) if ranks else None, "p_value": p,
            "threshold": threshold, "referred": bool(ranks) and p <= threshold}
