"""The Four Virtues' decider: validate a move against FV-1..FV-5 and say what happened, as events.

`step` raises what the one judge of legality, `legality.refusal`, finds and then only applies the move (the
same judge `moves.legal_moves` lists by); scoring the round, the next deal and the win follow inside the decision.
"""

from __future__ import annotations

from ..cards import format_card
from ..kit.decider import decide_by, emitter, judged, opening_outcomes
from ..randomness import Chance, OutcomeMismatch
from ..rules import RuleViolation
from . import clauses
from .codec import pack
from .legality import refusal
from .setup import Setup
from .state import FINAL, State, apply


def _deal_event(round_: int, dealer: int, chance: Chance) -> dict:
    order = chance.shuffle(f"deal:{round_}", pack())
    return {"type": "dealt", "round": round_, "dealer": dealer, "order": order}


def start(setup: Setup, chance: Chance) -> list[dict]:
    """FV-1.2, FV-1.3: the first dealer (from the seed unless given) and round 1's deal."""
    with opening_outcomes():
        dealer = setup.dealer if setup.dealer is not None else chance.randbelow("dealer", 2)
        return [_deal_event(1, dealer, chance)]


_emit = emitter(apply)


def _play(s: State, events: list[dict], move: dict, chance: Chance) -> None:
    """What a legal move makes happen: its own events, then the end of the round where it ends it (FV-4.1)."""
    kind, seat = move["type"], move["seat"]
    if kind == "forced_discard":
        _emit(s, events, {"type": "forced_discarded", "seat": seat, "cards": list(move["cards"])})
    elif kind == "draw":
        _draw(s, events, seat, move)
    elif kind == "discard":
        final = s.phase == FINAL
        _emit(s, events, {"type": "discarded", "seat": seat, "cards": list(move["cards"])})
        if not s.hands[seat] or final:
            _end_round(s, events, chance, "empty" if not s.hands[seat] else "stock")
    elif kind == "done":
        _emit(s, events, {"type": "done", "seat": seat})
        _end_round(s, events, chance, "stock")
    else:
        if kind == "meld":
            _meld(s, events, seat, move)
        elif kind == "add":
            _add(s, events, seat, move)
        if not s.hands[seat]:  # FV-4.1: emptying the hand by melding or adding ends the round at once
            _end_round(s, events, chance, "empty")


step = judged(refusal, _play, apply)
decide = decide_by(step)


def _draw(s: State, events: list[dict], seat: int, move: dict) -> None:
    if move["source"] == "discard":
        _emit(s, events, {"type": "drew", "seat": seat, "source": "discard", "cards": [s.discard[-1]]})
    else:
        _emit(s, events, {"type": "drew", "seat": seat, "source": "stock", "cards": list(s.stock[:move["count"]])})


def _meld(s: State, events: list[dict], seat: int, move: dict) -> None:
    cards, face = move["cards"], move.get("face")
    low = move.get("lowered")
    lowered = None if low is None else (low["card"], low["rank"])
    numbers = len(cards)
    event = {"type": "melded", "seat": seat, "cards": list(cards), "face": face,
             "lowered": None if lowered is None else {"card": lowered[0], "rank": lowered[1]}}
    force = move.get("force")
    if force is not None:
        event["force"] = force
    draw = move.get("draw")
    if draw is not None:
        event["draw"] = draw
    event["points"] = clauses.meld_points(clauses.Meld(tuple(cards), face, seat, (seat,) * numbers, lowered, numbers), seat)
    opponent = 1 - seat
    owed = 0
    if force:
        owed = min(force, len(s.hands[opponent]))
    event["owed"] = owed
    _emit(s, events, event)
    if draw:
        _emit(s, events, {"type": "drew", "seat": seat, "source": "stock", "cards": list(s.stock[:draw]), "spades": True})
    if not s.hands[seat] and s.owed is not None:  # the melder emptied the hand: the round ends, the force lapses
        s.owed = None
        events[-1 if not draw else -2]["owed"] = 0


def _add(s: State, events: list[dict], seat: int, move: dict) -> None:
    cards, k = move["cards"], move["meld"]
    meld = s.melds[k]
    grown = meld._replace(cards=meld.cards + tuple(cards), contributors=meld.contributors + (seat,) * len(cards))
    points = sum(line.points for line in clauses.meld_lines(grown)[len(meld.cards):])
    _emit(s, events, {"type": "added", "seat": seat, "meld": k, "cards": list(cards), "points": points})


def _end_round(s: State, events: list[dict], chance: Chance, by: str) -> None:
    """FV-4: score the round; the game ends once a player reaches the target (the higher wins, a tie plays on)."""
    points = [clauses.round_points(s.melds, seat) for seat in range(2)]
    scores = [s.scores[seat] + points[seat] for seat in range(2)]
    lines = [{"meld": k, "card": line.card, "seat": line.seat, "added": line.added, "virtue": line.virtue,
              "points": line.points} for k, meld in enumerate(s.melds) for line in clauses.meld_lines(meld)]
    _emit(s, events, {"type": "round_ended", "round": s.round, "by": by, "points": points, "scores": scores,
                      "lines": lines})
    target = s.setup.target
    reached = [seat for seat in range(2) if scores[seat] >= target]
    if reached and not (len(reached) == 2 and scores[0] == scores[1]):
        winner = max(reached, key=lambda seat: scores[seat])
        _emit(s, events, {"type": "won", "seats": [winner], "scores": scores})
        return
    try:
        _emit(s, events, _deal_event(s.round + 1, 1 - s.dealer, chance))
    except OutcomeMismatch as e:
        raise RuleViolation("FV-1.3", str(e)) from None


def final(s: State) -> dict:
    """The verdict's `final` object (contract §2)."""
    melds = []
    for cards, face, owner, contributors, lowered, _laid in s.melds:
        melds.append({"cards": [format_card(c) for c in cards], "face": None if face is None else format_card(face),
                      "owner": owner, "contributors": list(contributors),
                      "lowered": None if lowered is None else {"card": format_card(lowered[0]), "rank": "A23456789TJQK"[lowered[1]]}})
    return {
        "hands": {str(seat): [format_card(c) for c in s.hands[seat]] for seat in range(2)},
        "scores": {str(seat): s.scores[seat] for seat in range(2)},
        "round": s.round,
        "melds": melds,
        "stock_count": len(s.stock),
        "discard": [format_card(c) for c in s.discard],
    }
