"""El Royale's legal moves, built from the parts of a move that the judge's predicates let pass.

`decider.refusal` is the one statement of legality; nothing here states a rule. Rather than judging each whole
candidate (a take position alone has up to ~100,000), each check of the judge is put once to the part of the move it
reads, and moves are built only from parts that passed:

- the game not over (ER-4.5) and the turn (`_turn_refusal`): the seat listed is the one to act, and the move types
  are those `decider.PHASES` (the table the judge reads) allows in its phase, in `_LISTS`' order;
- the cards of a play (`_cards_refusal`: at least one, none twice, each held): every play is a non-empty combination
  of distinct cards of the seat's hand, so this holds by construction;
- attack (ER-3.1): `clauses.one_rank` is asked once of the hand's cards of each rank; a non-empty part of a set of
  one rank is of one rank;
- throw-in (ER-3.7): `clauses.may_throw_in` is asked once of the hand's cards of the top card's rank (it reads the
  first card's rank: a set of any other rank fails it), and every part of a set that passes keeps its rank;
- beat (ER-3.4): classic, `clauses.can_beat_classic` is asked of each card of the hand, one card a beat by
  construction; revised, `clauses.one_rank` of the hand's cards of each rank from the top card's up
  (`can_beat_revised` fails a lower rank) and `clauses.can_beat_revised` of each of their sets (it reads which
  suits the set holds);
- take (ER-5.2): `takeable_refusal` is asked once of each card, `take_count_refusal` once of each size, and every
  combination of the cards that passed, of each size that passed, is listed (none twice by construction).

The order is fixed (the API view shows it and seeded self-play picks from it): the answer without cards first, then
card sets rank by rank, by size, in pack order. Card order within a move is free: legality never depends on it (the
last card becomes the top). tests/unit/test_el_royale_one_judge.py holds a move listed exactly when `refusal` lets
it pass, over random and brute-forced moves of random games of both editions.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterator

from ..cards import PACK, RANK_MASKS, SAME_RANK, cards_of, rank_bits, rank_of
from . import clauses
from .legality import PHASES, take_count_refusal, takeable_refusal
from .state import State


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move of the seat to act (say and show, open to every seat at any time, are not listed)."""
    if s.outcome is not None or s.to_act is None:
        return iter(())
    seat, lists = s.to_act, _LISTED[s.phase]
    if len(lists) == 1:  # attack, take: the one list as it is (a take's lazily), without a second generator around it
        return iter(lists[0](s, seat))
    return iter([move for listed in lists for move in listed(s, seat)])  # short lists: an answer and its plays


def _answer(kind: str) -> Callable[[State, int], list[dict]]:
    """The one move without cards of its type (concede, claim, pass)."""
    return lambda s, seat: [{"seat": seat, "type": kind}]


def _attacks(s: State, seat: int, whole: bool = False) -> list[dict]:
    """ER-3.1: every set of the hand's cards of a rank that is one rank (`whole`: the whole set of each rank)."""
    hand = s.hands[seat]
    out = []
    for rank_mask in _HELD_RANKS[rank_bits(hand)]:
        held = list(_OF_RANK[hand & rank_mask])
        if not clauses.one_rank(held):
            continue
        if whole:
            out.append({"seat": seat, "type": "attack", "cards": held})
        else:
            out.extend({"seat": seat, "type": "attack", "cards": cards} for cards in _subsets(held))
    return out


def _throw_ins(s: State, seat: int, whole: bool = False) -> list[dict]:
    """ER-3.7: every set of the hand's cards of the top card's rank, when may_throw_in lets them all pass."""
    top = s.pile[-1]
    held = list(_OF_RANK[s.hands[seat] & SAME_RANK[top]])
    if not held or not clauses.may_throw_in(held, top):
        return []
    return [{"seat": seat, "type": "throw_in", "cards": cards} for cards in ([held] if whole else _subsets(held))]


def _beats(s: State, seat: int, whole: bool = False) -> list[dict]:
    """ER-3.4: classic, each card of the hand that can_beat_classic, in pack order; revised, each set of the hand's
    cards of one rank, from the top card's rank up, that can_beat_revised (`whole`: the whole set of each rank, which
    can_beat_revised passes whenever it passes a part of it: it holds every suit the part holds)."""
    hand, top = s.hands[seat], s.pile[-1]
    if not s.revised:
        return [{"seat": seat, "type": "beat", "cards": [c]} for c in cards_of(hand) if clauses.can_beat_classic(c, top)]
    out = []
    top_rank = rank_of(top)
    for rank_mask in _HELD_RANKS[rank_bits(hand) >> top_rank << top_rank]:  # the ranks held from the top's up
        held = list(_OF_RANK[hand & rank_mask])
        if not clauses.one_rank(held):
            continue
        if whole:
            if clauses.can_beat_revised(held, top):
                out.append({"seat": seat, "type": "beat", "cards": held})
        else:
            out.extend({"seat": seat, "type": "beat", "cards": cards} for cards in _subsets(held)
                       if clauses.can_beat_revised(cards, top))
    return out


def whole_plays(s: State, kind: str) -> list[dict]:
    """Of the plays of `kind` (attack, throw_in, beat) that legal_moves lists for the seat to act, those naming every
    card it holds of their rank (a classic beat is one card: each of them), in legal_moves' order. Analysis' rollout
    player chooses among these: built by the same checks, they are legal by construction, so it applies them with
    `decider.fold_legal` without asking `refusal` again (tests/unit/test_el_royale_one_judge.py holds them listed)."""
    return _WHOLE[kind](s, s.to_act, True) if kind in PHASES[s.phase][1] else []


def answer(s: State, kind: str) -> dict:
    """The seat to act's move of `kind` without cards (pass, concede, claim; a take of nothing) as legal_moves lists
    it in this phase; raises ValueError when the phase lists none (a rollout never applies a move not listed)."""
    seat = s.to_act
    if kind not in PHASES[s.phase][1] or seat is None or s.outcome is not None:
        raise ValueError(f"no {kind} in phase {s.phase}")
    return {"seat": seat, "type": "take", "cards": []} if kind == "take" else {"seat": seat, "type": kind}


def _takes(s: State, seat: int) -> Iterator[dict]:
    """ER-5.2: every combination of the cards takeable_refusal passes, of each size take_count_refusal passes, the
    empty take first (lazily: there can be some 100,000)."""
    takeable = [c for c in PACK if takeable_refusal(s, c) is None]
    for size in range(len(takeable) + 1):
        if take_count_refusal(s, seat, size) is None:
            for cards in combinations(takeable, size):
                yield {"seat": seat, "type": "take", "cards": list(cards)}


def _subsets(cards: list[int]) -> list[list[int]]:
    """Every non-empty subset of a list of cards, as lists in its order."""
    return [list(c) for size in range(1, len(cards) + 1) for c in combinations(cards, size)]


def _of_rank() -> dict[int, tuple[int, ...]]:
    """cards_of for every set of cards of one rank (the empty one too), made once: the plays are listed rank by rank
    from these sets, a few times a battle in analysis' rollouts."""
    table = {}
    for rank_mask in RANK_MASKS:
        sub = rank_mask
        while True:
            table[sub] = tuple(cards_of(sub))
            if not sub:
                break
            sub = (sub - 1) & rank_mask
    return table


_OF_RANK = _of_rank()
# By the 13 bits of cards.rank_bits: the masks of the ranks held (RANK_MASKS' items), lowest rank first. The plays
# are listed rank by rank; this visits only the ranks a hand holds, not all thirteen.
_HELD_RANKS = tuple(tuple(RANK_MASKS[r] for r in range(13) if bits >> r & 1) for bits in range(1 << 13))


# The move types in the order legal_moves lists them (in each phase: the answer without cards first, as always shown).
_LISTS = (("concede", _answer("concede")), ("claim", _answer("claim")), ("pass", _answer("pass")),
          ("attack", _attacks), ("throw_in", _throw_ins), ("beat", _beats), ("take", _takes))
_WHOLE = {"attack": _attacks, "throw_in": _throw_ins, "beat": _beats}
# Each phase's lists: those of the move types PHASES allows in it (the table `refusal` reads), in that order.
_LISTED = {phase: tuple(listed for kind, listed in _LISTS if kind in allowed) for phase, (_, allowed) in PHASES.items()}
