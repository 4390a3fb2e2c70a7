"""The Four Virtues' state and its fold: ``evolve(state, event)`` never validates, it only applies."""

from __future__ import annotations

from ..kit.state import (Folded, evolver, folder, nested_lists, nested_tuples, replaced, restore, setup_dump,
                         setup_load, snapshot, unchanged)
from ..rules import Outcome
from .clauses import Meld
from .setup import Setup

DRAW, PLAY, FINAL, OVER = "draw", "play", "final", "over"


class State(Folded):
    """Everything the referee knows at one moment of a Four Virtues game.

    Fields: setup, n; round; dealer; turn (the seat whose turn it is); phase (draw, play, final —
    the stock ran out this turn —, over); owed ((seat, count) of a hearts forced discard, or None);
    hands (sorted tuples); stock (next card first); discard (bottom first); melds (`clauses.Meld`); scores (totals of finished rounds); rounds (each finished
    round's points per seat, in order); outcome.
    """

    def __repr__(self) -> str:
        return f"<Four Virtues state round={self.round} turn={self.turn} phase={self.phase}>"


def initial_state(setup: Setup) -> State:
    s = State.__new__(State)
    s.setup, s.n = setup, 2
    s.round, s.dealer, s.turn, s.phase, s.owed = 0, None, None, DRAW, None
    s.hands, s.stock, s.discard, s.melds = ((), ()), (), (), ()
    s.scores, s.rounds, s.outcome = (0, 0), (), None
    return s


def _take(s: State, seat: int, cards) -> None:
    gone = set(cards)
    s.hands = replaced(s.hands, seat, tuple(c for c in s.hands[seat] if c not in gone))


def _give(s: State, seat: int, cards) -> None:
    s.hands = replaced(s.hands, seat, tuple(sorted(s.hands[seat] + tuple(cards))))


def _dealt(s: State, e: dict) -> None:
    """FV-1.3 R: the non-dealer gets positions 0, 2, .. 18, the dealer 1, 3, .. 19; 20 is turned up."""
    order, dealer = e["order"], e["dealer"]
    hands = [None, None]
    hands[1 - dealer] = tuple(sorted(order[0:20:2]))
    hands[dealer] = tuple(sorted(order[1:20:2]))
    s.hands, s.discard, s.stock = tuple(hands), (order[20],), tuple(order[21:])
    s.round, s.dealer, s.turn, s.phase, s.owed, s.melds = e["round"], dealer, 1 - dealer, DRAW, None, ()


def _drew(s: State, e: dict) -> None:
    seat, cards = e["seat"], e["cards"]
    if e["source"] == "discard":
        s.discard = s.discard[:-1]
    else:
        s.stock = s.stock[len(cards):]
    _give(s, seat, cards)
    s.phase = FINAL if not s.stock else PLAY


def _melded(s: State, e: dict) -> None:
    seat, cards, face = e["seat"], tuple(e["cards"]), e.get("face")
    _take(s, seat, cards + ((face,) if face is not None else ()))
    low = e.get("lowered")
    lowered = None if low is None else (low["card"], "A23456789TJQK".index(low["rank"]) if isinstance(low["rank"], str) else low["rank"])
    s.melds = s.melds + (Meld(cards, face, seat, (seat,) * len(cards), lowered, len(cards)),)
    if e.get("owed"):
        s.owed = (1 - seat, e["owed"])


def _added(s: State, e: dict) -> None:
    seat, cards, k = e["seat"], tuple(e["cards"]), e["meld"]
    _take(s, seat, cards)
    m = s.melds[k]
    s.melds = replaced(s.melds, k, m._replace(cards=m.cards + cards, contributors=m.contributors + (seat,) * len(cards)))


def _forced_discarded(s: State, e: dict) -> None:
    _take(s, e["seat"], e["cards"])
    s.discard, s.owed = s.discard + tuple(e["cards"]), None


def _discarded(s: State, e: dict) -> None:
    seat = e["seat"]
    _take(s, seat, e["cards"])
    s.discard = s.discard + tuple(e["cards"])
    s.turn, s.phase = 1 - seat, DRAW


def _round_ended(s: State, e: dict) -> None:
    s.scores, s.owed = tuple(e["scores"]), None
    s.rounds = s.rounds + (tuple(e["points"]),)


def _won(s: State, e: dict) -> None:
    s.outcome = Outcome("win", tuple(e["seats"]), None, tuple(s.scores))
    s.phase = OVER


APPLY = {"dealt": _dealt, "drew": _drew, "melded": _melded, "added": _added, "forced_discarded": _forced_discarded,
         "discarded": _discarded, "done": unchanged, "round_ended": _round_ended, "won": _won, "said": unchanged}


apply = folder("Four Virtues", APPLY)
evolve = evolver(apply)
_OUTCOME = ("result", "seats", "scores")


def _melds_dump(melds: tuple) -> list:
    return [[list(m.cards), m.face, m.owner, list(m.contributors), None if m.lowered is None else list(m.lowered), m.laid]
            for m in melds]


def _melds_load(melds: list) -> tuple:
    return tuple(Meld(tuple(m[0]), m[1], m[2], tuple(m[3]), None if m[4] is None else tuple(m[4]), m[5]) for m in melds)


def dump_state(s: State) -> dict:
    """The state as JSON-safe data (snapshots)."""
    return snapshot(s, setup_dump, _OUTCOME, {"hands": nested_lists, "melds": _melds_dump, "rounds": nested_lists})


def load_state(data: dict) -> State:
    """The inverse of dump_state."""
    return restore(State, data, lambda d: setup_load(Setup, d), _OUTCOME,
                   {"hands": nested_tuples, "melds": _melds_load, "rounds": nested_tuples,
                    "owed": lambda owed: None if owed is None else tuple(owed)}, tuples=("stock", "discard", "scores"))
