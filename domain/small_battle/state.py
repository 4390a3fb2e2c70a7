"""Small Battle state and its fold: ``evolve(state, event)`` never validates, it only applies."""

from __future__ import annotations

from ..kit.state import (Folded, evolver, folder, nested_lists, nested_tuples, replaced, restore, setup_dump,
                         setup_load, snapshot, unchanged)
from ..rules import Outcome
from .setup import Setup


class State(Folded):
    """Everything the referee knows at one moment of a Small Battle game.

    Fields: setup, n; starter; to_act; formations (per seat: a tuple of 8 ranks by position, or None);
    commitments (per seat: 8 hex hashes, or None); removed and revealed (per formation owner: sorted
    tuples of positions); pile (top first) and drawn (the card drawn for the pending strike, or None);
    outcome.
    """

    def __repr__(self) -> str:
        return f"<Small Battle state to_act={self.to_act} drawn={self.drawn} removed={self.removed}>"

    def remaining(self, seat: int) -> list[int]:
        """The positions of a seat's formation still on the battlefield."""
        if self.formations[seat] is None:
            return []
        return [p for p in range(8) if p not in self.removed[seat]]

    @property
    def arranged(self) -> bool:
        """Whether both formations are set (SB-2.1)."""
        return all(f is not None for f in self.formations)


def initial_state(setup: Setup) -> State:
    """The table before the high-card draw."""
    s = State.__new__(State)
    s.setup, s.n = setup, setup.n
    s.starter = s.to_act = None
    s.formations, s.commitments = (None, None), (None, None)
    s.removed, s.revealed = ((), ()), ((), ())
    s.pile, s.drawn, s.outcome = (), None, None
    return s


def _started(s: State, e: dict) -> None:
    s.starter, s.to_act, s.pile = e["starter"], e["starter"], tuple(e["pile"])


def _arranged(s: State, e: dict) -> None:
    seat = e["seat"]
    s.formations = replaced(s.formations, seat, tuple(e["formation"]))
    s.commitments = replaced(s.commitments, seat, tuple(e["commitment"]))


def _drew(s: State, e: dict) -> None:
    s.drawn, s.pile = s.pile[0], s.pile[1:]


def _struck(s: State, e: dict) -> None:
    seat, position, result = e["seat"], e["position"], e["result"]
    owner = 1 - seat
    if result == "removed":
        s.removed = replaced(s.removed, owner, tuple(sorted(s.removed[owner] + (position,))))
    elif result == "revealed" and position not in s.revealed[owner]:
        s.revealed = replaced(s.revealed, owner, tuple(sorted(s.revealed[owner] + (position,))))
    s.pile, s.drawn = s.pile + (s.drawn,), None  # SB-2.2: the drawn card goes to the bottom
    s.to_act = seat if result == "removed" else owner


def _won(s: State, e: dict) -> None:
    s.outcome = Outcome("win", (e["seat"],), None)
    s.to_act = None


APPLY = {"started": _started, "arranged": _arranged, "drew": _drew, "struck": _struck, "won": _won, "said": unchanged}
apply = folder("Small Battle", APPLY)
evolve = evolver(apply)


_NESTED = ("formations", "commitments", "removed", "revealed")  # per seat: a tuple, or None
_OUTCOME = ("result", "seats")


def dump_state(s: State) -> dict:
    """The state as JSON-safe data (snapshots)."""
    return snapshot(s, setup_dump, _OUTCOME, dict.fromkeys(_NESTED, nested_lists))


def load_state(data: dict) -> State:
    """The inverse of dump_state."""
    return restore(State, data, lambda d: setup_load(Setup, d), _OUTCOME, dict.fromkeys(_NESTED, nested_tuples),
                   tuples=("pile",))
