"""Small Battle's decider: validate a move against SB-1..SB-4 and say what happened, as events.

Legality has one judge, `refusal`, in SB-4.2's order: any move after the win (SB-3.1); say;
arrange (already arranged, then the formation, SB-1.3); strike (both arranged, the seat to move,
a position in 0..7, one not yet removed: SB-2.1). `step` raises what it finds, then applies the
move; `legal_moves` lists the strikes it lets pass. The engine's draw before each strike and the
win follow inside the decision.
"""

from __future__ import annotations

from itertools import permutations
from typing import Iterator

from ..kit.decider import decide_by, emitter, judged, opening_outcomes
from ..randomness import Chance
from ..rules import InvalidSetup, RuleViolation
from . import clauses
from .codec import PILE, first_player, formation_card, format_card, pack
from .setup import Setup
from .state import State, apply

_emit = emitter(apply)


def start(setup: Setup, chance: Chance) -> list[dict]:
    """SB-1.2 and SB-1.4: the first player by high card (unless `starter` is given), the battle pile shuffled."""
    with opening_outcomes():
        first = None
        if setup.starter is not None:
            starter = setup.starter
        else:
            first = chance.shuffle("first", pack(setup))
            starter = first_player(first)
            if starter is None:
                raise InvalidSetup("outcomes", "the high-card draw ties through all 26 pairs (SB-4.3)")
        pile = chance.shuffle("pile", list(PILE))
    return [{"type": "started", "starter": starter, "first": first, "pile": pile}]


def _play(s: State, events: list[dict], move: dict, chance: Chance) -> None:
    """What a legal arrangement or strike makes happen (SB-1.3, SB-2)."""
    seat = move["seat"]
    if move["type"] == "arrange":
        formation = tuple(int(r) for r in move["formation"])
        _emit(s, events, {"type": "arranged", "seat": seat, "formation": list(formation),
                          "commitment": clauses.commitments(chance, seat, formation)})
        if s.arranged:  # SB-2.1: the first striker's draw
            _emit(s, events, {"type": "drew", "seat": s.to_act, "card": s.pile[0]})
    else:
        _strike(s, events, seat, move["position"])


def refusal(s: State, move: dict) -> RuleViolation | None:
    """Why the rules refuse `move` now (SB-4.2's order), or None for a legal move: the one judge, read by `step`
    and by `legal_moves`."""
    if s.outcome is not None:
        return RuleViolation("SB-3.1", "the game is over: no further moves")
    kind, seat = move["type"], move["seat"]
    if kind == "say":
        return None
    if kind == "arrange":
        if s.formations[seat] is not None:
            return RuleViolation("SB-1.3", "your formation is set for the whole game: you arranged already")
        problem = clauses.formation_problem(move["formation"])
        return RuleViolation("SB-1.3", problem) if problem else None
    return _strike_refusal(s, seat, move["position"])


def _strike_refusal(s: State, seat: int, position: int) -> RuleViolation | None:
    """SB-2.1: both formations set, the seat to strike, a position in 0..7 not yet removed."""
    if not s.arranged:
        return RuleViolation("SB-2.1", "no strike before both formations are set")
    if seat != s.to_act:
        return RuleViolation("SB-2.1", f"not your turn: seat {s.to_act} is to strike")
    if not 0 <= position < 8:
        return RuleViolation("SB-2.1", "a position is one of 0..7")
    if position in s.removed[1 - seat]:
        return RuleViolation("SB-2.1", f"position {position} was removed already: name a remaining one")
    return None


step = judged(refusal, _play, apply)
decide = decide_by(step)


def _strike(s: State, events: list[dict], seat: int, position: int) -> None:
    owner = 1 - seat
    card, rank = s.drawn, s.formations[owner][position]
    if clauses.strike_value(card) is None:
        result = "revealed"  # SB-2.3: an Ace shows the card to both, the turn passes
    else:
        result = "removed" if clauses.removes(card, rank) else "held"
    _emit(s, events, {"type": "struck", "seat": seat, "position": position, "card": card, "rank": rank, "result": result})
    if not s.remaining(owner):  # SB-3.1: all eight removed; no card is drawn after the winning strike (SB-3.2)
        _emit(s, events, {"type": "won", "seat": seat})
        return
    _emit(s, events, {"type": "drew", "seat": s.to_act, "card": s.pile[0]})


def legal_moves(s: State) -> Iterator[dict]:
    """Every legal move (`say` aside): before both formations are set, every ordering of 2..9 for each seat still to
    arrange (8! = 40,320 each, generated lazily: each is a formation by SB-1.3's own definition, so they are not
    put to `refusal` one by one); then every position of 0..7 that `refusal`'s strike check lets pass."""
    if s.outcome is not None:
        return
    if not s.arranged:
        for seat in range(2):
            if s.formations[seat] is None:
                for order in permutations("23456789"):
                    yield {"seat": seat, "type": "arrange", "formation": list(order)}
        return
    for position in range(8):
        if _strike_refusal(s, s.to_act, position) is None:
            yield {"seat": s.to_act, "type": "strike", "position": position}


def final(s: State) -> dict:
    """The verdict's `final` object (contract §2)."""
    hands, remaining = {}, {}
    for seat in range(2):
        f = s.formations[seat]
        left = s.remaining(seat)
        hands[str(seat)] = [format_card(formation_card(seat, f[p])) for p in left] if f else []
        remaining[str(seat)] = {str(p): str(f[p]) for p in left} if f else {}
    return {
        "hands": hands,
        "remaining": remaining,
        "revealed": {str(seat): list(s.revealed[seat]) for seat in range(2)},
        "drawn": None if s.drawn is None else format_card(s.drawn),
        "pile": [format_card(c) for c in s.pile],
    }
