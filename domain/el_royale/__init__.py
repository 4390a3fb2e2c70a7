"""El Royale (rules/el-royale.md, clauses ER-1..ER-7), editions `revised` and `classic`, as a pure decider."""

from .codec import (CARD_MOVES, MOVE_TYPES, OPTIONAL_CARD_MOVES, chance_of, check_deck, decode_event, encode_event,
                    format_card, format_move, pack, parse_card, parse_move)
from .auto_pass import forced_pass
from .decider import decide, final, fold_step, start, step
from .moves import legal_moves
from .replay_fast import fold_moves
from .setup import Setup, configure
from .state import State, evolve, initial_state


def to_act(state: State) -> tuple[int, ...]:
    """The seats that may make a move now (say and show aside): one seat, or none once over."""
    return () if state.outcome is not None or state.to_act is None else (state.to_act,)


def outcome(state: State):
    """How the game stands: an Outcome (result None while in progress)."""
    from ..rules import Outcome

    return state.outcome or Outcome(None)


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

from .state import dump_state, load_state  # noqa: E402  (snapshots)

# The clause behind each automatic or played event (audit entries cite it).
EVENT_CLAUSES = {
    "dealt": "ER-2.1", "battle_started": "ER-3.10", "attacked": "ER-3.1", "threw_in": "ER-3.7", "beat": "ER-3.4",
    "passed": "ER-3.3", "conceded": "ER-3.5", "claimed": "ER-3.8", "pile_discarded": "ER-3.8", "drew": "ER-3.9",
    "reshuffled": "ER-2.3", "eliminated": "ER-5.1", "took": "ER-5.2", "laid_out_discarded": "ER-5.2",
    "showed": "ER-7.2", "said": "ER-7.1", "drawn": "ER-4.4",
}


def clause_of(event: dict) -> str:
    """The rulebook clause that decided an event."""
    if event["type"] == "won":
        return "ER-4.1" if event["by"] == "win" else "ER-4.3"
    return EVENT_CLAUSES[event["type"]]


def disclosed(state: State, event: dict) -> tuple[dict[int, list[int]], list[int]]:
    """Who an event shows which cards to: ({seat: cards} privately, [cards] to everybody).

    A draw shows the card to the drawer; the deal each seat its hand; plays, shows and an
    eliminated hand are shown to all. Cards already public (the battle pile taken back) are
    not disclosed again; a reshuffle shows nothing.
    """
    from ..cards import cards_of

    t = event["type"]
    if t == "dealt":
        n, dealer, order = state.n, event["dealer"], event["order"]
        private: dict[int, list[int]] = {seat: [] for seat in range(n)}
        for i in range(4 * n):
            private[(dealer + i) % n].append(order[i])
        return private, []
    if t == "drew":
        return {event["seat"]: [event["card"]]}, []
    if t in ("attacked", "threw_in", "beat", "showed"):
        return {}, list(event["cards"])
    if t == "eliminated":
        return {}, cards_of(state.hands[event["seat"]])
    return {}, []
from .match import next_deal  # noqa: E402  (matches and tournaments)
