"""El Royale (rules/el-royale.md, clauses ER-1..ER-7), editions `revised` and `classic`, as a pure decider."""

from .decider import decide, final, legal_moves, start, step
from .setup import Setup, configure
from .state import State, evolve, initial_state

GAME = "el-royale"
MOVE_TYPES = frozenset({"attack", "throw_in", "beat", "concede", "pass", "claim", "take", "show", "say"})
CARD_MOVES = frozenset({"attack", "throw_in", "beat", "show"})
OPTIONAL_CARD_MOVES = frozenset({"take"})
PREFIX = "ER"


def outcome(state: State):
    """How the game stands: an Outcome (result None while in progress)."""
    from ..rules import Outcome

    return state.outcome or Outcome(None)


__all__ = ["GAME", "MOVE_TYPES", "CARD_MOVES", "Setup", "State", "configure", "decide", "evolve", "final",
           "initial_state", "legal_moves", "outcome", "start", "step"]

# The move each move-event records (export turns events back into a record).
_MOVE_EVENTS = {"attacked": "attack", "threw_in": "throw_in", "beat": "beat", "passed": "pass", "conceded": "concede",
                "claimed": "claim", "took": "take", "showed": "show", "said": "say"}


def move_of(event: dict) -> dict | None:
    """The player's move an event records, or None for an automatic step (deal, draw, reshuffle, ...)."""
    kind = _MOVE_EVENTS.get(event["type"])
    if kind is None:
        return None
    move = {"seat": event["seat"], "type": kind}
    if "cards" in event:
        move["cards"] = list(event["cards"])
    if "text" in event:
        move["text"] = event["text"]
    return move
